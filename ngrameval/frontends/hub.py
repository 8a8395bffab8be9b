"""Where the evaluate scripts and the Spaces' cards are, wherever ngrameval is installed, and the folders
``ngrameval export-metric`` and ``ngrameval export-space`` write for the Hugging Face Hub.

A checkout has them in ``metrics/<name>/`` and ``spaces/<name>/README.md``; a wheel carries them inside the
package (``evaluate_scripts/``, ``space_cards/``, copied by setup.py), so ``evaluate.load(metric_path("bleu"))``
works from any directory, offline. The Hub installs an exported folder's ``requirements.txt`` alone (only that
file is mounted) before it copies the folder in: so that file names registry packages only, and ngrameval itself
(pure Python) is copied beside ``app.py``.
"""

from __future__ import annotations

import configparser
import contextlib
import os
import re
import shutil
import sqlite3
from collections.abc import Sequence
from pathlib import Path

from ngrameval.errors import InputError

PACKAGE = Path(__file__).resolve().parents[1]
# The wheel's copy (written at build time), then a checkout's folder beside the package.
SCRIPT_FOLDERS = (PACKAGE / "evaluate_scripts", PACKAGE.parent / "metrics")
CARD_FOLDERS = (PACKAGE / "space_cards", PACKAGE.parent / "spaces")
# A metric's page each, and the leaderboard's (ngrameval.ui.<name>): named here, so that the pages import this
# module and not the other way round.
SPACE_NAMES = ("bleu", "nist", "rouge", "meteor", "cider", "coco_caption", "chrf", "gleu", "ter", "leaderboard")
# The Space of a metric or of the leaderboard: its app.py, the same two lines in spaces/<name>/app.py.
APP = '''"""ngrameval's {name} Space: `python app.py` serves it on http://127.0.0.1:7860 (the page: ngrameval.ui.{name})."""
from ngrameval.ui import serve

demo = serve("{name}", __name__)
'''
# Where an exported leaderboard Space keeps its board: beside app.py, which serves it.
BOARD_FOLDER = "board"
# The extras a Space installs besides "spaces": ROUGE's data (stop words, stemmer); the leaderboard runs every metric.
SPACE_EXTRAS: dict[str, Sequence[str]] = {"rouge": ("spaces", "rouge"), "leaderboard": ("spaces", "rouge")}
# The Debian packages (packages.txt, installed with apt) a Space needs: WordNet 3.0 for METEOR's nltk variant.
SPACE_PACKAGES: dict[str, Sequence[str]] = {"meteor": ("wordnet-base", "wordnet-sense-index")}
# What an exported copy of the package leaves out: caches, and every script and card a wheel's build adds.
NOT_EXPORTED = shutil.ignore_patterns("__pycache__", "*.pyc", ".*", "evaluate_scripts", "space_cards")
# What the Hub reads in a card's front matter: a Space's configuration; a metric is a Space tagged so.
SPACE_KEYS = ("title", "sdk", "sdk_version", "app_file")
METRIC_TAGS = ("evaluate", "metric")


def _folders(variable: str, defaults: Sequence[Path]) -> list[Path]:
    configured = os.environ.get(variable)
    return [Path(configured)] if configured else list(defaults)


def metric_path(name: str) -> str:
    """The folder of metric ``name``'s evaluate script, for ``evaluate.load``: ``$NGRAMEVAL_METRICS_DIR/<name>``
    when that variable is set, else the copy installed with the package, else a checkout's ``metrics/<name>``.

    >>> import evaluate
    >>> bleu = evaluate.load(metric_path("bleu"))
    >>> round(bleu.compute(predictions=["the cat sat on the mat"], references=[["the cat sat on the mat"]])["bleu"], 6)
    1.0
    """
    if not isinstance(name, str) or not name.isidentifier():
        raise InputError(f"metric name must be a metric's name such as 'bleu', got {name!r}")
    folders = _folders("NGRAMEVAL_METRICS_DIR", SCRIPT_FOLDERS)
    for folder in folders:
        if (folder / name / f"{name}.py").is_file():
            return str(folder / name)
    raise InputError(
        f"no evaluate script {name}/{name}.py in {' or '.join(map(str, folders))}; valid metrics: "
        f"{', '.join(script_names()) or 'none found'}"
    )


