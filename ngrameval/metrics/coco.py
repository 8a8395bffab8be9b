"""The COCO caption evaluation suite (pycocoevalcap 1.2's ``COCOEvalCap``) in one call.

pycocoevalcap tokenizes every caption with Stanford's PTBTokenizer (:mod:`ngrameval.text.ptb`) and runs
BLEU-1..4 (``variant="coco"``), METEOR 1.5, ROUGE-L (:func:`rouge_l`) and CIDEr-D on the space-joined
tokens. SPICE is not offered: it needs Stanford CoreNLP models that no package registry ships.

Input is predictions/references as everywhere in ngrameval, or pycocoevalcap's own shapes:
``gts`` (image id -> reference captions) and ``res`` (image id -> one caption, or a COCO results
list of ``{"image_id", "caption"}``); captions may be strings or ``{"caption": ...}`` dicts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ngrameval.engine.inputs import check_choice, check_flag, normalize_corpus, strict_options
from ngrameval.engine.lcs import lcs_lengths
from ngrameval.engine.runs import offsets, vocabulary_ids
from ngrameval.engine.token_ids import refuse_token_ids
from ngrameval.errors import InputError
from ngrameval.metric import (
    MetricFamily,
    ReferenceCounts,
    ScoresAndSeen,
    Statistics,
    get_family,
    means,
    register,
    rows_with_count,
)
from ngrameval.vocabulary import MetricResult, Predictions, References

METRICS = ("bleu", "meteor", "rouge_l", "cider")
TOKENIZERS = ("ptb", "none")
# What the signature of the suite says for pycocoevalcap's ROUGE-L (:func:`rouge_l`), which has no options.
ROUGE_L_SIGNATURE = "rouge_l:pycocoevalcap-1.2"
_BLEU_WEIGHTS = [(1.0,), (0.5, 0.5), (1 / 3,) * 3, (0.25,) * 4]
# Per metric of the suite: the options of its family, and its outputs' names in pycocoevalcap.
_PARTS: dict[str, tuple[dict[str, Any], tuple[str, ...]]] = {
    "bleu": ({"variant": "coco", "weights": _BLEU_WEIGHTS}, ("Bleu_1", "Bleu_2", "Bleu_3", "Bleu_4")),
    "meteor": ({"variant": "meteor15"}, ("METEOR",)),
    "rouge_l": ({}, ("ROUGE_L",)),
    "cider": ({"variant": "cider-d"}, ("CIDEr",)),
}


def rouge_l(predictions: Sequence[str], references: Sequence[Sequence[str]], beta: float = 1.2) -> np.ndarray:
    """pycocoevalcap 1.2 ``Rouge``: per item, the F-measure (``beta`` 1.2) of the highest LCS
    precision and the highest LCS recall over the references -- taken separately, possibly from
    different references. Tokens are the text split on single spaces, as pycocoevalcap splits.

    >>> rouge_l(["a man rides a horse"], [["a man riding a horse on a beach", "a person rides a horse"]]).tolist()
    [0.8]
    """
    candidates = [p.split(" ") for p in predictions]
    refs = [r.split(" ") for group in references for r in group]
    cand_len = np.fromiter(map(len, candidates), np.int64, len(candidates))
    ref_len = np.fromiter(map(len, refs), np.int64, len(refs))
    cand_ids, ref_ids = np.split(vocabulary_ids(candidates + refs)[1], [int(cand_len.sum())])
    item = np.repeat(np.arange(len(candidates)), [len(group) for group in references])
    lcs = lcs_lengths(ref_ids, offsets(ref_len), cand_ids, offsets(cand_len), np.arange(len(refs)), item)
    precision, recall = np.full((2, len(candidates)), -np.inf)
    np.maximum.at(precision, item, lcs / cand_len[item])
    np.maximum.at(recall, item, lcs / ref_len)
    with np.errstate(divide="ignore", invalid="ignore"):
        score = (1 + beta**2) * precision * recall / (recall + beta**2 * precision)
    return np.where((precision != 0) & (recall != 0), score, 0.0)


def _caption(value: Any, where: str) -> str:
    if isinstance(value, dict):
        if "caption" not in value:
            raise InputError(f"{where} is a dict without a 'caption' key")
        value = value["caption"]
    if not isinstance(value, str):
        raise InputError(f"{where} is {type(value).__name__}; captions must be strings")
    return value


def from_coco(gts: Any, res: Any) -> tuple[list[Any], list[str], list[list[str]]]:
    """pycocoevalcap's ``gts``/``res`` -> (image ids in ``gts`` order, predictions, references).

    >>> from_coco({1: ["a dog", "the dog"]}, [{"image_id": 1, "caption": "a dog runs"}])
    ([1], ['a dog runs'], [['a dog', 'the dog']])
    """
    if not isinstance(gts, dict):
        raise InputError(f"gts must be a dict of image id -> reference captions, got {type(gts).__name__}")
    if isinstance(res, (list, tuple)):
        results: dict[Any, list[Any]] = {}
        for k, entry in enumerate(res):
            if not isinstance(entry, dict) or "image_id" not in entry or "caption" not in entry:
                raise InputError(f"res[{k}] must be a dict with 'image_id' and 'caption'")
            results.setdefault(entry["image_id"], []).append(entry)
        res = results
    if not isinstance(res, dict):
        raise InputError(
            f"res must be a dict of image id -> [caption] or a COCO results list, got {type(res).__name__}"
        )
    only_gts = [k for k in gts if k not in res]
    only_res = [k for k in res if k not in gts]
    if only_gts or only_res:
        raise InputError(
            f"gts and res must have the same image ids: {len(only_gts)} only in gts "
            f"(e.g. {only_gts[:3]}), {len(only_res)} only in res (e.g. {only_res[:3]})"
        )
    ids = list(gts)
    predictions, references = [], []
    for image in ids:
        captions = res[image] if isinstance(res[image], (list, tuple)) else [res[image]]
        if len(captions) != 1:
            raise InputError(
                f"image {image!r} has {len(captions)} results; COCO evaluation takes exactly one caption per image"
            )
        predictions.append(_caption(captions[0], f"res[{image!r}]"))
        group = gts[image]
        if isinstance(group, (str, dict)):
            group = [group]
        if not isinstance(group, (list, tuple)) or not group:
            raise InputError(f"gts[{image!r}] must be a non-empty list of captions")
        references.append([_caption(c, f"gts[{image!r}][{j}]") for j, c in enumerate(group)])
    return ids, predictions, references


@dataclass
class CocoCaptionResult(MetricResult):
    """Corpus scores named as pycocoevalcap names them (``Bleu_1`` .. ``Bleu_4``, ``METEOR``,
    ``ROUGE_L``, ``CIDEr``), the same per item (:attr:`sentence_scores`, also named :attr:`per_item`),
    the image ids when given in COCO shape, and the signature (the suite's tokenizer, then its parts').
    :attr:`score`, the headline, is ``CIDEr`` when computed, else the first of the scores."""

    scores: dict[str, float]
    per_item: dict[str, list[float]] | None
    image_ids: list[Any] | None = None
    meteor_note: str | None = None
    signature: str = ""

    @property
    def score(self) -> float:
        return float(self.scores.get("CIDEr", next(iter(self.scores.values()))))

    @property
    def sentence_scores(self) -> dict[str, list[float]] | None:
        """The scores of every item by metric (given unless ``sentence_level=False``); :attr:`per_item` is its
        other name."""
        return self.per_item

    def as_dict(self) -> dict[str, Any]:
        """The result as the dict the evaluate metric returns."""
        parts = {"per_item": self.per_item, "image_ids": self.image_ids, "meteor_note": self.meteor_note or None}
        return {**self.scores, **{name: value for name, value in parts.items() if value is not None}}


def _tokenized_captions(
    predictions: Any, references: Any, gts: Any, res: Any, tokenize: str, metrics: Sequence[str]
) -> tuple[list[Any] | None, list[str], list[list[str]]]:
    """Check the options and the input (either shape), then tokenize as COCOEvalCap does:
    (image ids or None, predictions, references per prediction)."""
    check_choice("tokenize", tokenize, TOKENIZERS)
    if isinstance(metrics, str):
        raise InputError(f"metrics must be a list of metric names from {', '.join(METRICS)}, got {metrics!r}")
    for name in metrics:
        check_choice("metric", name, METRICS)
    if not metrics:
        raise InputError(f"metrics is empty; choose from {', '.join(METRICS)}")
    if gts is not None or res is not None:
        if predictions is not None or references is not None:
            raise InputError("give either predictions/references or gts/res, not both")
        if gts is None or res is None:
            raise InputError("COCO-shaped input needs both gts and res")
        image_ids, hyps, refs = from_coco(gts, res)
    else:
        image_ids = None
        refuse_token_ids(predictions, "coco_caption", "the words of captions (PTB tokens, METEOR)")
        hyps, refs, pretokenized = normalize_corpus(predictions, references)
        if pretokenized:
            raise InputError("coco_caption takes strings (captions), not token lists")
    if tokenize == "ptb":
        from ngrameval.text.ptb import ptb_tokenize

        # Two runs, references first, as COCOEvalCap runs the Java tokenizer: a text's last tokens can
        # depend on the text after it ("U.S." before "The"), so one run over both could differ.
        flat_refs = iter(ptb_tokenize([r for group in refs for r in group]))
        hyps = ptb_tokenize(list(hyps))
        refs = [[next(flat_refs) for _ in group] for group in refs]
    return image_ids, hyps, refs


@strict_options
def coco_caption(
    predictions: Predictions | None = None,
    references: References | None = None,
    *,
    gts: Any = None,
    res: Any = None,
    tokenize: str = "ptb",
    metrics: Sequence[str] = METRICS,
    meteor_options: dict[str, Any] | None = None,
    sentence_level: bool = True,
) -> CocoCaptionResult:
    """BLEU-1..4, METEOR, ROUGE-L and CIDEr-D as pycocoevalcap's ``COCOEvalCap`` computes them.

    ``tokenize="ptb"`` (default) tokenizes as pycocoevalcap does; ``"none"`` takes the texts as
    they are (already tokenized, or raw as nlg-eval passes them). ``metrics`` picks a subset of
    ``("bleu", "meteor", "rouge_l", "cider")``; ``meteor_options`` go to :func:`ngrameval.meteor`. Every
    item's scores are given (``per_item``, also named ``sentence_scores``) unless ``sentence_level=False``.

    >>> result = coco_caption(gts={1: ["A man riding a horse on a beach.", "A person rides a horse."],
    ...                            2: ["Two dogs play in the grass.", "Dogs playing on a lawn."]},
    ...                       res={1: ["A man rides a horse."], 2: ["Two dogs are playing in grass."]},
    ...                       metrics=("bleu", "rouge_l", "cider"))
    >>> {name: round(value, 6) for name, value in result.scores.items()}
    {'Bleu_1': 0.909091, 'Bleu_2': 0.635642, 'Bleu_3': 0.386464, 'Bleu_4': 5.8e-05, 'ROUGE_L': 0.733333, 'CIDEr': 2.313348}
    """
    return FAMILY.compute(**locals())


class _PycocoevalcapRougeL(MetricFamily):
    """pycocoevalcap's ROUGE-L (:func:`rouge_l`) as a part of the suite's statistics: the items' scores and a count
    (not registered: it is the suite's, on the suite's tokens)."""

    name = "coco_caption.rouge_l"
    function = staticmethod(rouge_l)

    def statistics_and_seen(
        self, predictions: Any, references: Any, parts: dict[str, Any], **options: Any
    ) -> tuple[Statistics, None]:
        rows = rows_with_count(rouge_l(predictions, references))
        return Statistics(self.name, rows, ("ROUGE_L",), ROUGE_L_SIGNATURE), None

    def score_totals(self, stats: Statistics, totals: np.ndarray, weights: np.ndarray | None) -> np.ndarray:
        return means(totals)

    def pairwise_columns(self, stats: Statistics) -> tuple[int, ...]:
        return (0,)  # the suite's ROUGE_L is np.mean of the segment scores

    def segment_columns(self, stats: Statistics) -> tuple[int, ...]:
        return (0,)

    def result(self, stats: Statistics, totals: np.ndarray, segments: np.ndarray) -> np.ndarray:
        return segments[:, 0]  # what rouge_l returns: the per-item scores


class CocoCaptionFamily(ScoresAndSeen, MetricFamily):
    """The COCO suite on the metric protocol: the statistics of BLEU (``coco``, Bleu_1..4), METEOR 1.5,
    pycocoevalcap's ROUGE-L and CIDEr-D on the suite's tokens, side by side; each part is scored by
    its own family."""

    name = "coco_caption"
    function = staticmethod(coco_caption)
    options_not_for_statistics = ("sentence_level",)
    merged_option_values = {"sentence_level": True}
    seen_field, scores_field = "image_ids", "per_item"

    def statistics(self, predictions: Any = None, references: Any = None, **options: Any) -> Statistics:
        return self.shard_statistics(predictions, references, None, **options)

    def statistics_and_seen(
        self, predictions: Any, references: Any, parts: dict[str, Any], **options: Any
    ) -> tuple[Statistics, list[Any] | None]:
        # (what the captions' reading saw: the image ids of COCO-shaped input, which the result lists)
        check_flag("sentence_level", parts.get("sentence_level", True))
        return self._statistics_and_image_ids(predictions, references, None, **options)

    def needs_reference_counts(self, **options: Any) -> bool:
        # CIDEr-D's document frequencies come from every image's references.
        return "cider" in self.with_defaults(options)["metrics"]

    def reference_counts(self, predictions: Any, references: Any, **options: Any) -> ReferenceCounts | None:
        if not self.needs_reference_counts(**options):
            return None
        _, _, hyps, refs = self._captions(predictions, references, options)
        return get_family("cider").reference_counts(hyps, refs, variant="cider-d")

    def shard_statistics(
        self, predictions: Any, references: Any, counts: ReferenceCounts | None, **options: Any
    ) -> Statistics:
        """The suite's statistics, CIDEr-D's against the whole corpus's document frequencies ``counts``
        when the corpus is scored in shards (None: these captions are the corpus)."""
        return self._statistics_and_image_ids(predictions, references, counts, **options)[0]

    def _captions(self, predictions: Any, references: Any, options: dict[str, Any]) -> tuple[Any, ...]:
        """The options with their defaults, then :func:`_tokenized_captions`' image ids, predictions and references."""
        settings = self.with_defaults(options)
        given = (settings[name] for name in ("gts", "res", "tokenize", "metrics"))
        return (settings, *_tokenized_captions(predictions, references, *given))

    def _statistics_and_image_ids(
        self, predictions: Any, references: Any, counts: ReferenceCounts | None, **options: Any
    ) -> tuple[Statistics, list[Any] | None]:
        """:meth:`shard_statistics` (the parts' rows side by side; the signature ``coco_caption|tok:...|`` then
        the parts'), and the image ids of COCO-shaped input (None for predictions/references)."""
        settings, image_ids, hyps, refs = self._captions(predictions, references, options)
        parts: list[tuple[MetricFamily, Statistics]] = []
        for name in (name for name in METRICS if name in settings["metrics"]):
            family = _PycocoevalcapRougeL() if name == "rouge_l" else get_family(name)
            extra = (settings["meteor_options"] or {}) if name == "meteor" else {}
            part = family.shard_statistics(hyps, refs, counts if name == "cider" else None, **_PARTS[name][0], **extra)
            parts.append((family, part))
        stats = Statistics(
            self.name,
            np.hstack([part.rows for _, part in parts]),
            tuple(output for name in METRICS if name in settings["metrics"] for output in _PARTS[name][1]),
            f"{self.name}|tok:{settings['tokenize']}|{' + '.join(part.signature for _, part in parts)}",
            {"parts": [(family, part, part.rows.shape[1]) for family, part in parts]},
        )
        return stats, image_ids

    @staticmethod
    def _parts(stats: Statistics) -> list[tuple[MetricFamily, Statistics, slice, tuple[int, ...]]]:
        """Each part's family, its statistics read from the suite's rows, its columns there, and the columns of
        its own that the suite lists per item (BLEU's: all of them, of which its sentence scores are made)."""
        parts, start = [], 0
        for family, part, width in stats.context["parts"]:
            own = replace(part, rows=stats.rows[:, start : start + width])
            listed = tuple(range(width)) if family.name == "bleu" else family.segment_columns(own)
            parts.append((family, own, slice(start, start + width), listed))
            start += width
        return parts

    def pairwise_columns(self, stats: Statistics) -> tuple[int, ...]:
        return tuple(
            cols.start + c for family, own, cols, _ in self._parts(stats) for c in family.pairwise_columns(own)
        )

    def score_totals(self, stats: Statistics, totals: np.ndarray, weights: np.ndarray | None) -> np.ndarray:
        return np.hstack(
            [family.score_totals(own, totals[:, cols], weights) for family, own, cols, _ in self._parts(stats)]
        )

    def segment_scores(self, stats: Statistics) -> np.ndarray:
        return np.hstack([family.segment_scores(own) for family, own, _, _ in self._parts(stats)])

    def segment_columns(self, stats: Statistics) -> tuple[int, ...]:
        return tuple(cols.start + c for _, _, cols, listed in self._parts(stats) for c in listed)

    def result(self, stats: Statistics, totals: np.ndarray, segments: np.ndarray) -> CocoCaptionResult:
        """The suite's scores and per-item scores, named as pycocoevalcap names them (``image_ids`` None: the
        rows are not COCO-shaped input)."""
        scores: dict[str, float] = {}
        per_item: dict[str, list[float]] = {}
        meteor_note, first = None, 0
        for family, own, cols, listed in self._parts(stats):
            values = segments[:, first : first + len(listed)]
            first += len(listed)
            if family.name == "bleu":  # four weight sets: Bleu_1..4, from all its columns (its result takes none)
                corpus = family.result(own, totals[:, cols], values[:, :0]).bleu
                sentences = family.segment_scores(replace(own, rows=values))
                for n in range(4):
                    scores[f"Bleu_{n + 1}"], per_item[f"Bleu_{n + 1}"] = corpus[n], sentences[:, n].tolist()
                continue
            result = family.result(own, totals[:, cols], values)
            if family.name == "meteor":
                scores["METEOR"], per_item["METEOR"], meteor_note = result.meteor, result.scores, result.note
            elif family.name == "cider":
                scores["CIDEr"], per_item["CIDEr"] = result.cider, result.scores
            else:  # pycocoevalcap's ROUGE-L: the per-item scores
                scores["ROUGE_L"], per_item["ROUGE_L"] = float(np.mean(result)), result.tolist()
        return CocoCaptionResult(scores, per_item, None, meteor_note, stats.signature)


FAMILY = register(CocoCaptionFamily())
