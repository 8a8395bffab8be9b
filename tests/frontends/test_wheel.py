"""The wheel, as a user gets it: built with ``python -m build --wheel`` from a copy of the checkout, installed with
its ``spaces`` and ``rouge`` extras into a fresh virtual environment that holds nothing else of the repository,
and used from a temporary directory there. Every metric and Space is exported (``ngrameval export-metric`` /
``export-space``); each exported metric is loaded with ``evaluate.load`` offline and must compute what the
repository's metric computes; each exported Space's ``app.py`` is started with the fresh environment's Python
and checked in Chromium as test_spaces.py and test_leaderboard_space.py check the repository's pages (their
tests, with the fixtures of conftest.py). Needs ``build`` (pip) and pip's registry or cache for the wheel's dependencies.
"""

import json
import os
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest
import test_leaderboard_space as leaderboard_cases
import test_spaces as cases
from test_leaderboard_space import files  # noqa: F401 - the fixture its page test takes

from conftest import ROOT, _free_port, require
from ngrameval.frontends.hub import SPACE_EXTRAS

# Minutes: a wheel built, installed with its dependencies into a fresh environment, every Space started.
pytestmark = pytest.mark.slow

# Copied to build from: the checkout without what a build or a test run leaves behind.
NOT_BUILT_FROM = shutil.ignore_patterns(
    ".git", "build", "dist", "*.egg-info", "__pycache__", ".hypothesis", ".pytest_cache", ".venv"
)
EXTRAS = "spaces,rouge"
OFFLINE = {
    "HF_HUB_OFFLINE": "1",
    "HF_DATASETS_OFFLINE": "1",
    "HF_EVALUATE_OFFLINE": "1",
    "GRADIO_ANALYTICS_ENABLED": "False",
}
STARTUP_ATTEMPTS = 240  # half-seconds to wait for an exported Space to answer

# Run by the fresh environment's Python, in its own temporary directory: export everything, then load each
# exported metric with evaluate and print its compute() on the given input as JSON.
EXPORT_AND_COMPUTE = """
import json, subprocess, sys
from pathlib import Path
import evaluate
from ngrameval.frontends.hub import script_names
from ngrameval.ui import SPACE_NAMES

predictions, references = json.loads(sys.argv[1]), json.loads(sys.argv[2])
results = {}
for name in script_names():
    # A folder of another name than the metric's (the Hub repository's): evaluate.load finds <its name>.py.
    folder = Path("metrics", f"hub-{name}-metric").resolve()
    subprocess.run(["ngrameval", "export-metric", name, str(folder)], check=True, stdout=subprocess.DEVNULL)
    metric = evaluate.load(str(folder))
    results[name] = metric.compute(predictions=predictions, references=references)
for name in SPACE_NAMES:
    subprocess.run(["ngrameval", "export-space", name, f"spaces/{name}"], check=True, stdout=subprocess.DEVNULL)
print(json.dumps({"metrics": results, "spaces": list(SPACE_NAMES)}))
"""


def _completed(command, **options):
    done = subprocess.run(command, capture_output=True, text=True, **options)
    assert done.returncode == 0, f"{' '.join(map(str, command))} failed ({done.returncode}):\n{done.stderr[-4000:]}"
    return done


def _run(command, **options):
    return _completed(command, **options).stdout


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """(the wheel, the checkout's copy it was built from)."""
    require("build")
    source = tmp_path_factory.mktemp("checkout") / "ngrameval"
    shutil.copytree(ROOT, source, ignore=NOT_BUILT_FROM)
    dist = tmp_path_factory.mktemp("dist")
    done = _completed([sys.executable, "-m", "build", "--wheel", "--outdir", str(dist), str(source)])
    # Every folder of the package is in setup.cfg's packages (the examples' data folder too).
    assert "absent from the `packages` configuration" not in done.stderr, done.stderr
    (wheel,) = dist.glob("ngrameval-*.whl")
    return wheel, source


def test_the_wheel_carries_the_package_data(built):
    # The files the package reads that are not Python (the Spaces' texts, the examples' corpus), as they are in
    # the checkout: setup.cfg's package_data names each kind.
    wheel, source = built
    data = [
        path.relative_to(source).as_posix()
        for path in (source / "ngrameval").rglob("*")
        if path.is_file() and path.suffix not in (".py", ".pyc")
    ]
    assert "ngrameval/ui/texts.json" in data
    with zipfile.ZipFile(wheel) as archive:
        assert {name: archive.read(name) for name in data} == {name: (source / name).read_bytes() for name in data}


