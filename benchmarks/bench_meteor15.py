"""METEOR 1.5: ngrameval.metrics.meteor15 against the meteor-1.5.jar that pycocoevalcap 1.2 runs.

    python benchmarks/bench_meteor15.py [--quick] [--repeats N] [--only wmt22-3k e2e] [--profile]

Both tools are timed as whole processes, as a user meets them: the jar is started as pycocoevalcap starts
it (``java -jar -Xmx2G meteor-1.5.jar - - -stdio -l en -norm``: JVM start, the 5.3 million paraphrase
entries loaded) and fed one ``SCORE`` line per segment, then one ``EVAL`` line; ngrameval runs in a
``python -c`` child process that imports ``ngrameval.metrics.meteor15``, opens the paraphrase table's index and
scores the corpus in one call. The index is on disk already (*warm*: built before the timing into the
default cache directory) or not (*cold*: an empty cache directory, so the run builds it). Every row
returns the segment scores and the corpus score, checked against ngrameval's to 1e-9. Each tool's peak
memory is the ``ru_maxrss`` of its process, read with ``getrusage(RUSAGE_CHILDREN)`` by the measuring
process once the child has exited (its only child). Targets: warm at least 2x faster than the jar; cold
(the first run on a machine) at least as fast as the jar and in no more memory.
"""

from __future__ import annotations

import atexit
import json
import resource
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

from common import ROOT, Corpus, Row, Section, Target, main, report_child_peak, shared

PACKAGES = ("ngrameval", "numpy", "snowballstemmer", "pycocoevalcap")
TOLERANCE = 1e-9
_CHILD = """
import json, pathlib, sys
job = json.loads(pathlib.Path(sys.argv[1]).read_text(encoding="utf-8"))
from ngrameval.metrics.meteor15 import Meteor15
result = Meteor15(cache_dir=job["cache_dir"]).score(job["hypotheses"], job["references"])
pathlib.Path(sys.argv[2]).write_text(json.dumps({"segments": result.segment_scores.tolist(), "corpus": result.score}))
"""


# --------------------------------------------------------------------------- data


def _pycocoevalcap_hypotheses(corpus: Corpus):
    """The hypotheses as pycocoevalcap sends them (``|||`` removed, double spaces halved once)."""
    sys.path.insert(0, str(ROOT))
    from tests.meteor_jar import pycocoevalcap_hypothesis

    return [pycocoevalcap_hypothesis(line) for line in corpus.systems[0]]


def _warm_index() -> None:
    """Build the paraphrase table's index in the default cache directory (in a child process, so that no
    measuring process carries its memory)."""
    subprocess.run(
        [sys.executable, "-c", "from ngrameval.metrics.meteor15 import Meteor15; Meteor15().paraphrase"],
        check=True,
        cwd=ROOT,
    )


def load_wmt22(count: int) -> Corpus:
    """``count`` WMT22 de-en segments (English) with references A and B: the lines of the systems in order."""
    from tests.data import WMT22_SYSTEMS, per_segment, wmt22_references, wmt22_system

    _warm_index()
    references = per_segment(wmt22_references(shared, "de-en"))
    hypotheses, groups = [], []
    for system in WMT22_SYSTEMS["de-en"]:
        hypotheses += wmt22_system(shared, "de-en", system)
        groups += references
    return Corpus(
        f"WMT22 de-en (English side): the first {count} lines of its systems taken in order "
        f"({', '.join(WMT22_SYSTEMS['de-en'][:2])}, ...), references A and B",
        ["systems"],
        [hypotheses[:count]],
        groups[:count],
    )


def load_e2e(count: int) -> Corpus:
    """E2E NLG test set: ``count`` items of TGen's outputs, each with all its references (1 to 45)."""
    from tests.data import e2e_outputs, e2e_references

    _warm_index()
    _, references = e2e_references(shared)
    return Corpus(
        f"E2E NLG test set, TGen's first {count} outputs, {sum(map(len, references[:count]))} references in all",
        ["tgen"],
        [e2e_outputs(shared, "tgen")[:count]],
        references[:count],
    )


# --------------------------------------------------------------------------- rows (run in a fresh process)


