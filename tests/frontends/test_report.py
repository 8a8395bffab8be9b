"""The HTML report (``ngrameval score --format html``) opened in headless Chromium with the network
blocked: it must need nothing from outside (no request is even attempted), and show the ranked table,
the SVG charts and the pair view with the right systems; system names are text, never markup.

The browser is the Spaces tests' one (tests/frontends/conftest.py: one Chromium per session, since playwright's
sync API runs one instance at a time); the report's page is an offline context.
"""

import json

import pytest

from ngrameval.frontends.cli import main
from tests.data import WMT22, WMT22_SYSTEMS, read_lines

REFERENCES = ["the cat sat on the mat", "a dog barks at the postman", "it is 3.5 km , not 4", "we go home now"]
SYSTEMS = {  # name -> segments; the names hold markup, to check that it is shown as text
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
    arguments = [
        "score",
        "-r",
        str(directory / "ref.txt"),
        "-s",
        *specs,
        "-m",
        "bleu",
        "rouge",
        "--option",
        'rouge.rouge_types=["rouge1","rougeL"]',
        "--paired-bs",
        "--paired-n",
        "200",
        "--scale",
        "100",
        "--width",
        "1",
        "-q",
    ]
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
        assert system["label"] == system["name"]  # nothing common to cut from these names
        bleu = system["scores"]["bleu"]
        assert cells[3].startswith(f"{100 * bleu['score']:.1f} (\u03bc = {100 * bleu['mean']:.1f} \u00b1")
        if bleu["p_value"] is not None:
            assert f"(p = {bleu['p_value']:.4f})" in cells[3]
            assert cells[3].endswith("\u2020") == (bleu["p_value"] > 0.05)
    headers = page.locator("#leaderboard thead th").all_inner_texts()
    assert [header.split("\n")[0] for header in headers] == [
        "rank",
        "cluster",
        "system",
        "bleu",
        "rouge.rouge1",
        "rouge.rougeL",
    ]
    assert all(header.endswith("higher is better") for header in headers[3:])
    assert page.locator("#leaderboard i").count() == 0  # the name's <i> is text


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


# --------------------------------------------------------------------------- WMT22 de-en, as a reader sees it

WMT22_SEGMENTS = 150  # the first segments of each file: the layout is the point, and it stays fast
WMT22_NAME = "generaltest2022.de-en.hyp.{}.en"


@pytest.fixture(scope="module")
def wmt22(shared, tmp_path_factory):
    """(path of the HTML report, the JSON leaderboard) of WMT22's de-en systems under their file names, scored by
    BLEU, chrF and TER with a paired bootstrap (50 resamples) against reference A."""
    directory = tmp_path_factory.mktemp("wmt22")
    texts = shared(f"{WMT22}/txt")
    reference = directory / "generaltest2022.de-en.ref.A.en"
    reference.write_text(
        "\n".join(read_lines(texts / "references" / reference.name)[:WMT22_SEGMENTS]) + "\n", encoding="utf-8"
    )
    systems = []
    for system in WMT22_SYSTEMS["de-en"]:
        path = directory / WMT22_NAME.format(system)
        path.write_text(
            "\n".join(read_lines(texts / "system-outputs" / path.name)[:WMT22_SEGMENTS]) + "\n", encoding="utf-8"
        )
        systems.append(str(path))
    arguments = [
        "score",
        "-r",
        str(reference),
        "-s",
        *systems,
        "-m",
        "bleu",
        "chrf",
        "ter",
        "--paired-bs",
        "--paired-n",
        "50",
        "--scale",
        "100",
        "-q",
    ]
    assert main(arguments + ["--format", "html", "-o", str(directory / "report.html")]) == 0
    assert main(arguments + ["--format", "json", "-o", str(directory / "board.json")]) == 0
    return directory / "report.html", json.loads((directory / "board.json").read_text(encoding="utf-8"))


def _opened(browser, path, width):
    context = browser.new_context(viewport={"width": width, "height": 900}, offline=True)
    page = context.new_page()
    page.goto(path.as_uri())
    return context, page


# The table's box, and every cell whose text is cut (wider than the cell) or out of the box's visible width.
TABLE_LAYOUT = """() => {
  const table = document.getElementById("leaderboard"), box = table.parentElement;
  const shown = box.getBoundingClientRect();
  const cut = [...table.querySelectorAll("th, td")].filter((cell) => cell.scrollWidth > cell.clientWidth + 1)
    .map((cell) => cell.innerText);
  const outside = [...table.querySelectorAll("th, td")].filter((cell) => {
    const edges = cell.getBoundingClientRect();
    return edges.left < shown.left - 1 || edges.right > shown.right + 1;
  }).map((cell) => cell.innerText);
  return {tableWidth: table.scrollWidth, boxWidth: box.clientWidth, boxScrollWidth: box.scrollWidth,
          pageWidth: document.documentElement.scrollWidth, overflow: getComputedStyle(box).overflowX, cut, outside};
}"""


def test_wmt22_report_at_1400_px_shows_the_whole_table_and_what_tells_systems_apart(browser, wmt22):
    path, board = wmt22
    context, page = _opened(browser, path, 1400)
    try:
        layout = page.evaluate(TABLE_LAYOUT)
        assert layout["pageWidth"] <= 1400 and layout["cut"] == []
        if layout["tableWidth"] > layout["boxWidth"]:  # wider than the page: it scrolls in its box
            assert layout["overflow"] == "auto"
            assert (
                page.locator("#leaderboard td.system").first.evaluate("c => getComputedStyle(c).position") == "sticky"
            )
        else:  # else every cell, every p-value of TER, is in view
            assert layout["outside"] == []
        # The systems: the distinct part of their file names shown, the whole name as the tooltip and in the JSON.
        cells = page.locator("#leaderboard td.system")
        names = {cells.nth(i).get_attribute("title"): cells.nth(i).inner_text() for i in range(cells.count())}
        assert names == {
            WMT22_NAME.format(system): system + (" (baseline)" if system == WMT22_SYSTEMS["de-en"][0] else "")
            for system in WMT22_SYSTEMS["de-en"]
        }
        assert {system["name"]: system["label"] for system in board["systems"]} == {
            WMT22_NAME.format(system): system for system in WMT22_SYSTEMS["de-en"]
        }
        for chart in page.locator("#bars svg").all():
            assert sorted(chart.locator("text.name").all_text_contents()) == sorted(WMT22_SYSTEMS["de-en"])
            # The axis spans the intervals: scores all far above 0 do not start it at 0.
            ticks = [float(text) for text in chart.locator("text.tick").all_text_contents()]
            lows = [
                100 * system["scores"][key]["ci"][0] for system in board["systems"] for key in ("bleu", "chrf", "ter")
            ]
            assert min(ticks) > 0 and min(lows) > 10
            assert ticks == sorted(ticks) and len(ticks) >= 3
        # TER is lower-is-better: said in its column, its chart, the legend; its clusters rank the smallest first.
        assert page.locator('#leaderboard th[data-direction="lower"]').all_inner_texts() == ["ter\nlower is better"]
        assert page.locator('#leaderboard th[data-direction="higher"]').count() == 2
        assert page.locator("#bars h3").all_inner_texts()[2] == "ter (lower is better)"
        assert page.locator("#bars svg").nth(2).locator("text.better").text_content() == "\u2190 lower is better"
        assert any(line.startswith("ter: lower is better") for line in page.locator("p.legend").all_inner_texts())
        scores = {system["name"]: system["scores"] for system in board["systems"]}
        for key, sign in (("bleu", -1), ("chrf", -1), ("ter", 1)):
            order = [name for group in board["clusters"][key] for name in group]
            assert order == sorted(scores, key=lambda name: sign * scores[name][key]["score"])
        # The table's cluster column is the headline's (bleu) clusters.
        rows = page.locator("#leaderboard tbody tr")
        shown_clusters = {
            rows.nth(i).locator("td.system").get_attribute("title"): int(rows.nth(i).locator("td.cluster").inner_text())
            for i in range(rows.count())
        }
        assert shown_clusters == {
            name: number for number, group in enumerate(board["clusters"]["bleu"], 1) for name in group
        }
    finally:
        context.close()


def test_wmt22_table_scrolls_in_its_box_with_the_systems_in_view_on_a_narrow_page(browser, wmt22):
    path, _ = wmt22
    context, page = _opened(browser, path, 700)
    try:
        layout = page.evaluate(TABLE_LAYOUT)
        assert layout["boxScrollWidth"] > layout["boxWidth"] and layout["pageWidth"] <= 700 and layout["cut"] == []
        page.locator(".scroll:has(#leaderboard)").evaluate("box => { box.scrollLeft = box.scrollWidth; }")
        box = page.locator(".scroll:has(#leaderboard)").bounding_box()
        for row in page.locator("#leaderboard tbody tr").all():
            rank, cluster, system = (row.locator(f"td.{name}").bounding_box() for name in ("rank", "cluster", "system"))
            assert box["x"] - 1 <= rank["x"] and rank["x"] + rank["width"] <= cluster["x"] + 1
            assert cluster["x"] + cluster["width"] <= system["x"] + 1
            assert system["x"] + system["width"] <= box["x"] + box["width"]
    finally:
        context.close()


def test_wmt22_marks_say_whether_a_system_is_better_or_worse_than_the_baseline(browser, wmt22):
    """sacrebleu's star says only "significantly different"; each significant score also says which way, by
    its metric's direction: fewer TER edits than the baseline is better (a lower TER), a higher BLEU or chrF
    is better. Non-significant scores keep the dagger; the baseline has no mark."""
    path, board = wmt22
    context, page = _opened(browser, path, 1400)
    try:
        systems = {system["name"]: system["scores"] for system in board["systems"]}
        baseline = systems[board["baseline"]]
        rows = page.locator("#leaderboard tbody tr")
        seen = set()
        for row in rows.all():
            scores = systems[row.locator("td.system").get_attribute("title")]
            cells = row.locator("td.score")
            for index, key in enumerate(("bleu", "chrf", "ter")):
                entry, mark = scores[key], cells.nth(index).locator(".mark")
                if entry["p_value"] is None:
                    assert mark.count() == 0
                    continue
                if entry["p_value"] > 0.05:
                    expected = "same"
                else:
                    higher = entry["score"] > baseline[key]["score"]
                    expected = "better" if higher != (key == "ter") else "worse"
                assert mark.get_attribute("class") == f"mark {expected}", (key, entry, baseline[key])
                assert cells.nth(index).inner_text().endswith(mark.inner_text())
                seen.add((key, expected))
        # WMT22's first system, the baseline, is among the best: the others differ by being worse (the CLI's
        # tests have a system better than its baseline).
        assert {("ter", "worse"), ("bleu", "worse"), ("ter", "same")} <= seen, seen
        legend = page.locator("p.legend").all_inner_texts()
        assert any(line.startswith("\u25b2: significantly better than the baseline") for line in legend)
    finally:
        context.close()
