"""TER, translation edit rate (Snover et al., 2006), exact to sacrebleu 2.6.0's ``TER``.

TER counts the word insertions, deletions, substitutions and *shifts* (moving a block of words, one edit
each) that turn a prediction into a reference, divided by the reference length. sacrebleu follows Tercom's
greedy search: while some shift lowers the edit distance, apply the best one, trying only blocks that match
the reference elsewhere, are misaligned now, are at most 10 words long and move at most 50 positions, and
giving up after 1000 candidate shifts per reference. A segment's row is (the fewest edits over its
references, their *average* length): rows add up.

sacrebleu's quirks reproduced: its Tercom tokenizer runs once on each prediction but *twice* on each
reference (``TER._preprocess_segment`` runs again inside ``_extract_reference_info``), which with
``normalized`` splits a reference further (``'s`` before the space the first pass added, ``..1``); its
edit distance is filled only inside a beam (:mod:`ngrameval.engine.editdistance`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ngrameval.engine.cache import cleared_with_caches
from ngrameval.engine.editdistance import DELETION, INSERTION, MATCH, SUBSTITUTION, Alignment, BeamEditDistance
from ngrameval.engine.inputs import check_flag, normalize_corpus, strict_options
from ngrameval.engine.peers import SACREBLEU_VERSION
from ngrameval.engine.token_ids import refuse_token_ids
from ngrameval.errors import InputError
from ngrameval.metric import SACREBLEU_RESAMPLING, MetricFamily, Resampling, Statistics, array_of_scores, register
from ngrameval.text.tokenizers import RULES_13A
from ngrameval.vocabulary import MetricResult, Predictions, References, aliased

# sacrebleu lib_ter's limits of the shift search (the first two are Tercom's).
MAX_SHIFT_SIZE = 10
MAX_SHIFT_DISTANCE = 50
MAX_SHIFT_CANDIDATES = 1000

# sacrebleu 2.6.0 tokenizers/tokenizer_ter.py, rule for rule (a port of Tercom's Normalizer.java).
# (Its first rules have literal patterns and replacements: str.replace does the same, faster.)
_WESTERN_LITERAL = (("\n-", ""), ("\n", " "), ("&quot;", '"'), ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"))
# (Its last three are 13a's rules after the punctuation one, the same patterns and replacements.)
_WESTERN_AFTER_PADDING = [
    (re.compile(pattern), replacement)
    for pattern, replacement in ((r"([{-~[-` -&(-+:-@/])", r" \1 "), (r"'s ", r" 's "), (r"'s$", r" 's"))
] + RULES_13A
_ASIAN_PUNCT = r"([\u3001\u3002\u3008-\u3011\u3014-\u301f\uff61-\uff65\u30fb])"
_FULL_WIDTH_PUNCT = r"([\uff0e\uff0c\uff1f\uff1a\uff1b\uff01\uff02\uff08\uff09])"
# (The kana rules' "^[...]" inside a group is sacrebleu's, an anchor rather than a negation: kept.)
_ASIAN = [
    (re.compile(pattern), replacement)
    for pattern, replacement in (
        (r"([\u4e00-\u9fff\u3400-\u4dbf])", r" \1 "),
        (r"([\u31c0-\u31ef\u2e80-\u2eff])", r" \1 "),
        (r"([\u3300-\u33ff\uf900-\ufaff\ufe30-\ufe4f])", r" \1 "),
        (r"([\u3200-\u3f22])", r" \1 "),
        (r"(^|^[\u3040-\u309f])([\u3040-\u309f]+)(?=$|^[\u3040-\u309f])", r"\1 \2 "),
        (r"(^|^[\u30a0-\u30ff])([\u30a0-\u30ff]+)(?=$|^[\u30a0-\u30ff])", r"\1 \2 "),
        (r"(^|^[\u31f0-\u31ff])([\u31f0-\u31ff]+)(?=$|^[\u31f0-\u31ff])", r"\1 \2 "),
        (_ASIAN_PUNCT, r" \1 "),
        (_FULL_WIDTH_PUNCT, r" \1 "),
    )
]
_PUNCT = re.compile(r"[\.,\?:;!\"\(\)]")
_ASIAN_PUNCT_REMOVAL = [re.compile(_ASIAN_PUNCT), re.compile(_FULL_WIDTH_PUNCT)]


@dataclass(frozen=True)
class TercomTokenizer:
    """sacrebleu's ``TercomTokenizer``: a line in, its tokens joined by single spaces out.

    >>> TercomTokenizer(normalized=True)("It's 3.5 &amp; more, isn't it?")
    "it 's 3.5 & more , isn't it ?"
    """

    normalized: bool = False
    no_punct: bool = False
    asian_support: bool = False
    case_sensitive: bool = False

    def __call__(self, line: str) -> str:
        if not line:
            return ""
        if not self.case_sensitive:
            line = line.lower()
        if self.normalized:
            for literal, replacement in _WESTERN_LITERAL:
                line = line.replace(literal, replacement)
            line = f" {line} "
            for pattern, replacement in _WESTERN_AFTER_PADDING + (_ASIAN if self.asian_support else []):
                line = pattern.sub(replacement, line)
        if self.no_punct:
            for pattern in [_PUNCT] + (_ASIAN_PUNCT_REMOVAL if self.asian_support else []):
                line = pattern.sub("", line)
        return " ".join(line.split())

    def prediction_words(self, line: str) -> list[str]:
        """A prediction's words, as sacrebleu's ``TER`` reads them (``rstrip``, then the tokenizer)."""
        return self(line.rstrip()).split()

    # Cached, as sacrebleu caches its tokenizer: the same references are scored against every system
    # (a tuple, so that what the cache holds cannot be changed).
    @cleared_with_caches
    @functools.lru_cache(maxsize=2**16)  # noqa: B019 (bounded; one tokenizer per option set, for the process)
    def reference_words(self, line: str) -> tuple[str, ...]:
        """A reference's words: sacrebleu's ``TER`` preprocesses references twice.

        >>> TercomTokenizer(normalized=True).reference_words("the cat's.")
        ('the', 'cat', "'s", '.')
        >>> TercomTokenizer(normalized=True).prediction_words("the cat's.")
        ['the', "cat's", '.']
        """
        once = self(line.rstrip())
        return tuple(self(once.rstrip()).split())


@dataclass(frozen=True)
class Shift:
    """A block of ``length`` words moved from ``start`` to before the word at ``target`` (sacrebleu's
    ``_perform_shift`` indices, in the hypothesis before the shift)."""

    start: int
    length: int
    target: int

    def apply(self, words: list[str]) -> list[str]:
        """The shifted words (sacrebleu's ``_perform_shift``, including its reading of a target
        inside or right after the block).

        >>> Shift(3, 1, 0).apply(list("abcd"))
        ['d', 'a', 'b', 'c']
        """
        start, end, target = self.start, self.start + self.length, self.target
        if target < start:
            return words[:target] + words[start:end] + words[target:start] + words[end:]
        if target > end:
            return words[:start] + words[end:target] + words[start:end] + words[target:]
        return words[:start] + words[end : self.length + target] + words[start:end] + words[self.length + target :]

    @property
    def first_changed(self) -> int:
        """The shifted words equal the original ones before this position."""
        return min(self.start, self.target)


@dataclass
class ReferenceEdits:
    """The edits against one reference, the shifts applied (in order) and the shifted hypothesis' alignment."""

    edits: int
    shifts: list[Shift]
    alignment: Alignment


