"""The leaderboard Space (spaces/leaderboard): its API and its page in Chromium give what `ngrameval score` gives for
the same files, sacrebleu's corpus BLEU per system, and clear messages for bad uploads.

Uses the Space fixtures (serve, browser, page) of the Spaces' tests.
"""

import json
import re
import zipfile

import pytest
import sacrebleu
from playwright.sync_api import expect

from ngrameval.frontends import cli
from ngrameval.leaderboard.reading import split_lines
from tests.data import wmt17_reference, wmt17_system

SYSTEMS = ("KIT.4950", "FBK.4870", "SYSTRAN.4847")
SEGMENTS = 200
SAMPLES = 200
SYSTEMS_BY_NAME = {system.split(".")[0]: index for index, system in enumerate(SYSTEMS)}


@pytest.fixture(scope="module")
def files(shared, tmp_path_factory):
    """WMT17 en-de: the reference and three systems, first SEGMENTS lines, as files named like the systems."""
    folder = tmp_path_factory.mktemp("leaderboard")
    reference = folder / "reference.txt"
    reference.write_text("\n".join(wmt17_reference(shared)[:SEGMENTS]) + "\n", encoding="utf-8")
    systems = []
    for system in SYSTEMS:
        path = folder / f"{system.split('.')[0]}.txt"
        path.write_text("\n".join(wmt17_system(shared, system)[:SEGMENTS]) + "\n", encoding="utf-8")
        systems.append(path)
    return reference, systems


def _lines(path):
    return split_lines(path.read_text(encoding="utf-8"))


def _command_line(output, reference, systems, *options):
    """`ngrameval score ... --format json` (into a file: the Spaces' servers log to this process's stderr, which
    pytest's capture must not swap under them)."""
    assert (
        cli.main(
            [
                "score",
                "-r",
                str(reference),
                "-s",
                *(f"{path.stem}={path}" for path in systems),
                "-m",
                "bleu",
                "chrf",
                "--format",
                "json",
                "-q",
                "-o",
                str(output),
                *options,
            ]
        )
        == 0
    )
    return json.loads(output.read_text(encoding="utf-8"))


def test_api_ranks_like_the_command_line_and_bleu_equals_sacrebleu(serve, files, tmp_path):
    from gradio_client import Client, handle_file

    reference, systems = files
    url, _ = serve("leaderboard")
    client = Client(url, verbose=False)
    result = client.predict(
        [handle_file(str(reference))],
        [handle_file(str(path)) for path in systems],
        ["bleu", "chrf"],
        "",
        "FBK",
        "paired bootstrap",
        SAMPLES,
        False,
        12345,
        True,
        api_name="/rank",
    )
    status, table = result[0], result[1]
    assert "3 systems, 200 segments" in status
    rows = {row[1]: row for row in table["data"]}
    assert set(rows) == {"KIT", "FBK (baseline)", "SYSTRAN"}
    expected = _command_line(
        tmp_path / "board.json",
        reference,
        [systems[1], systems[0], systems[2]],
        "--paired-bs",
        "--paired-n",
        str(SAMPLES),
        "--seed",
        "12345",
    )
    for entry in expected["systems"]:
        name = entry["name"]
        row = rows[name + (" (baseline)" if name == "FBK" else "")]
        bleu = entry["scores"]["bleu"]
        peer = sacrebleu.corpus_bleu(_lines(systems[SYSTEMS_BY_NAME[name]]), [_lines(reference)]).score
        assert bleu["score"] * 100 == pytest.approx(peer, abs=1e-9)
        assert row[2].startswith(f"{peer:.2f}")
        if bleu.get("p_value") is not None:
            assert f"p = {bleu['p_value']:.4f}" in row[2]
            # The mark after sacrebleu's star: better or worse than the baseline's BLEU, or not significant.
            base = next(other for other in expected["systems"] if other["name"] == "FBK")["scores"]["bleu"]["score"]
            higher = "\u25b2" if bleu["score"] > base else "\u25bc"
            assert row[2][-1] == ("\u2020" if bleu["p_value"] > 0.05 else higher)
    # The pair view and the report come back too.
    assert "<table>" in result[4] and "segments where their segment bleu differs most" in result[4]
    assert result[5] and result[5].endswith("leaderboard.html")


def test_page_ranks_a_zip_of_systems_and_shows_a_pair(serve, page, files, tmp_path):
    reference, systems = files
    archive = tmp_path / "runs.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        for path in systems:
            zipped.write(path, f"runs/{path.name}")
    url, _ = serve("leaderboard")
    page.goto(url)
    page.locator("#references input[type=file]").set_input_files(str(reference))
    page.locator("#systems input[type=file]").set_input_files(str(archive))
    page.locator("#baseline input").click()  # the upload filled the baseline's choices
    page.get_by_role("option", name="SYSTRAN").click()
    page.locator("#submit").click()
    expect(page.locator("#status")).to_contain_text("3 systems, 200 segments")
    text = page.locator("#leaderboard").inner_text()
    scores = {
        name: sacrebleu.corpus_bleu(_lines(path), [_lines(reference)]).score
        for name, path in zip(("KIT", "FBK", "SYSTRAN"), systems)
    }
    for name, score in scores.items():
        label = name + (" (baseline)" if name == "SYSTRAN" else "")
        assert re.search(rf"{re.escape(label)}\s+{score:.2f}", text), (name, text)
    assert page.locator("#bars svg").count() == 2  # one bar chart per metric
    assert page.locator("#pair-view table tbody tr").count() == 10
    assert "differs most" in page.locator("#pair-view").inner_text()


