"""Token ids as input (ngrameval.engine.token_ids): every metric that counts tokens scores ids exactly as it
scores the same ids written as decimal-string token lists (pre-tokenized input), in every accepted form
(lists of ints, numpy and torch 1-D sequences, 2-D and 3-D batches with pad_id); bad ids and shapes get a
ValueError naming the place; metrics that need text refuse ids by name."""

import random
import subprocess
import sys

import numpy as np
import pytest

import ngrameval
from ngrameval.engine import corpus as engine_corpus
from ngrameval.metric import get_family
from tests.search import cases

ROUGE_TYPES = [
    "rouge1",
    "rouge2",
    "rouge3",
    "rougeL",
    "rougeLsum",
    "rougeW",
    "rougeS4",
    "rougeS*",
    "rougeSU2",
    "rougeSU*",
]


def decimal(predictions, references):
    """The ids as decimal-string token lists: the pre-tokenized input ids must score as."""
    return ([[str(t) for t in p] for p in predictions], [[[str(t) for t in r] for r in group] for group in references])


def without_signature(result):
    values = dict(result.as_dict()) if hasattr(result, "as_dict") else dict(result)
    values.pop("signature", None)
    values.pop("sentence_signature", None)
    return values


# Every metric and variant that counts tokens: name -> function of (predictions, references) -> comparable.
METRICS = {
    **{
        f"bleu-{variant}": (
            lambda variant: (
                lambda h, r: without_signature(ngrameval.bleu(h, r, variant=variant, sentence_level=True, explain=True))
            )
        )(variant)
        for variant in ("sacrebleu", "nltk", "mteval", "nmt", "d2l", "coco")
    },
    "bleu-sacrebleu-floor": lambda h, r: without_signature(ngrameval.bleu(h, r, smooth="floor", sentence_level=True)),
    "bleu-nltk-method7": lambda h, r: without_signature(
        ngrameval.bleu(h, r, variant="nltk", smooth="method7", sentence_level=True)
    ),
    "bleu-coco-weights": lambda h, r: ngrameval.bleu(h, r, variant="coco", weights=[(1,), (0.5, 0.5)]).bleu,
    **{
        f"nist-{variant}": (
            lambda variant: (
                lambda h, r: without_signature(ngrameval.nist(h, r, variant=variant, sentence_level=True, explain=True))
            )
        )(variant)
        for variant in ("nltk", "mteval")
    },
    **{
        f"gleu-{variant}": (
            lambda variant: lambda h, r: without_signature(ngrameval.gleu(h, r, variant=variant, sentence_level=True))
        )(variant)
        for variant in ("nltk", "google_bleu")
    },
    "rouge-best": lambda h, r: ngrameval.rouge(h, r, ROUGE_TYPES, use_aggregator=False).scores.tolist(),
    "rouge-pooled": lambda h, r: ngrameval.rouge(h, r, ROUGE_TYPES, multi_ref="pooled").fmeasure,
    "rouge-statistics": lambda h, r: ngrameval.statistics("rouge", h, r, rouge_types=ROUGE_TYPES).rows.tolist(),
    **{
        f"cider-{variant}": (
            lambda variant: lambda h, r: without_signature(ngrameval.cider(h, r, variant=variant, explain=True))
        )(variant)
        for variant in ("cider-d", "cider")
    },
}


def random_corpus(rng: random.Random, scale: int = 1):
    """A few predictions of small ids (so that n-grams match), 1-3 references each; ``scale`` multiplies the
    ids (large ids take the engine's other sort)."""

    def ids(length):
        return [rng.randrange(6) * scale for _ in range(length)]

    count = rng.randint(1, 5)
    predictions = [ids(rng.randint(0, 9)) for _ in range(count)]
    references = [[ids(rng.randint(0, 9)) for _ in range(rng.randint(1, 3))] for _ in range(count)]
    return predictions, references


@pytest.mark.parametrize("metric", sorted(METRICS))
def test_ids_score_as_their_decimal_strings(metric):
    """Seeded random corpora: ids and their decimal strings give the same numbers, bit for bit."""
    rng = random.Random(f"ids-{metric}")
    for case in range(cases(12)):
        predictions, references = random_corpus(rng, scale=10**12 + 7 if case % 4 == 3 else 1)
        expected = METRICS[metric](*decimal(predictions, references))
        assert METRICS[metric](predictions, references) == expected, (predictions, references)


def test_signatures_say_the_input_was_ids():
    for result in (
        ngrameval.bleu([[1, 2]], [[1, 2]]),
        ngrameval.bleu([[1, 2]], [[1, 2]], variant="nltk"),
        ngrameval.nist([[1, 2]], [[1, 2]]),
        ngrameval.gleu([[1, 2]], [[1, 2]]),
        ngrameval.rouge([[1, 2]], [[1, 2]]),
        ngrameval.cider([[1, 2]], [[1, 2]]),
    ):
        assert "tok:ids" in result.signature, result.signature


# --------------------------------------------------------------------------- forms

