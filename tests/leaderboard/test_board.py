"""The community board (ngrameval.leaderboard.board) and its command line (``ngrameval board ...``).

Its ranking is ``ngrameval score --confidence``'s on the same files, run in the test (scores, bootstrap means and
intervals equal; sacrebleu agreement of those is tests/significance's and tests/frontends/test_cli.py's); its
clusters come from pairwise p-values checked against sacrebleu in test_ranking.py. Then every refusal: one
clear line and exit status 2, nothing written.
"""

import json
import sqlite3
import subprocess
import sys

import numpy as np
import pytest

from ngrameval.frontends.cli import main
from ngrameval.leaderboard.board import DATABASE, Board, segments_digest
from ngrameval.leaderboard.reading import InputError
from ngrameval.metric import get_family, statistics
from ngrameval.significance import pairwise_bootstrap
from tests.data import wmt17_reference, wmt17_system

SEGMENTS = 40
SYSTEMS = ("LIUM-NMT.4900", "C-3MA.4959", "online-B.0", "xmu.4910", "KIT.4950")


def _write(path, lines):
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def files(shared, tmp_path_factory):
    folder = tmp_path_factory.mktemp("files")
    reference = _write(folder / "ref.txt", wmt17_reference(shared)[:SEGMENTS])
    systems = {name: _write(folder / f"{name}.txt", wmt17_system(shared, name)[:SEGMENTS]) for name in SYSTEMS}
    return reference, systems


@pytest.fixture(scope="module")
def board_folder(files, tmp_path_factory):
    """A board of the five systems under BLEU, chrF and TER, made with the command line."""
    reference, systems = files
    folder = tmp_path_factory.mktemp("boards") / "board"
    assert (
        main(
            ["board", "init", str(folder), "-r", str(reference), "-m", "bleu", "chrf", "ter", "--title", "WMT17 sample"]
        )
        == 0
    )
    for name, path in systems.items():
        assert main(["board", "submit", str(folder), str(path), "--name", name, "--team", name.split(".")[0]]) == 0
    return folder


def _secret_lines(files):
    """The reference lines no system output repeats word for word (the HTML report shows the outputs)."""
    reference, systems = files
    outputs = {line for path in systems.values() for line in path.read_text(encoding="utf-8").splitlines()}
    return [line for line in reference.read_text(encoding="utf-8").splitlines() if line not in outputs]


def wmt17_lines(board):
    return [segment[0] for segment in board._references()]


def _show(folder, capsys, *options):
    capsys.readouterr()
    assert main(["board", "show", str(folder), *options]) == 0
    return capsys.readouterr().out


@pytest.mark.slow  # bootstrap resampling of five systems under three metrics, twice
def test_show_json_is_score_json_with_clusters(files, board_folder, capsys):
    reference, systems = files
    board = json.loads(_show(board_folder, capsys, "--format", "json"))
    assert (
        main(
            [
                "score",
                "-r",
                str(reference),
                "-s",
                *(f"{name}={path}" for name, path in systems.items()),
                "-m",
                "bleu",
                "chrf",
                "ter",
                "--confidence",
                "--format",
                "json",
                "-q",
            ]
        )
        == 0
    )
    scored = json.loads(capsys.readouterr().out)
    by_name = {system["name"]: system["scores"] for system in scored["systems"]}
    assert {system["name"]: system["scores"] for system in board["systems"]} == by_name
    ranking = sorted(by_name, key=lambda name: -by_name[name]["bleu"]["score"])
    assert [system["name"] for system in board["systems"]] == ranking
    assert set(board) == {"baseline", "systems", "clusters", "stale"} and board["stale"] == {}
    # The clusters: the rule applied to sacrebleu-checked p-values (test_ranking.py), per column.
    lines = [[[line] for line in reference.read_text(encoding="utf-8").splitlines()]]
    for metric in ("bleu", "chrf", "ter"):
        stats = [
            statistics(metric, path.read_text(encoding="utf-8").splitlines(), lines[0]) for path in systems.values()
        ]
        _, p_values = pairwise_bootstrap(stats, seed=12345)
        flat = [name for group in board["clusters"][metric] for name in group]
        assert sorted(flat) == sorted(systems)
        position = {name: index for index, name in enumerate(systems)}
        for g, group in enumerate(board["clusters"][metric]):
            for later in board["clusters"][metric][g + 1 :]:
                assert all(p_values[metric][position[a], position[b]] <= 0.05 for a in group for b in later)
    ter = board["clusters"]["ter"]
    assert by_name[ter[0][0]]["ter"]["score"] <= by_name[ter[-1][-1]]["ter"]["score"]  # TER: smallest first


