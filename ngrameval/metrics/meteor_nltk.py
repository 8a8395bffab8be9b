"""METEOR as NLTK 3.10.4's ``nltk.translate.meteor_score.meteor_score`` computes it, sentence by sentence.

What Hugging Face evaluate's ``meteor`` runs (``nltk.word_tokenize``, then the mean of the sentence scores).
For each hypothesis and each of its references (token lists, lowercased with ``str.lower``): words are
aligned in three stages, each on the words the earlier ones left: ``exact``, ``stem`` (NLTK's
``PorterStemmer``) and ``synonym`` (a lemma name, without ``_``, of a WordNet 3.0 synset of the hypothesis
word, read by :mod:`ngrameval.text.wordnet`; as in NLTK, this stage sees the stems the stem stage left).
NLTK's greedy order is kept: from the last hypothesis word to the first, each takes the last free reference
word that matches. Then ``P = m / len(hypothesis)``, ``R = m / len(reference)``, ``Fmean = P R / (alpha P +
(1 - alpha) R)``, ``penalty = gamma (chunks / m) ** beta`` and ``score = (1 - penalty) Fmean`` (0 on a
division by zero, as NLTK), with NLTK's float operations in NLTK's order; the sentence score is the best
over the references (the first best one is reported). All pairs of a corpus are aligned at once with numpy;
stems and synonym sets are computed once per word type per call.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache, partial
from itertools import chain
from typing import Any

import numpy as np

from ngrameval.engine.cache import cleared_with_caches
from ngrameval.engine.inputs import check_choice, check_flag, check_number, normalize_corpus
from ngrameval.engine.ngrams import concatenated_ranges
from ngrameval.engine.runs import offsets, run_starts, vocabulary_ids
from ngrameval.errors import InputError
from ngrameval.metrics.meteor15.matchers import join
from ngrameval.text.tokenizers import get_tokenizer
from ngrameval.text.wordnet import PathLike, WordNet, load_wordnet

STAGES = ("exact", "stem", "synonym")
TOKENIZERS = ("nltk", "whitespace")
WORDNET_VERSION = "3.0"


@dataclass(frozen=True)
class MeteorAlignment:
    """How one hypothesis was scored against its chosen reference: ``matches`` are (hypothesis position,
    reference position, stage) ordered by hypothesis position; what NLTK's formula could not compute is 0."""

    reference: int
    matches: tuple[tuple[int, int, str], ...]
    hypothesis_length: int
    reference_length: int
    chunks: int
    precision: float
    recall: float
    fmean: float
    penalty: float
    score: float


@dataclass
class NltkMeteorResult:
    """Sentence scores, and with ``explain=True`` one :class:`MeteorAlignment` per sentence."""

    scores: list[float]
    alignments: list[MeteorAlignment] | None = None


@cleared_with_caches
@lru_cache(maxsize=1 << 17)
def porter_stem(word: str) -> str:
    """NLTK's ``PorterStemmer()`` (NLTK_EXTENSIONS mode, as meteor_score creates it) on one word, cached.

    >>> porter_stem("ensures"), porter_stem("commands")
    ('ensur', 'command')
    """
    return _porter_stemmer().stem(word)


@lru_cache(maxsize=1)
def _porter_stemmer():
    from nltk.stem.porter import PorterStemmer  # importing nltk takes about a second: only when stemming

    return PorterStemmer()


def meteor_synonyms(wordnet: WordNet, word: str) -> frozenset[str]:
    """The words the synonym stage accepts for hypothesis word ``word``: the lemma names without "_" of
    ``wordnet.synsets(word)``, and ``word`` itself.

    >>> sorted(meteor_synonyms(load_wordnet(), "heed"))
    ['attentiveness', 'heed', 'listen', 'mind', 'regard']
    """
    return frozenset([name for name in wordnet.lemma_names(word) if "_" not in name] + [word])