@pytest.fixture(scope="module")
def installed(built, tmp_path_factory):
    """(python, environment variables, working directory, exported results, the checkout's copy built from) of the
    fresh environment the wheel is installed in, after EXPORT_AND_COMPUTE ran there."""
    wheel, source = built
    venv = tmp_path_factory.mktemp("venv")
    _run([sys.executable, "-m", "venv", str(venv)])
    python = venv / "bin" / "python"
    _run([str(python), "-m", "pip", "install", "--quiet", f"{wheel}[{EXTRAS}]"])
    work = tmp_path_factory.mktemp("work")
    environment = {
        **{k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")},
        **OFFLINE,
        "PATH": f"{venv / 'bin'}{os.pathsep}{os.environ['PATH']}",
    }
    output = _run(
        [str(python), "-c", EXPORT_AND_COMPUTE, json.dumps(cases.PREDICTIONS), json.dumps(cases.REFERENCES)],
        cwd=work,
        env=environment,
    )
    return python, environment, work, json.loads(output), source


def test_the_installed_package_is_the_wheel_not_the_checkout(installed):
    python, environment, work, *_ = installed
    location = _run(
        [str(python), "-c", "import ngrameval; print(ngrameval.metric_path('bleu'))"], cwd=work, env=environment
    ).strip()
    assert Path(location).parts[-3:] == ("ngrameval", "evaluate_scripts", "bleu")
    assert not Path(location).is_relative_to(ROOT)


def test_exported_metrics_compute_like_the_repository(installed):
    evaluate = require("evaluate")
    _, _, work, exported, source = installed
    assert sorted(exported["metrics"]) == sorted(
        path.name for path in (ROOT / "metrics").iterdir() if (path / f"{path.name}.py").is_file()
    )
    for name, result in exported["metrics"].items():
        folder = work / "metrics" / f"hub-{name}-metric"
        # the files the wheel was built from (the checkout may change while the test runs); the script named after
        # the folder, and no other
        assert (folder / f"{folder.name}.py").read_bytes() == (source / "metrics" / name / f"{name}.py").read_bytes()
        assert sorted(path.name for path in folder.glob("*.py")) == ["app.py", f"{folder.name}.py"]
        assert (folder / "README.md").read_bytes() == (source / "metrics" / name / "README.md").read_bytes()
        assert "tags:\n- evaluate\n- metric" in (folder / "README.md").read_text(encoding="utf-8")
        ours = evaluate.load(str(ROOT / "metrics" / name)).compute(
            predictions=cases.PREDICTIONS, references=cases.REFERENCES
        )
        assert result == json.loads(json.dumps(ours)), name


def test_export_refuses_unknown_names_and_a_folder_in_use(installed):
    python, environment, work, *_ = installed
    ngrameval = [str(python), "-m", "ngrameval"]
    for command, message in (
        (["export-metric", "blue", "new"], "no evaluate script blue/blue.py"),
        (["export-space", "blue", "new"], "unknown Space 'blue'"),
        (["export-space", "bleu", "spaces/nist"], "is not empty"),
    ):
        done = subprocess.run(ngrameval + command, capture_output=True, text=True, cwd=work, env=environment)
        assert done.returncode == 2 and message in done.stderr, (command, done.stderr)
    assert not (work / "new").exists()


def test_exported_space_folders_hold_what_the_hub_needs(installed):
    from packaging.requirements import Requirement
    from setuptools.config.setupcfg import read_configuration

    python, environment, work, exported, source = installed
    options = read_configuration(source / "setup.cfg")["options"]
    package = Path(
        _run([str(python), "-c", "import ngrameval; print(ngrameval.__file__)"], cwd=work, env=environment).strip()
    ).parent
    for name in exported["spaces"]:
        folder = work / "spaces" / name
        card = (folder / "README.md").read_text(encoding="utf-8")
        assert all(line in card.split("---\n")[1].splitlines() for line in ("sdk: gradio", "app_file: app.py"))
        # requirements.txt, read from the installed wheel's metadata: registry packages, as setup.cfg declares them
        lines = [
            line
            for line in (folder / "requirements.txt").read_text(encoding="utf-8").splitlines()
            if line and not line.startswith("#")
        ]
        declared = options["install_requires"] + [
            line for extra in SPACE_EXTRAS.get(name, ("spaces",)) for line in options["extras_require"][extra]
        ]
        assert sorted(map(str, map(Requirement, lines))) == sorted(set(map(str, map(Requirement, declared)))), name
        # the installed package, without what the wheel's build added (the folder has its own script and card)
        copied = sorted(path.relative_to(folder / "ngrameval") for path in (folder / "ngrameval").rglob("*.py"))
        installed_sources = sorted(
            path.relative_to(package)
            for path in package.rglob("*.py")
            if path.relative_to(package).parts[0] not in ("evaluate_scripts", "space_cards")
        )
        assert copied == installed_sources, name
        texts = Path("ui", "texts.json")
        assert (folder / "ngrameval" / texts).read_bytes() == (package / texts).read_bytes(), name
        assert (folder / "app.py").is_file()


@pytest.fixture
def exported_space(installed):
    """start(name) -> URL: the exported Space ``name`` served by its app.py, run by the fresh environment's
    Python from the exported folder on a free port of 127.0.0.1; stopped after the test."""
    python, environment, work, *_ = installed
    client_module = require("gradio_client")
    started = []

    def start(name):
        port = _free_port()
        folder = work / "spaces" / name
        log = open(folder.parent / f"{name}.log", "w")
        process = subprocess.Popen(
            [str(python), "app.py"],
            cwd=folder,
            stdout=log,
            stderr=subprocess.STDOUT,
            env={**environment, "GRADIO_SERVER_NAME": "127.0.0.1", "GRADIO_SERVER_PORT": str(port)},
        )
        started.append((process, log))
        url = f"http://127.0.0.1:{port}/"
        for _ in range(STARTUP_ATTEMPTS):
            if process.poll() is not None:
                pytest.fail(
                    f"exported Space {name} exited ({process.returncode}):\n{Path(log.name).read_text()[-4000:]}"
                )
            try:
                client_module.Client(url, verbose=False)
                return url
            except Exception:
                time.sleep(0.5)
        return pytest.fail(f"exported Space {name} did not answer on {url}")

    yield start
    for process, log in started:
        process.terminate()
        process.wait(timeout=30)
        log.close()


@pytest.mark.parametrize("name", sorted(cases.SPACES))
def test_exported_space_scores_like_ngrameval_in_chromium(exported_space, name, page, tmp_path):
    url = exported_space(name)
    cases.test_page_scores_like_ngrameval((name, cases.SPACES[name], url), page, tmp_path)


def test_exported_leaderboard_ranks_in_chromium(exported_space, page, files, tmp_path):  # noqa: F811
    url = exported_space("leaderboard")
    leaderboard_cases.test_page_ranks_a_zip_of_systems_and_shows_a_pair(lambda name: (url, None), page, files, tmp_path)