def edits_to_reference(hypothesis: Sequence[str], reference: Sequence[str]) -> ReferenceEdits:
    """sacrebleu's ``translation_edit_rate``: the shifts Tercom's greedy search applies, then the
    edit distance of the shifted hypothesis.

    >>> found = edits_to_reference("b c a".split(), "a b c".split())
    >>> found.edits, found.shifts
    (1, [Shift(start=2, length=1, target=0)])
    """
    if not reference:
        n = len(hypothesis)
        return ReferenceEdits(n, [], Alignment(list(hypothesis), n, DELETION * n, []))
    distances = BeamEditDistance(reference, len(hypothesis))
    positions: dict[str, list[int]] = {}
    for j, word in enumerate(reference):
        positions.setdefault(word, []).append(j)
    alignment = distances.align(hypothesis)
    shifts: list[Shift] = []
    checked = 0
    while alignment.distance > 0:  # (a perfect alignment has no misaligned block to shift)
        candidates, count = _shift_candidates(alignment, reference, positions)
        checked += count
        # sacrebleu stops once 1000 candidates were tried, dropping the best shift of that round.
        if checked >= MAX_SHIFT_CANDIDATES or not candidates:
            break
        best_key, best_shift = (1, 0, 0, 0), None  # (what any shift with a gain beats)
        unsure = []
        for shift in candidates:
            shifted = shift.apply(alignment.words)
            distance, exact = distances.lower_bound(shifted, shift.first_changed, alignment)
            # Tercom's ranking: largest gain, then longest block, earliest block, earliest target.
            key = (alignment.distance - distance, shift.length, -shift.start, -shift.target)
            if not exact:
                unsure.append((key, shift, shifted))
            elif key > best_key:
                best_key, best_shift = key, shift
        # Where the beam may cut the cheapest alignments, the Levenshtein distance only bounds the
        # gain from above: fill the beam for the candidates that could still win, most promising first.
        unsure.sort(key=lambda item: item[0], reverse=True)
        for key, shift, shifted in unsure:
            if key <= best_key:
                break
            gain = alignment.distance - distances.beam_distance(shifted, shift.first_changed, alignment)
            key = (gain,) + key[1:]
            if key > best_key:
                best_key, best_shift = key, shift
        if best_shift is None:
            break
        shifts.append(best_shift)
        alignment = distances.align(best_shift.apply(alignment.words))
    return ReferenceEdits(len(shifts) + alignment.distance, shifts, alignment)