@pytest.mark.parametrize(
    "uploads, message",
    [
        (dict(references=[], systems=["a.txt"]), "upload at least one reference file"),
        (dict(references=["r.txt"], systems=[]), "upload the systems' files"),
        (dict(references=["r.txt"], systems=["bad.zip"]), "bad.zip is not a zip file"),
        (dict(references=["r.txt"], systems=["empty.zip"]), "empty.zip holds no file"),
        (dict(references=["r.txt"], systems=["a.txt", "short.txt"]), "short.txt"),
        (dict(references=["r.txt"], systems=["bad.gz"]), "bad.gz is not a gzip file"),
        (dict(references=["r.txt"], systems=["latin1.en"]), "not UTF-8 text"),
    ],
)
def test_bad_uploads_are_named(tmp_path, uploads, message):
    from ngrameval.ui import leaderboard

    (tmp_path / "r.txt").write_text("x\ny\n")
    (tmp_path / "a.txt").write_text("x\ny\n")
    (tmp_path / "short.txt").write_text("x\n")
    (tmp_path / "bad.zip").write_text("not a zip")
    (tmp_path / "bad.gz").write_text("not gzip")
    (tmp_path / "latin1.en").write_bytes("caf\u00e9\nx\n".encode("latin-1"))
    with zipfile.ZipFile(tmp_path / "empty.zip", "w") as zipped:
        zipped.writestr("__MACOSX/._notes.md", "")
    status = leaderboard.score(
        [tmp_path / name for name in uploads["references"]],
        [tmp_path / name for name in uploads["systems"]],
        ["bleu"],
        "",
        None,
        "none",
        None,
        False,
        None,
        True,
    )[0]
    assert "error" in status and message in status.replace("&#x27;", "'"), status


@pytest.mark.parametrize(
    "arguments, message",
    [
        (dict(metrics=[]), "pick at least one metric"),
        (dict(options="bleu.nonsense=1"), "unknown options for bleu: nonsense"),
        (dict(samples=0), "Samples must be a whole number from 1"),
        (dict(samples=10**5), "Samples must be a whole number from 1"),
        (dict(baseline="nobody"), "the baseline 'nobody' is not one of the systems"),
        (dict(seed=-1), "Seed must be a whole number of at least 0"),
    ],
)
def test_bad_options_are_named(tmp_path, arguments, message):
    from ngrameval.ui import leaderboard

    (tmp_path / "r.txt").write_text("x\ny\n")
    (tmp_path / "a.txt").write_text("x\ny\n")
    (tmp_path / "b.txt").write_text("x\nz\n")
    given = dict(metrics=["bleu"], options="", baseline=None, samples=None, seed=None) | arguments
    status = leaderboard.score(
        [tmp_path / "r.txt"],
        [tmp_path / "a.txt", tmp_path / "b.txt"],
        given["metrics"],
        given["options"],
        given["baseline"],
        "paired bootstrap",
        given["samples"],
        False,
        given["seed"],
        True,
    )[0]
    assert "error" in status and message in status.replace("&#x27;", "'"), status


@pytest.mark.parametrize("locale, language", [("zh-CN", "zh-CN"), ("ja-JP", "ja")])
def test_page_in_the_browser_language(serve, browser, files, locale, language):
    """In a Chinese or Japanese browser the page's texts, its error messages and its status line are in that
    language, every key it uses exists in every language, and it still ranks the systems."""
    import urllib.request

    from ngrameval.ui import i18n
    from tests.frontends.test_spaces_i18n import _keys

    reference, systems = files
    url, _ = serve("leaderboard")
    with urllib.request.urlopen(url + "config") as response:
        used = _keys(json.load(response))
    assert {"lb.submit", "lb.references", "lb.systems"} <= used, used
    for texts in i18n.translations().translations_dict.values():
        assert used <= set(texts), used - set(texts)
    context = browser.new_context(locale=locale, viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        page.goto(url)
        expect(page.locator("#submit")).to_have_text(i18n.text("lb.submit", language))
        page.locator("#submit").click()  # nothing uploaded
        expect(page.locator("#status")).to_contain_text(i18n.text("lb.error.no_references", language))
        page.locator("#references input[type=file]").set_input_files(str(reference))
        page.locator("#systems input[type=file]").set_input_files([str(path) for path in systems])
        page.locator("#submit").click()
        expect(page.locator("#status")).to_contain_text(
            i18n.text("lb.scored", language, systems=3, segments="200", column="bleu")
        )
    finally:
        context.close()