def script_names() -> list[str]:
    """The metrics that have an evaluate script (``metric_path`` finds each).

    >>> {"bleu", "rouge", "ter"} <= set(script_names())
    True
    """
    for folder in _folders("NGRAMEVAL_METRICS_DIR", SCRIPT_FOLDERS):
        names = sorted(p.name for p in folder.iterdir() if (p / f"{p.name}.py").is_file()) if folder.is_dir() else []
        if names:
            return names
    return []


def _front_matter(card: Path) -> str:
    """The YAML front matter of ``card`` (between its first two ``---`` lines), checked for what the Hub reads."""
    found = re.match(r"---\n(.*?)\n---\n", card.read_text(encoding="utf-8"), re.DOTALL)
    if not found:
        raise InputError(f"{card} has no front matter (the Hub reads the Space's configuration from it)")
    matter = found.group(1)
    missing = [key for key in SPACE_KEYS if not re.search(rf"^{key}:", matter, re.MULTILINE)]
    if missing:
        raise InputError(f"{card}'s front matter lacks {', '.join(missing)}")
    if not all(re.search(rule, matter, re.MULTILINE) for rule in (r"^sdk: *gradio *$", r"^app_file: *app\.py *$")):
        raise InputError(f"{card}'s front matter must say sdk: gradio and app_file: app.py")
    return matter


def _prepare(folder: str, force: bool) -> Path:
    target = Path(folder)
    if target.exists() and not target.is_dir():
        raise InputError(f"{target} exists and is not a folder")
    if (target / PACKAGE.name).resolve() == PACKAGE:
        raise InputError(f"{target} holds the ngrameval package the export copies; choose another folder")
    if target.is_dir() and any(target.iterdir()) and not force:
        raise InputError(f"{target} is not empty; choose an empty or new folder, or pass --force to write into it")
    return target


def _declared_requirements() -> tuple[list[str], dict[str, list[str]]]:
    """(install_requires, extras_require) of the ngrameval being run: setup.cfg's beside the package (a checkout),
    else the installed distribution's metadata (a wheel, which records setup.cfg's)."""
    setup_cfg = PACKAGE.parent / "setup.cfg"
    if setup_cfg.is_file():
        config = configparser.ConfigParser(interpolation=None)  # comment lines inside a value are dropped
        config.read(setup_cfg, encoding="utf-8")

        def lines(value: str) -> list[str]:
            return [line.strip() for line in value.splitlines() if line.strip()]

        return (
            lines(config["options"]["install_requires"]),
            {extra: lines(value) for extra, value in config["options.extras_require"].items()},
        )
    from importlib import metadata

    try:
        distribution = metadata.distribution(PACKAGE.name)
    except metadata.PackageNotFoundError:
        distribution = None
    if (
        distribution is None
        or Path(str(distribution.locate_file(f"{PACKAGE.name}/__init__.py"))).resolve() != PACKAGE / "__init__.py"
    ):
        raise InputError(
            f"cannot tell ngrameval's dependencies: no setup.cfg beside {PACKAGE} and no installed distribution of it"
        )
    base: list[str] = []
    extras: dict[str, list[str]] = {}
    for line in distribution.requires or ():
        requirement, _, marker = (part.strip() for part in line.partition(";"))
        extra = re.fullmatch(r'extra *== *"([^"]+)"', marker)
        if extra:  # how the metadata writes an extras_require entry
            extras.setdefault(extra.group(1), []).append(requirement)
        else:
            base.append(line)
    return base, extras


