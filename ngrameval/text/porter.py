"""NLTK's Porter stemmer in its default mode (``NLTK_EXTENSIONS``, the one rouge-score creates) for words of
``[a-z0-9]``, each rule applied to all words at once on numpy arrays (NLTK's pure Python, 11 microseconds a word, was
much of a first ROUGE call). Porter's rules read a word's last eight letters and the *measure* (vowel-consonant
transitions) of a prefix, and rewrite only the end: words are rows of a byte matrix, their last eight letters one
uint64 matched against a suffix in one comparison, measures counted from rows of consonant flags (computed once: no
rule writes a "y", the one letter whose flag depends on the one before). Words are grouped by length (rows of 32, 64,
... columns), so that one long word does not widen every row.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np

from ngrameval.errors import InputError


def _table(rules: str) -> dict[str, str]:
    """``"suffix:replacement ..."`` as a dict, in order."""
    return {suffix: replacement for suffix, _, replacement in (rule.partition(":") for rule in rules.split())}


# NLTK_EXTENSIONS' irregular forms: these words get these stems before any rule.
IRREGULAR = _table(
    "sky:sky skies:sky dying:die lying:lie tying:tie news:news innings:inning inning:inning outings:outing "
    "outing:outing cannings:canning canning:canning howe:howe proceed:proceed exceed:exceed succeed:succeed"
)
# Porter's steps 2 and 3, which NLTK's and ROUGE-1.5.5's stemmers (ngrameval.metrics.rouge155) both extend.
STEP2 = _table(
    "ational:ate tional:tion enci:ence anci:ance izer:ize bli:ble alli:al entli:ent eli:e ousli:ous ization:ize "
    "ation:ate ator:ate alism:al iveness:ive fulness:ful ousness:ous aliti:al iviti:ive biliti:ble"
)
STEP3 = _table("icate:ic ative: alize:al iciti:ic ical:ic ful: ness:")

_PAD = 8  # zero columns before each word: the last 8 letters of any word are one slice


def _byte_set(members: bytes) -> np.ndarray:
    """A table of the 256 byte values: True for ``members`` (indexed by a uint8 array, it tests each byte)."""
    table = np.zeros(256, dtype=bool)
    table[np.frombuffer(members, dtype=np.uint8)] = True
    return table


_WORD_BYTES = _byte_set(b"abcdefghijklmnopqrstuvwxyz0123456789")
_VOWELS = _byte_set(b"aeiou")
_NOT_AFTER_CVC = _byte_set(b"wxy")  # *o: the last consonant is none of these
_KEPT_DOUBLES = _byte_set(b"lsz")  # step 1b: a double l, s or z stays double
_BEFORE_ION = _byte_set(b"st")  # step 4: -ion goes after s or t only


@cache
def _packed(suffix: str) -> tuple[np.uint64, np.uint64]:
    """(mask, value) of ``suffix`` in a word's packed last eight letters (the last letter in the top byte)."""
    raw = suffix.encode("ascii").rjust(_PAD, b"\0")
    value = np.frombuffer(raw, dtype="<u8")[0]
    mask = np.frombuffer(b"\0" * (_PAD - len(suffix)) + b"\xff" * len(suffix), dtype="<u8")[0]
    return mask, value


# A rule: (suffix, replacement, condition on the stem left when the suffix is cut). Conditions:
# "m>0", "m>1" (the stem's measure), "m>0 l", "m>1 l" (the measure of the stem plus the suffix's first letter:
# NLTK's "logi" rule, step 5b), "m>1 st" (and the stem ends in s or t: "ion"), "5a" (m > 1, or m = 1 and the stem
# does not end *o) and "c y" (step 1c, NLTK's condition: a consonant ends a stem of two letters or more).
_STEP2_RULES = [(suffix, replacement, "m>0") for suffix, replacement in [*STEP2.items(), ("fulli", "ful")]]
_STEP2_RULES.append(("logi", "log", "m>0 l"))
_STEP3_RULES = [(suffix, replacement, "m>0") for suffix, replacement in STEP3.items()]
_STEP4_RULES = [
    (suffix, "", "m>1 st" if suffix == "ion" else "m>1")
    for suffix in "al ance ence er ic able ible ant ement ment ent ion ou ism ate iti ous ive ize".split()
]
# The steps after 1a and 1b, in order; NLTK's step 2 first makes -alli -al when m > 0, then applies the step to the
# result. Step 5 is 5a (-e goes) then 5b (-ll -> -l).
_RULE_STEPS = (
    [("y", "i", "c y")],
    [("alli", "al", "m>0")],
    _STEP2_RULES,
    _STEP3_RULES,
    _STEP4_RULES,
    [("e", "", "5a")],
    [("ll", "l", "m>1 l")],
)


