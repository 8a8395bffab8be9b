"""ngrameval: classic n-gram metrics for text generation, exact to their reference tools."""
__version__ = "0.1.0"

from ngrameval.errors import InputError  # noqa: E402
from ngrameval.engine.cache import clear_caches, set_cache_budget  # noqa: E402
from ngrameval.frontends.hub import metric_path  # noqa: E402
from ngrameval.metric import MetricFamily, Statistics, get_family, metric_names  # noqa: E402
from ngrameval.dataset import score_dataset  # noqa: E402
from ngrameval.leaderboard.board import Board  # noqa: E402
from ngrameval.metrics.bleu import BleuResult, BleuStatistics, bleu, bleu_statistics  # noqa: E402
from ngrameval.metrics.chrf import ChrfResult, chrf  # noqa: E402
from ngrameval.metrics.cider import CiderResult, DocumentFrequency, cider  # noqa: E402
from ngrameval.metrics.coco import CocoCaptionResult, coco_caption  # noqa: E402
from ngrameval.metrics.gleu import GleuResult, gleu  # noqa: E402
from ngrameval.metrics.meteor import MeteorResult, meteor  # noqa: E402
from ngrameval.metrics.nist import NistResult, nist  # noqa: E402
from ngrameval.metrics.rouge import RougeResult, RougeStatistics, rouge, rouge_statistics, skip_bigrams  # noqa: E402
from ngrameval.metrics.ter import TerResult, ter  # noqa: E402
from ngrameval.significance import confidence_interval, paired_test  # noqa: E402
from ngrameval.training.torch_path import torch_sentence_bleu, torch_sentence_rouge  # noqa: E402 (torch: when called)
from ngrameval.text.tokenizers import TOKENIZER_NAMES, get_tokenizer  # noqa: E402
from ngrameval.training.pairwise import MbrResult, aggregate_chrf, mbr, pairwise  # noqa: E402
from ngrameval.training.reward import reward  # noqa: E402

__all__ = ["bleu", "bleu_statistics", "BleuResult", "BleuStatistics", "chrf", "ChrfResult", "cider", "CiderResult",
           "DocumentFrequency", "coco_caption", "CocoCaptionResult", "gleu", "GleuResult", "meteor", "MeteorResult",
           "nist", "NistResult", "rouge", "rouge_statistics", "RougeResult", "RougeStatistics", "skip_bigrams",
           "torch_sentence_bleu", "torch_sentence_rouge",
           "ter", "TerResult", "MetricFamily", "Statistics", "get_family", "metric_names", "confidence_interval",
           "score_dataset", "Board", "paired_test", "metric_path", "get_tokenizer", "TOKENIZER_NAMES", "reward",
           "pairwise", "aggregate_chrf", "mbr", "MbrResult", "InputError", "clear_caches", "set_cache_budget",
           "__version__"]
