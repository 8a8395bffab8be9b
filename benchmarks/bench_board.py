"""A community board at scale: one submission to, and the standings of, a board of 100 systems x 3004 segments
(WMT17 en-de) scored with BLEU, chrF and TER; targets 2 s and 5 s (ngrameval issue #27).

    python benchmarks/bench_board.py [--systems 100] [--repeats 3] [--folder DIR]

The board holds WMT17's 16 systems and perturbed copies of them up to ``--systems`` (copy k of system s takes
about 10% of its segments, chosen by a seeded generator, from other systems: distinct outputs of realistic
quality). It is built once through :meth:`Board.submit` into ``--folder`` (default: a temporary folder) and
reused by a later run given the same folder. Then, each in a fresh process (imports not timed):

- ``submit``: one more system submitted (read the board's references, score under the three metrics, store in
  one transaction), timed against the peer doing the scoring part only: sacrebleu's ``corpus_score`` of the
  three metrics on the same system;
- ``show``: :meth:`Board.standings` (load every submission's statistics, 1000-resample bootstrap intervals of
  every system and paired bootstrap p-values between every two systems, WMT clusters) and the text table,
  timed against sacrebleu's paired bootstrap of the same systems under BLEU alone, each tested against one
  baseline only (``sacrebleu REF -i SYS... -m bleu --paired-bs``'s work, run in-process on the same lines,
  scoring included: 99 pairs of one metric where the board tests 4950 pairs of three from stored statistics).

The best wall time over ``--repeats`` processes is printed with the target and the ratio to the peer.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from common import ROOT, load_wmt17

TARGETS = {"submit": 2.0, "show": 5.0}
METRICS = {"bleu": {}, "chrf": {}, "ter": {}}
SEED = 27
PERTURBED = 0.1

SUBMIT = """
import sys, time, json
from ngrameval.leaderboard.board import Board
lines = json.load(open(sys.argv[2], encoding="utf-8"))
board = Board(sys.argv[1])
start = time.perf_counter()
board.submit(lines, "benchmark-extra")
print(time.perf_counter() - start)
board.remove("benchmark-extra")
"""
SUBMIT_PEER = """
import sys, time, json
from sacrebleu.metrics import BLEU, CHRF, TER
lines = json.load(open(sys.argv[2], encoding="utf-8"))
references = [json.load(open(sys.argv[3], encoding="utf-8"))]
start = time.perf_counter()
for metric in (BLEU(), CHRF(), TER()):
    metric.corpus_score(lines, references)
print(time.perf_counter() - start)
"""
SHOW = """
import sys, time
from ngrameval.frontends.report import render
from ngrameval.leaderboard.board import Board
start = time.perf_counter()
board = Board(sys.argv[1])
text = render(board.standings(), "text")
print(time.perf_counter() - start)
"""
SHOW_PEER = """
import sys, time, json
from sacrebleu.metrics import BLEU, CHRF, TER
from sacrebleu.significance import PairedTest
systems = json.load(open(sys.argv[2], encoding="utf-8"))
references = [json.load(open(sys.argv[3], encoding="utf-8"))]
named = [(f"system-{i:03d}", system) for i, system in enumerate(systems)]
metrics = {"BLEU": BLEU(references=references)}
start = time.perf_counter()
PairedTest(named, metrics, references=None, test_type="bs", n_samples=1000)()
print(time.perf_counter() - start)
"""


def perturbed_systems(count: int) -> list[list[str]]:
    """WMT17's 16 systems, then perturbed copies until ``count``."""
    corpus = load_wmt17()
    systems = list(corpus.systems)
    rng = np.random.default_rng(SEED)
    segments = len(corpus.references)
    while len(systems) < count:
        k = len(systems)
        base, donors = systems[k % 16], rng.integers(0, 16, size=segments)
        swapped = rng.random(segments) < PERTURBED
        systems.append(
            [
                corpus.systems[donor][i] if swap else line
                for i, (line, donor, swap) in enumerate(zip(base, donors, swapped))
            ]
        )
    return systems[:count]


def build(folder: Path, systems: list[list[str]], references: list[list[str]]) -> None:
    from ngrameval.leaderboard.board import Board

    if not (folder / "board.sqlite").exists():
        Board.create(folder, references, METRICS, title="bench_board")
    board = Board(folder)
    present = {submission.name for submission in board.submissions()}
    start = time.perf_counter()
    for index, system in enumerate(systems):
        if f"system-{index:03d}" not in present:
            board.submit(system, f"system-{index:03d}")
            print(
                f"\rbuilding the board: {index + 1}/{len(systems)} ({time.perf_counter() - start:.0f} s)",
                end="",
                file=sys.stderr,
                flush=True,
            )
    print(file=sys.stderr)


def best(script: str, arguments: list[str], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        result = subprocess.run(
            [sys.executable, "-c", script, *arguments], capture_output=True, text=True, cwd=ROOT, check=True
        )
        times.append(float(result.stdout.split()[-1]))
    return min(times)


def main() -> None:
    import json

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--systems", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--folder", help="the board's folder (built if missing, reused otherwise)")
    args = parser.parse_args()
    corpus = load_wmt17()
    systems = perturbed_systems(args.systems + 1)
    work = Path(tempfile.mkdtemp(prefix="bench-board-"))
    folder = Path(args.folder) if args.folder else work / "board"
    build(folder, systems[:-1], corpus.references)
    extra, references, board_systems = work / "extra.json", work / "references.json", work / "systems.json"
    extra.write_text(json.dumps(systems[-1]), encoding="utf-8")
    references.write_text(json.dumps([line[0] for line in corpus.references]), encoding="utf-8")
    board_systems.write_text(json.dumps(systems[:-1]), encoding="utf-8")
    print(
        f"board: {args.systems} systems x {len(corpus.references)} segments, BLEU, chrF and TER; best of "
        f"{args.repeats} processes"
    )
    rows = [
        (
            "submit",
            SUBMIT,
            [str(folder), str(extra)],
            "sacrebleu corpus_score x3",
            SUBMIT_PEER,
            [str(folder), str(extra), str(references)],
        ),
        (
            "show",
            SHOW,
            [str(folder)],
            "sacrebleu paired-bs, BLEU, vs 1 baseline",
            SHOW_PEER,
            [str(folder), str(board_systems), str(references)],
        ),
    ]
    for task, script, arguments, peer, peer_script, peer_arguments in rows:
        seconds = best(script, arguments, args.repeats)
        verdict = "met" if seconds < TARGETS[task] else "MISSED"
        print(f"{task:7s} {seconds:7.2f} s  (target {TARGETS[task]:.0f} s: {verdict})", flush=True)
        peer_seconds = best(peer_script, peer_arguments, 1 if task == "show" else args.repeats)
        print(f"        {peer}: {peer_seconds:7.2f} s, ratio {peer_seconds / seconds:.2f}x", flush=True)


if __name__ == "__main__":
    main()