class _Block:
    """Words of at most ``width - _PAD - 1`` letters as rows of a byte matrix (``_PAD`` zero columns, the
    letters, zeros), with their consonant flags and their lengths."""

    def __init__(self, letters: np.ndarray, starts: np.ndarray, lengths: np.ndarray, width: int) -> None:
        count = len(lengths)
        self.rows = np.arange(count)
        self.length = lengths.copy()
        self.letters = np.zeros((count, width), dtype=np.uint8)
        owner = np.repeat(self.rows, lengths)
        within = np.arange(len(owner)) - np.repeat(np.cumsum(lengths) - lengths, lengths)
        flat = self.letters.reshape(-1)
        flat[owner * width + _PAD + within] = letters[np.repeat(starts, lengths) + within]
        # Every 8 bytes of the matrix as one (unaligned) little-endian uint64: a word's last eight letters
        # start at its row's offset plus its length.
        self._windows = np.ndarray((flat.size - _PAD + 1,), dtype="<u8", buffer=flat, strides=(1,))
        self._offsets = self.rows * width
        self.consonant = _consonants(self.letters)

    def tails(self, rows: np.ndarray) -> np.ndarray:
        """Each row's last eight letters packed into a uint64, the last letter in the top byte (zeros
        before a shorter word)."""
        return self._windows[self._offsets[rows] + self.length[rows]]

    def measure(self, rows: np.ndarray, length: np.ndarray) -> np.ndarray:
        """Porter's measure m of each row's prefix of ``length`` letters: its vowel-consonant transitions
        (the padding counts as consonants, so none starts before a word)."""
        consonant = self.consonant[rows]
        changes = ~consonant[:, :-1] & consonant[:, 1:]
        # A transition at columns (c, c + 1) is inside the prefix when c + 1 < _PAD + length.
        return (changes & (np.arange(changes.shape[1]) < _PAD + length[:, None] - 1)).sum(axis=1)

    def has_vowel(self, rows: np.ndarray, length: np.ndarray) -> np.ndarray:
        """Whether each row's prefix of ``length`` letters holds a vowel."""
        return (~self.consonant[rows] & (np.arange(self.consonant.shape[1]) < _PAD + length[:, None])).any(axis=1)

    def ends_cvc(self, rows: np.ndarray, length: np.ndarray) -> np.ndarray:
        """NLTK's *o on each row's prefix of ``length`` letters: consonant, vowel, consonant other than w, x
        or y at its end; or (NLTK's extension) a vowel then a consonant as the whole prefix."""
        last = length - 1
        three = (
            (length >= 3)
            & self.consonant[rows, _PAD + last - 2]
            & ~self.consonant[rows, _PAD + last - 1]
            & self.consonant[rows, _PAD + last]
            & ~_NOT_AFTER_CVC[self.letters[rows, _PAD + last]]
        )
        two = (length == 2) & ~self.consonant[rows, _PAD + last - 1] & self.consonant[rows, _PAD + last]
        return three | two

    def write(self, rows: np.ndarray, text: str) -> None:
        """Append ``text`` (no "y" in it, so its letters' flags are theirs alone) to the rows."""
        if not len(rows) or not text:
            return
        raw = np.frombuffer(text.encode("ascii"), dtype=np.uint8)
        columns = _PAD + self.length[rows, None] + np.arange(len(raw))
        self.letters[rows[:, None], columns] = raw
        self.consonant[rows[:, None], columns] = ~_VOWELS[raw]
        self.length[rows] += len(raw)

    def holds(self, rows: np.ndarray, condition: str, stem: np.ndarray) -> np.ndarray:
        """Whether each row's stem of ``stem`` letters meets a rule's condition (see ``_STEP2_RULES``)."""
        if condition == "c y":
            return (stem > 1) & self.consonant[rows, _PAD + np.maximum(stem - 1, 0)]
        measure = self.measure(rows, stem + 1 if condition.endswith(" l") else stem)
        if condition == "5a":
            return (measure > 1) | ((measure == 1) & ~self.ends_cvc(rows, stem))
        held = measure > int(condition[2])
        if condition == "m>1 st":
            held &= _BEFORE_ION[self.letters[rows, _PAD + stem - 1]]
        return held

    def apply_rules(self, rules: list[tuple[str, str, str]]) -> None:
        """NLTK's ``_apply_rule_list`` on every word: the first rule whose suffix a word ends with decides;
        the word is rewritten when the rule's condition holds, and left as it is otherwise."""
        tails = self.tails(self.rows)
        undecided = np.ones(len(self.rows), dtype=bool)
        rewrites = []  # applied after the last rule: the conditions read the words as the step found them
        for suffix, replacement, condition in rules:
            hit = undecided & _ends(tails, suffix)
            if not hit.any():
                continue
            undecided &= ~hit
            hits = self.rows[hit]
            rewrites.append((hits[self.holds(hits, condition, self.length[hits] - len(suffix))], suffix, replacement))
        for hits, suffix, replacement in rewrites:
            self.length[hits] -= len(suffix)
            self.write(hits, replacement)

    def text(self) -> list[str]:
        """The words as they are now."""
        self.letters[self.rows, _PAD + self.length] = ord("\n")
        kept = np.arange(self.letters.shape[1] - _PAD) <= self.length[:, None]
        return self.letters[:, _PAD:][kept].tobytes().decode("ascii").split("\n")[:-1]


