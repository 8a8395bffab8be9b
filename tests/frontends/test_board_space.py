"""The leaderboard Space serving a community board (``python spaces/leaderboard/app.py --board DIR``), run as it is
deployed -- its own process on a free port of 127.0.0.1 -- and driven over HTTP by gradio_client and Chromium:

- 8 concurrent clients submit files: each is stored exactly once and the ranking is ``ngrameval score``'s on the
  same files;
- a server killed (SIGKILL) inside a submission's transaction leaves a readable board without that submission;
- no response of the Space (the page, its configuration, the API's answers, the per-submission page, the report,
  the error messages) holds a line of the board's references;
- one client past the board's rate limit is refused;
- in Chromium: a submission through the form, the table, the language switch;
- WMT's file names (``generaltest2022.de-en.hyp.Online-A.en``), ``.gz`` and ``.zip`` are read in both modes
  (the board's form and the upload-and-score page), as ``ngrameval score`` reads them;
- ``ngrameval export-space leaderboard OUT --board DIR`` copies the board, and the exported app finds it.

Uses the Space fixtures (serve, browser, page) of the Spaces' tests.
"""

import gzip
import html
import json
import os
import random
import signal
import sqlite3
import sys
import threading
import time
import urllib.request
import zipfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from playwright.sync_api import expect

from conftest import ROOT, _free_port, start_app
from ngrameval.frontends import cli
from ngrameval.leaderboard.board import PAUSE_VARIABLE, Board
from ngrameval.leaderboard.reading import split_lines
from tests.data import WMT22_SYSTEMS, wmt22_references, wmt22_system

SEGMENTS = 12
CLIENTS = 8
FILES_PER_CLIENT = 50  # 400 submissions, as the issue asks: about 25 s through HTTP on 2 quiet cores
METRICS = ("bleu", "chrf")
STARTUP_ATTEMPTS = 240  # half-seconds to wait for a server to answer
WMT_NAME = "generaltest2022.de-en.hyp.Online-A.en"


# --------------------------------------------------------------------------- data and servers


@pytest.fixture(scope="module")
def corpus(shared):
    """(references: one per segment, the WMT22 de-en systems' first SEGMENTS lines by name)."""
    references = wmt22_references(shared, "de-en", ("A",))[0][:SEGMENTS]
    systems = {system: wmt22_system(shared, "de-en", system)[:SEGMENTS] for system in WMT22_SYSTEMS["de-en"]}
    return references, systems


def _variants(corpus, count, seed):
    """``count`` distinct submissions (seeded): WMT22 systems' lines, each with a word dropped and a marker word
    added, so that no submitted line is a reference line."""
    references, systems = corpus
    generator = random.Random(seed)
    names = sorted(systems)
    variants = []
    for number in range(count):
        lines = []
        for line in systems[names[number % len(names)]]:
            words = line.split()
            del words[generator.randrange(len(words))]
            words.insert(generator.randrange(len(words) + 1), f"v{seed}x{number}")
            lines.append(" ".join(words))
        assert not set(lines) & set(references)
        variants.append(lines)
    return variants


def _write(path, lines):
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def _new_board(folder, references, **options):
    return Board.create(
        folder,
        [[line] for line in references],
        {metric: {} for metric in METRICS},
        title="WMT22 de-en (first segments)",
        **options,
    )


def _start(folder, log, environment=None):
    """(URL, process): spaces/leaderboard/app.py --board FOLDER, in its own process."""
    return start_app(
        [sys.executable, str(ROOT / "spaces" / "leaderboard" / "app.py"), "--board", str(folder)],
        folder.parent,
        log,
        {**os.environ, "PYTHONPATH": str(ROOT), **(environment or {})},
    )


@pytest.fixture(scope="module")
def board_server(corpus, tmp_path_factory):
    """(URL, board folder): spaces/leaderboard/app.py --board serving a new board (no rate limit), in its own
    process."""
    folder = tmp_path_factory.mktemp("served") / "board"
    _new_board(folder, corpus[0])
    url, process = _start(folder, folder.parent / "server.log")
    yield url, folder
    process.terminate()
    process.wait(timeout=30)


def _served_here(folder):
    """(URL, page): the board's page served by this process (quicker to start than app.py, which the slow tests
    run)."""
    from ngrameval.ui.board import BoardSpace

    space = BoardSpace(folder)
    demo = space.build()
    port = _free_port()
    demo.launch(server_name="127.0.0.1", server_port=port, prevent_thread_lock=True, quiet=True, **space.launch_options)
    return f"http://127.0.0.1:{port}/", demo


