"""Word edit distances to one reference exactly as sacrebleu 2.6.0's TER computes them, fast.

sacrebleu (``lib_ter.BeamEditDistance``) fills the Levenshtein matrix only inside a *beam* (row ``i`` of
``n`` hypothesis words against ``m`` reference words: the columns within 25 of ``floor(i * m / n)``, the
last row in full): its distance is at least the true one, larger when every cheapest alignment leaves the
beam. Its trace (on ties: match or substitution, then deletion, then insertion) decides which shifts TER
tries next, so both are reproduced exactly.

The true distance is computed bit-parallel (Myers, 1999, as Hyyrö, 2001) on Python integers. An alignment
of cost ``D`` strays at most ``(D + |m - n|) // 2`` from the line ``j = i * m / n``; when the beam holds
that in every row (:attr:`BeamEditDistance.exact_radius`) the true distance and trace *are* the beam's.
Only when the bound fails is the beam filled as sacrebleu fills it (:meth:`BeamEditDistance.beam_rows`).

>>> ed = BeamEditDistance("the cat sat on the mat".split(), 5)
>>> alignment = ed.align("the cat sat the mat".split())
>>> alignment.distance, alignment.trace
(1, '   i  ')
>>> ed.lower_bound("cat the sat the mat".split(), 0, alignment)     # (distance, the beam's too)
(3, True)
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ngrameval.engine.cache import cleared_with_caches

# sacrebleu's lib_ter constants: its "infinite" distance and the half-width of its beam.
INFINITY = int(1e16)
BEAM_WIDTH = 25

# Trace operations, as sacrebleu names them while rewriting the hypothesis into the reference.
MATCH, SUBSTITUTION, INSERTION, DELETION = " ", "s", "i", "d"

# Per hypothesis prefix: the vertical deltas of the Levenshtein column (bit j: D[j + 1] - D[j] is
# +1 in the first int, -1 in the second) and the distance of the prefix to the whole reference.
MyersState = tuple[int, int, int]


@dataclass
class Alignment:
    """The distance of ``words`` to the reference and sacrebleu's trace (one operation per step), with what a
    candidate sharing a prefix with ``words`` resumes from: every prefix's Myers state, the beam's rows once needed."""

    words: list[str]
    distance: int
    trace: str
    states: list[MyersState]
    rows: list[list[int]] | None = None


class BeamEditDistance:
    """Distances of hypotheses of ``hypothesis_length`` words (TER's shifts keep the length) to
    ``reference``, equal to sacrebleu's ``BeamEditDistance`` on every input."""

    def __init__(self, reference: Sequence[str], hypothesis_length: int):
        self.reference = list(reference)
        m, n = len(self.reference), hypothesis_length
        self._match_bits: dict[str, int] = {}
        for j, word in enumerate(self.reference):
            self._match_bits[word] = self._match_bits.get(word, 0) | (1 << j)
        self._all_bits = (1 << m) - 1
        self._last_bit = 1 << (m - 1) if m else 0
        self.beam, self.exact_radius = beam_of(m, n)
        self._length_difference = abs(m - n)

    def beam_is_exact(self, distance: int) -> bool:
        """Whether every alignment costing ``distance`` (the true distance) lies inside the beam."""
        return self.exact_radius is None or (distance + self._length_difference) // 2 <= self.exact_radius

    def myers_states(
        self, words: Sequence[str], start: int = 0, state: MyersState | None = None, record: bool = True
    ) -> list[MyersState]:
        """The Myers states after each prefix ``words[:i]``, ``i`` from ``start`` (whose state is
        ``state``; the empty prefix's by default) to ``len(words)``; only the last unless ``record``."""
        if state is None:
            state = (self._all_bits, 0, len(self.reference))
        states = [state]
        pv, mv, score = state
        all_bits, last_bit, match_bits = self._all_bits, self._last_bit, self._match_bits
        for word in words[start:]:
            eq = match_bits.get(word, 0)
            xv = eq | mv
            xh = (((eq & pv) + pv) ^ pv) | eq
            ph = mv | (~(xh | pv) & all_bits)
            mh = pv & xh
            if ph & last_bit:
                score += 1
            elif mh & last_bit:
                score -= 1
            ph = (ph << 1) | 1  # the first row is D[0][i] = i: every hypothesis word costs one
            mh <<= 1
            pv = (mh | ~(xv | ph)) & all_bits
            mv = ph & xv
            if record:
                states.append((pv, mv, score))
        return states if record else [(pv, mv, score)]

    def align(self, words: Sequence[str]) -> Alignment:
        """sacrebleu's distance and trace of ``words`` (of ``hypothesis_length`` words)."""
        words = list(words)
        states = self.myers_states(words)
        distance = states[-1][2]
        if self.beam_is_exact(distance):

            def value(i: int, j: int) -> int:
                pv, mv, _ = states[i]
                below = (1 << j) - 1
                return i + (pv & below).bit_count() - (mv & below).bit_count()

            return Alignment(words, distance, self._trace(words, value), states=states)
        rows = self.beam_rows(words)
        return Alignment(words, rows[-1][-1], self._trace(words, lambda i, j: rows[i][j]), states, rows)

    def lower_bound(self, words: Sequence[str], start: int, alignment: Alignment) -> tuple[int, bool]:
        """The Levenshtein distance of ``words`` (equal to ``alignment.words`` before ``start``), a
        lower bound of sacrebleu's, and whether it is sacrebleu's (the beam changes nothing)."""
        distance = self.myers_states(words, start, alignment.states[start], record=False)[-1][2]
        return distance, self.beam_is_exact(distance)

    def beam_distance(self, words: Sequence[str], start: int, alignment: Alignment) -> int:
        """sacrebleu's distance of ``words`` (equal to ``alignment.words`` before ``start``), the beam
        filled from row ``start`` on (the rows before are ``alignment``'s, filled once)."""
        if alignment.rows is None:
            alignment.rows = self.beam_rows(alignment.words)
        return self.beam_rows(words, start, alignment.rows[: start + 1])[-1][-1]

    def beam_rows(self, words: Sequence[str], start: int = 0, rows: list[list[int]] | None = None) -> list[list[int]]:
        """sacrebleu's matrix, row ``i`` for the prefix ``words[:i]``, filled inside the beam only
        (``INFINITY`` elsewhere), continuing ``rows`` (the first ``start + 1`` rows) when given."""
        m, reference = len(self.reference), self.reference
        rows = list(rows) if rows is not None else [list(range(m + 1))]
        for i in range(start + 1, len(words) + 1):
            previous, word = rows[i - 1], words[i - 1]
            row = [INFINITY] * (m + 1)
            low, high = self.beam[i - 1]
            if low == 0:
                row[0] = previous[0] + 1
            for j in range(max(low, 1), high):
                # (sacrebleu keeps the cheapest of match/substitution, deletion, insertion below INFINITY)
                row[j] = min(INFINITY, previous[j - 1] + (word != reference[j - 1]), previous[j] + 1, row[j - 1] + 1)
            rows.append(row)
        return rows

    def _trace(self, words: list[str], value: Callable[[int, int], int]) -> str:
        """sacrebleu's trace, read back from the last cell: at each cell the first of match or
        substitution, deletion (a hypothesis word), insertion (a reference word) that explains its
        value."""
        reference = self.reference
        i, j = len(words), len(reference)
        operations = []
        here = value(i, j)
        while i > 0 or j > 0:
            differ = i > 0 and j > 0 and words[i - 1] != reference[j - 1]
            if i > 0 and j > 0 and here == (diagonal := value(i - 1, j - 1)) + differ:
                operation, here = SUBSTITUTION if differ else MATCH, diagonal
            elif j == 0 or (i > 0 and here == value(i - 1, j) + 1):
                operation, here = DELETION, here - 1
            else:
                operation, here = INSERTION, here - 1
            operations.append(operation)
            i -= operation != INSERTION
            j -= operation != DELETION
        return "".join(reversed(operations))


@cleared_with_caches
@functools.lru_cache(maxsize=4096)
def beam_of(m: int, n: int) -> tuple[tuple[tuple[int, int], ...], int | None]:
    """sacrebleu's beam for a hypothesis of ``n`` words and a reference of ``m`` (row i, from 1, holds
    the columns [low, high)), and the largest R such that every row i holds the columns j with
    |j - i * m / n| <= R (None: the beam is the whole matrix; negative: not even that line).

    >>> beam_of(3, 2)
    (((0, 4), (0, 4)), None)
    """
    # sacrebleu widens the beam when the reference is more than 50 times longer than the
    # hypothesis, so that neighbouring rows still overlap; the last row is filled in full.
    ratio = m / n if n else 1
    width = math.ceil(ratio / 2 + BEAM_WIDTH) if BEAM_WIDTH < ratio / 2 else BEAM_WIDTH
    beam = tuple(
        (max(0, math.floor(i * ratio) - width), m + 1 if i == n else min(m + 1, math.floor(i * ratio) + width))
        for i in range(1, n + 1)
    )
    # Integer arithmetic: j >= low for all j >= i*m/n - R iff R*n < i*m - (low - 1)*n, and
    # j < high for all j <= i*m/n + R iff R*n < high*n - i*m.
    radius = None
    for i, (low, high) in enumerate(beam, start=1):
        for bound, limited in ((i * m - (low - 1) * n, low > 0), (high * n - i * m, high < m + 1)):
            if limited:
                largest = -(-bound // n) - 1  # the largest integer R with R * n < bound
                radius = largest if radius is None else min(radius, largest)
    return beam, radius
