"""The jar's alignment search (``edu.cmu.meteor.aligner.Aligner``), on all alignments of a corpus at once.

For one alignment (hypothesis = line 1, reference = line 2) the jar: (1) lists each matcher's candidates
at the reference position where they start (modules in order; only the first module when the two lines are
equal word for word); (2) *fixes* a candidate alone at its start that covers only words no other candidate
covers; (3) runs a beam search left to right over reference positions. A path has a score (per match, the
sum of ``(int)(words * w)`` on each side, w = 1 for exact and 0.5 for other modules), a chunk count and a
distance; before each position the paths are sorted (stable) by score (more first), chunks, distance, and
the best ``beam_size`` go on: a path passes positions inside its last match, takes the fixed match starting
here, or branches into one path per usable candidate (in list order) followed by itself skipping the
position. The jar adds each candidate's distance ``|start - match_start|`` to the *parent* path, not the new
one (which inherits the parent's distance as it is then): reproduced, since it breaks ties. (4) After the
last position open chunks close and the best path wins. Here the paths of all alignments advance together.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import numpy as np

from ngrameval.engine.ngrams import concatenated_ranges
from ngrameval.metrics.meteor15.matchers import CANDIDATE_FIELDS, Candidates, Sides

DEFAULT_BEAM_SIZE = 40


@dataclass
class Stage:
    """Candidate matches in the jar's order: ``first[ref_offset[a] + i]`` .. ``first[ref_offset[a] + i + 1]``
    start at reference position i of alignment a; ``fixed[c]`` marks candidates of the initial path."""

    a: np.ndarray
    start: np.ndarray
    length: np.ndarray
    match_start: np.ndarray
    match_length: np.ndarray
    module: np.ndarray
    first: np.ndarray
    fixed: np.ndarray


def build_stage(sides: Sides, candidates: Candidates, identical: np.ndarray) -> Stage:
    """Sort the candidates as the jar lists them, drop the modules after the first for alignments whose
    lines are identical (``identical[a]``), and find the fixed ones."""
    keep = ~identical[candidates.a] | (candidates.order[:, 0] == 0)
    c = Candidates(*(getattr(candidates, name)[keep] for name in CANDIDATE_FIELDS))
    order = np.lexsort(tuple(c.order[:, k] for k in range(c.order.shape[1] - 1, -1, -1)) + (c.start, c.a))
    a, start, length = c.a[order], c.start[order], c.length[order]
    match_start, match_length, module = c.match_start[order], c.match_length[order], c.order[order, 0]
    slot = sides.ref_offset[a] + start
    first = np.searchsorted(slot, np.arange(len(sides.ref_word) + 1))
    # Fixed: alone at its start, and on both sides covering only words that no other candidate covers.
    alone = np.diff(first)[slot] == 1
    fixed = alone & _covered_once(slot, length) & _covered_once(sides.hyp_offset[a] + match_start, match_length)
    return Stage(a, start, length, match_start, match_length, module, first, fixed)


def _covered_once(begin: np.ndarray, length: np.ndarray) -> np.ndarray:
    """Whether each span ``[begin, begin + length)`` covers only words that no other span covers (a phrase
    covers all its words)."""
    index, row = concatenated_ranges(begin, length)
    once = np.ones(len(begin), dtype=bool)
    once[row[np.bincount(index)[index] != 1]] = False
    return once


def _lanes(begin: np.ndarray, length: np.ndarray, rows: np.ndarray, count: int, lanes: int) -> np.ndarray:
    """Bit masks (``lanes`` uint64 words a row) with bits [begin, begin + length) set in row ``rows``."""
    masks = np.zeros((count, lanes), dtype=np.uint64)
    position, row = concatenated_ranges(begin, length)
    np.bitwise_or.at(masks, (rows[row], position // 64), np.left_shift(np.uint64(1), (position % 64).astype(np.uint64)))
    return masks


def _where_taken(took: np.ndarray, match: np.ndarray, values: np.ndarray) -> np.ndarray:
    """``values[match]`` where a path takes its fixed match (``took``), else 0 (all 0 without candidates)."""
    return np.where(took, values[match], 0) if len(values) else np.zeros(len(match), np.int64)


def _sort_order(a: np.ndarray, score: np.ndarray, chunks: np.ndarray, distance: np.ndarray) -> np.ndarray:
    """Stable order by alignment, then the jar's PARTIAL_COMPARE_TOTAL: score descending, chunks, distance."""
    if not len(a):
        return np.zeros(0, dtype=np.int64)
    top_score = int(score.max())
    widths = [int(x).bit_length() for x in (a.max(), top_score - score.min(), chunks.max(), distance.max())]
    if sum(widths) <= 63:
        key = a.astype(np.int64)
        for value, width in zip((top_score - score, chunks, distance), widths[1:]):
            key = (key << width) | value
        return np.argsort(key, kind="stable")
    return np.lexsort((distance, chunks, -score, a))