@pytest.mark.parametrize("output_format", ["text", "csv", "markdown", "latex", "html"])
def test_show_formats_never_hold_a_reference(files, board_folder, capsys, output_format):
    text = _show(board_folder, capsys, "--format", output_format)
    assert all(name in text for name in SYSTEMS)
    references = _secret_lines(files)
    assert references
    assert not any(line in text for line in references)
    if output_format == "text":
        assert text.splitlines()[0].split()[:2] == ["Cluster", "System"]


def test_the_api_returns_no_reference(files, board_folder):
    references = _secret_lines(files)
    board = Board(board_folder)
    standings = board.standings(details=True)
    seen = (
        repr(vars(board))
        + repr(board.metrics())
        + repr(board.submissions())
        + repr(standings)
        + repr([board.statistics(name) for name in SYSTEMS])
    )
    assert standings.references is None and not any(line in seen for line in references)
    assert len(board._references()) == SEGMENTS  # the one way in, private


def test_submissions_keep_what_the_issue_lists(files, board_folder):
    _, systems = files
    board = Board(board_folder)
    assert board.title == "WMT17 sample" and board.segments == SEGMENTS
    stored = {submission.name: submission for submission in board.submissions()}
    assert list(stored) == list(SYSTEMS)
    lines = systems["KIT.4950"].read_text(encoding="utf-8").splitlines()
    kit = stored["KIT.4950"]
    assert kit.team == "KIT" and kit.digest == segments_digest(lines) and kit.time.endswith("+00:00")
    references = [[line] for line in wmt17_lines(board)]
    for metric in ("bleu", "chrf", "ter"):
        ours = statistics(metric, lines, references)  # stored as scored: rows, signature, scores
        kept = board.statistics("KIT.4950")[metric]
        assert np.array_equal(kept.rows, ours.rows) and kept.signature == ours.signature == kit.signatures[metric]
        assert kit.scores[metric] == get_family(metric).corpus_scores(ours)
    assert board.predictions("KIT.4950") == lines


@pytest.mark.parametrize(
    "arguments, message",
    [
        (["submit", "{board}", "{short}", "--name", "x"], "has 39 lines but the board's references have 40"),
        (["submit", "{board}", "{kit}", "--name", "copy"], "already has these segments, as 'KIT.4950'"),
        (["submit", "{board}", "{edited}", "--name", "KIT.4950"], "already has a submission named 'KIT.4950'"),
        (["submit", "{missing}", "{kit}", "--name", "x"], "is not a board: no board.sqlite"),
        (["show", "{missing}"], "is not a board"),
        (["remove", "{board}", "nobody"], "no submission named 'nobody'"),
        (["init", "{board}", "-r", "{reference}"], "already holds a board"),
        (["init", "{new}", "-r", "{reference}", "-m", "bleu", "--option", "bleu.tokenise=none"], "unknown options"),
        (["export", "{board}", "{new}/out.csv"], "name it FILE.parquet"),
        (["submit", "{board}", "{edited}", "--name", " padded"], "no tab, line break or surrounding space"),
    ],
)
def test_bad_input_is_one_line_and_status_2(files, board_folder, tmp_path, capsys, arguments, message):
    reference, systems = files
    lines = systems["KIT.4950"].read_text(encoding="utf-8").splitlines()
    paths = {
        "board": board_folder,
        "kit": systems["KIT.4950"],
        "reference": reference,
        "short": _write(tmp_path / "short.txt", lines[:-1]),
        "missing": tmp_path / "nowhere",
        "edited": _write(tmp_path / "edited.txt", ["changed"] + lines[1:]),
        "new": tmp_path / "new",
    }
    before = (board_folder / DATABASE).read_bytes()
    capsys.readouterr()
    assert main(["board", *(argument.format(**paths) for argument in arguments)]) == 2
    error = capsys.readouterr().err
    assert message in error and error.startswith("ngrameval: ") and error.count("\n") == 1
    assert (board_folder / DATABASE).read_bytes() == before