@pytest.fixture(scope="module")
def board_page(corpus, tmp_path_factory, ui):
    """(URL, board folder): a new board (no rate limit), its page served here."""
    folder = tmp_path_factory.mktemp("page") / "board"
    _new_board(folder, corpus[0])
    url, demo = _served_here(folder)
    yield url, folder
    demo.close()


@pytest.fixture(scope="module")
def limited_page(corpus, tmp_path_factory, ui):
    """(URL, board folder): a board taking at most 2 submissions an hour from one client, its page served here."""
    folder = tmp_path_factory.mktemp("limited") / "board"
    _new_board(folder, corpus[0], max_per_hour=2)
    url, demo = _served_here(folder)
    yield url, folder
    demo.close()


class Responses:
    """Every answer a test got from a Space, as text, to search for reference lines."""

    def __init__(self):
        self.texts = []
        self._lock = threading.Lock()

    def add(self, answer):
        with self._lock:
            self.texts.append(answer if isinstance(answer, str) else json.dumps(answer, ensure_ascii=False))
        return answer

    def get(self, url):
        with urllib.request.urlopen(url) as response:
            return self.add(response.read().decode("utf-8"))

    def assert_no_reference(self, references):
        assert self.texts
        for text in self.texts:
            for line in references:
                assert line not in text and html.escape(line) not in text, line


def _submit(client, path, name, team=""):
    from gradio_client import handle_file

    return client.predict(handle_file(str(path)), name, team, api_name="/submit")


def _standings(client):
    """(name, its cells) of the public table, ranked."""
    table = client.predict(api_name="/standings")[1]
    return table["headers"], [(row[2], row) for row in table["data"]]


def _score_json(tmp_path, references, files):
    """`ngrameval score` on the same files, as JSON (into a file: the servers share this process's stderr)."""
    reference = _write(tmp_path / "reference.txt", references)
    output = tmp_path / "score.json"
    assert (
        cli.main(
            [
                "score",
                "-r",
                str(reference),
                "-s",
                *(f"{name}={path}" for name, path in files.items()),
                "-m",
                *METRICS,
                "--format",
                "json",
                "-q",
                "-o",
                str(output),
            ]
        )
        == 0
    )
    return {entry["name"]: entry["scores"] for entry in json.loads(output.read_text(encoding="utf-8"))["systems"]}


# --------------------------------------------------------------------------- reliability over HTTP


@pytest.mark.slow
def test_concurrent_clients_store_each_submission_once_ranked_as_score_ranks(board_server, corpus, tmp_path):
    from gradio_client import Client

    url, folder = board_server
    references = corpus[0]
    files = {
        f"client{client}-run{run}": _write(tmp_path / f"client{client}-run{run}.txt", lines)
        for (client, run), lines in zip(
            [(c, r) for c in range(CLIENTS) for r in range(FILES_PER_CLIENT)],
            _variants(corpus, CLIENTS * FILES_PER_CLIENT, 1),
        )
    }
    responses = Responses()

    def one_client(client_number):
        client = Client(url, verbose=False)
        for run in range(FILES_PER_CLIENT):
            name = f"client{client_number}-run{run}"
            status, stored, _ = responses.add(_submit(client, files[name], name, f"team{client_number}"))
            assert stored.get("name") == name, status

    started = time.perf_counter()
    with ThreadPoolExecutor(CLIENTS) as pool:
        list(pool.map(one_client, range(CLIENTS)))
    print(f"\n{len(files)} submissions from {CLIENTS} concurrent clients in {time.perf_counter() - started:.1f} s")
    stored = Board(folder).submissions()
    assert sorted(submission.name for submission in stored) == sorted(files)  # each exactly once
    expected = _score_json(tmp_path, references, files)
    headers, ranked = _standings(Client(url, verbose=False))
    responses.add(ranked)
    assert [name for name, _ in ranked if name in files] and {name for name, _ in ranked} >= set(files)
    scores = {submission.name: submission.scores for submission in stored}
    for name in files:
        for metric in METRICS:
            assert scores[name][metric][metric] == pytest.approx(expected[name][metric]["score"], rel=1e-12, abs=1e-15)
    headline = [expected[name]["bleu"]["score"] for name, _ in ranked if name in files]
    assert headline == sorted(headline, reverse=True)  # ranked as ngrameval score ranks them
    for name, row in ranked:
        if name in files:
            assert row[headers.index("bleu")].startswith(f"{expected[name]['bleu']['score'] * 100:.2f}")
    responses.assert_no_reference(references)


