"""An exported folder builds and runs as the Hugging Face Hub builds a Space (#24 item 8). The Spaces builder
installs ``requirements.txt`` with only that file mounted, then copies the folder in and runs ``app.py`` there::

    RUN --mount=target=/tmp/requirements.txt,source=requirements.txt pip install -r /tmp/requirements.txt
    COPY ./ /home/user/app

Each step is replayed: step 1, ``requirements.txt`` alone in an empty folder resolves from the package index
(``pip install --dry-run --ignore-installed``: everything from the index, nothing a path or URL names; a real
install of gradio and its dependencies takes minutes); step 2, the folder's ``app.py`` is run by a Python that sees
the installed packages but no ngrameval (``python -S``, site-packages given on PYTHONPATH as a view without
ngrameval, so no ``.pth`` file runs and the checkout's editable install stays out), so what it imports is the copy
in the folder; the BLEU Space and the board's Space are queried over HTTP, and an exported metric is loaded with
``evaluate.load`` (which copies only the script into its modules cache: ngrameval must be importable where it
runs, here from the folder, as in its Space).
"""

import json
import os
import shutil
import site
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, require, start_app
from ngrameval.frontends import cli
from ngrameval.frontends.hub import SPACE_EXTRAS, SPACE_NAMES, export_space, script_names

PREDICTIONS = ["the cat sat on the mat", "a dog barks at the cat"]
REFERENCES = ["the cat sat on a mat", "the dog barks at a cat"]
OFFLINE = {
    "HF_HUB_OFFLINE": "1",
    "HF_DATASETS_OFFLINE": "1",
    "HF_EVALUATE_OFFLINE": "1",
    "GRADIO_ANALYTICS_ENABLED": "False",
}


def _declared():
    """(install_requires, extras_require) of setup.cfg, read by setuptools."""
    from setuptools.config.setupcfg import read_configuration

    options = read_configuration(ROOT / "setup.cfg")["options"]
    return options["install_requires"], options["extras_require"]


def _requirement_lines(folder):
    return [
        line
        for line in (folder / "requirements.txt").read_text(encoding="utf-8").splitlines()
        if line and not line.startswith("#")
    ]


def _files(folder):
    return sorted(path.relative_to(folder).as_posix() for path in folder.rglob("*") if path.is_file())


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    """The folder every Space and metric was exported into (``spaces/<name>``, ``metrics/hub-<name>-metric``)."""
    root = tmp_path_factory.mktemp("exported")
    for name in SPACE_NAMES:
        assert cli.main(["export-space", name, str(root / "spaces" / name)]) == 0
    for name in script_names():
        assert cli.main(["export-metric", name, str(root / "metrics" / f"hub-{name}-metric")]) == 0
    return root


def test_requirements_name_registry_packages_and_the_package_is_copied(exported):
    from packaging.requirements import Requirement

    install_requires, extras_require = _declared()
    package = _files(ROOT / "ngrameval")
    package = [path for path in package if "__pycache__" not in path and not path.endswith(".pyc")]
    folders = [exported / "spaces" / name for name in SPACE_NAMES] + [
        exported / "metrics" / f"hub-{name}-metric" for name in script_names()
    ]
    for folder in folders:
        name = folder.name if folder.parent.name == "spaces" else folder.name[len("hub-") : -len("-metric")]
        lines = _requirement_lines(folder)
        expected = install_requires + [
            line for extra in SPACE_EXTRAS.get(name, ("spaces",)) for line in extras_require[extra]
        ]
        assert lines == list(dict.fromkeys(expected)), folder
        assert all(Requirement(line).url is None and Requirement(line).name != "ngrameval" for line in lines)
        # the package as it is imported, sources and data (the examples, the Spaces' texts), without caches
        assert _files(folder / "ngrameval") == package, folder
        for data in (Path("examples", "hypotheses.txt"), Path("ui", "texts.json")):
            assert (folder / "ngrameval" / data).read_bytes() == (ROOT / "ngrameval" / data).read_bytes(), folder
        assert (folder / "metrics" / name / f"{name}.py").is_file() == (name in script_names()), folder
    # resolving the leaderboard's requirements (test_requirements_resolve_from_the_index) covers every folder's
    superset = set(_requirement_lines(exported / "spaces" / "leaderboard"))
    assert all(set(_requirement_lines(folder)) <= superset for folder in folders)