def _shift_candidates(
    alignment: Alignment, reference: Sequence[str], positions: dict[str, list[int]]
) -> tuple[list[Shift], int]:
    """sacrebleu's ``_shift`` candidates: the distinct shifts, and how many it counts (the same shift
    reached from several reference positions counts each time)."""
    words = alignment.words
    n, m = len(words), len(reference)
    # sacrebleu flips the trace (reference -> hypothesis) and reads, per reference word, the
    # hypothesis word aligned to it (or the last one before it), and which words are misaligned.
    aligned_to: list[int] = []
    hypothesis_errors, reference_errors = [0], [0]  # prefix sums
    position = -1
    for operation in alignment.trace:
        if operation != INSERTION:
            position += 1
            hypothesis_errors.append(hypothesis_errors[-1] + (operation != MATCH))
        if operation != DELETION:
            aligned_to.append(position)
            reference_errors.append(reference_errors[-1] + (operation != MATCH))
    candidates: dict[Shift, None] = {}
    count = 0
    for start, word in enumerate(words):
        for reference_start in positions.get(word, ()):
            if abs(reference_start - start) > MAX_SHIFT_DISTANCE:
                continue
            length = 0
            while (
                length < MAX_SHIFT_SIZE
                and start + length < n
                and reference_start + length < m
                and words[start + length] == reference[reference_start + length]
            ):
                length += 1
                # Only blocks misaligned in the hypothesis, matching misaligned reference words, and
                # not aligned to themselves already.
                if (
                    hypothesis_errors[start + length] == hypothesis_errors[start]
                    or reference_errors[reference_start + length] == reference_errors[reference_start]
                    or start <= aligned_to[reference_start] < start + length
                ):
                    continue
                previous_target = -1
                for offset in range(-1, length):
                    target = 0 if reference_start + offset == -1 else aligned_to[reference_start + offset] + 1
                    if target != previous_target:
                        previous_target = target
                        candidates[Shift(start, length, target)] = None
                        count += 1
    return list(candidates), count


@dataclass
class TerResult(MetricResult):
    """Corpus TER (sacrebleu's score / 100), its parts, and optionally per-segment scores and explanations."""

    headline = "ter"

    ter: float
    num_edits: int
    ref_length: float
    signature: str
    sentence_scores: list[float] | None = None
    explanation: list[dict[str, Any]] | None = None
    statistics: Statistics | None = field(default=None, repr=False)


def ter_of_totals(totals: np.ndarray) -> np.ndarray:
    """(B,) TER of (B, 2) sums of (edits, average reference length): sacrebleu's
    ``_compute_score_from_stats`` / 100 (1 for edits without reference words, 0 for neither), in the
    precision of ``totals``.

    >>> ter_of_totals(np.array([[3.0, 4.0], [2.0, 0.0], [0.0, 0.0]])).tolist()
    [0.75, 1.0, 0.0]
    """
    edits, length = totals[:, 0], totals[:, 1]
    return np.where(length > 0, edits / np.where(length > 0, length, 1), (edits > 0).astype(totals.dtype))


