"""Where the evaluate scripts are, wherever ngrameval is installed.

The scripts (``metrics/<name>/<name>.py`` and their cards) live in the repository's ``metrics/``
folder; a wheel carries them inside the package, as ``ngrameval/evaluate_scripts/<name>/``, so
``evaluate.load(ngrameval.metric_path("bleu"))`` works from any directory, offline.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import List

PACKAGE = Path(__file__).resolve().parents[1]
# The wheel's copy of metrics/ (written at build time), then a checkout's metrics/ beside the package.
SCRIPT_FOLDERS = (PACKAGE / "evaluate_scripts", PACKAGE.parent / "metrics")


def _script_folders() -> List[Path]:
    configured = os.environ.get("NGRAMEVAL_METRICS_DIR")
    return [Path(configured)] if configured else list(SCRIPT_FOLDERS)


def metric_path(name: str) -> str:
    """The folder of metric ``name``'s evaluate script, for ``evaluate.load``: ``$NGRAMEVAL_METRICS_DIR/<name>``
    when that variable is set, else the copy installed with the package, else a checkout's ``metrics/<name>``.

    >>> import evaluate
    >>> bleu = evaluate.load(metric_path("bleu"))
    >>> round(bleu.compute(predictions=["the cat sat on the mat"], references=[["the cat sat on the mat"]])["bleu"], 6)
    1.0
    """
    if not isinstance(name, str) or not name.isidentifier():
        raise ValueError(f"metric name must be a metric's name such as 'bleu', got {name!r}")
    folders = _script_folders()
    for folder in folders:
        if (folder / name / f"{name}.py").is_file():
            return str(folder / name)
    raise ValueError(f"no evaluate script {name}/{name}.py in {' or '.join(map(str, folders))}; valid metrics: "
                     f"{', '.join(script_names()) or 'none found'}")


def script_names() -> List[str]:
    """The metrics that have an evaluate script (``metric_path`` finds each).

    >>> {"bleu", "rouge", "ter"} <= set(script_names())
    True
    """
    for folder in _script_folders():
        names = sorted(p.name for p in folder.iterdir() if (p / f"{p.name}.py").is_file()) if folder.is_dir() else []
        if names:
            return names
    return []