def test_force_replaces_the_package_copy_and_the_checkout_is_refused(exported, tmp_path):
    folder = exported / "spaces" / "ter"
    (folder / "ngrameval" / "stale.py").write_text("raise ImportError\n", encoding="utf-8")
    assert cli.main(["export-space", "ter", str(folder), "--force"]) == 0
    assert not (folder / "ngrameval" / "stale.py").exists()
    holder = tmp_path / "holder"  # a folder whose ngrameval/ is the package itself (a checkout's root)
    holder.mkdir()
    (holder / "ngrameval").symlink_to(ROOT / "ngrameval")
    with pytest.raises(ValueError, match="holds the ngrameval package the export copies"):
        export_space("ter", str(holder), force=True)


@pytest.mark.slow
def test_requirements_resolve_from_the_index_alone(exported, tmp_path):
    """Step 1: requirements.txt alone in an empty folder; pip resolves everything from the index (~30 s)."""
    alone = tmp_path / "mounted"
    alone.mkdir()
    shutil.copyfile(exported / "spaces" / "leaderboard" / "requirements.txt", alone / "requirements.txt")
    report = tmp_path / "report.json"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--dry-run",
            "--ignore-installed",
            "--quiet",
            "--report",
            str(report),
            "-r",
            "requirements.txt",
        ],
        cwd=alone,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    installs = json.loads(report.read_text(encoding="utf-8"))["install"]
    names = {item["metadata"]["name"].lower().replace("_", "-") for item in installs}
    requested = {line.split("=")[0].split(">")[0].split("<")[0].lower() for line in _requirement_lines(alone)}
    assert requested <= names and "ngrameval" not in names
    assert not any(item["is_direct"] for item in installs)  # nothing named by a path or URL


# --------------------------------------------------------------------------- step 2: the folder, run without ngrameval


@pytest.fixture(scope="module")
def isolated(tmp_path_factory):
    """Environment variables under which ``python -S`` imports the installed packages but no ngrameval: each
    site-packages folder as a view (links to its entries) without ngrameval's, on PYTHONPATH."""
    views = []
    for number, packages in enumerate(site.getsitepackages()):
        view = tmp_path_factory.mktemp(f"site-{number}")
        for entry in Path(packages).iterdir():
            if "ngrameval" not in entry.name.lower():
                (view / entry.name).symlink_to(entry)
        views.append(str(view))
    environment = {
        **{
            key: value
            for key, value in os.environ.items()
            if key not in ("PYTHONPATH", "VIRTUAL_ENV") and not key.startswith("NGRAMEVAL_")
        },
        **OFFLINE,
        "PYTHONPATH": os.pathsep.join(views),
        "HF_MODULES_CACHE": str(tmp_path_factory.mktemp("modules")),
    }
    found = subprocess.run(
        [sys.executable, "-S", "-c", "import importlib.util as u; print(u.find_spec('ngrameval'))"],
        cwd=tmp_path_factory.mktemp("elsewhere"),
        env=environment,
        capture_output=True,
        text=True,
    )
    assert found.stdout.strip() == "None", found  # no ngrameval but the exported folder's
    return environment


def _serve(folder, environment):
    """(URL, process): ``python -S app.py`` in ``folder``, as the Hub runs a Space, on a free port."""
    return start_app([sys.executable, "-S", "app.py"], folder, folder.parent / f"{folder.name}.log", environment)


def _stop(process):
    process.terminate()
    process.wait(timeout=30)