@pytest.mark.slow
def test_no_response_holds_a_reference_line(board_page, corpus, tmp_path):
    from gradio_client import Client

    url, folder = board_page
    references = corpus[0]
    client = Client(url, verbose=False)
    responses = Responses()
    good, other = _variants(corpus, 2, 2)
    name = "private-check"
    responses.add(_submit(client, _write(tmp_path / "good.txt", good), name, "lab"))
    responses.add(_submit(client, _write(tmp_path / "again.txt", good), "again"))  # the same segments
    responses.add(_submit(client, _write(tmp_path / "short.txt", other[:-1]), "short"))  # a line short
    responses.add(_submit(client, _write(tmp_path / "binary.txt", []).with_name("binary.txt"), "empty"))
    errors = [text for text in responses.texts[1:] if '"error"' in text]
    assert len(errors) == 3, responses.texts
    responses.add(client.predict(api_name="/standings"))
    responses.add(client.predict(name, api_name="/submission"))
    assert "submission-page" in responses.texts[-1] and "lab" in responses.texts[-1]
    responses.add(client.predict("nobody", api_name="/submission"))
    status, report = responses.add(client.predict(api_name="/report"))
    responses.add(Path(report).read_text(encoding="utf-8"))  # the file the Space served
    assert name in responses.texts[-1] and "<svg" in responses.texts[-1]
    for path in ("", f"?submission={name}", "config", "gradio_api/info"):
        responses.get(url + path)
    responses.assert_no_reference(references)


@pytest.mark.slow
def test_kill_inside_a_submission_leaves_a_readable_board(corpus, tmp_path):
    from gradio_client import Client

    references = corpus[0]
    folder = tmp_path / "board"
    _new_board(folder, references)
    log = tmp_path / "server.log"
    url, process = _start(folder, log, {PAUSE_VARIABLE: "60"})
    try:
        job = Client(url, verbose=False).submit(
            *_submit_arguments(_write(tmp_path / "a.txt", _variants(corpus, 1, 3)[0])), api_name="/submit"
        )
        for _ in range(STARTUP_ATTEMPTS):
            if "inside the submission's transaction" in log.read_text():
                break
            time.sleep(0.25)
        else:
            pytest.fail(f"the submission never reached its transaction:\n{log.read_text()}")
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)
        del job
    finally:
        if process.poll() is None:
            process.kill()
    with sqlite3.connect(folder / "board.sqlite") as connection:
        assert connection.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    board = Board(folder)
    stored = board.submissions()
    assert [submission.name for submission in stored] in ([], ["killed"])
    for submission in stored:  # whole, if there
        assert set(board.statistics(submission.name)) == set(METRICS)
    board.submit(_variants(corpus, 1, 4)[0], "after")  # the board takes submissions again
    assert "after" in [system.name for system in board.standings(n_samples=10).systems]


def _submit_arguments(path, name="killed"):
    from gradio_client import handle_file

    return handle_file(str(path)), name, ""


def test_one_client_past_the_rate_limit_is_refused(limited_page, corpus, tmp_path):
    from gradio_client import Client

    url, folder = limited_page
    client = Client(url, verbose=False)
    answers = [
        _submit(client, _write(tmp_path / f"{number}.txt", lines), f"run{number}")
        for number, lines in enumerate(_variants(corpus, 3, 5))
    ]
    assert [answer[1].get("name") for answer in answers] == ["run0", "run1", None]
    assert "at most 2 an hour" in answers[2][1]["error"], answers[2]
    stored = Board(folder).submissions()
    assert [submission.name for submission in stored] == ["run0", "run1"]
    assert {submission.client for submission in stored} == {"127.0.0.1"}  # the Space's key: the address


# --------------------------------------------------------------------------- WMT's files, .gz, .zip


def _wmt_files(corpus, tmp_path):
    """The same segments as WMT names its files, gzipped, and zipped (one file)."""
    lines = _variants(corpus, 1, 6)[0]
    plain = _write(tmp_path / WMT_NAME, lines)
    gzipped = tmp_path / "gz" / f"{WMT_NAME}.gz"
    gzipped.parent.mkdir()
    gzipped.write_bytes(gzip.compress(plain.read_bytes()))
    zipped = tmp_path / "zip" / "Online-A.zip"
    zipped.parent.mkdir()
    with zipfile.ZipFile(zipped, "w") as archive:
        archive.write(plain, f"outputs/{WMT_NAME}")
    return lines, (plain, gzipped, zipped)