PREDICTIONS = [[5, 6, 7, 8, 9], [3, 4, 3], [9]]
REFERENCES = [[[5, 6, 7, 9]], [[3, 4], [4, 3, 4, 3]], [[9, 9]]]
PADDED_PREDICTIONS = np.array([[5, 6, 7, 8, 9], [0, 0, 3, 4, 3], [9, 0, 0, 0, 0]])  # left and right padding


def _bleu(predictions, references, **options):
    return without_signature(
        ngrameval.bleu(predictions, references, variant="nltk", smooth="method1", sentence_level=True, **options)
    )


EXPECTED = None


def expected():
    global EXPECTED
    if EXPECTED is None:
        EXPECTED = _bleu(*decimal(PREDICTIONS, REFERENCES))
    return EXPECTED


def padded_references(pad=0):
    """REFERENCES as a 3-D array (N, R, L): missing references and positions filled with ``pad``."""
    batch = np.full((3, 2, 4), pad)
    for i, group in enumerate(REFERENCES):
        for j in range(2):
            reference = group[j % len(group)] if len(group) == 2 or j == 0 else group[0]
            batch[i, j, : len(reference)] = reference
    return batch


FORMS = {
    "lists": (PREDICTIONS, REFERENCES, {}),
    "tuples": (tuple(map(tuple, PREDICTIONS)), [tuple(map(tuple, g)) for g in REFERENCES], {}),
    "numpy scalars": (
        [[np.int32(t) for t in p] for p in PREDICTIONS],
        [[[np.uint16(t) for t in r] for r in g] for g in REFERENCES],
        {},
    ),
    "1-D arrays": (
        [np.array(p, np.int32) for p in PREDICTIONS],
        [[np.array(r, np.uint8) for r in g] for g in REFERENCES],
        {},
    ),
    "single references unwrapped": ([[1, 2, 3]], [[1, 2, 4]], {}),
    "2-D arrays per prediction": (
        PREDICTIONS,
        [np.array([[5, 6, 7, 9]]), np.array([[3, 4, -1, -1], [4, 3, 4, 3]]), np.array([[9, 9]])],
        {"pad_id": -1},
    ),
    "2-D batch, pad 0": (PADDED_PREDICTIONS, REFERENCES, {"pad_id": 0}),
    "2-D batch and 3-D references": (PADDED_PREDICTIONS, padded_references(), {"pad_id": 0}),
    "pads inside, pad -100": ([[5, 6, -100, 7, 8, 9], [-100, 3, 4, 3], [9, -100]], REFERENCES, {"pad_id": -100}),
}


@pytest.mark.parametrize("form", sorted(FORMS))
def test_forms_score_alike(form):
    predictions, references, options = FORMS[form]
    if form == "single references unwrapped":
        assert _bleu(predictions, references) == _bleu(*decimal([[1, 2, 3]], [[[1, 2, 4]]]))
        return
    if form == "2-D batch and 3-D references":  # two references each: the second one repeats as needed
        references_lists = [[[t for t in r if t != 0] for r in group] for group in references.tolist()]
        assert _bleu(predictions, references, **options) == _bleu(*decimal(PREDICTIONS, references_lists))
        return
    assert _bleu(predictions, references, **options) == expected()


def test_torch_tensors():
    import torch

    batch = torch.tensor(PADDED_PREDICTIONS)
    assert _bleu(batch, REFERENCES, pad_id=0) == expected()
    assert (
        _bleu(
            [torch.tensor(p) for p in PREDICTIONS],
            [[torch.tensor(r, dtype=torch.int32) for r in g] for g in REFERENCES],
        )
        == expected()
    )
    three_d = padded_references()
    assert _bleu(batch, torch.tensor(three_d), pad_id=0) == _bleu(PADDED_PREDICTIONS, three_d, pad_id=0)
    with pytest.raises(ValueError, match="array of float32"):
        ngrameval.bleu(batch.float(), REFERENCES)


def test_statistics_families_and_blocks(monkeypatch):
    """The metric protocol and block-by-block matching take ids too."""
    text = decimal(PREDICTIONS, REFERENCES)
    for name in ("bleu", "nist", "gleu", "rouge", "cider"):
        family = get_family(name)
        options = {"pad_id": 0}
        ids_rows = family.statistics(PADDED_PREDICTIONS, REFERENCES, **options).rows
        assert ids_rows.tolist() == family.statistics(*text).rows.tolist(), name
    whole = _bleu(PREDICTIONS, REFERENCES)
    monkeypatch.setattr(engine_corpus, "BLOCK_SEGMENTS", 2)
    assert _bleu(PREDICTIONS, REFERENCES) == whole
    assert (
        without_signature(
            ngrameval.bleu(
                PADDED_PREDICTIONS,
                REFERENCES,
                pad_id=0,
                threads=2,
                sentence_level=True,
                variant="nltk",
                smooth="method1",
            )
        )
        == whole
    )


def test_empty_after_padding_and_empty_sequences():
    assert _bleu(np.zeros((2, 3), np.int64), [[1], [[]]], pad_id=0) == _bleu([[], []], [[["1"]], [[]]])


