"""METEOR, exact to METEOR 1.5 (the jar pycocoevalcap runs) or to NLTK's ``meteor_score``.

========= =====================================================================
variant   reproduces
========= =====================================================================
meteor15  meteor-1.5.jar (Denkowski & Lavie, 2014) as pycocoevalcap 1.2 runs it
          (``-l en -norm``): exact, stem, synonym and paraphrase modules,
          function-word weighting, its beam search; the corpus score comes from
          the summed statistics (:mod:`ngrameval.metrics.meteor15`)
nltk      NLTK 3.10.4 ``meteor_score``: exact, Porter-stem and WordNet-synonym
          stages, greedy alignment, best reference; the corpus score is the mean
          of sentence scores, as Hugging Face's ``meteor`` (:mod:`ngrameval.metrics.meteor_nltk`)
========= =====================================================================
"""

from __future__ import annotations

import math
import os
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ngrameval._version import __version__
from ngrameval.engine.cache import cleared_with_caches
from ngrameval.engine.inputs import check_choice, check_flag, normalize_corpus, strict_options
from ngrameval.engine.token_ids import refuse_token_ids
from ngrameval.errors import InputError
from ngrameval.metric import MetricFamily, ScoresAndSeen, Statistics, means, register, rows_with_count
from ngrameval.vocabulary import MetricResult, Predictions, References

VARIANTS = ("meteor15", "nltk")
# The NLTK variant's options; the other options of meteor() (but explain and sentence_level) are METEOR 1.5's.
_NLTK_OPTIONS = {"alpha", "beta", "gamma", "tokenize", "wordnet"}
_MATCH_KEYS = ("module", "hypothesis_start", "hypothesis_length", "reference_start", "reference_length")
# METEOR 1.5 scorers by options: their data is loaded once per process (until ngrameval.clear_caches()).
_SCORERS: dict[tuple, Any] = cleared_with_caches({})
_SCORERS_LOCK = threading.Lock()


@dataclass
class MeteorResult(MetricResult):
    """A corpus METEOR score, the score of every segment, and optionally an explanation.

    ``precision``, ``recall``, ``fmean`` and ``penalty`` are the corpus-level parts METEOR 1.5
    computes from the summed statistics (None for the NLTK variant, which has no corpus level)."""

    headline = "meteor"

    meteor: float
    scores: list[float] | None
    variant: str
    signature: str
    precision: float | None = None
    recall: float | None = None
    fmean: float | None = None
    penalty: float | None = None
    note: str | None = None
    explanation: list[dict[str, Any]] | None = None
    statistics: Statistics | None = field(default=None, repr=False)

    @property
    def sentence_scores(self) -> list[float] | None:
        """The score of every segment (given unless ``sentence_level=False``); :attr:`scores` is its other name
        (pycocoevalcap's)."""
        return self.scores

    def as_dict(self) -> dict[str, Any]:
        """The result as the dict the evaluate metric returns (the parts that apply)."""
        return {name: value for name, value in self.__dict__.items() if value is not None and name != "statistics"}


def _explanation(
    hypothesis: Sequence[str], reference: Sequence[str], index: int, matches: list[tuple], **parts: Any
) -> dict[str, Any]:
    """One segment's explanation, either variant's; ``matches``: (module, hypothesis start, length, reference
    start, length) each."""
    return {
        "hypothesis": list(hypothesis),
        "reference": list(reference),
        "reference_index": int(index),
        "matches": [
            {
                **dict(zip(_MATCH_KEYS, match)),
                "hypothesis_words": list(hypothesis[match[1] : match[1] + match[2]]),
                "reference_words": list(reference[match[3] : match[3] + match[4]]),
            }
            for match in matches
        ],
        **parts,
    }


def _defined(value: float) -> float:
    """A part of the score, 0 where it is undefined (no matches: fragmentation 0/0), as the NLTK variant."""
    return float(value) if math.isfinite(value) else 0.0


