"""After its first corpus, a process reuses the memory of freed arrays (ngrameval.engine.memory): a
freed 2 MiB array's pages serve the next one, where a new process would take fresh pages for it (a page
fault per 4 KiB; 2 MiB is below the 4 MiB from which numpy asks for huge pages). Counted in a new
interpreter, where nothing else has raised glibc's threshold yet."""
import platform
import subprocess
import sys

import pytest

_SCRIPT = """
import resource
import sys
import numpy as np
from ngrameval.engine.inputs import normalize_corpus
if sys.argv[1] == "scored":
    normalize_corpus(["a cat"], ["the cat"])
np.ones(2 << 20, np.uint8)            # made, touched and freed
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
np.ones(2 << 20, np.uint8)
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""
PAGES = (2 << 20) // 4096


def _faults_of_second_array(state: str) -> int:
    done = subprocess.run([sys.executable, "-c", _SCRIPT, state], capture_output=True, text=True, check=True)
    return int(done.stdout)


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="glibc's mmap threshold")
def test_freed_arrays_are_reused_once_a_corpus_was_scored():
    fresh, scored = _faults_of_second_array("fresh"), _faults_of_second_array("scored")
    assert fresh > PAGES // 2, fresh          # the mechanism: a new process faults on the array's pages
    assert scored < PAGES // 8, scored        # once a corpus was scored, freed pages are reused