def test_board_form_reads_wmt_names_gz_and_zip(board_page, corpus, tmp_path):
    from ngrameval.ui.board import BoardPage

    folder = tmp_path / "board"
    _new_board(folder, corpus[0])
    handlers = BoardPage(folder)
    lines, uploads = _wmt_files(corpus, tmp_path)
    for upload in uploads:
        assert handlers.read_submission(str(upload)) == split_lines("\n".join(lines))
    # Through HTTP too: gradio's own check of the file type lets WMT's name through.
    from gradio_client import Client

    url, _ = board_page
    for number, upload in enumerate(uploads):
        _write(tmp_path / WMT_NAME, [f"{line} {number}" for line in lines])  # new segments each time
        if upload.suffix == ".gz":
            upload.write_bytes(gzip.compress((tmp_path / WMT_NAME).read_bytes()))
        elif upload.suffix == ".zip":
            with zipfile.ZipFile(upload, "w") as archive:
                archive.write(tmp_path / WMT_NAME, f"outputs/{WMT_NAME}")
        answer = _submit(Client(url, verbose=False), upload, f"wmt-named-{number}")
        assert answer[1].get("name") == f"wmt-named-{number}", answer


def test_upload_and_score_reads_wmt_names_gz_and_zip(serve, corpus, tmp_path):
    from gradio_client import Client, handle_file

    references = corpus[0]
    lines, uploads = _wmt_files(corpus, tmp_path)
    reference = _write(tmp_path / "generaltest2022.de-en.ref.A.en", references)
    url, _ = serve("leaderboard")
    expected = _score_json(tmp_path, references, {WMT_NAME: uploads[0]})[WMT_NAME]["bleu"]["score"]
    for upload in uploads:
        status, table = Client(url, verbose=False).predict(
            [handle_file(str(reference))],
            [handle_file(str(upload))],
            ["bleu"],
            "",
            None,
            "none",
            None,
            False,
            None,
            True,
            api_name="/rank",
        )[:2]
        assert "1 systems, 12 segments" in status, status
        assert table["data"][0][1] == WMT_NAME and table["data"][0][2] == f"{expected * 100:.2f}", table


def test_bad_submissions_are_named_in_the_page_language(corpus, tmp_path):
    from ngrameval.ui import i18n
    from ngrameval.ui.board import BoardPage

    folder = tmp_path / "board"
    _new_board(folder, corpus[0])
    handlers = BoardPage(folder, max_mb=0.0001)
    (tmp_path / "big.txt").write_text("x\n" * 100)
    (tmp_path / "bad.gz").write_text("not gzip")
    (tmp_path / "two.zip").write_bytes(b"")
    with zipfile.ZipFile(tmp_path / "two.zip", "w") as archive:
        archive.writestr("a.txt", "x\n")
        archive.writestr("b.txt", "y\n")
    _write(tmp_path / "short.txt", ["x"])

    class Request:
        headers = {"accept-language": "ja"}
        client = None

    cases = [
        (None, "name", i18n.text("board.error.no_file", "ja")),
        (tmp_path / "short.txt", "", i18n.text("board.error.no_name", "ja")),
        (
            tmp_path / "short.txt",
            "name",
            i18n.text("board.error.lines", "ja", file="short.txt", lines=1, segments=SEGMENTS),
        ),
        (tmp_path / "big.txt", "name", "big.txt"),
        (tmp_path / "bad.gz", "name", i18n.text("lb.error.not_gzip", "ja", name="bad.gz")),
        (tmp_path / "two.zip", "name", i18n.text("lb.error.too_many_files", "ja", count=2, limit=1)),
    ]
    for upload, name, message in cases:
        status, answer, _ = handlers.submit(upload and str(upload), name, "", Request())
        assert message in html.unescape(status) and answer["error"], (upload, status)
    assert Board(folder).submissions() == []


# --------------------------------------------------------------------------- export for the Hub


def test_export_space_copies_the_board_and_the_app_finds_it(corpus, tmp_path, capsys):
    from ngrameval.ui.leaderboard import board_settings

    folder = tmp_path / "board"
    board = _new_board(folder, corpus[0])
    board.submit(_variants(corpus, 1, 7)[0], "first", team="lab")
    out = tmp_path / "space"
    assert cli.main(["export-space", "leaderboard", str(out), "--board", str(folder)]) == 0
    assert "private" in capsys.readouterr().err
    copy = Board(out / "board")
    assert [submission.name for submission in copy.submissions()] == ["first"]
    assert copy.references_digest == board.references_digest
    assert board_settings([], {}, out / "app.py").folder == out / "board"
    persistent = tmp_path / "data" / "board"  # a Hub Space's persistent storage, empty at first start
    assert board_settings([], {"NGRAMEVAL_BOARD": str(persistent)}, out / "app.py").folder == persistent
    assert [submission.name for submission in Board(persistent).submissions()] == ["first"]
    assert board_settings(["--max-mb", "5"], {"NGRAMEVAL_BOARD_MAX_MB": "7"}, None).max_mb == 5
    assert board_settings([], {"NGRAMEVAL_BOARD_MAX_MB": "7"}, None).max_mb == 7
    assert cli.main(["export-space", "bleu", str(tmp_path / "bleu"), "--board", str(folder)]) == 2
    assert "for the leaderboard Space" in capsys.readouterr().err
    assert cli.main(["export-space", "leaderboard", str(tmp_path / "none"), "--board", str(tmp_path)]) == 2
    assert "is not a board" in capsys.readouterr().err