def _consonants(letters: np.ndarray) -> np.ndarray:
    """Porter's consonants of the matrix: every byte but a, e, i, o, u and a "y" that follows a consonant
    (a "y" that starts a word is one). Flags of "y"s are set in rounds, the first "y" of every run, then
    the second, ...; the zero padding counts as a consonant."""
    consonant = ~_VOWELS[letters]
    flat, is_y = consonant.reshape(-1), (letters == ord("y")).reshape(-1)
    ys = np.flatnonzero(is_y)
    if len(ys):
        starts_word = letters.reshape(-1)[ys - 1] == 0  # the padding before a word is zero
        run_start = ~is_y[ys - 1]
        # Each "y"'s place in its run of "y"s: 0 for the first.
        first = np.maximum.accumulate(np.where(run_start, np.arange(len(ys)), 0))
        place = np.arange(len(ys)) - first
        for round_ in range(int(place.max()) + 1):
            now = place == round_
            flat[ys[now]] = starts_word[now] | ~flat[ys[now] - 1]
    return consonant


def _step1a(block: _Block) -> None:
    """-sses -> -ss, -ies -> -i (NLTK: -ie in a word of four letters), -ss stays, -s goes."""
    tails, rows = block.tails(block.rows), block.rows
    ies, sses, four = _ends(tails, "ies"), _ends(tails, "sses"), block.length == 4
    block.length[rows[ies & four]] -= 1  # NLTK: "ties" -> "tie"
    block.length[rows[sses | (ies & ~four)]] -= 2
    block.length[rows[_ends(tails, "s") & ~_ends(tails, "ss") & ~ies & ~sses]] -= 1