def tokenize(texts: Sequence[str], tokenizer: str | Callable[[str], Any] = "nltk") -> list[list[str]]:
    """Token lists for METEOR, offline.

    ``"nltk"``: ``nltk.word_tokenize(text, preserve_line=True)``. Hugging Face's ``meteor`` calls
    ``word_tokenize(text)``, which first splits sentences with Punkt (a model NLTK downloads): the tokens
    differ only where a period ends a sentence inside the text (here it stays on its word). ``"whitespace"``:
    ``str.split()``. A callable (``str -> list of str``, or ``str -> str`` then split) is called on each text.

    >>> tokenize(['He left. "Costs rose 5.3% (approx.)," she said.'])
    [['He', 'left.', '``', 'Costs', 'rose', '5.3', '%', '(', 'approx.', ')', ',', "''", 'she', 'said', '.']]
    >>> tokenize(["a-b c"], lambda text: text.replace("-", " ").split())
    [['a', 'b', 'c']]
    """
    if callable(tokenizer):
        return get_tokenizer(tokenizer).tokenize(texts)
    check_choice("tokenizer", tokenizer, TOKENIZERS)
    if tokenizer == "whitespace":
        return [text.split() for text in texts]
    from nltk.tokenize.destructive import NLTKWordTokenizer

    word_tokenizer = NLTKWordTokenizer()
    return [word_tokenizer.tokenize(text) for text in texts]


# A stage that matches equal keys (word ids, stem ids) is NLTK's ``_match_enums``: walking the hypothesis
# from its end, each word takes the last free reference word with its key, which pairs the k-th last
# occurrences of a key on both sides; so tokens match where (pair, key, rank from the end) is equal. The
# synonym stage is greedy in the same order over a relation: Python, on the few token pairs it relates.
# The tokens of many pairs, ordered by (pair, position), are the columns of three rows: pair, position, key.


def _word_ids(token_lists: Sequence[Sequence[Sequence[str]]]) -> tuple[list[str], list[np.ndarray], list[np.ndarray]]:
    """(vocabulary, ids of each group's lowercased tokens concatenated, tokens per list of each group)."""
    lowered = [list(map(str.lower, chain.from_iterable(group))) for group in token_lists]
    vocabulary, ids = vocabulary_ids(lowered)
    lengths = [np.fromiter(map(len, group), np.int64, len(group)) for group in token_lists]
    return list(vocabulary), np.split(ids, offsets(list(map(len, lowered)))[1:-1]), lengths


def _ranked_keys(tokens: np.ndarray, keys: int, length: int) -> np.ndarray:
    """(pair, key, rank from the end among the pair's tokens with that key) as one integer."""
    pair, position, key = tokens
    group = pair * keys + key
    order = np.argsort(group * length + (length - 1 - position))
    grouped = group[order]
    first = np.maximum.accumulate(np.where(run_starts(grouped), np.arange(len(order)), 0))
    rank = np.empty(len(order), np.int64)
    rank[order] = np.arange(len(order)) - first
    return group * length + rank


def _match_equal_keys(hyp: np.ndarray, ref: np.ndarray, keys: int, length: int) -> tuple[np.ndarray, np.ndarray]:
    """NLTK's ``_match_enums`` on every pair: the rows of the matched hypothesis and reference tokens."""
    _, hyp_rows, ref_rows = np.intersect1d(
        _ranked_keys(hyp, keys, length), _ranked_keys(ref, keys, length), assume_unique=True, return_indices=True
    )
    return hyp_rows, ref_rows


