"""Shared by the scale tests: the corpus (WMT22 en-de, two references) and every metric's variants."""

import dataclasses

import ngrameval
from tests.data import wmt22_slice

SEGMENTS = 400
# Every registered metric and variant, with options whose rules differ from the defaults' (NIST's
# one-order sums, chrF++'s words); the COCO suite with and without CIDEr-D (two passes, or one).
CASES = [("bleu", {"variant": variant}) for variant in ("sacrebleu", "nltk", "mteval", "nmt", "d2l", "coco")] + [
    ("bleu", {"variant": "nltk", "smooth": "method4"}),
    ("bleu", {"brevity_penalty": "average"}),
    ("nist", {"variant": "nltk"}),
    ("nist", {"variant": "mteval"}),
    ("nist", {"variant": "nltk", "n": 1}),
    ("nist", {"variant": "mteval", "n": 1}),
    ("rouge", {"variant": "rouge_score"}),
    ("rouge", {"variant": "rouge155"}),
    ("meteor", {"variant": "meteor15"}),
    ("meteor", {"variant": "nltk"}),
    ("cider", {"variant": "cider-d"}),
    ("cider", {"variant": "cider"}),
    ("coco_caption", {}),
    ("coco_caption", {"metrics": ["bleu", "meteor", "rouge_l"]}),
    ("chrf", {"variant": "sacrebleu"}),
    ("chrf", {"word_order": 2}),
    ("chrf", {"variant": "nltk"}),
    ("gleu", {"variant": "nltk"}),
    ("gleu", {"variant": "google_bleu"}),
    ("ter", {}),
]


def corpus(shared, metric, options):
    """(predictions, references) of the test corpus in the shape the metric takes (NLTK's chrF: one reference;
    BLEU's average reference length: three)."""
    predictions, references = wmt22_slice(shared, "en-de", "Online-B", SEGMENTS)
    if metric == "chrf" and options.get("variant") == "nltk":
        references = [group[:1] for group in references]
    if options.get("brevity_penalty") == "average":  # a third reference: mean lengths in thirds, not exact sums
        references = [group + [" ".join(group[0].split()[::2])] for group in references]
    return predictions, references


def in_memory(metric, options, predictions, references):
    """ngrameval.<metric>(...)'s result (ROUGE-1.5.5 averaged as sums of rows can: aggregate="mean")."""
    extra = {"aggregate": "mean"} if metric == "rouge" and options.get("variant") == "rouge155" else {}
    return getattr(ngrameval, metric)(predictions, references, **options, **extra)


# Parts of a result given per segment only when asked for (or kept for other uses): None in a merged result.
PER_SEGMENT_OPTIONAL = {
    "sentence_scores",
    "sentence_signature",
    "explanation",
    "statistics",
    "best_reference",
    "document_frequency",
    "scores",
}


def assert_same_result(got, expected):
    """``got`` is a result of the class ``expected`` is, with the same fields to the last bit (its ``as_dict()``:
    every corpus-level part, and the per-segment parts the class always has), and None only where the part is
    per-segment and optional."""
    assert type(got) is type(expected)
    assert got.as_dict() == expected.as_dict()
    for field in dataclasses.fields(got):
        if getattr(got, field.name) is None:
            assert field.name in PER_SEGMENT_OPTIONAL or getattr(expected, field.name) is None, field.name
