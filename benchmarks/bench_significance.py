"""Significance tests: ngrameval.significance against sacrebleu's command line, and its cost per metric.

    python benchmarks/bench_significance.py [--quick] [--repeats N] [--only paired-bs-bleu ...] [--profile]

(a) ``paired-bs-bleu``: 1000-resample paired bootstrap of BLEU (``tokenize="none"``) over the 16 WMT17
systems, baseline LIUM-NMT, both tools run as whole processes on the same files: ``sacrebleu REF -i
SYS... -m bleu --paired-bs -tok none -f json`` against a ``python -c`` that reads the files, computes
the statistics and runs :func:`ngrameval.significance.paired_test`. Both return the systems' bootstrap
means and p-values (ours times 100), which must agree.
(b) one section per metric (NIST, ROUGE-1/2/L, CIDEr-D, METEOR): the statistics of 4 systems plus a
1000-resample paired bootstrap, against scoring the 4 systems once with the public function.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
from collections.abc import Iterator

from common import Corpus, Row, Section, Target, load_wmt17, main, report_child_peak, shared

PACKAGES = ("ngrameval", "sacrebleu", "numpy")
BASELINE = "LIUM-NMT"
SAMPLES = 1000
WMT17_FILES = "data/wmt17-en-de"
# ngrameval's side of (a), whole process: read, score, test, print means and p-values as sacrebleu's JSON has them.
NGRAMEVAL_SCRIPT = """
import json, sys
from ngrameval.metric import statistics
from ngrameval.significance import paired_test
read = lambda path: open(path, encoding="utf-8").read().splitlines()
references = [[line] for line in read(sys.argv[1])]
stats = [statistics("bleu", read(path), references, tokenize="none") for path in sys.argv[2:]]
results = paired_test(stats[0], stats[1:], "bs", n_samples=1000)
print(json.dumps([[r["bleu"].mean * 100, r["bleu"].p_value or -1] for r in results]))   # -1: the baseline
"""


def _files(corpus: Corpus):
    """The reference file and the systems' files, the baseline first (the corpus holds the names only
    without their submission numbers, so the files are found from the full names)."""
    from tests.data import WMT17_SYSTEMS

    full = {name.rsplit(".", 1)[0]: name for name in WMT17_SYSTEMS}
    names = [BASELINE] + [name for name in corpus.names if name != BASELINE]
    reference = str(shared(f"{WMT17_FILES}/references/newstest2017-ende-ref.de"))
    return reference, [str(shared(f"{WMT17_FILES}/system-outputs/newstest2017.{full[name]}.en-de")) for name in names]


def _child(command):
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    report_child_peak(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
    return done.stdout


def ngrameval_process(corpus: Corpus):
    """The ngrameval script above, as a whole ``python -c`` process."""
    reference, systems = _files(corpus)
    return lambda: json.loads(_child([sys.executable, "-c", NGRAMEVAL_SCRIPT, reference, *systems]))


def sacrebleu_process(corpus: Corpus):
    """sacrebleu 2.6.0's command line with ``--paired-bs`` (1000 resamples, seed 12345 by default)."""
    reference, systems = _files(corpus)

    def run():
        output = json.loads(
            _child(
                [
                    sys.executable,
                    "-m",
                    "sacrebleu",
                    reference,
                    "-i",
                    *systems,
                    "-m",
                    "bleu",
                    "--paired-bs",
                    "--paired-bs-n",
                    str(SAMPLES),
                    "-tok",
                    "none",
                    "-f",
                    "json",
                ]
            )
        )
        return [[row["BLEU"]["mean"], row["BLEU"]["p_value"] or -1] for row in output]  # -1: the baseline

    return run


# --------------------------------------------------------------------------- (b) every other metric

METRICS = {  # label -> (metric, options, the public function's corpus score of its result)
    "NIST": ("nist", {}, lambda result: [result.nist]),
    "ROUGE-1/2/L": (
        "rouge",
        {"rouge_types": ["rouge1", "rouge2", "rougeL"]},
        lambda result: [result.as_dict()[name] for name in ("rouge1", "rouge2", "rougeL")],
    ),
    "CIDEr-D": ("cider", {}, lambda result: [result.cider]),
    "METEOR": ("meteor", {}, lambda result: [result.meteor]),
}


def score_once(corpus: Corpus, label: str):
    """The public function once per system."""
    import ngrameval

    metric, options, corpus_score = METRICS[label]
    function = getattr(ngrameval, metric)
    return lambda: [corpus_score(function(system, corpus.references, **options)) for system in corpus.systems]


def paired_bootstrap(corpus: Corpus, label: str):
    """The statistics of every system, then a paired bootstrap of the others against the first."""
    from ngrameval.metric import statistics
    from ngrameval.significance import paired_test

    metric, options, _ = METRICS[label]

    def run():
        stats = [statistics(metric, system, corpus.references, **options) for system in corpus.systems]
        return [
            [result.score for result in system.values()]
            for system in paired_test(stats[0], stats[1:], "bs", n_samples=SAMPLES)
        ]

    return run


def metric_section(label: str, lines: int) -> Section:
    once, tested = f"{label}: score 4 systems once", f"{label}: statistics + paired bootstrap ({SAMPLES})"
    return Section(
        f"cost-{METRICS[label][0]}",
        f"{label}: a {SAMPLES}-resample paired bootstrap against scoring once",
        lambda: load_wmt17(systems=4, lines=lines),
        [
            Row(tested, paired_bootstrap, {"label": label}),
            Row(once, score_once, {"label": label}, compare_to=tested),
        ],
        [Target(once, tested, "time", 0.5)],
        ["Target: the bootstrap (with its statistics) costs at most twice scoring once (ratio >= 0.5)."],
    )


def sections(quick: bool) -> Iterator[Section]:
    engine = "ngrameval paired_test (python -c process)"
    peer = "sacrebleu --paired-bs (process)"
    yield Section(
        "paired-bs-bleu",
        f"(a) Paired bootstrap ({SAMPLES}) of BLEU over the 16 WMT17 systems, whole processes",
        load_wmt17,
        [
            Row(engine, ngrameval_process),
            Row(peer, sacrebleu_process, compare_to=engine, tolerance=1e-9),
        ],
        [Target(peer, engine, "time", 10)],
        ["Both rows return each system's bootstrap mean (0-100) and p-value; they are equal."],
    )
    lines = 500 if quick else 3004
    for label in METRICS:
        yield metric_section(label, min(lines, 1000) if label == "METEOR" else lines)


if __name__ == "__main__":
    sys.exit(main("Significance", sections, packages=PACKAGES))
