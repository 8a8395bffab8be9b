"""Shared by the scale tests: the corpus (WMT22 en-de, two references) and every metric's variants."""
import ngrameval
from tests.data import wmt22_slice

SEGMENTS = 400
# Every registered metric and variant, with options whose rules differ from the defaults' (NIST's
# one-order sums, chrF++'s words); the COCO suite with and without CIDEr-D (two passes, or one).
CASES = [("bleu", {"variant": variant}) for variant in ("sacrebleu", "nltk", "mteval", "nmt", "d2l", "coco")] + [
    ("bleu", {"variant": "nltk", "smooth": "method4"}),
    ("nist", {"variant": "nltk"}), ("nist", {"variant": "mteval"}), ("nist", {"variant": "nltk", "n": 1}),
    ("nist", {"variant": "mteval", "n": 1}), ("rouge", {"variant": "rouge_score"}), ("rouge", {"variant": "rouge155"}),
    ("meteor", {"variant": "meteor15"}), ("meteor", {"variant": "nltk"}), ("cider", {"variant": "cider-d"}),
    ("cider", {"variant": "cider"}), ("coco_caption", {}),
    ("coco_caption", {"metrics": ["bleu", "meteor", "rouge_l"]}),
    ("chrf", {"variant": "sacrebleu"}), ("chrf", {"word_order": 2}), ("chrf", {"variant": "nltk"}),
    ("gleu", {"variant": "nltk"}), ("gleu", {"variant": "google_bleu"}), ("ter", {})]


def corpus(shared, metric, options):
    """(predictions, references) of the test corpus in the shape the metric takes (NLTK's chrF: one reference)."""
    predictions, references = wmt22_slice(shared, "en-de", "Online-B", SEGMENTS)
    if metric == "chrf" and options.get("variant") == "nltk":
        references = [group[:1] for group in references]
    return predictions, references


def in_memory(metric, options, predictions, references):
    """Output name -> ngrameval.<metric>(...)'s corpus score (ROUGE-1.5.5 averaged as its rows are: the mean)."""
    if metric == "coco_caption":
        return ngrameval.coco_caption(predictions, references, **options).scores
    if metric == "rouge":
        extra = {"aggregate": "mean"} if options.get("variant") == "rouge155" else {}
        return ngrameval.rouge(predictions, references, **options, **extra).as_dict()
    return {metric: getattr(getattr(ngrameval, metric)(predictions, references, **options), metric)}
