"""GLEU, Google's sentence-level BLEU (Wu et al., 2016): all n-grams of orders min_len..max_len counted together,
matches over max(prediction n-grams, reference n-grams), exact to (``variant``):

- ``nltk``: NLTK 3.10.4 ``corpus_gleu`` / ``sentence_gleu`` (whitespace tokens for strings; token lists as given);
- ``google_bleu``: HF evaluate's ``google_bleu`` metric: NLTK's ``corpus_gleu`` on the tokens of its own copy of
  sacrebleu's 13a tokenizer (``hf-13a``).

Per segment NLTK keeps the reference with the highest ratio matches / max(hyp, ref) n-grams (the first on ties;
references without n-grams facing a hypothesis without any are skipped); the corpus score sums both numbers over the
segments: the rows are (matches, n-grams) and add up.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ngrameval._version import __version__
from ngrameval.engine.corpus import index_corpus
from ngrameval.engine.inputs import cached_by_value, check_choice, check_flag, check_order, strict_options
from ngrameval.engine.ngrams import divide_or_zero, ngram_counts
from ngrameval.engine.peers import NLTK_VERSION
from ngrameval.errors import InputError
from ngrameval.metric import MetricFamily, Statistics, columns, register
from ngrameval.text.tokenizers import TokenizerSpec
from ngrameval.vocabulary import MetricResult, Predictions, References

VARIANTS = ("nltk", "google_bleu")
DEFAULT_TOKENIZE = {"nltk": "none", "google_bleu": "hf-13a"}


@dataclass(frozen=True)
class GleuOptions:
    """The checked options of :func:`gleu` (``tokenize`` resolved to the variant's default)."""

    variant: str
    min_len: int
    max_len: int
    tokenize: TokenizerSpec


@cached_by_value
def resolve_options(variant: str = "nltk", **options: Any) -> GleuOptions:
    """Check the options of :func:`gleu` that change the numbers (named as it names them, its defaults for the
    others; one clear ValueError each)."""
    given = FAMILY.with_defaults(dict(options, variant=variant))
    check_choice("variant", variant, VARIANTS)
    min_len, max_len = check_order("min_len", given["min_len"]), check_order("max_len", given["max_len"])
    if min_len > max_len:
        raise InputError(f"min_len ({min_len}) must not exceed max_len ({max_len})")
    tokenize = given["tokenize"]
    return GleuOptions(variant, min_len, max_len, DEFAULT_TOKENIZE[variant] if tokenize == "default" else tokenize)


def signature(options: GleuOptions, num_refs: Any, tokenizer_name: str) -> str:
    """Every option that changes the score, and the tools reproduced."""
    peer = "evaluate:google_bleu|" if options.variant == "google_bleu" else ""
    return (
        f"variant:{options.variant}|nrefs:{num_refs}|tok:{tokenizer_name}|min_len:{options.min_len}|"
        f"max_len:{options.max_len}|{peer}nltk:{NLTK_VERSION}|ngrameval:{__version__}"
    )


def _statistics(predictions: Any, references: Any, options: GleuOptions, pad_id: int | None = None):
    """Rows (matches, n-grams) of the chosen reference per segment, its index, nrefs and the tokenizer's name."""
    corpus = index_corpus(predictions, references, options.tokenize, False, options.max_len, pad_id)
    index, hypotheses = corpus.index, corpus.hypotheses
    found = index.match(hypotheses, options.max_len).hyp_count
    per_order = [index.clipped_per_cell(n, found[n - 1]) for n in range(options.min_len, options.max_len + 1)]
    # (sentences, reference slots): the matches of orders min_len..max_len against each reference alone
    matches = np.sum(per_order, axis=0).reshape(index.num_sentences, max(index.max_slots, 1))
    orders = slice(options.min_len - 1, options.max_len)
    present = index.slots_present()
    ngrams = np.maximum(
        ngram_counts(hypotheses.lengths, options.max_len)[:, None, orders].sum(axis=2),
        ngram_counts(index.by_slot(index.segment_len, 0), options.max_len)[:, :, orders].sum(axis=2),
    )
    usable = present & (ngrams > 0)
    ratio = np.where(usable, divide_or_zero(matches, ngrams), -np.inf)
    best = np.argmax(ratio, axis=1)  # the first of equal ratios, as Python's max keeps it
    take = np.arange(len(best))
    scored = usable[take, best]  # False: no reference had an n-gram to compare, the segment adds 0/0
    rows = columns(np.where(scored, matches[take, best], 0), np.where(scored, ngrams[take, best], 0))
    return rows, best, corpus.num_refs, corpus.tokenizer.name


@dataclass
class GleuResult(MetricResult):
    """A corpus GLEU score in [0, 1], its two sums, and optionally per-segment scores."""

    headline = "gleu"

    gleu: float
    n_match: int
    n_all: int
    signature: str
    sentence_scores: list[float] | None = None
    statistics: Statistics | None = field(default=None, repr=False)
    # Per prediction, the index of the reference its row counts (the first of the highest ratios).
    best_reference: list[int] | None = field(default=None, repr=False)


@strict_options
def gleu(
    predictions: Predictions,
    references: References,
    variant: str = "nltk",
    min_len: int = 1,
    max_len: int = 4,
    tokenize: TokenizerSpec = "default",
    sentence_level: bool = False,
    pad_id: int | None = None,
) -> GleuResult:
    """Corpus GLEU in [0, 1]: NLTK 3.10.4 ``corpus_gleu`` (``variant="nltk"``, strings split on
    whitespace) or HF evaluate's ``google_bleu`` (``variant="google_bleu"``, its 13a tokens);
    ``sentence_level`` adds ``sentence_gleu`` per prediction. ``tokenize`` takes the names BLEU takes,
    or a callable (what ``google_bleu`` calls ``tokenizer``). Token ids are taken as :func:`ngrameval.bleu`
    takes them (``pad_id`` dropped; the signature says ``tok:ids``).

    >>> result = gleu(["the cat sat on the mat"], [["the cat sat on a mat", "a cat sat"]], sentence_level=True)
    >>> result.n_match, result.n_all, round(result.gleu, 6)
    (11, 18, 0.611111)
    """
    return FAMILY.compute(**locals())


class GleuFamily(MetricFamily):
    """GLEU on the metric protocol: rows are the matches and n-grams of each segment's chosen
    reference; a sum of rows scores matches / n-grams (0 without n-grams)."""

    name = "gleu"
    function = staticmethod(gleu)
    options_not_for_statistics = ("sentence_level",)
    merged_option_values = {"sentence_level": False}

    def statistics_and_seen(
        self, predictions: Any, references: Any, parts: dict[str, Any], **options: Any
    ) -> tuple[Statistics, np.ndarray]:
        pad_id = options.pop("pad_id", None)  # (how to read the ids; the signature says tok:ids)
        resolved = resolve_options(**options)
        check_flag("sentence_level", parts.get("sentence_level", False))
        rows, best, num_refs, tokenizer_name = _statistics(predictions, references, resolved, pad_id)
        return Statistics(self.name, rows, ("gleu",), signature(resolved, num_refs, tokenizer_name)), best

    def add_parts(
        self, result: GleuResult, stats: Statistics, seen: np.ndarray, predictions: Any, references: Any, **parts: Any
    ) -> GleuResult:
        result.best_reference = seen.tolist()
        return super().add_parts(result, stats, seen, predictions, references, **parts)

    def score_totals(self, stats: Statistics, totals: np.ndarray, weights: np.ndarray | None) -> np.ndarray:
        return divide_or_zero(totals[:, :1], totals[:, 1:])

    def result(self, stats: Statistics, totals: np.ndarray, segments: np.ndarray) -> GleuResult:
        n_match, n_all = totals[0].tolist()
        return GleuResult(float(divide_or_zero(n_match, n_all)), int(n_match), int(n_all), stats.signature)


FAMILY = register(GleuFamily())