@pytest.mark.slow
def test_exported_space_scores_over_http_without_an_installed_ngrameval(isolated, tmp_path):
    from sacrebleu.metrics import BLEU

    import ngrameval

    folder = tmp_path / "bleu"
    export_space("bleu", str(folder))
    url, process = _serve(folder, isolated)
    try:
        raw = (
            require("gradio_client")
            .Client(url, verbose=False)
            .predict(predictions="\n".join(PREDICTIONS), references_1="\n".join(REFERENCES), api_name="/score")[0]
        )
    finally:
        _stop(process)
    assert raw == json.loads(
        json.dumps(ngrameval.bleu(PREDICTIONS, [[line] for line in REFERENCES], sentence_level=True).as_dict())
    )
    assert raw["bleu"] == pytest.approx(BLEU().corpus_score(PREDICTIONS, [REFERENCES]).score / 100, abs=1e-12)


@pytest.mark.slow
def test_exported_board_space_scores_a_submission_over_http(isolated, tmp_path):
    from gradio_client import handle_file
    from sacrebleu.metrics import CHRF

    from ngrameval.leaderboard.board import Board

    board = Board.create(tmp_path / "board", [[line] for line in REFERENCES], {"chrf": {}})
    board.submit(REFERENCES, "exact")
    folder = tmp_path / "space"
    assert cli.main(["export-space", "leaderboard", str(folder), "--board", str(board.folder)]) == 0
    submitted = tmp_path / "system.txt"
    submitted.write_text("\n".join(PREDICTIONS) + "\n", encoding="utf-8")
    url, process = _serve(folder, isolated)
    try:
        client = require("gradio_client").Client(url, verbose=False)
        client.predict(handle_file(str(submitted)), "system", "", api_name="/submit")
        ranked = [row[2] for row in client.predict(api_name="/standings")[1]["data"]]
    finally:
        _stop(process)
    assert ranked == ["exact", "system"]
    scored = {submission.name: submission.scores for submission in Board(folder / "board").submissions()}
    expected = board.submit(PREDICTIONS, "system").scores  # the same lines on the original board
    assert scored["system"] == expected
    assert expected["chrf"]["chrf"] == pytest.approx(
        CHRF().corpus_score(PREDICTIONS, [REFERENCES]).score / 100, abs=1e-12
    )


# Run by ``python -S`` elsewhere: evaluate.load(folder) refuses while ngrameval is not importable (evaluate copies
# the script alone), then loads and computes with the folder on sys.path, as the metric's Space runs it.
LOAD_EXPORTED_METRIC = """
import json, sys
import evaluate
folder, predictions, references = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3])
try:
    evaluate.load(folder)
    refused = ""
except ImportError as error:
    refused = str(error)
sys.path.insert(0, folder)
import ngrameval
result = evaluate.load(folder).compute(predictions=predictions, references=references)
print(json.dumps({"refused": refused, "package": ngrameval.__file__, "script": ngrameval.metric_path("bleu"),
                  "result": result}))
"""


@pytest.mark.slow
def test_exported_metric_loads_with_evaluate_from_its_folder(exported, isolated, tmp_path):
    from sacrebleu.metrics import BLEU

    evaluate = require("evaluate")
    folder = exported / "metrics" / "hub-bleu-metric"
    references = [[line] for line in REFERENCES]
    done = subprocess.run(
        [
            sys.executable,
            "-S",
            "-c",
            LOAD_EXPORTED_METRIC,
            str(folder),
            json.dumps(PREDICTIONS),
            json.dumps(references),
        ],
        cwd=tmp_path,
        env=isolated,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    loaded = json.loads(done.stdout.splitlines()[-1])
    assert "ngrameval" in loaded["refused"]
    assert Path(loaded["package"]).is_relative_to(folder) and Path(loaded["script"]).is_relative_to(folder)
    ours = evaluate.load(str(ROOT / "metrics" / "bleu")).compute(predictions=PREDICTIONS, references=references)
    assert loaded["result"] == json.loads(json.dumps(ours))
    assert loaded["result"]["bleu"] == pytest.approx(
        BLEU().corpus_score(PREDICTIONS, [REFERENCES]).score / 100, abs=1e-12
    )
