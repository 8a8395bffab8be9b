"""The build's one addition to setup.cfg: the wheel carries the evaluate scripts and the Spaces' cards.

Each ``metrics/<name>/`` folder of the checkout (its script ``<name>.py`` and its cards) is copied into
the built package as ``ngrameval/evaluate_scripts/<name>/``, where :func:`ngrameval.metric_path` finds it,
so ``evaluate.load(ngrameval.metric_path("bleu"))`` works wherever the wheel is installed; each
``spaces/<name>/README.md`` (a Space's card, with its Hub front matter) as
``ngrameval/space_cards/<name>/README.md``, for ``ngrameval export-space``. The repository holds no copy: an
editable install keeps reading the checkout's ``metrics/`` and ``spaces/``, and an sdist carries both
itself so that a wheel built from it gets them too.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist

ROOT = Path(__file__).resolve().parent
METRICS = ROOT / "metrics"
SPACES = ROOT / "spaces"
SCRIPTS_PACKAGE = Path("ngrameval", "evaluate_scripts")
CARDS_PACKAGE = Path("ngrameval", "space_cards")


def space_cards():
    """The checkout's Space cards (``spaces/<name>/README.md``)."""
    cards = sorted(SPACES.glob("*/README.md"))
    if not cards:
        raise RuntimeError(f"{SPACES} holds no Space card (<name>/README.md)")
    return cards


def script_folders():
    """The checkout's metric folders that hold an evaluate script (``metrics/<name>/<name>.py``)."""
    if not METRICS.is_dir():
        raise RuntimeError(f"{METRICS} is missing: the wheel needs the evaluate scripts of the checkout's metrics/")
    folders = sorted(folder for folder in METRICS.iterdir() if (folder / f"{folder.name}.py").is_file())
    if not folders:
        raise RuntimeError(f"{METRICS} holds no evaluate script (<name>/<name>.py)")
    return folders


def copy_folder(source: Path, target: Path) -> None:
    """``source``'s files (scripts, cards), without caches or compiled files."""
    shutil.copytree(source, target, dirs_exist_ok=True, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", ".*"))


class BuildWithScripts(build_py):
    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install reads metrics/ from the checkout (ngrameval.metric_path)
        scripts, cards = Path(self.build_lib) / SCRIPTS_PACKAGE, Path(self.build_lib) / CARDS_PACKAGE
        for stale in (scripts, cards):  # a former build's files must not ship
            shutil.rmtree(stale, ignore_errors=True)
        for folder in script_folders():
            copy_folder(folder, scripts / folder.name)
        for card in space_cards():
            (cards / card.parent.name).mkdir(parents=True)
            shutil.copyfile(card, cards / card.parent.name / card.name)


class SdistWithScripts(sdist):
    def make_release_tree(self, base_dir, files):
        super().make_release_tree(base_dir, files)
        for folder in script_folders():
            copy_folder(folder, Path(base_dir) / "metrics" / folder.name)
        for card in space_cards():
            (Path(base_dir) / "spaces" / card.parent.name).mkdir(parents=True, exist_ok=True)
            shutil.copyfile(card, Path(base_dir) / "spaces" / card.parent.name / card.name)


setup(cmdclass={"build_py": BuildWithScripts, "sdist": SdistWithScripts})
