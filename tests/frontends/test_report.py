"""The HTML report (``ngrameval score --format html``) opened in headless Chromium with the network
blocked: it must need nothing from outside (no request is even attempted), and show the ranked table,
the SVG charts and the pair view with the right systems; system names are text, never markup.

The browser is the Spaces tests' one (tests/frontends/conftest.py: one Chromium per session, since playwright's
sync API runs one instance at a time); the report's page is an offline context.
"""
import json

import pytest

from ngrameval.frontends.cli import main

REFERENCES = ["the cat sat on the mat", "a dog barks at the postman", "it is 3.5 km , not 4", "we go home now"]
SYSTEMS = {   # name -> segments; the names hold markup, to check that it is shown as text
    "base<i>line &amp;": ["the cat sat", "a dog barks", "it is 4 km", "we go"],
    "good & best": ["the cat sat on the mat", "a dog barks at the postman", "it is 3.5 km", "we go home now"],
    "middle.txt": ["the cat is on the mat", "the dog barks at a postman", "it is 3.5 km , not 4", "we go"],
}


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    """(path of the HTML report, the JSON leaderboard) of the three systems, with paired bootstrap tests."""
    directory = tmp_path_factory.mktemp("report")
    (directory / "ref.txt").write_text("\n".join(REFERENCES) + "\n", encoding="utf-8")
    specs = []
    for index, (name, lines) in enumerate(SYSTEMS.items()):
        (directory / f"system{index}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
        specs.append(f"{name}={directory / f'system{index}.txt'}")
    arguments = ["score", "-r", str(directory / "ref.txt"), "-s", *specs,
                 "-m", "bleu", "rouge", "--option", 'rouge.rouge_types=["rouge1","rougeL"]', "--paired-bs",
                 "--paired-n", "200", "--scale", "100", "--width", "1", "-q"]
    assert main(arguments + ["--format", "html", "-o", str(directory / "report.html")]) == 0
    json_path = directory / "board.json"
    assert main(arguments + ["--format", "json", "-o", str(json_path)]) == 0
    return directory / "report.html", json.loads(json_path.read_text(encoding="utf-8"))


@pytest.fixture
def page(browser, report):
    """The report loaded in a page whose every network request is recorded and aborted; after the test,
    no request but the report file itself may have been made."""
    path, _ = report
    context = browser.new_context(viewport={"width": 1280, "height": 900}, offline=True)
    requests = []

    def block(route):
        if route.request.url == path.as_uri():
            route.continue_()
        else:
            route.abort()

    context.route("**/*", block)
    page = context.new_page()
    page.on("request", lambda request: requests.append(request.url))
    page.goto(path.as_uri())
    page.wait_for_load_state("load")
    yield page
    context.close()
    assert requests == [path.as_uri()]


def _ranked(board):
    return sorted(board["systems"], key=lambda system: -system["scores"]["bleu"]["score"])


def test_report_is_self_contained(report):
    text = report[0].read_text(encoding="utf-8")
    assert " src=" not in text and " href=" not in text and "@import" not in text and "url(" not in text


def test_ranked_table_shows_scores_intervals_and_marks(page, report):
    _, board = report
    rows = page.locator("#leaderboard tbody tr")
    assert rows.count() == 3
    ranked = _ranked(board)
    cluster_of = {name: number for number, group in enumerate(board["clusters"]["bleu"], 1) for name in group}
    for index, system in enumerate(ranked):
        cells = rows.nth(index).locator("td").all_inner_texts()
        label = system["name"] + (" (baseline)" if system["name"] == board["baseline"] else "")
        assert cells[:3] == [str(index + 1), str(cluster_of[system["name"]]), label]
        assert system["label"] == system["name"]       # nothing common to cut from these names
        bleu = system["scores"]["bleu"]
        assert cells[3].startswith(f"{100 * bleu['score']:.1f} (\u03bc = {100 * bleu['mean']:.1f} \u00b1")
        if bleu["p_value"] is not None:
            assert f"(p = {bleu['p_value']:.4f})" in cells[3]
            assert cells[3].endswith("\u2020") == (bleu["p_value"] > 0.05)
    headers = page.locator("#leaderboard thead th").all_inner_texts()
    assert [header.split("\n")[0] for header in headers] == ["rank", "cluster", "system", "bleu", "rouge.rouge1",
                                                             "rouge.rougeL"]
    assert all(header.endswith("higher is better") for header in headers[3:])
    assert page.locator("#leaderboard i").count() == 0      # the name's <i> is text


def test_interval_charts_and_distributions_are_inline_svg(page, report):
    _, board = report
    names = [system["name"] for system in _ranked(board)]
    bars = page.locator("#bars svg")
    assert bars.count() == 3
    for index in range(3):
        chart = bars.nth(index)
        assert chart.locator("circle.point").count() == 3 and chart.locator("path.whisker").count() == 3
        assert chart.locator("text.name").all_text_contents() == names
        assert chart.locator("text.tick").count() >= 2
        assert chart.bounding_box()["height"] > 50
    boxes = page.locator("#distributions svg")
    assert boxes.count() == 3
    assert boxes.first.locator("rect.box").count() == 3
    assert boxes.first.locator("text.name").all_text_contents() == names


def test_pair_view_shows_the_best_and_the_baseline_and_switches(page, report):
    _, board = report
    best = _ranked(board)[0]["name"]
    visible = page.locator("section.pair:visible")
    assert visible.count() == 1
    assert visible.locator("h3").inner_text() == f"{best} vs {board['baseline']}"
    rows = visible.locator("tbody tr")
    assert rows.count() == len(REFERENCES)
    assert visible.locator("mark").count() > 0
    assert visible.locator("i").count() == 0
    options = page.locator("#pair option")
    assert options.count() == 3
    other = options.nth(2)
    page.select_option("#pair", other.get_attribute("value"))
    visible = page.locator("section.pair:visible")
    assert visible.count() == 1
    assert visible.locator("h3").inner_text() == other.inner_text()
    assert best not in other.inner_text()