def search(
    stage: Stage, sides: Sides, aligner_weights: np.ndarray, beam_size: int = DEFAULT_BEAM_SIZE
) -> tuple[np.ndarray, np.ndarray]:
    """The jar's beam search on every alignment: the best path's chunk count, and for every candidate whether
    that path uses it (fixed candidates are in every path). ``aligner_weights[m]``: the weight of module
    position m (the jar: 1.0 for exact, 0.5 for the others, whatever the scoring weights are).

    "a b a" against "a b": the first "a" of the hypothesis goes with "a", so "a b" is one chunk.

    >>> from ngrameval.metrics.meteor15.matchers import word_candidates
    >>> sides = Sides.of([([0, 1, 0], [0, 1])])
    >>> stage = build_stage(sides, word_candidates(sides, 0, np.array([7, 8]), None), np.array([False]))
    >>> chunks, chosen = search(stage, sides, np.array([1.0]))
    >>> chunks.tolist(), stage.match_start[chosen].tolist()
    ([1], [0, 1])
    """
    n_align, n_cand = len(sides.ref_length), len(stage.a)
    w = np.asarray(aligner_weights, dtype=np.float64)[stage.module]
    # (int)(words * weight) on each side, as the jar's PartialAlignment counts a match.
    gain = (np.floor(stage.match_length * w) + np.floor(stage.length * w)).astype(np.int64)
    distance = np.abs(stage.start - stage.match_start)
    lanes = max(1, -(-int(sides.hyp_length.max(initial=0)) // 64))
    cand_mask = _lanes(stage.match_start, stage.match_length, np.arange(n_cand), n_cand, lanes)
    fixed = np.flatnonzero(stage.fixed)
    ref_slot = sides.ref_offset[stage.a] + stage.start
    fixed_at = np.full(len(sides.ref_word) + 1, -1, dtype=np.int64)
    fixed_at[ref_slot[fixed]] = fixed
    fixed_cover = np.zeros(len(sides.ref_word), dtype=bool)
    fixed_cover[concatenated_ranges(ref_slot[fixed], stage.length[fixed])[0]] = True
    index, row = concatenated_ranges(ref_slot, stage.length)
    blocked = np.zeros(n_cand, dtype=bool)
    blocked[row[fixed_cover[index]]] = True

    # The paths, in the jar's list order, grouped by alignment: one initial path each.
    A = np.arange(n_align)
    S, C, D, IDX = (np.zeros(n_align, dtype=np.int64) for _ in range(4))
    LME = np.full(n_align, -1, dtype=np.int64)
    U = _lanes(stage.match_start[fixed], stage.match_length[fixed], stage.a[fixed], n_align, lanes)
    BP = TK = np.full(n_align, -1, dtype=np.int64)
    history_bp, history_tk, finals = [], [], []
    for i in range(int(sides.ref_length.max(initial=0)) + 1):
        if not len(A):
            break
        order = _sort_order(A, S, C, D)
        group_first = np.searchsorted(A[order], A[order], "left")
        kept = order[np.arange(len(order)) - group_first < beam_size]
        A, S, C, D, IDX, LME, U, BP, TK = (x[kept] for x in (A, S, C, D, IDX, LME, U, BP, TK))
        history_bp.append(BP)
        history_tk.append(TK)
        done = sides.ref_length[A] == i
        if done.any():  # the last position: close the open chunk; these paths compete at the end
            at = np.flatnonzero(done)
            finals.append((A[at], at, S[at], C[at] + (LME[at] != -1), D[at], np.full(len(at), i)))
        live = ~done
        slot = np.where(live, sides.ref_offset[A] + i, len(sides.ref_word))
        passing = live & (i < IDX)
        fixed_here = np.where(live & ~passing, fixed_at[slot], -1)
        free = live & ~passing & (fixed_here < 0)
        # Free paths branch into one path per usable candidate starting here (in list order) ...
        rows = np.flatnonzero(free)
        lo = stage.first[slot[rows]]
        count = stage.first[slot[rows] + 1] - lo
        pc, pr = concatenated_ranges(lo, count)
        pr = rows[pr]
        usable = ~blocked[pc] & ~(U[pr] & cand_mask[pc]).any(axis=1)
        pr, pc = pr[usable], pc[usable]
        n_children = np.bincount(pr, minlength=len(A))
        group_start = np.searchsorted(pr, pr, "left")
        child_rank = np.arange(len(pr)) - group_start
        # ... each new path inheriting the parent's distance as the earlier siblings left it.
        dd = distance[pc]
        before = np.cumsum(dd) - dd
        inherited = before - before[group_start] if len(pr) else before
        added = np.zeros(len(A), dtype=np.int64)
        np.add.at(added, pr, dd)

        out_count = live.astype(np.int64) + n_children
        out_first = np.cumsum(out_count) - out_count
        size = int(out_count.sum())
        new = {name: np.empty(size, dtype=np.int64) for name in ("A", "S", "C", "D", "IDX", "LME", "BP", "TK")}
        new_U = np.empty((size, lanes), dtype=np.uint64)
        # The path itself (after its children): passing, taking the fixed match, or skipping.
        own = np.flatnonzero(live)
        at = out_first[own] + n_children[own]
        m = fixed_here[own]
        took = m >= 0
        m = np.where(took, m, 0)
        skip = free[own]
        open_chunk = LME[own] != -1
        fixed_value = partial(_where_taken, took, m)

        new["A"][at], new["BP"][at], new["TK"][at] = A[own], own, -1
        new["S"][at] = S[own] + fixed_value(gain)
        new["C"][at] = C[own] + (
            (took & open_chunk & (fixed_value(stage.match_start) != LME[own])) | (skip & open_chunk)
        )
        new["D"][at] = D[own] + fixed_value(distance) + added[own]
        new["IDX"][at] = np.where(
            took, fixed_value(stage.start) + fixed_value(stage.length), np.where(skip, i + 1, IDX[own])
        )
        new["LME"][at] = np.where(
            took, fixed_value(stage.match_start) + fixed_value(stage.match_length), np.where(skip, -1, LME[own])
        )
        new_U[at] = U[own]
        at = out_first[pr] + child_rank
        new["A"][at], new["BP"][at], new["TK"][at] = A[pr], pr, pc
        new["S"][at] = S[pr] + gain[pc]
        new["C"][at] = C[pr] + ((LME[pr] != -1) & (stage.match_start[pc] != LME[pr]))
        new["D"][at] = D[pr] + inherited
        new["IDX"][at] = stage.start[pc] + stage.length[pc]
        new["LME"][at] = stage.match_start[pc] + stage.match_length[pc]
        new_U[at] = U[pr] | cand_mask[pc]
        A, S, C, D, IDX, LME, BP, TK = (new[name] for name in ("A", "S", "C", "D", "IDX", "LME", "BP", "TK"))
        U = new_U

    # The winner of each alignment: the first of its closed paths after a last stable sort.
    fa, fk, fs, fc, fd, fstep = (np.concatenate(parts) for parts in zip(*finals))
    order = _sort_order(fa, fs, fc, fd)
    first = order[np.searchsorted(fa[order], np.arange(n_align), "left")]
    chunks, cursor, step = fc[first], fk[first], fstep[first]
    chosen = stage.fixed.copy()
    for t in range(int(step.max(initial=0)), 0, -1):
        active = np.flatnonzero(step >= t)
        taken = history_tk[t][cursor[active]]
        chosen[taken[taken >= 0]] = True
        cursor[active] = history_bp[t][cursor[active]]
    return chunks, chosen
