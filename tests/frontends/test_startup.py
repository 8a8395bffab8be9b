"""Importing ngrameval has no side effects and costs little (issues #24 item 14 and #25): ``import ngrameval`` and
``ngrameval --help`` import no numerical or front-end framework, every public name still comes from the package,
the version has one source that no module imports through the package, and importing a Space's page leaves the
process's environment as it was. Each check that needs a clean interpreter runs one in a subprocess."""

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import ngrameval
from ngrameval._version import __version__

PACKAGE = Path(ngrameval.__file__).parent
ROOT = PACKAGE.parent
HEAVY = ("numpy", "torch", "gradio", "evaluate", "pandas", "pyarrow", "datasets", "transformers", "trl")
# Prints, as JSON, the top-level packages of HEAVY that the code before it imported.
LOADED = f"import json, sys; print(json.dumps(sorted({{m.split('.')[0] for m in sys.modules}} & set({HEAVY!r}))))"


def _run(code, **environment):
    """``code`` in a fresh interpreter that imports this checkout's ngrameval; its standard output."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]), **environment}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_import_ngrameval_imports_no_framework():
    assert json.loads(_run(f"import ngrameval\n{LOADED}")) == []


def test_help_imports_no_framework():
    """``ngrameval --help`` as the console script and ``python -m ngrameval`` run it: the help is printed, and
    nothing of HEAVY was imported for it."""
    output = _run(
        "import runpy, sys\nsys.argv = ['ngrameval', '--help']\ntry:\n"
        "    runpy.run_module('ngrameval', run_name='__main__')\nexcept SystemExit as stop:\n"
        f"    assert stop.code == 0, stop.code\n{LOADED}"
    )
    help_text, loaded = output.rsplit("\n", 2)[0], output.rsplit("\n", 2)[1]
    assert "usage: ngrameval" in help_text and "score" in help_text and "board" in help_text
    assert json.loads(loaded) == []


def test_every_public_name_comes_from_the_package():
    assert set(ngrameval.__all__) <= set(dir(ngrameval))
    assert len(set(ngrameval.__all__)) == len(ngrameval.__all__)
    for name in ngrameval.__all__:
        assert getattr(ngrameval, name) is not None, name
    from ngrameval import bleu, significance  # a public name and a module, as before the imports were lazy

    assert bleu is ngrameval.bleu and significance.paired_test is ngrameval.paired_test
    with pytest.raises(AttributeError, match="no attribute 'no_such_name'"):
        ngrameval.no_such_name  # noqa: B018 (the attribute access is what raises)
    with pytest.raises(ImportError):
        from ngrameval import no_such_name  # noqa: F401


def test_a_metric_family_is_found_before_its_module_is_imported():
    """The registry imports a family that ngrameval ships when it is first asked for (``import ngrameval``
    imports none of them any more)."""
    code = (
        "import sys\nfrom ngrameval.metric import get_family, metric_names\n"
        "assert 'ngrameval.metrics.ter' not in sys.modules\n"
        "print(metric_names(), get_family('ter').name, 'ngrameval.metrics.ter' in sys.modules)"
    )
    names, family, imported = _run(code).rsplit(" ", 2)
    assert (family, imported.strip()) == ("ter", "True")
    assert names == str(sorted(ngrameval.metric_names())) and "ter" in names


def test_the_version_has_one_source():
    """No module imports ``__version__`` through the package (the import cycle that once needed ``noqa: E402`` in
    ``ngrameval/__init__.py``), and setup.cfg reads the same one."""
    assert ngrameval.__version__ == __version__
    assert "E402" not in (PACKAGE / "__init__.py").read_text(encoding="utf-8")
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module == "ngrameval":
                assert "__version__" not in {alias.name for alias in node.names}, path
    setup_cfg = (ROOT / "setup.cfg").read_text(encoding="utf-8")
    assert "version = attr: ngrameval._version.__version__" in setup_cfg.splitlines()


@pytest.mark.slow
def test_importing_a_page_leaves_the_environment_as_it_was():
    """``ngrameval.ui.page`` once set ``HF_*_OFFLINE`` and ``GRADIO_ANALYTICS_ENABLED`` for the whole process on
    import; a program that imports it (a test, a notebook) keeps its own environment now."""
    environment = {name: value for name, value in os.environ.items() if not name.startswith(("HF_", "GRADIO_"))}
    code = (
        "import json, os\nbefore = dict(os.environ)\nimport ngrameval.ui.page\nafter = dict(os.environ)\n"
        "print(json.dumps({name: [before.get(name), after.get(name)] for name in {*before, *after}\n"
        "                  if before.get(name) != after.get(name)}))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**environment, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[-1]) == {}