def _tokenizer_of(options: dict[str, Any]) -> TercomTokenizer:
    """Check the options of :func:`ter` (its defaults for those not given); HF evaluate's ``ignore_punct`` and
    ``support_zh_ja_chars`` name ``no_punct`` and ``asian_support`` (given both ways, they must agree),
    sacrebleu's ``case_sensitive`` is ``not lowercase``."""
    given = FAMILY.with_defaults(options)
    lowercase = aliased("lowercase", given["lowercase"], "case_sensitive", given["case_sensitive"], True, inverse=True)
    case_sensitive = not check_flag("lowercase", lowercase)
    flags = {name: check_flag(name, given[name]) for name in ("normalized", "no_punct", "asian_support")}
    for alias, name in (("ignore_punct", "no_punct"), ("support_zh_ja_chars", "asian_support")):
        if given[alias] is None:
            continue
        value = check_flag(alias, given[alias])
        if flags[name] and not value:
            raise InputError(f"{alias}=False contradicts {name}=True ({alias} is HF evaluate's name for {name})")
        flags[name] = value
    return TercomTokenizer(case_sensitive=case_sensitive, **flags)


def signature(tokenizer: TercomTokenizer, num_refs: Any) -> str:
    """sacrebleu's ``TER().get_signature()``.

    >>> signature(TercomTokenizer(), 1)
    'nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.6.0'
    """
    norm, punct, asian = (
        "yes" if flag else "no" for flag in (tokenizer.normalized, not tokenizer.no_punct, tokenizer.asian_support)
    )
    return (
        f"nrefs:{num_refs}|case:{'mixed' if tokenizer.case_sensitive else 'lc'}|tok:tercom|norm:{norm}|"
        f"punct:{punct}|asian:{asian}|version:{SACREBLEU_VERSION}"
    )


def _segment_edits(
    predictions: Any, references: Any, tokenizer: TercomTokenizer, explain: bool
) -> tuple[np.ndarray, int | str, list[dict[str, Any]] | None]:
    """Rows (edits of the best reference, average reference length), the number of references
    (sacrebleu's notation) and, with ``explain``, what each segment's edits are."""
    refuse_token_ids(predictions, "ter", "word edits of tokenized text")
    hyps, refs, pretokenized = normalize_corpus(predictions, references)
    if pretokenized:
        raise InputError(
            "TER tokenizes text itself (sacrebleu's Tercom tokenizer): give predictions and "
            "references as strings, not token lists"
        )
    rows = np.empty((len(hyps), 2))
    explanation: list[dict[str, Any]] | None = [] if explain else None
    for s, (prediction, group) in enumerate(zip(hyps, refs)):
        hypothesis = tokenizer.prediction_words(prediction)
        reference_words = [tokenizer.reference_words(reference) for reference in group]
        found = [edits_to_reference(hypothesis, words) for words in reference_words]
        best = min(range(len(found)), key=lambda k: found[k].edits)  # the first of the fewest edits
        rows[s] = found[best].edits, sum(map(len, reference_words)) / len(reference_words)
        if explanation is not None:
            explanation.append(_explain(hypothesis, reference_words, best, found[best], rows[s, 1]))
    counts = {len(group) for group in refs}
    return rows, counts.pop() if len(counts) == 1 else "var", explanation


def _explain(
    hypothesis: list[str],
    reference_words: list[tuple[str, ...]],
    best: int,
    found: ReferenceEdits,
    reference_length: float,
) -> dict[str, Any]:
    """One segment's explanation: the shifts, then the word edits of the shifted prediction."""
    words = list(hypothesis)
    shifts = []
    for shift in found.shifts:
        landing = shift.target - shift.length if shift.target > shift.start + shift.length else shift.target
        shifts.append({"words": words[shift.start : shift.start + shift.length], "from": shift.start, "to": landing})
        words = shift.apply(words)
    reference = reference_words[best]
    edits = []
    i = j = 0
    names = {SUBSTITUTION: "substitution", INSERTION: "insertion", DELETION: "deletion"}
    for operation in found.alignment.trace:
        if operation in names:
            # (an insertion has no prediction word, a deletion no reference word)
            edit: dict[str, Any] = {"op": names[operation]}
            if operation != INSERTION:
                edit.update(prediction_position=i, prediction_word=words[i])
            if operation != DELETION:
                edit.update(reference_position=j, reference_word=reference[j])
            edits.append(edit)
        i += operation != INSERTION
        j += operation != DELETION
    return {
        "prediction_tokens": hypothesis,
        "reference_tokens": [list(words) for words in reference_words],
        "best_reference": best,
        "num_edits": found.edits,
        "reference_length": float(reference_length),
        "shifts": shifts,
        "shifted_tokens": words,
        "edits": edits,
    }