def registry_requirements(extras: Sequence[str] = ()) -> list[str]:
    """ngrameval's runtime dependencies and those of its ``extras``, pinned as setup.cfg pins them (from setup.cfg
    in a checkout, else the installed wheel's metadata): what an exported folder's ``requirements.txt`` lists.

    >>> lines = registry_requirements(["spaces"])
    >>> "numpy>=1.24" in lines and any(line.startswith("gradio==") for line in lines)
    True
    >>> registry_requirements(["space"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ngrameval.errors.InputError: unknown extra 'space' of ngrameval; valid extras: ...
    """
    base, declared = _declared_requirements()
    for extra in extras:
        if extra not in declared:
            raise InputError(f"unknown extra {extra!r} of ngrameval; valid extras: {', '.join(sorted(declared))}")
    return list(dict.fromkeys(base + [line for extra in extras for line in declared[extra]]))


def _write_space(target: Path, name: str, card: Path, script: Path | None) -> list[Path]:
    target.mkdir(parents=True, exist_ok=True)
    written = [target / "app.py", target / "README.md", target / "requirements.txt", target / PACKAGE.name]
    (target / "app.py").write_text(APP.format(name=name), encoding="utf-8")
    shutil.copyfile(card, target / "README.md")
    extras = SPACE_EXTRAS.get(name, ("spaces",))
    (target / "requirements.txt").write_text(
        f"# ngrameval's {name} page, as `ngrameval export-space` / `export-metric` wrote it. The Hub installs\n"
        "# this file before it copies the folder in, so it names registry packages only: ngrameval's dependencies\n"
        f"# and those of its extras {', '.join(extras)}; ngrameval itself is the copy in ngrameval/.\n"
        + "".join(f"{line}\n" for line in registry_requirements(extras)),
        encoding="utf-8",
    )
    shutil.rmtree(target / PACKAGE.name, ignore_errors=True)  # --force: no file of a former copy stays
    shutil.copytree(PACKAGE, target / PACKAGE.name, ignore=NOT_EXPORTED)
    if name in SPACE_PACKAGES:
        (target / "packages.txt").write_text(
            "".join(f"{package}\n" for package in SPACE_PACKAGES[name]), encoding="utf-8"
        )
        written.append(target / "packages.txt")
    if script is not None:
        shutil.copytree(
            script, target / "metrics" / name, dirs_exist_ok=True, ignore=shutil.ignore_patterns("__pycache__", "*.pyc")
        )
        written.append(target / "metrics" / name)
    return written


def export_metric(name: str, folder: str, force: bool = False) -> list[Path]:
    """Write metric ``name``'s Hub repository into ``folder`` and return the written paths: its evaluate script
    and cards (a metric on the Hub is a Space tagged ``evaluate``, ``metric``), and its page as :func:`export_space`
    writes it. The script is named after the folder, as ``evaluate.load(folder)`` looks for ``<folder's name>.py``
    (the Hub for ``<repository's name>.py``); its ``import ngrameval`` needs ngrameval installed, or this folder on
    ``sys.path`` (as in its Space).

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp()) / "hub-bleu"
    >>> {"README.md", "app.py", "hub-bleu.py", "ngrameval", "requirements.txt"} <= \\
    ...     {path.name for path in export_metric("bleu", folder)}
    True
    >>> export_metric("bleu", folder)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ngrameval.errors.InputError: ... is not empty; choose an empty or new folder, or pass --force to write into it
    """
    source = Path(metric_path(name))
    card = source / "README.md"
    tags = re.findall(r"^- *(\S+) *$", _front_matter(card), re.MULTILINE)
    if not set(METRIC_TAGS) <= set(tags):
        raise InputError(
            f"{card}'s front matter must have the tags {', '.join(METRIC_TAGS)} (what the Hub lists as a metric)"
        )
    target = _prepare(folder, force)
    written = _write_space(target, name, card, source)
    script = target / f"{target.resolve().name}.py"
    shutil.copyfile(source / f"{name}.py", script)
    written.append(script)
    for path in sorted(source.glob("*.md")):  # its cards (README.md and translations)
        shutil.copyfile(path, target / path.name)
        written.append(target / path.name)
    return sorted(set(written))