def _step1b(block: _Block) -> None:
    """NLTK: -ied -> -ie (four letters) or -i. -eed -> -ee when m > 0. -ed or -ing goes when the stem has
    a vowel, and then: -at, -bl, -iz get an e; a double consonant but l, s, z is halved; else an m = 1
    stem ending consonant-vowel-consonant (*o) gets an e."""
    tails, rows = block.tails(block.rows), block.rows
    ied, four = _ends(tails, "ied"), block.length == 4  # NLTK: "-ied" -> "-ie" or "-i", always
    block.length[rows[ied & four]] -= 1
    block.length[rows[ied & ~four]] -= 2
    eed = _ends(tails, "eed") & ~ied
    eed_rows = rows[eed]
    block.length[eed_rows[block.measure(eed_rows, block.length[eed_rows] - 3) > 0]] -= 1
    open_rows = ~(ied | eed)
    stripped = []
    for suffix in ("ed", "ing"):
        candidates = rows[open_rows & _ends(tails, suffix)]
        found = candidates[block.has_vowel(candidates, block.length[candidates] - len(suffix))]
        block.length[found] -= len(suffix)
        stripped.append(found)
    rows = np.sort(np.concatenate(stripped))
    if not len(rows):
        return
    tails = block.tails(rows)
    undecided = np.ones(len(rows), dtype=bool)
    for suffix in ("at", "bl", "iz"):
        hit = undecided & _ends(tails, suffix)
        block.write(rows[hit], "e")
        undecided &= ~hit
    last = block.length[rows] - 1
    double = (
        undecided
        & (last >= 1)
        & (block.letters[rows, _PAD + last] == block.letters[rows, _PAD + np.maximum(last - 1, 0)])
        & block.consonant[rows, _PAD + last]
    )
    block.length[rows[double & ~_KEPT_DOUBLES[block.letters[rows, _PAD + last]]]] -= 1
    rest = rows[undecided & ~double]
    length = block.length[rest]
    block.write(rest[(block.measure(rest, length) == 1) & block.ends_cvc(rest, length)], "e")


def _ends(tails: np.ndarray, suffix: str) -> np.ndarray:
    """Which packed word ends (``_Block.tails``) end with ``suffix``."""
    mask, value = _packed(suffix)
    return (tails & mask) == value


def _stem_block(letters: np.ndarray, starts: np.ndarray, lengths: np.ndarray, width: int) -> list[str]:
    block = _Block(letters, starts, lengths, width)
    _step1a(block)
    _step1b(block)
    for rules in _RULE_STEPS:
        block.apply_rules(rules)
    return block.text()


def porter_stems(words: Sequence[str]) -> list[str]:
    """NLTK's Porter stems (``PorterStemmer()``, mode ``NLTK_EXTENSIONS``) of words of ``[a-z0-9]``.

    >>> porter_stems(["running", "cats", "generously", "skies", "ab"])
    ['run', 'cat', 'gener', 'sky', 'ab']
    >>> porter_stems(["Cats"])
    Traceback (most recent call last):
    ...
    ngrameval.errors.InputError: porter_stems takes words of [a-z0-9] only, got 'Cats'
    """
    words = list(words)
    lengths = np.fromiter(map(len, words), dtype=np.int64, count=len(words))
    letters = _ascii_bytes("".join(words))
    if not _WORD_BYTES[letters].all() or not lengths.all():
        bad = next(word for word in words if not word or not _WORD_BYTES[_ascii_bytes(word)].all())
        raise InputError(f"porter_stems takes words of [a-z0-9] only, got {bad!r}")
    starts = np.cumsum(lengths) - lengths
    stems = np.array(words, dtype=object)
    stemmed = lengths > 2  # NLTK returns shorter words as they are
    width = np.maximum(32, 1 << np.ceil(np.log2(np.maximum(lengths, 1))).astype(np.int64))
    for group_width in np.unique(width[stemmed]):
        group = np.flatnonzero(stemmed & (width == group_width))
        # One column more than the longest word: the newline that ends each word in _Block.text.
        stems[group] = _stem_block(letters, starts[group], lengths[group], int(group_width) + _PAD + 1)
    if not IRREGULAR.keys().isdisjoint(words):
        given = np.array(words, dtype=object)
        for word in IRREGULAR.keys() & set(words):
            stems[given == word] = IRREGULAR[word]
    return stems.tolist()


def _ascii_bytes(text: str) -> np.ndarray:
    """The characters of ``text`` as bytes, one each ("?" for a non-ASCII character, which no word has)."""
    return np.frombuffer(text.encode("ascii", "replace"), dtype=np.uint8)
