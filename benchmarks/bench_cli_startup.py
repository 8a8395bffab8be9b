"""The ``ngrameval`` command as a user runs it, whole processes, against sacrebleu's command line.

    python benchmarks/bench_cli_startup.py [--quick] [--repeats N] [--only cli-paired-bs cli-help] [--profile]

(a) ``cli-paired-bs``: ``ngrameval score -r REF -s SYS... -m bleu --option bleu.tokenize=none --paired-bs
--format json`` against ``sacrebleu REF -i SYS... -m bleu --paired-bs -tok none -f json`` on the 16 WMT17
systems (baseline LIUM-NMT; ``--quick``: 4 systems), each a fresh ``python -m`` process: start-up, reading,
statistics, 1000 bootstrap resamples, output. Both give each system's bootstrap mean and p-value, which must
agree (ours times 100). Target: sacrebleu's time is at least 10 times ours. Both commands run at one thread
(``common.hold_to_one_thread``): OpenBLAS would otherwise start a thread per core for ngrameval's bootstrap
products, whose CPU time counts (0.74 s of CPU for 0.57 s of wall time), where sacrebleu's loop uses one.
(b) ``cli-help``: ``ngrameval --help`` and ``sacrebleu --help``, the cost of starting each command. Target
(absolute, read from the table): ngrameval's wall time under 0.15 s.

``--profile`` prints a cProfile of the ngrameval row's worker, which only waits for its child; profile the
command itself with ``python -m cProfile -s cumulative -m ngrameval score ...``.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

from common import Corpus, Row, Section, Target, hold_to_one_thread, load_wmt17, main, report_child_peak, shared

hold_to_one_thread()

PACKAGES = ("ngrameval", "sacrebleu", "numpy")
BASELINE = "LIUM-NMT"
WMT17_FILES = "data/wmt17-en-de"
ENGINE = "ngrameval score --paired-bs (process)"
PEER = "sacrebleu --paired-bs (process)"


def _files(corpus: Corpus):
    """The reference file and the systems' files, the baseline first."""
    from tests.data import WMT17_SYSTEMS

    full = {name.rsplit(".", 1)[0]: name for name in WMT17_SYSTEMS}
    names = [BASELINE] + [name for name in corpus.names if name != BASELINE]
    reference = str(shared(f"{WMT17_FILES}/references/newstest2017-ende-ref.de"))
    return reference, [str(shared(f"{WMT17_FILES}/system-outputs/newstest2017.{full[name]}.en-de")) for name in names]


def _bytecode() -> None:
    """Compile ngrameval's modules to bytecode, as ``pip install`` does for sacrebleu's (a checkout run with
    PYTHONDONTWRITEBYTECODE set would otherwise compile every module from source in every process)."""
    import compileall

    import ngrameval

    compileall.compile_dir(str(Path(ngrameval.__file__).parent), quiet=1)


def _child(arguments: list[str]) -> str:
    """``python -m ARGUMENTS`` as a whole process; its standard output."""
    done = subprocess.run([sys.executable, "-m", *arguments], capture_output=True, text=True, check=True)
    report_child_peak(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
    return done.stdout


def ngrameval_paired_bs(corpus: Corpus):
    """``ngrameval score ... --paired-bs --format json``: each system's mean (x100) and p-value."""
    reference, systems = _files(corpus)
    _bytecode()

    def run():
        output = json.loads(
            _child(
                [
                    "ngrameval",
                    "score",
                    "-q",
                    "-r",
                    reference,
                    "-s",
                    *systems,
                    "-m",
                    "bleu",
                    "--option",
                    "bleu.tokenize=none",
                    "--paired-bs",
                    "--format",
                    "json",
                ]
            )
        )
        return [
            [system["scores"]["bleu"]["mean"] * 100, system["scores"]["bleu"]["p_value"] or -1]
            for system in output["systems"]
        ]  # -1: the baseline

    return run


def sacrebleu_paired_bs(corpus: Corpus):
    """sacrebleu 2.6.0's command line with ``--paired-bs`` (1000 resamples, seed 12345 by default)."""
    reference, systems = _files(corpus)

    def run():
        output = json.loads(
            _child(["sacrebleu", reference, "-i", *systems, "-m", "bleu", "--paired-bs", "-tok", "none", "-f", "json"])
        )
        return [[row["BLEU"]["mean"], row["BLEU"]["p_value"] or -1] for row in output]

    return run


def ngrameval_help(corpus: Corpus):
    """``ngrameval --help`` (nothing to compare: an empty result)."""
    _bytecode()
    return lambda: _child(["ngrameval", "--help"]) and []


def sacrebleu_help(corpus: Corpus):
    """``sacrebleu --help``."""
    return lambda: _child(["sacrebleu", "--help"]) and []


def sections(quick: bool) -> Iterator[Section]:
    systems = 4 if quick else 16
    yield Section(
        "cli-paired-bs",
        f"(a) Paired bootstrap (1000) of BLEU over {systems} WMT17 systems, the command lines as whole processes",
        lambda: load_wmt17(systems=systems),
        [
            Row(ENGINE, ngrameval_paired_bs),
            Row(PEER, sacrebleu_paired_bs, compare_to=ENGINE),
        ],
        [Target(PEER, ENGINE, "time", 10)],
        ["Both rows return each system's bootstrap mean (0-100) and p-value; they are equal."],
    )
    yield Section(
        "cli-help",
        "(b) Starting the command: --help",
        lambda: load_wmt17(systems=1, lines=1),
        [
            Row("ngrameval --help", ngrameval_help),
            Row("sacrebleu --help", sacrebleu_help, compare_to="ngrameval --help"),
        ],
        [],
        ["Target: ngrameval --help under 0.15 s of wall time (its row's wall s)."],
    )


if __name__ == "__main__":
    sys.exit(main("Command line start-up", sections, packages=PACKAGES))