def _meteor15(
    predictions: Any, references: Any, options: dict[str, Any], explain: bool
) -> tuple[np.ndarray, str, dict[str, Any], list[dict[str, Any]] | None]:
    """METEOR 1.5's rows (the jar's statistics, :func:`~ngrameval.metrics.meteor15.score.summable`), signature,
    context (its parameters, a note on modules that could not run) and, with ``explain``, explanation."""
    from ngrameval.metrics.meteor15 import Meteor15
    from ngrameval.metrics.meteor15.score import SCORE_PARTS, summable

    # Sequences (lists, numpy arrays) become tuples so that the options can be a key; options are
    # checked when the scorer is made, so a refused value (NaN, a string) never enters the cache.
    key = tuple(
        (
            name,
            value if isinstance(value, (str, bytes, os.PathLike)) or not hasattr(value, "__iter__") else tuple(value),
        )
        for name, value in sorted(options.items())
    )
    with _SCORERS_LOCK:
        scorer = _SCORERS.get(key) or _SCORERS.setdefault(key, Meteor15(**options))
    hyps, refs, pretokenized = normalize_corpus(predictions, references)
    if pretokenized:  # the jar reads text
        hyps, refs = [" ".join(h) for h in hyps], [[" ".join(r) for r in group] for group in refs]
    # What pycocoevalcap's ``Meteor`` sends the jar: ``|||`` (its field separator) removed, double spaces halved once.
    hyps = [h.replace("|||", "").replace("  ", " ") for h in hyps]
    result = scorer.score(hyps, refs)
    p = scorer.parameters
    signature = (
        f"variant:meteor15|modules:{','.join(scorer.modules)}|weights:{','.join(f'{w:g}' for w in p.weights)}"
        f"|params:{p.alpha:g},{p.beta:g},{p.gamma:g},{p.delta:g}|norm:{scorer.normalization}"
        f"|ngrameval:{__version__}"
    )
    explanation = None
    if explain:
        explanation = [
            _explanation(
                e.hypothesis,
                e.reference,
                e.best_reference,
                [(m.module, m.hyp_start, m.hyp_length, m.ref_start, m.ref_length) for m in e.matches],
                chunks=int(e.chunks),
                **{name: _defined(getattr(e, name)) for name in SCORE_PARTS},
                reference_scores=[_defined(s) for s in e.reference_scores],
            )
            for e in (scorer.explain(h, group) for h, group in zip(hyps, refs))
        ]
    note = "; ".join(f"{module} module off: {why}" for module, why in result.modules_off.items()) or None
    return summable(result.statistics), signature, {"parameters": p, "note": note}, explanation


def _nltk(
    predictions: Any, references: Any, options: dict[str, Any], explain: bool
) -> tuple[np.ndarray, str, dict[str, Any], list[dict[str, Any]] | None]:
    """The NLTK variant's rows (:func:`~ngrameval.metric.rows_with_count` of the sentence scores), signature,
    context (no parameters: the corpus score is their mean) and, with ``explain``, explanation."""
    from ngrameval.metrics.meteor_nltk import DEFAULTS, TOKENIZERS, WORDNET_VERSION, nltk_meteor
    from ngrameval.metrics.meteor_nltk import tokenize as tokenize_texts

    tokenize = options.get("tokenize", "nltk")
    if not callable(tokenize):
        check_choice("tokenize", tokenize, TOKENIZERS)
    alpha, beta, gamma = (options.get(name, default) for name, default in DEFAULTS.items())
    hyps, refs, pretokenized = normalize_corpus(predictions, references)
    tokenizer_name = "given"
    if not pretokenized:
        tokens = iter(tokenize_texts(list(hyps) + [r for group in refs for r in group], tokenize))
        hyps, refs = [next(tokens) for _ in hyps], [[next(tokens) for _ in group] for group in refs]
        tokenizer_name = (
            tokenize if isinstance(tokenize, str) else getattr(tokenize, "__name__", type(tokenize).__name__)
        )
    result = nltk_meteor(hyps, refs, alpha, beta, gamma, explain, options.get("wordnet"))
    signature = (
        f"variant:nltk|tok:{tokenizer_name}|alpha:{alpha:g}|beta:{beta:g}"
        f"|gamma:{gamma:g}|wordnet:{WORDNET_VERSION}|ngrameval:{__version__}"
    )
    explanation = None
    if explain:
        assert result.alignments is not None  # nltk_meteor gives them with explain=True
        parts = ("chunks", "precision", "recall", "fmean", "penalty", "score")
        explanation = [
            _explanation(
                h,
                refs[i][a.reference],
                a.reference,
                [(stage, hp, 1, rp, 1) for hp, rp, stage in a.matches],
                **{name: getattr(a, name) for name in parts},
            )
            for i, (h, a) in enumerate(zip(hyps, result.alignments))
        ]
    return rows_with_count(np.array(result.scores)), signature, {"parameters": None, "note": None}, explanation


