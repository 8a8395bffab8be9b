"""Seeded random search: CIDEr-D and the COCO suite's BLEU-1..4 and ROUGE-L against pycocoevalcap 1.2's
``Cider``, ``Bleu`` and ``Rouge`` (pure Python, run here) on random captions with odd text: empty
captions and references, punctuation only, one token repeated, CJK, doubled spaces, 1 to 5 references.

Any corpus on which a pycocoevalcap scorer returns numbers must give the same numbers (to 1e-9, as in
``test_pycocoevalcap.py``). Where pycocoevalcap crashes, ngrameval's documented behaviour is checked
instead (see :func:`_pycocoevalcap_cider`); and pycocoevalcap's ``Cider(n=k)`` for k != 4 is checked here
against its own scorer made to count k-grams (the card's known difference).
"""

from __future__ import annotations

import random

import pytest
from pycocoevalcap.bleu.bleu import Bleu
from pycocoevalcap.cider import cider_scorer
from pycocoevalcap.cider.cider import Cider
from pycocoevalcap.rouge.rouge import Rouge

import ngrameval
from ngrameval.metrics.cider import cider
from ngrameval.metrics.coco import rouge_l
from tests.data import assert_close
from tests.parity.test_pycocoevalcap import BLEU_WEIGHTS, TOLERANCE, coco_shape
from tests.search import cases

_TOKENS = (
    "a man dog dogs the on in of with red two sitting riding horse beach grass play playing . , ! ? "
    "-- ' a.m. 狗 猫 在 草地 上 é café 1 2 100"
).split()


def _caption(rng: random.Random) -> str:
    kind = rng.random()
    if kind < 0.08:
        return rng.choice(["", " "])
    if kind < 0.14:
        return " ".join(rng.choice(". , ! ? -- ...".split()) for _ in range(rng.randint(1, 4)))
    if kind < 0.2:
        return " ".join([rng.choice(_TOKENS)] * rng.randint(1, 9))
    if kind < 0.25:
        return "".join(rng.choice("狗猫在草地上") for _ in range(rng.randint(1, 6)))  # CJK without spaces
    separator = "  " if kind < 0.3 else " "
    return separator.join(rng.choice(_TOKENS) for _ in range(rng.randint(1, 14)))


def random_corpus(rng: random.Random, items: int) -> tuple[list[str], list[list[str]]]:
    predictions = [_caption(rng) for _ in range(items)]
    references = [[_caption(rng) for _ in range(rng.randint(1, 5))] for _ in range(items)]
    return predictions, references


SEED, CORPORA = 2015, 600


def _pycocoevalcap_cider(gts, res, references):
    """pycocoevalcap's ``Cider`` or, where it crashes because no reference has a word (``max()`` of its
    empty document frequencies), the value ngrameval documents: 0 for every item, which shares no
    n-gram with any reference."""
    try:
        return Cider().compute_score(gts, res)
    except ValueError:
        assert not any(r.split() for refs in references for r in refs), "pycocoevalcap crashed on another corpus"
        return 0.0, [0.0] * len(references)


def _corpora():
    rng = random.Random(SEED)
    return [random_corpus(rng, rng.choice([1, 2, 3, 10, 50])) for _ in range(cases(CORPORA))]


def test_random_captions():
    """600 corpora of 1 to 50 items (seed 2015), every scorer on each."""
    for number, (predictions, references) in enumerate(_corpora()):
        gts, res = coco_shape(predictions, references)
        what = f"corpus {number} ({len(predictions)} items)"

        expected, expected_items = _pycocoevalcap_cider(gts, res, references)
        result = cider(predictions, references)
        assert_close(result.cider, expected, rel=TOLERANCE, abs_tol=1e-12, what=f"{what}: CIDEr-D")
        assert_close(result.scores, list(expected_items), rel=TOLERANCE, abs_tol=1e-12, what=f"{what}: items")

        expected, expected_items = Bleu(4).compute_score(gts, res, verbose=0)
        result = ngrameval.bleu(predictions, references, variant="coco", weights=BLEU_WEIGHTS, sentence_level=True)
        assert_close(result.bleu, expected, rel=TOLERANCE, abs_tol=1e-12, what=f"{what}: Bleu_1..4")
        assert_close(
            [list(row) for row in zip(*result.sentence_scores)],
            expected_items,
            rel=TOLERANCE,
            abs_tol=1e-12,
            what=f"{what}: per-item Bleu",
        )

        expected, expected_items = Rouge().compute_score(gts, res)
        got = rouge_l(predictions, references)
        assert_close(float(got.mean()), expected, rel=TOLERANCE, abs_tol=1e-12, what=f"{what}: ROUGE_L")
        assert_close(got.tolist(), list(expected_items), rel=TOLERANCE, abs_tol=1e-12, what=f"{what}: items")


# --------------------------------------------------------------------------- CIDEr's order


def _pycocoevalcap_counting_k_grams(monkeypatch, order: int) -> None:
    """pycocoevalcap's scorer with the order it is given passed on to its n-gram counting (its
    ``cook_test`` and ``cook_refs`` default to 4 and ``CiderScorer`` calls them without ``n``)."""
    monkeypatch.setattr(cider_scorer.cook_test, "__defaults__", (order,))
    monkeypatch.setattr(cider_scorer.cook_refs, "__defaults__", (order,))


@pytest.mark.parametrize("order", [1, 2, 3, 5, 6])
def test_order_other_than_four(monkeypatch, order):
    """pycocoevalcap's ``Cider(n=k)`` crashes for k < 4 and, for k > 4, returns its 4-gram score times
    4 / k; ngrameval's ``max_order=k`` equals pycocoevalcap made to count k-grams."""
    predictions, references = random_corpus(random.Random(SEED + order), 30)
    gts, res = coco_shape(predictions, references)
    if order < 4:
        with pytest.raises(IndexError):
            Cider(n=order).compute_score(gts, res)
    else:
        four, _ = Cider(n=4).compute_score(gts, res)
        assert_close(Cider(n=order).compute_score(gts, res)[0], four * 4 / order, rel=1e-12)
    _pycocoevalcap_counting_k_grams(monkeypatch, order)
    expected, expected_items = Cider(n=order).compute_score(gts, res)
    result = cider(predictions, references, max_order=order)
    assert_close(result.cider, expected, rel=TOLERANCE, abs_tol=1e-12)
    assert_close(result.scores, list(expected_items), rel=TOLERANCE, abs_tol=1e-12)
