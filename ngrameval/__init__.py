"""ngrameval: classic n-gram metrics for text generation, exact to their reference tools. Every public name is
importable from here, its module imported when first used (PEP 562): ``import ngrameval`` imports no numpy.

>>> import ngrameval
>>> ngrameval.bleu(["the cat sat on the mat"], [["the cat sat on the mat"]]).bleu
1.0
>>> set(ngrameval.__all__) <= set(dir(ngrameval))
True
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any

from ngrameval._version import __version__

# Each public name and the module that defines it.
_DEFINED_IN = {
    **dict.fromkeys(["bleu", "BleuResult"], "ngrameval.metrics.bleu"),
    **dict.fromkeys(["chrf", "ChrfResult"], "ngrameval.metrics.chrf"),
    **dict.fromkeys(["cider", "CiderResult", "DocumentFrequency"], "ngrameval.metrics.cider"),
    **dict.fromkeys(["coco_caption", "CocoCaptionResult"], "ngrameval.metrics.coco"),
    **dict.fromkeys(["gleu", "GleuResult"], "ngrameval.metrics.gleu"),
    **dict.fromkeys(["meteor", "MeteorResult"], "ngrameval.metrics.meteor"),
    **dict.fromkeys(["nist", "NistResult"], "ngrameval.metrics.nist"),
    **dict.fromkeys(["rouge", "RougeResult", "skip_bigrams"], "ngrameval.metrics.rouge"),
    **dict.fromkeys(["ter", "TerResult"], "ngrameval.metrics.ter"),
    **dict.fromkeys(["MetricFamily", "Statistics", "get_family", "metric_names", "statistics"], "ngrameval.metric"),
    **dict.fromkeys(["confidence_interval", "paired_test"], "ngrameval.significance"),
    **dict.fromkeys(["torch_sentence_bleu", "torch_sentence_rouge"], "ngrameval.training.torch_path"),
    **dict.fromkeys(["get_tokenizer", "TOKENIZER_NAMES"], "ngrameval.text.tokenizers"),
    **dict.fromkeys(["pairwise", "aggregate_chrf", "mbr", "MbrResult"], "ngrameval.training.pairwise"),
    "reward": "ngrameval.training.reward",
    "score_dataset": "ngrameval.dataset",
    "Board": "ngrameval.leaderboard.board",
    "metric_path": "ngrameval.frontends.hub",
    "InputError": "ngrameval.errors",
    **dict.fromkeys(["clear_caches", "set_cache_budget"], "ngrameval.engine.cache"),
}

__all__ = [*_DEFINED_IN, "__version__"]  # noqa: PLE0604 (the keys of _DEFINED_IN are strings)


def __getattr__(name: str) -> Any:
    """A public name, imported from its module on first use and kept here; or a submodule."""
    module = _DEFINED_IN.get(name)
    if module is not None:
        value = getattr(importlib.import_module(module), name)
    elif not name.startswith("_") and importlib.util.find_spec(f"{__name__}.{name}") is not None:
        value = importlib.import_module(f"{__name__}.{name}")
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