@strict_options
def ter(
    predictions: Predictions,
    references: References,
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    case_sensitive: bool | None = None,
    sentence_level: bool = False,
    explain: bool = False,
    ignore_punct: bool | None = None,
    support_zh_ja_chars: bool | None = None,
    lowercase: bool | None = None,
) -> TerResult:
    """Corpus TER, exact to sacrebleu 2.6.0 ``TER(...).corpus_score`` (its score / 100: edits per reference word,
    above 1 when the edits outnumber the reference words).

    ``references`` holds one string or a list of strings per prediction (the fewest edits over them and their average
    length count). ``normalized``, ``no_punct`` and ``asian_support`` are sacrebleu's options (HF evaluate's ``ter``
    calls the second and third ``ignore_punct`` and ``support_zh_ja_chars``; both spellings work); ``lowercase``
    (default True, as sacrebleu's Tercom) is ``not case_sensitive``, sacrebleu's name, which works too.
    ``sentence_level`` adds ``sentence_scores`` (sacrebleu's ``sentence_score`` / 100); ``explain`` adds, per
    segment, the shifts and word edits against its best reference.

    >>> result = ter(["the cat sat on mat the"], [["the cat sat on the mat", "a cat sat"]])
    >>> result.ter, result.num_edits, result.ref_length
    (0.2222222222222222, 1, 4.5)
    >>> ter(["Hello world !"], ["hello world"], sentence_level=True).sentence_scores
    [0.5]
    """
    return FAMILY.compute(**locals())


_Explanation = list[dict[str, Any]] | None  # (from the alignments that count the edits)


class TerFamily(MetricFamily):
    """TER on the metric protocol: rows are (edits of the best reference, average reference length); the
    context holds the Tercom tokenizer of the options."""

    name = "ter"
    function = staticmethod(ter)
    lower_is_better = True
    options_not_for_statistics = ("sentence_level", "explain")
    merged_option_values = {"sentence_level": False, "explain": False}

    def statistics_and_seen(
        self, predictions: Any, references: Any, parts: dict[str, Any], **options: Any
    ) -> tuple[Statistics, _Explanation]:
        tokenizer = _tokenizer_of(options)
        explain = check_flag("explain", parts.get("explain", False))
        check_flag("sentence_level", parts.get("sentence_level", False))
        rows, num_refs, explanation = _segment_edits(predictions, references, tokenizer, explain)
        stats = Statistics(self.name, rows, ("ter",), signature(tokenizer, num_refs), {"tokenizer": tokenizer})
        return stats, explanation

    def add_parts(
        self, result: TerResult, stats: Statistics, seen: _Explanation, predictions: Any, references: Any, **parts: Any
    ) -> TerResult:
        result.sentence_scores = ter_of_totals(stats.rows).tolist() if parts.get("sentence_level") else None
        result.explanation = seen
        return result

    def score_totals(self, stats: Statistics, totals: np.ndarray, weights: np.ndarray | None) -> np.ndarray:
        return ter_of_totals(totals)[:, None]

    def resampling(self, stats: Statistics) -> Resampling:
        return SACREBLEU_RESAMPLING

    def score_resampled(self, stats: Statistics, totals: np.ndarray, weights: np.ndarray | None) -> np.ndarray:
        # sacrebleu's 100 * edits / length in the precision of the sums (its bootstrap's float32); its 1.0
        # (edits, no reference words) and 0.0 (neither) are Python floats.
        return array_of_scores(100 * ter_of_totals(totals), totals[:, 1] <= 0)[:, None]

    def result(self, stats: Statistics, totals: np.ndarray, segments: np.ndarray) -> TerResult:
        return TerResult(float(ter_of_totals(totals)[0]), int(totals[0, 0]), float(totals[0, 1]), stats.signature)


FAMILY = register(TerFamily())