@strict_options
def meteor(
    predictions: Predictions,
    references: References,
    variant: str = "meteor15",
    *,
    task: str | None = None,
    modules: Sequence[str] | None = None,
    weights: Sequence[float] | None = None,
    parameters: Sequence[float] | None = None,
    normalization: str | None = None,
    beam_size: int | None = None,
    paraphrase_table: Any = None,
    cache_dir: Any = None,
    alpha: float | None = None,
    beta: float | None = None,
    gamma: float | None = None,
    tokenize: str | Callable[[str], Any] | None = None,
    wordnet: Any = None,
    explain: bool = False,
    sentence_level: bool = True,
) -> MeteorResult:
    """METEOR of predictions against references (one string or a list of strings per prediction).

    ``variant="meteor15"`` (default) is METEOR 1.5 as pycocoevalcap runs it; its options are the
    jar's: ``task`` (``"rank"`` default, ``"adq"``, ``"hter"``, ``"li"``, ...), ``modules``,
    ``weights``, ``parameters`` (alpha, beta, gamma, delta), ``normalization`` (``"norm"``
    default, ``"norm_nopunct"``, ``"lower"``, ``"none"``), ``beam_size``, ``paraphrase_table``
    (a path; default pycocoevalcap's ``paraphrase-en.gz`` when installed; ``False``: none) and
    ``cache_dir`` (where the table's index is kept). ``variant="nltk"`` is NLTK's
    ``meteor_score`` with ``alpha``, ``beta``, ``gamma`` (0.9, 3, 0.5), ``tokenize``
    (``"nltk"``: NLTK's word tokenizer, default; ``"whitespace"``; or a callable, ``str -> list
    of str``) and ``wordnet`` (the directory of WordNet 3.0's files; found by default).

    Every number must be finite and in METEOR's range (alpha, gamma, delta and module weights in
    [0, 1], beta >= 0, ``beam_size`` a positive integer) and ``explain`` a bool: anything else is a
    ValueError naming the option. Every segment's score is given (``scores``, also named ``sentence_scores``)
    unless ``sentence_level=False``.

    >>> prediction = "It is a guide to action which ensures that the military always obeys the commands of the party"
    >>> reference = "It is a guide to action that ensures that the military will forever heed Party commands"
    >>> round(meteor([prediction], [reference], variant="nltk", tokenize="whitespace").meteor, 6)
    0.694444
    """
    return FAMILY.compute(**locals())


class MeteorFamily(ScoresAndSeen, MetricFamily):
    """METEOR on the metric protocol. METEOR 1.5 scores summed statistics, as the jar's corpus
    score (rows: its stats-line numbers per segment, the chunks of perfect segments left out as its
    ``addStats`` does); NLTK's variant averages segment scores."""

    name = "meteor"
    function = staticmethod(meteor)

    def statistics_and_seen(
        self, predictions: Any, references: Any, parts: dict[str, Any], **options: Any
    ) -> tuple[Statistics, list[dict[str, Any]] | None]:
        # (the explanations come from the alignments that count the statistics)
        settings = self.with_defaults(options)
        variant = settings.pop("variant")
        check_choice("variant", variant, VARIANTS)
        explain = check_flag("explain", parts.get("explain", False))
        check_flag("sentence_level", parts.get("sentence_level", True))
        given = {name: value for name, value in settings.items() if value is not None}
        other = "nltk" if variant == "meteor15" else "meteor15"
        foreign = sorted(set(given) - _NLTK_OPTIONS if variant == "nltk" else set(given) & _NLTK_OPTIONS)
        if foreign:
            raise InputError(
                f"{', '.join(foreign)} {'is an option' if len(foreign) == 1 else 'are options'} of "
                f"variant={other!r}, not of variant={variant!r}"
            )
        refuse_token_ids(predictions, "meteor", "words (stems, synonyms and paraphrases)")
        score = _nltk if variant == "nltk" else _meteor15
        rows, signature, context, explanation = score(predictions, references, given, explain)
        return Statistics(self.name, rows, ("meteor",), signature, context), explanation

    def score_totals(self, stats: Statistics, totals: np.ndarray, weights: np.ndarray | None) -> np.ndarray:
        parameters = stats.context["parameters"]
        if parameters is None:  # NLTK: the mean of segment scores
            return means(totals)
        from ngrameval.metrics.meteor15.score import compute

        return compute(totals, parameters)["score"][:, None]

    def pairwise_columns(self, stats: Statistics) -> tuple[int, ...]:
        return (0,) if stats.context["parameters"] is None else ()  # NLTK's corpus score: np.mean

    def segment_columns(self, stats: Statistics) -> tuple[int, ...]:
        # NLTK: the segment scores; METEOR 1.5: every statistic, of which each segment's score is made.
        return (0,) if stats.context["parameters"] is None else tuple(range(stats.rows.shape[1]))

    def result(self, stats: Statistics, totals: np.ndarray, segments: np.ndarray) -> MeteorResult:
        parameters = stats.context["parameters"]
        if parameters is None:  # NLTK: the mean of the sentence scores (numpy.mean, as HF's ``meteor``)
            scores = segments[:, 0]
            return MeteorResult(float(np.mean(scores)), scores.tolist(), "nltk", stats.signature)
        from ngrameval.metrics.meteor15.score import compute

        corpus = {name: float(values[0]) for name, values in compute(totals, parameters).items()}
        # A segment's summable row scores as its own statistics do (a perfect match's chunks, set to
        # 0 there, give the fragmentation 0 that a perfect match has).
        scores = compute(segments, parameters)["score"].tolist()
        parts: dict[str, Any] = {name: corpus[name] for name in ("precision", "recall", "fmean", "penalty")}
        return MeteorResult(corpus["score"], scores, "meteor15", stats.signature, **parts, note=stats.context["note"])


FAMILY = register(MeteorFamily())