def _report_children_peak() -> None:
    """The largest peak resident set of the measuring process's exited children (KiB on Linux): the tool's."""
    report_child_peak(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)


def ngrameval_process(corpus: Corpus, cold: bool = False):
    """``python -c``: import ngrameval.metrics.meteor15, score the corpus in one call (the default options: rank,
    -norm, all four modules), print the scores. Cold: with an empty cache directory."""
    scratch = Path(tempfile.mkdtemp(prefix="ngrameval-meteor15-bench-"))
    atexit.register(shutil.rmtree, scratch, True)
    cache_dir = str(scratch / "cache") if cold else None
    job = scratch / "job.json"
    job.write_text(
        json.dumps(
            {"hypotheses": _pycocoevalcap_hypotheses(corpus), "references": corpus.references, "cache_dir": cache_dir}
        ),
        encoding="utf-8",
    )
    output = scratch / "out.json"

    def run():
        subprocess.run([sys.executable, "-c", _CHILD, str(job), str(output)], check=True, cwd=ROOT)
        done = json.loads(output.read_text())
        _report_children_peak()
        return [done["segments"], done["corpus"]]

    return run


def jar_process(corpus: Corpus):
    """The jar as pycocoevalcap 1.2 runs it: one SCORE line per segment (answer read before the next),
    then one EVAL line."""
    sys.path.insert(0, str(ROOT))
    from tests.meteor_jar import MeteorJar

    hypotheses, references = _pycocoevalcap_hypotheses(corpus), corpus.references

    def run():
        jar = MeteorJar(["-norm"])
        try:
            _, segments, score = jar.score(hypotheses, references)
        finally:
            jar.close()  # waits for the JVM, so that its peak is in RUSAGE_CHILDREN
        _report_children_peak()
        return [segments, score]

    return run


# --------------------------------------------------------------------------- sections

WARM = "ngrameval.metrics.meteor15 (warm index)"
COLD = "ngrameval.metrics.meteor15 (cold: builds the index)"
JAR = "meteor-1.5.jar -stdio -norm (pycocoevalcap's protocol)"

NOTES = [
    (
        "Every row is a child process of the measuring worker (CPU s: the child's, from RUSAGE_CHILDREN; peak: "
        "the worker's plus the child's ru_maxrss from RUSAGE_CHILDREN; Δ subtracts the worker's baseline)."
    ),
    (
        "ngrameval: `python -c` reading the corpus from a JSON file, `Meteor15().score(...)` (rank, -norm, "
        "exact/stem/synonym/paraphrase), writing the scores. Warm: the index of paraphrase-en.gz is in the "
        "default cache directory (built before timing); cold: an empty cache directory, so the 62 MB table is "
        "parsed into a new index inside the timing (what a new user, a fresh CI job or Space container runs)."
    ),
    (
        "jar: Java 17, `-Xmx2G`, started in pycocoevalcap's meteor directory; the Python side writes each SCORE "
        "line and reads its answer (as pycocoevalcap does), then the EVAL line. Scores checked to 1e-9."
    ),
]


def section(key: str, title: str, load) -> Section:
    return Section(
        key,
        title,
        load,
        [
            Row(WARM, ngrameval_process, {"cold": False}, note="child process"),
            Row(COLD, ngrameval_process, {"cold": True}, WARM, note="child process"),
            Row(JAR, jar_process, compare_to=WARM, tolerance=TOLERANCE, note="child process"),
        ],
        [Target(JAR, WARM, "time", 2), Target(JAR, COLD, "time", 1), Target(JAR, COLD, "peak", 1)],
        NOTES,
    )


def sections(quick: bool) -> Iterator[Section]:
    yield section(
        "wmt22-3k",
        "1. METEOR 1.5 on 3,000 WMT22 segments, 2 references each",
        lambda: load_wmt22(1000 if quick else 3000),
    )
    yield section(
        "e2e", "2. METEOR 1.5 on E2E outputs with all their references", lambda: load_e2e(100 if quick else 630)
    )


if __name__ == "__main__":
    sys.exit(main("METEOR 1.5", sections, packages=PACKAGES))