@pytest.mark.slow  # one interpreter per command
def test_command_line_as_a_program(files, tmp_path):
    reference, systems = files
    folder = tmp_path / "board"

    def run(*arguments):
        return subprocess.run(
            [sys.executable, "-m", "ngrameval", "board", *map(str, arguments)],
            capture_output=True,
            text=True,
            check=False,
        )

    assert run("init", folder, "-r", reference, "-m", "chrf").returncode == 0
    done = run("submit", folder, systems["KIT.4950"], "--name", "kit")
    assert done.returncode == 0 and done.stdout.startswith("kit: stored (chrf 0.")
    wrong = run("submit", folder / "nope", systems["KIT.4950"], "--name", "kit")
    assert wrong.returncode == 2 and wrong.stderr.count("\n") == 1 and "is not a board" in wrong.stderr
    shown = run("show", folder, "--format", "markdown")
    assert shown.returncode == 0 and "| 1 | kit |" in shown.stdout


def test_init_reads_references_from_standard_input(files, tmp_path):
    """Each reference source is read once: standard input (or a pipe) can hold the references."""
    reference, _ = files
    folder = tmp_path / "board"
    done = subprocess.run(
        [sys.executable, "-m", "ngrameval", "board", "init", str(folder), "-r", "-", "-m", "bleu"],
        input=reference.read_text(encoding="utf-8"),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert Board(folder).segments == len(reference.read_text(encoding="utf-8").splitlines())


@pytest.mark.parametrize("output_format", ["text", "json", "csv", "markdown", "latex", "html"])
def test_show_before_the_first_submission(files, tmp_path, capsys, output_format):
    reference, _ = files
    assert main(["board", "init", str(tmp_path / "board"), "-r", str(reference), "-m", "bleu", "ter"]) == 0
    text = _show(tmp_path / "board", capsys, "--format", output_format)
    assert "bleu" in text and "ter" in text
    if output_format == "json":
        assert json.loads(text)["systems"] == [] and json.loads(text)["clusters"] == {"bleu": [], "ter": []}


def test_remove(files, tmp_path):
    reference, systems = files
    folder = tmp_path / "board"
    board = Board.create(
        folder, [[line] for line in reference.read_text(encoding="utf-8").splitlines()], {"bleu": {"tokenize": "none"}}
    )
    for name in ("a", "b"):
        board.submit(systems[SYSTEMS[0 if name == "a" else 1]].read_text(encoding="utf-8").splitlines(), name)
    board.remove("a")
    assert [submission.name for submission in board.submissions()] == ["b"]
    assert [system.name for system in board.standings().systems] == ["b"]
    with sqlite3.connect(folder / DATABASE) as connection:  # its statistics went with it
        assert connection.execute("SELECT COUNT(*) FROM statistics").fetchone()[0] == 1
    board.submit(systems[SYSTEMS[0]].read_text(encoding="utf-8").splitlines(), "a")  # may come back


def test_rate_limit(files, tmp_path):
    reference, systems = files
    board = Board.create(
        tmp_path / "board",
        [[line] for line in reference.read_text(encoding="utf-8").splitlines()],
        {"chrf": {}},
        max_per_hour=2,
    )
    lines = systems[SYSTEMS[0]].read_text(encoding="utf-8").splitlines()
    variant = lambda number: [f"{number} {lines[0]}"] + lines[1:]  # noqa: E731
    board.submit(variant(1), "one", team="lab")
    board.submit(variant(2), "two", client="lab")  # the team is the client key by default
    with pytest.raises(InputError, match="client 'lab' made 2 submissions in the last hour; the board takes at most 2"):
        board.submit(variant(3), "three", team="lab")
    board.submit(variant(3), "three", team="lab", client="someone else")
    with sqlite3.connect(board.path) as connection:  # an hour later the key may submit again
        connection.execute("UPDATE submissions SET submitted = submitted - 3601 WHERE name = 'one'")
    board.submit(variant(4), "four", team="lab")
    assert len(board.submissions()) == 4


def test_rescore_after_a_signature_change(files, tmp_path, monkeypatch, capsys):
    import ngrameval.metrics.chrf as chrf_module

    reference, systems = files
    folder = tmp_path / "board"
    assert main(["board", "init", str(folder), "-r", str(reference), "-m", "bleu", "chrf"]) == 0
    for name in SYSTEMS[:2]:
        assert main(["board", "submit", str(folder), str(systems[name]), "--name", name]) == 0
    before = json.loads(_show(folder, capsys, "--format", "json"))
    original = chrf_module.signature
    monkeypatch.setattr(chrf_module, "signature", lambda *args: original(*args) + "|next")
    stale = json.loads(_show(folder, capsys, "--format", "json"))
    assert stale["systems"] == before["systems"]  # the old scores are kept ...
    assert stale["stale"]["chrf"]["board"] == before["systems"][0]["scores"]["chrf"]["signature"].replace(
        "|bs:1000|seed:12345", ""
    ) and stale["stale"]["chrf"]["ngrameval"].endswith("|next")  # ... and flagged
    assert "this ngrameval gives" in _show(folder, capsys)
    assert main(["board", "submit", str(folder), str(systems[SYSTEMS[2]]), "--name", "late"]) == 2
    assert "rescore the board first" in capsys.readouterr().err
    assert main(["board", "rescore", str(folder)]) == 0
    assert capsys.readouterr().out == "2 submissions rescored\n"
    after = json.loads(_show(folder, capsys, "--format", "json"))
    assert after["stale"] == {} and after["systems"][0]["scores"]["chrf"]["signature"].endswith("|next")
    assert [s["scores"]["chrf"]["score"] for s in after["systems"]] == [
        s["scores"]["chrf"]["score"] for s in before["systems"]
    ]
    assert Board(folder).rescore() == 0


def test_export_reads_back_with_datasets(board_folder, tmp_path, capsys):
    import datasets

    path = tmp_path / "results.parquet"
    assert main(["board", "export", str(board_folder), str(path)]) == 0
    rows = datasets.load_dataset("parquet", data_files=str(path), split="train").to_list()
    shown = json.loads(_show(board_folder, capsys, "--format", "json"))
    assert [row["name"] for row in rows] == [system["name"] for system in shown["systems"]]
    assert [row["rank"] for row in rows] == list(range(1, len(SYSTEMS) + 1))
    for row, system in zip(rows, shown["systems"]):
        assert row["bleu"] == system["scores"]["bleu"]["score"]
        assert row["ter.ci_high"] == system["scores"]["ter"]["ci"][1]
        assert row["team"] == system["name"].split(".")[0] and row["chrf.signature"].startswith("nrefs:1|bs:1000")
    assert {row["cluster"] for row in rows} == set(range(1, len(shown["clusters"]["bleu"]) + 1))


def test_corrupt_database_is_refused_and_left_alone(board_folder, tmp_path):
    copy = tmp_path / "board"
    copy.mkdir()
    data = bytearray((board_folder / DATABASE).read_bytes())
    for offset in (0, len(data) // 2):  # the header; a page in the middle
        damaged = bytearray(data)
        damaged[offset : offset + 64] = b"\xff" * 64
        (copy / DATABASE).write_bytes(bytes(damaged))
        with pytest.raises(InputError, match="corrupt|unreadable|do not match"):
            Board(copy).standings()
        assert (copy / DATABASE).read_bytes() == bytes(damaged)


def test_references_digest_and_schema_version(files, tmp_path):
    reference, _ = files
    folder = tmp_path / "board"
    Board.create(folder, [[line] for line in reference.read_text(encoding="utf-8").splitlines()], {"bleu": {}})
    with sqlite3.connect(folder / DATABASE) as connection:
        connection.execute("UPDATE meta SET value = 'f00d' WHERE key = 'references_digest'")
    before = (folder / DATABASE).read_bytes()
    with pytest.raises(InputError, match="do not match their digest"):
        Board(folder)
    assert main(["board", "submit", str(folder), str(reference), "--name", "x"]) == 2
    assert (folder / DATABASE).read_bytes() == before
    with sqlite3.connect(folder / DATABASE) as connection:
        connection.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    with pytest.raises(InputError, match="schema version 99, but this ngrameval reads version 1"):
        Board(folder)


@pytest.mark.parametrize(
    "references, metrics, message",
    [
        ([], {"bleu": {}}, "non-empty list"),
        ([["a"], []], {"bleu": {}}, "segment 2: a non-empty list of strings"),
        ([["a"]], {}, "at least one metric"),
        ([["a"]], {"bleuu": {}}, "unknown metric 'bleuu'"),
        ([["a"]], {"bleu": {"weights": (0.5, 0.5)}}, "read back as given from JSON"),
    ],
)
def test_create_refuses(tmp_path, references, metrics, message):
    with pytest.raises(ValueError, match=message):
        Board.create(tmp_path / "board", references, metrics)
    assert not (tmp_path / "board" / DATABASE).exists()