def copy_board(source: Path, target: Path) -> Path:
    """Copy the community board in folder ``source`` into folder ``target`` (created; refused if it holds a board)
    and return ``target``: SQLite's backup API copies one consistent state even while the board takes submissions,
    under a temporary name then moved into place; the copy is opened (so checked) before it is returned.

    >>> import tempfile
    >>> from ngrameval.leaderboard.board import Board
    >>> board = Board.create(Path(tempfile.mkdtemp()) / "board", [["a cat"], ["a dog"]], {"bleu": {}})
    >>> copy = copy_board(board.folder, Path(tempfile.mkdtemp()) / "copy")
    >>> Board(copy).segments
    2
    """
    from ngrameval.leaderboard.board import DATABASE, Board

    Board(source)  # a board, checked
    target = Path(target)
    if (target / DATABASE).exists():
        raise InputError(f"{target} already holds a board ({DATABASE}); nothing was overwritten")
    target.mkdir(parents=True, exist_ok=True)
    temporary = target / f".{DATABASE}.{os.getpid()}.copy"
    reading = sqlite3.connect(f"file:{Path(source) / DATABASE}?mode=ro", uri=True)
    try:
        with contextlib.closing(sqlite3.connect(temporary)) as writing:  # (closed, so checkpointed, before the move)
            reading.backup(writing)
            writing.execute("PRAGMA journal_mode=WAL")
        os.replace(temporary, target / DATABASE)
    finally:
        reading.close()
        temporary.unlink(missing_ok=True)
    Board(target)
    return target


def export_space(name: str, folder: str, force: bool = False, board: str | None = None) -> list[Path]:
    """Write Space ``name``'s Hub repository into ``folder`` and return the written paths: ``app.py``, its card
    ``README.md`` (front matter ``sdk: gradio``, ``sdk_version``, ``app_file: app.py``), ``requirements.txt``
    (:func:`registry_requirements` of the page's extras), the package as ``ngrameval/``, ``packages.txt`` when the
    page needs Debian packages (METEOR: WordNet) and, for a metric's page, its script under ``metrics/<name>/``.
    With ``board`` (the leaderboard only) the community board there is copied to ``board/`` (:func:`copy_board`).

    >>> import tempfile
    >>> folder = tempfile.mkdtemp()
    >>> sorted(path.relative_to(folder).as_posix() for path in export_space("ter", folder))
    ['README.md', 'app.py', 'metrics/ter', 'ngrameval', 'requirements.txt']
    >>> export_space("blue", tempfile.mkdtemp())  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ngrameval.errors.InputError: unknown Space 'blue'; valid Spaces: ...
    """
    if name not in SPACE_NAMES:
        raise InputError(f"unknown Space {name!r}; valid Spaces: {', '.join(SPACE_NAMES)}")
    folders = _folders("NGRAMEVAL_SPACES_DIR", CARD_FOLDERS)
    card = next((folder / name / "README.md" for folder in folders if (folder / name / "README.md").is_file()), None)
    if card is None:
        raise InputError(f"no card {name}/README.md in {' or '.join(map(str, folders))}")
    _front_matter(card)
    if board is not None and name != "leaderboard":
        raise InputError(f"--board is for the leaderboard Space, not {name!r}")
    script = Path(metric_path(name)) if name in script_names() else None
    target = _prepare(folder, force)
    if board is not None:  # first: a folder that is not a board writes nothing
        copy_board(Path(board), target / BOARD_FOLDER)
    return _write_space(target, name, card, script) + ([target / BOARD_FOLDER] if board is not None else [])