def _match_synonyms(hyp: np.ndarray, ref: np.ndarray, related: np.ndarray, keys: int) -> tuple[np.ndarray, np.ndarray]:
    """NLTK's ``_enum_wordnetsyn_match``: from the last hypothesis word of a pair to its first, each takes the free
    reference word at the largest position among its candidates, the pair's reference words whose keys are
    ``related`` to its key (sorted ``hyp_key * keys + ref_key``). Each hypothesis token is joined to its related
    keys, then to the reference tokens with one of them: memory follows the candidates, not the cross products."""
    (hyp_pair, hyp_position, hyp_key), (ref_pair, ref_position, ref_key) = hyp, ref
    h, k = join(hyp_key, related // keys)
    e, ref_rows = join(hyp_pair[h] * keys + related[k] % keys, ref_pair * keys + ref_key)
    hyp_rows = h[e]
    order = np.lexsort((-ref_position[ref_rows], -hyp_position[hyp_rows], hyp_pair[hyp_rows]))
    matched_hyp: list[int] = []
    matched_ref: list[int] = []
    taken = set()
    current = -1
    for h, r in zip(hyp_rows[order].tolist(), ref_rows[order].tolist()):
        if h != current and r not in taken:  # candidates of one word come by decreasing position
            current = h
            taken.add(r)
            matched_hyp.append(h)
            matched_ref.append(r)
    return np.array(matched_hyp, np.int64), np.array(matched_ref, np.int64)


def _align(
    hypotheses: Sequence[Sequence[str]],
    references: Sequence[Sequence[str]],
    pair_hypothesis: np.ndarray,
    synonyms: Callable[[str], frozenset[str]],
    stem: Callable[[str], str],
) -> tuple[tuple[np.ndarray, ...], np.ndarray, np.ndarray]:
    """NLTK's ``_enum_align_words`` for every pair p = (hypotheses[pair_hypothesis[p]], references[p]): the
    matches (pair, hypothesis position, reference position, stage) ordered by pair and hypothesis position,
    and the matches and chunks of each pair."""
    words, (hyp_ids, ref_ids), (hyp_lengths, ref_lengths) = _word_ids([hypotheses, references])
    pairs = len(references)
    pair_hyp_lengths = hyp_lengths[pair_hypothesis]
    length = int(max(hyp_lengths.max(initial=0), ref_lengths.max(initial=0))) + 1
    if pairs * max(len(words), 1) * length >= 1 << 62:
        raise InputError("the corpus is too large to align at once: score it in parts")
    position, pair = concatenated_ranges(0, pair_hyp_lengths)
    hyp = np.stack([pair, position, hyp_ids[(np.cumsum(hyp_lengths) - hyp_lengths)[pair_hypothesis][pair] + position]])
    ref_position, ref_pair = concatenated_ranges(0, ref_lengths)  # reference p is pair p's
    ref = np.stack([ref_pair, ref_position, ref_ids])
    found = []  # (pair, hypothesis position, reference position, stage) of each stage

    def keep(hyp_rows, ref_rows, stage):
        found.append((hyp[0, hyp_rows], hyp[1, hyp_rows], ref[1, ref_rows], np.full(len(hyp_rows), stage)))
        hyp_left, ref_left = np.ones(hyp.shape[1], bool), np.ones(ref.shape[1], bool)
        hyp_left[hyp_rows] = False
        ref_left[ref_rows] = False
        # Later stages only look at pairs with words left on both sides.
        both = (np.bincount(hyp[0, hyp_left], minlength=pairs) > 0) & (
            np.bincount(ref[0, ref_left], minlength=pairs) > 0
        )
        return hyp[:, hyp_left & both[hyp[0]]], ref[:, ref_left & both[ref[0]]]

    hyp, ref = keep(*_match_equal_keys(hyp, ref, len(words), length), 0)
    # The stem stage, and after it the synonym stage, see the words left as their stems.
    stem_ids: dict[str, int] = {}
    stem_of = np.zeros(len(words), np.int64)
    for word_id in np.unique(np.r_[hyp[2], ref[2]]).tolist():
        stem_of[word_id] = stem_ids.setdefault(stem(words[word_id]), len(stem_ids))
    hyp[2], ref[2] = stem_of[hyp[2]], stem_of[ref[2]]
    hyp, ref = keep(*_match_equal_keys(hyp, ref, len(stem_ids), length), 1)
    stems = list(stem_ids)
    related = np.unique(
        np.array(
            [
                hyp_stem * len(stems) + stem_ids[name]
                for hyp_stem in np.unique(hyp[2]).tolist()
                for name in synonyms(stems[hyp_stem])
                if name in stem_ids
            ],
            np.int64,
        )
    )
    keep(*_match_synonyms(hyp, ref, related, len(stems)), 2)

    pair, hyp_position, ref_position, stage = (np.concatenate(column) for column in zip(*found))
    order = np.lexsort((hyp_position, pair))
    pair, hyp_position, ref_position = pair[order], hyp_position[order], ref_position[order]
    # A new chunk starts at a pair's first match and wherever the next match is not adjacent in both (adjacent:
    # both positions one more than the last, so that each position minus the match's index stays the same).
    index = np.arange(len(pair))
    new_chunk = run_starts(pair) | run_starts(hyp_position - index) | run_starts(ref_position - index)
    matches = (pair, hyp_position, ref_position, stage[order])
    return matches, np.bincount(pair, minlength=pairs), np.bincount(pair[new_chunk], minlength=pairs)


def _formula(
    count: int, chunks: int, hypothesis_length: int, reference_length: int, alpha: float, beta: float, gamma: float
) -> tuple[float, float, float, float, float]:
    """NLTK's ``single_meteor_score`` arithmetic, operation for operation: (precision, recall, fmean,
    penalty, score); a ZeroDivisionError gives score 0 (and 0 for what was not computed)."""
    precision = recall = 0.0
    try:
        precision = float(count) / hypothesis_length
        recall = float(count) / reference_length
        fmean = (precision * recall) / (alpha * precision + (1 - alpha) * recall)
        fragmentation = float(chunks) / count
    except ZeroDivisionError:
        return precision, recall, 0.0, 0.0, 0.0
    penalty = gamma * fragmentation**beta
    return precision, recall, fmean, penalty, (1 - penalty) * fmean


def nltk_meteor(
    hypotheses: Sequence[Sequence[str]],
    references: Sequence[Sequence[Sequence[str]]],
    alpha: float = 0.9,
    beta: float = 3.0,
    gamma: float = 0.5,
    explain: bool = False,
    wordnet: WordNet | PathLike | None = None,
) -> NltkMeteorResult:
    """NLTK 3.10.4's ``meteor_score(references[i], hypotheses[i], alpha=, beta=, gamma=)`` for every i.

    ``hypotheses``: token lists; ``references``: per hypothesis a list of token lists (or one token
    list). ``wordnet``: a :class:`~ngrameval.text.wordnet.WordNet`, a directory of WordNet 3.0's files, or
    None to find them (see :func:`ngrameval.text.wordnet.find_wordnet`). ``alpha`` and ``gamma`` lie in
    [0, 1], ``beta >= 0`` (METEOR's parameter ranges).

    >>> hypothesis = "It is a guide to action which ensures that the military always obeys the commands of the party"
    >>> reference = "It is a guide to action that ensures that the military will forever heed Party commands"
    >>> result = nltk_meteor([hypothesis.split()], [[reference.split()]], explain=True)
    >>> round(result.scores[0], 4)
    0.6944
    >>> alignment = result.alignments[0]
    >>> alignment.chunks, alignment.matches[-2:]
    (6, ((16, 9, 'exact'), (17, 14, 'exact')))
    """
    hyps, refs, pretokenized = normalize_corpus(hypotheses, references)
    if not pretokenized:
        raise InputError(
            "nltk_meteor takes token lists (as NLTK's meteor_score does); tokenize strings first, "
            "e.g. with ngrameval.metrics.meteor_nltk.tokenize"
        )
    alpha = check_number("alpha", alpha, 0.0, 1.0)
    beta = check_number("beta", beta, 0.0)
    gamma = check_number("gamma", gamma, 0.0, 1.0)
    explain = check_flag("explain", explain)
    reader = wordnet if isinstance(wordnet, WordNet) else load_wordnet(wordnet)
    if reader.version != WORDNET_VERSION:
        raise InputError(
            f"{reader.directory} holds WordNet {reader.version or '(unknown version)'}; NLTK's METEOR "
            f"uses WordNet {WORDNET_VERSION} (Debian/Ubuntu: apt-get install wordnet-base)"
        )
    references_per_hypothesis = np.fromiter(map(len, refs), np.int64, len(refs))
    flat_references = [reference for group in refs for reference in group]
    synonyms = cache(partial(meteor_synonyms, reader))
    matched, counts, chunks = _align(
        hyps, flat_references, np.repeat(np.arange(len(hyps)), references_per_hypothesis), synonyms, porter_stem
    )
    hyp_lengths, ref_lengths = list(map(len, hyps)), list(map(len, flat_references))
    counts, chunks = counts.tolist(), chunks.tolist()
    scores: list[float] = []
    chosen: list[tuple[int, int, tuple[float, ...]]] = []  # (reference, pair, formula) per hypothesis
    pair = 0
    for hypothesis, references_here in enumerate(references_per_hypothesis.tolist()):
        best_score = -math.inf
        best: tuple[int, int, tuple[float, ...]] = (0, 0, ())
        for index in range(references_here):
            numbers = _formula(
                counts[pair], chunks[pair], hyp_lengths[hypothesis], ref_lengths[pair], alpha, beta, gamma
            )
            if numbers[-1] > best_score:  # as max(): the first of equal scores
                best_score, best = numbers[-1], (index, pair, numbers)
            pair += 1
        scores.append(best_score)
        chosen.append(best)
    if not explain:
        return NltkMeteorResult(scores)
    pair_of_match, hyp_position, ref_position, stage = matched
    first = np.searchsorted(pair_of_match, np.arange(len(flat_references) + 1)).tolist()
    columns = [hyp_position.tolist(), ref_position.tolist(), [STAGES[s] for s in stage.tolist()]]
    alignments = [
        MeteorAlignment(
            index,
            tuple(zip(*(column[first[pair] : first[pair + 1]] for column in columns))),
            hyp_lengths[hypothesis],
            ref_lengths[pair],
            chunks[pair],
            *formula,
        )
        for hypothesis, (index, pair, formula) in enumerate(chosen)
    ]
    return NltkMeteorResult(scores, alignments)


DEFAULTS = {name: inspect.signature(nltk_meteor).parameters[name].default for name in ("alpha", "beta", "gamma")}