def test_every_key_of_the_board_page_exists(board_page):
    """Every text the board's page shows is a key with its three languages."""
    from ngrameval.ui import i18n
    from tests.frontends.test_spaces_i18n import _keys

    url, _ = board_page
    with urllib.request.urlopen(url + "config") as response:
        used = _keys(json.load(response))
    assert {"board.submit", "board.tab_board", "board.tab_submit", "board.tab_submission", "board.name"} <= used, used
    for texts in i18n.translations().translations_dict.values():
        assert used <= set(texts), used - set(texts)


def test_app_without_a_board_there_says_so_in_one_line(tmp_path, monkeypatch, ui):
    from ngrameval.ui.leaderboard import SPACE

    monkeypatch.setattr(sys, "argv", ["app.py", "--board", str(tmp_path / "nothing")])
    with pytest.raises(SystemExit) as stopped:
        SPACE.configured(True)
    assert str(stopped.value).startswith("app.py: ") and "is not a board" in str(stopped.value)
    monkeypatch.setattr(sys, "argv", ["app.py", "--max-mb", "0"])
    with pytest.raises(SystemExit):  # argparse's own message and status 2
        SPACE.configured(True)
    monkeypatch.delenv("NGRAMEVAL_BOARD", raising=False)
    assert SPACE.configured(False) is SPACE  # imported (not run), without NGRAMEVAL_BOARD: upload and score


# --------------------------------------------------------------------------- in Chromium


@pytest.mark.slow
def test_page_submits_shows_the_table_and_switches_language(board_page, corpus, page, tmp_path):
    from ngrameval.ui import i18n

    url, folder = board_page
    lines, uploads = _wmt_files(corpus, tmp_path)
    _write(uploads[0], [line + " browser" for line in lines])
    page.goto(url)
    expect(page.locator("#board-status")).to_contain_text(
        "ranked by bleu" if Board(folder).submissions() else "No submission yet"
    )
    page.get_by_role("tab", name="Submit", exact=True).click()
    page.locator("#submission-file input[type=file]").set_input_files(str(uploads[0]))
    page.locator("#submission-name input, #submission-name textarea").first.fill("from-browser")
    page.locator("#submission-team input, #submission-team textarea").first.fill("browser team")
    page.locator("#submit").click()
    expect(page.locator("#submit-status")).to_contain_text("from-browser: stored")
    assert page.locator("#submission-link").get_attribute("href") == "?submission=from-browser"
    page.get_by_role("tab", name="Leaderboard", exact=True).click()
    expect(page.locator("#standings")).to_contain_text("from-browser")
    expect(page.locator("#standings")).to_contain_text("browser team")
    score = Board(folder).submissions()[-1].scores["bleu"]["bleu"]
    assert f"{score * 100:.2f}" in page.locator("#standings").inner_text()
    page.get_by_role("tab", name="Submission", exact=True).click()
    expect(page.locator("#submission-view")).to_contain_text("from-browser")
    expect(page.locator("#submission-view svg")).to_have_count(len(METRICS))
    # The language switch: the tabs' names, then a message the server writes, in Japanese.
    page.get_by_role("tab", name="Submit", exact=True).click()
    page.locator("#submission-file button[aria-label=Clear]").click()
    page.locator("#language input").click()
    page.get_by_role("option", name="日本語").click()
    expect(page.get_by_role("tab", name=i18n.text("board.tab_submit", "ja"), exact=True)).to_be_visible()
    expect(page.locator("#submit")).to_have_text(i18n.text("board.submit", "ja"))
    page.locator("#submission-file input[type=file]").set_input_files(str(_write(tmp_path / "short.txt", ["x"])))
    page.locator("#submit").click()
    expect(page.locator("#submit-status")).to_contain_text(
        i18n.text("board.error.lines", "ja", file="short.txt", lines=1, segments=SEGMENTS)
    )
    assert not any(line in page.content() for line in corpus[0])
    # A submission's own page, by its address (the link a stored submission shows).
    page.goto(url + "?submission=from-browser")
    expect(page.locator("#submission-view")).to_contain_text("browser team")
