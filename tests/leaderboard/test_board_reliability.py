"""A community board under concurrent submitters and killed processes (ngrameval issue #27, item 4).

- 8 processes submit 50 systems each to one board at once (through the Python API): every submission is
  stored exactly once, and the ranking equals ``ngrameval score``'s on the same systems;
- a process killed (SIGKILL) inside a submission's transaction leaves a readable board without that
  submission, which can then be submitted again; killed at random moments, each submission is whole or absent.
"""

import json
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from ngrameval.frontends.cli import main
from ngrameval.leaderboard.board import DATABASE, PAUSE_VARIABLE, Board

CLIENTS = 8
PER_CLIENT = 50
SEGMENTS = 20
WORDS = "the a cat dog sat on mat barks at night it rains we go home now today".split()
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# One client: submits its systems one by one through the API, each under its own name.
CLIENT = """
import json, sys
from ngrameval.leaderboard.board import Board
board = Board(sys.argv[1])
for name, lines in json.load(open(sys.argv[2], encoding="utf-8")):
    board.submit(lines, name, team=sys.argv[3])
"""


def _corpus(seed, systems):
    rng = np.random.default_rng(seed)
    text = lambda: " ".join(rng.choice(WORDS, size=int(rng.integers(3, 10))))  # noqa: E731
    references = [[text()] for _ in range(SEGMENTS)]
    return references, [[text() for _ in range(SEGMENTS)] for _ in range(systems)]


def _environment(pause=None):
    """This checkout first on the path; the test hook's pause inside the transaction only when asked."""
    environment = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    environment.pop(PAUSE_VARIABLE, None)
    if pause is not None:
        environment[PAUSE_VARIABLE] = str(pause)
    return environment


@pytest.mark.slow
def test_eight_concurrent_clients_store_every_submission_once(tmp_path, capsys):
    references, systems = _corpus(8, CLIENTS * PER_CLIENT)
    folder = tmp_path / "board"
    Board.create(folder, references, {"bleu": {}, "chrf": {}, "ter": {}})
    names = [f"client{c}-system{s:02d}" for c in range(CLIENTS) for s in range(PER_CLIENT)]
    processes = []
    for client in range(CLIENTS):
        work = tmp_path / f"client{client}.json"
        work.write_text(
            json.dumps([(names[i], systems[i]) for i in range(client * PER_CLIENT, (client + 1) * PER_CLIENT)])
        )
        processes.append(
            subprocess.Popen(
                [sys.executable, "-c", CLIENT, str(folder), str(work), f"team{client}"],
                env=_environment(),
                stderr=subprocess.PIPE,
                text=True,
            )
        )
    for process in processes:
        _, error = process.communicate(timeout=600)
        assert process.returncode == 0, error
    board = Board(folder)
    stored = board.submissions()
    assert sorted(submission.name for submission in stored) == sorted(names)  # each once, none lost
    # The ranking equals ngrameval score's on the same systems, as files.
    (tmp_path / "ref.txt").write_text("".join(r[0] + "\n" for r in references), encoding="utf-8")
    arguments = []
    for name, lines in zip(names, systems):
        (tmp_path / f"{name}.txt").write_text("".join(line + "\n" for line in lines), encoding="utf-8")
        arguments.append(f"{name}={tmp_path / f'{name}.txt'}")
    assert (
        main(
            [
                "score",
                "-r",
                str(tmp_path / "ref.txt"),
                "-s",
                *arguments,
                "-m",
                "bleu",
                "chrf",
                "ter",
                "--format",
                "json",
                "-q",
            ]
        )
        == 0
    )
    scored = {system["name"]: system["scores"] for system in json.loads(capsys.readouterr().out)["systems"]}
    standings = board.standings(n_samples=10)
    ranked = [scored[system.name]["bleu"]["score"] for system in standings.systems]  # (ties: submission order)
    assert ranked == sorted((scores["bleu"]["score"] for scores in scored.values()), reverse=True)
    for system in standings.systems:
        assert {key: result.score for key, result in system.results.items()} == {
            key: scores["score"] for key, scores in scored[system.name].items()
        }


def _start_submitter(folder, lines, name, pause):
    work = folder.parent / f"{name}.json"
    work.write_text(json.dumps([(name, lines)]))
    return subprocess.Popen(
        [sys.executable, "-c", CLIENT, str(folder), str(work), "team"],
        env=_environment(pause),
        stderr=subprocess.PIPE,
        text=True,
    )


def test_killed_inside_the_transaction_leaves_the_submission_absent(tmp_path):
    references, systems = _corpus(9, 3)
    folder = tmp_path / "board"
    board = Board.create(folder, references, {"bleu": {}, "chrf": {}})
    board.submit(systems[0], "before")
    process = _start_submitter(folder, systems[1], "killed", 60)
    line = process.stderr.readline()  # the hook's line: the transaction is open, a row inserted
    assert "inside the submission's transaction" in line
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=60)
    board = Board(folder)  # readable; the quick check passes
    assert [submission.name for submission in board.submissions()] == ["before"]
    assert [system.name for system in board.standings(n_samples=10).systems] == ["before"]
    board.submit(systems[1], "killed")  # nothing of it left behind: the name and the digest are free
    assert sorted(submission.name for submission in board.submissions()) == ["before", "killed"]


def test_killed_at_random_moments_each_submission_is_whole_or_absent(tmp_path):
    references, systems = _corpus(10, 6)
    folder = tmp_path / "board"
    Board.create(folder, references, {"bleu": {}})
    rng = np.random.default_rng(11)
    for index, lines in enumerate(systems):
        process = _start_submitter(folder, lines, f"system{index}", None)
        time.sleep(float(rng.uniform(0.0, 1.5)))  # import, scoring or the transaction: wherever it is
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=60)
    board = Board(folder)
    stored = {submission.name: submission for submission in board.submissions()}
    for name, submission in stored.items():  # whole: its statistics and scores are there and read back
        assert set(submission.scores) == {"bleu"} and len(board.statistics(name)["bleu"]) == SEGMENTS
    assert (folder / DATABASE).is_file() and len(board.standings(n_samples=10).systems) == len(stored)