def test_no_torch_import():
    """``import ngrameval`` and scoring ids given as lists or numpy arrays never import torch."""
    code = (
        "import sys, numpy as np, ngrameval; ngrameval.bleu(np.array([[1, 2]]), [[1, 2]]); "
        "ngrameval.rouge([[1, 2]], [[1, 2]]); assert 'torch' not in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


# --------------------------------------------------------------------------- bad input

BAD = [
    ([[1, -2]], [[1]], {}, r"predictions\[0\]\[1\] is -2: token ids must be non-negative integers"),
    ([[1]], [[[1], [4, -3]]], {}, r"references\[0\], reference 1, token 1, is -3"),
    ([[1, -2]], [[1]], {"pad_id": 0}, r"is -2: token ids must be non-negative integers other than pad_id=0"),
    ([[1, 2.0]], [[1]], {}, r"predictions\[0\]\[1\] is float; token ids must be integers"),
    ([[1, True]], [[1]], {}, r"predictions\[0\]\[1\] is bool"),
    ([[1, "a"]], [[1]], {}, r"predictions\[0\]\[1\] is str: token ids and strings cannot be mixed"),
    ([[1, 2]], ["1 2"], {}, r"references\[0\] is str; predictions are token ids"),
    ([[1, 2]], [[[1, "2"]]], {}, r"references\[0\]\[0\]\[1\] is str"),
    (np.array([[1.0, 2.0]]), [[1]], {}, r"predictions is an array of float64; token ids must be integers"),
    (np.array([[True]]), [[1]], {}, r"predictions is an array of bool"),
    (np.array([1, 2]), [[1], [2]], {}, r"predictions is a 1-D array of shape \(2,\); a batch of token ids must be"),
    ([np.array([[1, 2]])], [[1]], {}, r"predictions\[0\] is a 2-D array of shape \(1, 2\)"),
    ([[1, 2]], np.zeros((1, 1, 1, 2), np.int64), {}, r"references is a 4-D array"),
    ([[1, 2]], [np.zeros((1, 1, 2), np.int64)], {}, r"references\[0\] is a 3-D array"),
    ([[1, 2]], [[1], [2]], {}, r"1 predictions, 2 references"),
    ([[1, 2]], [[]], {}, r"references\[0\] is an empty list"),
    ([[1, 2]], np.zeros((1, 0, 3), np.int64), {}, r"every prediction needs at least one reference"),
    ([[2**70]], [[1]], {}, r"predictions\[0\]\[0\] is 1180591620717411303424: token ids must fit"),
    (np.array([[2**64 - 1]], np.uint64), [[1]], {}, r"token ids must fit in 64-bit signed integers"),
    (["a b"], ["a b"], {"pad_id": 0}, r"pad_id applies to token ids, but the predictions are text"),
    ([["a", "b"]], [["a", "b"]], {"pad_id": 0}, r"pad_id applies to token ids"),
    ([[1]], [[1]], {"pad_id": 1.5}, r"pad_id must be an integer, got 1.5"),
    ([[1]], [[1]], {"pad_id": True}, r"pad_id must be an integer, got True"),
    ([[1]], [[1]], {"lowercase": True}, r"lowercase=True changes the letters of text; token ids have none"),
]


@pytest.mark.parametrize("predictions, references, options, message", BAD)
def test_bad_ids_are_refused_by_place(predictions, references, options, message):
    with pytest.raises(ValueError, match=message):
        ngrameval.bleu(predictions, references, **options)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: ngrameval.nist([[1]], [[1]], lowercase=True), "lowercase=True"),
        (lambda: ngrameval.cider([[1]], [[1]], lowercase=True), "lowercase=True"),
        (lambda: ngrameval.rouge([[1]], [[1]], use_stemmer=True), "use_stemmer=True changes the letters"),
        (lambda: ngrameval.rouge([[1]], [[1]], remove_stopwords=True), "remove_stopwords=True"),
        (lambda: ngrameval.rouge([[1]], [[1]], tokenizer="nonsense"), "unknown tokenizer"),
        (lambda: ngrameval.rouge([[1]], [[1]], variant="rouge155"), "variant='rouge155' takes strings"),
        (lambda: ngrameval.rouge(["a"], ["a"], pad_id=0), "pad_id applies to token ids"),
        (lambda: ngrameval.gleu([[1, -1]], [[1]]), r"predictions\[0\]\[1\] is -1"),
        (lambda: get_family("cider").reference_counts([[1, 2]], [[1, 2]]), "cider of token ids in shards"),
    ],
)
def test_text_options_and_variants_refuse_ids(call, message):
    with pytest.raises(ValueError, match=message):
        call()


@pytest.mark.parametrize(
    "metric, counts",
    [("chrf", "characters"), ("ter", "word edits"), ("meteor", "words"), ("coco_caption", "the words of captions")],
)
def test_metrics_of_text_refuse_ids_by_name(metric, counts):
    function = getattr(ngrameval, metric)
    for predictions in ([[1, 2]], np.array([[1, 2]]), [np.array([1, 2])]):
        with pytest.raises(
            ValueError, match=f"^{metric} counts {counts}.*: token ids are not accepted; decode them to text first$"
        ):
            function(predictions, [[1, 2]])
