"""Temporary arrays on pages the process already has.

glibc's malloc gives a block larger than its mmap threshold (128 KiB in a new process) fresh pages from
the kernel and hands them back when the block is freed, so each such block costs a page fault per 4 KiB
it touches. A corpus's arrays (a few MB each: one int64 per token) are such blocks, made and freed dozens
of times in one call. Once a block of that kind is freed, glibc raises the threshold to its size (up to
32 MiB) and keeps twice that much freed memory for reuse: later blocks of up to that size come from
memory the process already has. A program that has freed one large array is in that state; a new
process scoring its first corpus is not, and on the virtual machine of benchmarks/ (a page fault there
costs about 2.5 microseconds) the faults were a third of a ROUGE call on REALSumm's 3,500 pairs: 19,000
to 23,000 of them, against 12,000 once the threshold was raised.

:func:`reuse_freed_memory` raises it at once: it allocates and frees one 16 MiB block without touching it
(so it costs no page fault). With other allocators it is one allocation of untouched memory.
"""
from __future__ import annotations

import functools

import numpy as np

# Below glibc's largest dynamic threshold (32 MiB), so that freeing it raises the threshold to 16 MiB
# and the memory kept for reuse to 32 MiB.
_BLOCK_BYTES = 16 << 20


@functools.lru_cache(maxsize=None)
def reuse_freed_memory() -> None:
    """Let the allocator keep and reuse the memory of freed arrays of up to 16 MiB (once per process).

    >>> reuse_freed_memory()
    """
    np.empty(_BLOCK_BYTES, np.uint8)
