"""The Gradio Spaces (spaces/bleu, spaces/nist), driven as a person and as an API client would.

Each Space is served once per session on a free port of 127.0.0.1; one headless Chromium
(Debian's, through playwright) loads the pages. The scores the pages and the API show must
equal ngrameval's own for the same input. Needs gradio, gradio_client, playwright (Python) and
a Chromium binary (/usr/bin/chromium, or $NGRAMEVAL_CHROMIUM): when one is missing the tests
fail, with what to install -- they never skip.
"""
import importlib.util
import json
import os
import re
import shutil
import socket
import sys
from pathlib import Path

for _name, _value in (("GRADIO_ANALYTICS_ENABLED", "False"), ("HF_HUB_OFFLINE", "1"), ("HF_DATASETS_OFFLINE", "1"),
                      ("HF_EVALUATE_OFFLINE", "1")):
    os.environ.setdefault(_name, _value)

import pytest  # noqa: E402

import ngrameval  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT / "spaces" / "_shared"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync",
                 "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"]
TIMEOUT = 20_000   # ms, for anything the page computes
INSTALL = ("the Spaces tests need gradio==6.31.0, gradio-client==2.7.2 and playwright==1.65.2 "
           "(pip) and Chromium (apt-get install chromium; or set NGRAMEVAL_CHROMIUM to a Chromium binary)")


def _require(module: str):
    try:
        return importlib.import_module(module)
    except ImportError as error:
        return pytest.fail(f"{error}: {INSTALL}", pytrace=False)


@pytest.fixture(scope="session")
def ui():
    """spaces/_shared/ui.py, the module both apps import."""
    _require("gradio")
    sys.path.insert(0, str(SHARED))
    import ui as module
    return module


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="session")
def serve(ui):
    """serve("bleu") -> (URL, module) of spaces/bleu/app.py, its demo started once and closed at the end."""
    started = {}

    def start(name: str) -> str:
        if name not in started:
            spec = importlib.util.spec_from_file_location(f"ngrameval_space_{name}", ROOT / "spaces" / name / "app.py")
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            port = _free_port()
            module.demo.launch(server_name="127.0.0.1", server_port=port, prevent_thread_lock=True, quiet=True,
                               max_file_size=ui.MAX_FILE_SIZE)
            started[name] = (f"http://127.0.0.1:{port}/", module)
        return started[name]

    yield start
    for _, module in started.values():
        module.demo.close()


@pytest.fixture(scope="session")
def browser():
    sync_api = _require("playwright.sync_api")
    chromium = os.environ.get("NGRAMEVAL_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(chromium).is_file():
        pytest.fail(f"no Chromium at {chromium}: {INSTALL}", pytrace=False)
    sync_api.expect.set_options(timeout=TIMEOUT)
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    yield page
    context.close()


def _expect(locator):
    return _require("playwright.sync_api").expect(locator)


# --------------------------------------------------------------------------- the cases

EXAMPLES = Path(ngrameval.__file__).parent / "examples"       # Papineni et al. (2002)
PAPINENI_HYPOTHESES = (EXAMPLES / "hypotheses.txt").read_text(encoding="utf-8").splitlines()
PAPINENI_REFERENCES = [(EXAMPLES / f"references.{i}.txt").read_text(encoding="utf-8").splitlines()[0]
                       for i in (1, 2, 3)]

PREDICTIONS = ["the cat sat on the mat", "a dog barks at the cat"]
REFERENCE_BOXES = [["the cat sat on a mat", "the dog barks at a cat"], ["a cat sat on the mat", ""]]
REFERENCES = [["the cat sat on a mat", "a cat sat on the mat"], ["the dog barks at a cat"]]

SPACES = {
    "bleu": {
        "score": lambda hyps, refs, **options: ngrameval.bleu(hyps, refs, **options).bleu,
        # options picked in the page's dropdowns: (element id, option), and the same as keyword arguments
        "picks": [("variant", "nltk"), ("smooth", "method1")],
        "options": {"variant": "nltk", "smooth": "method1"},
        # (the start of an example's label, its predictions, their references, the options it sets)
        "example": ("d2l: A B B C D", ["A B B C D"], [["A B C D E F"]], {"variant": "d2l", "max_order": 2}),
    },
    "nist": {
        "score": lambda hyps, refs, **options: ngrameval.nist(hyps, refs, **options).nist,
        "picks": [("variant", "mteval")],
        "options": {"variant": "mteval"},
        "example": ("Papineni et al.: two hypotheses", PAPINENI_HYPOTHESES,
                    [PAPINENI_REFERENCES, PAPINENI_REFERENCES], {}),
    },
}


@pytest.fixture(params=sorted(SPACES))
def space(request, serve):
    """(name, case, url) for each Space."""
    return request.param, SPACES[request.param], serve(request.param)[0]


def _formatted(value: float) -> str:
    return f"{value:.6f}"


def _fill(page, predictions, reference_boxes):
    page.locator("#predictions textarea").fill("\n".join(predictions))
    for i, lines in enumerate(reference_boxes, 1):
        page.locator(f"#references-{i} textarea").fill("\n".join(lines))


def _choose(page, elem_id, option):
    page.locator(f"#{elem_id} input").click()
    page.get_by_role("option", name=option, exact=True).click()
    _expect(page.locator(f"#{elem_id} input")).to_have_value(option)


# --------------------------------------------------------------------------- in the browser

def test_page_scores_like_ngrameval(space, page, tmp_path):
    name, case, url = space
    page.goto(url)
    _fill(page, PREDICTIONS, REFERENCE_BOXES)
    for elem_id, option in case["picks"]:
        _choose(page, elem_id, option)
    page.locator("#submit").click()
    expected = _formatted(case["score"](PREDICTIONS, REFERENCES, **case["options"]))
    _expect(page.locator("#score .score-value")).to_have_text(expected)
    assert page.locator("#score .score-value").inner_text() == expected
    _expect(page.locator("#status")).to_contain_text("Scored 2 prediction(s) from the text boxes, 1 to 2 reference")

    # The explanation of sentence 1, then of sentence 2: tokens highlighted by matched order.
    highlighted = page.locator("#highlight .token.highlighted")
    _expect(highlighted.first).to_be_visible()
    _expect(page.locator("#highlight")).to_contain_text("4-gram")
    _expect(page.locator("#sentence-info")).to_contain_text("Sentence 1 of 2")
    page.locator("#sentence-number input").fill("2")
    page.locator("#sentence-number input").press("Enter")
    _expect(page.locator("#sentence-info")).to_contain_text("Sentence 2 of 2")
    _expect(page.locator("#ngrams")).to_contain_text("barks at")
    assert f"variant:{case['options']['variant']}" in page.locator("#signature textarea").input_value()
    page.screenshot(path=str(tmp_path / f"{name}-scored.png"), full_page=True)


def test_example_click_scores_like_ngrameval(space, page, tmp_path):
    name, case, url = space
    label, hyps, refs, options = case["example"]
    page.goto(url)
    page.get_by_role("button", name=label).first.click()     # an example's label starts with this text
    expected = _formatted(case["score"](hyps, refs, **options))
    _expect(page.locator("#score .score-value")).to_have_text(expected)
    _expect(page.locator("#predictions textarea")).to_have_value("\n".join(hyps))
    _expect(page.locator("#highlight .token.highlighted").first).to_be_visible()
    page.screenshot(path=str(tmp_path / f"{name}-example.png"), full_page=True)


def test_bad_input_shows_a_message_not_a_traceback(space, page, tmp_path):
    name, _, url = space
    page.goto(url)
    _fill(page, ["a b c", "d e f"], [["a b c"]])
    page.locator("#submit").click()
    error = page.locator("#status .status-error")
    _expect(error).to_contain_text("References 1 has 1 line(s) but Predictions has 2")
    _expect(page.locator("#score .score-value")).to_have_count(0)
    # Empty input, then fixed input: the message goes away and the score appears.
    _fill(page, [], [[]])
    page.locator("#submit").click()
    _expect(error).to_contain_text("Predictions is empty")
    assert "Traceback" not in page.content()
    page.screenshot(path=str(tmp_path / f"{name}-error.png"), full_page=True)
    _fill(page, ["a b c d"], [["a b c d"]])
    page.locator("#submit").click()
    _expect(page.locator("#score .score-value")).to_be_visible()
    _expect(error).to_have_count(0)


# --------------------------------------------------------------------------- through the API

def _client(url):
    return _require("gradio_client").Client(url, verbose=False)


def test_api_scores_like_ngrameval(space):
    name, case, url = space
    client = _client(url)
    result = client.predict(predictions="\n".join(PREDICTIONS), references_1="\n".join(REFERENCE_BOXES[0]),
                            references_2="\n".join(REFERENCE_BOXES[1]), **case["options"], api_name="/score")
    raw = result[0]
    library = (ngrameval.bleu if name == "bleu" else ngrameval.nist)(PREDICTIONS, REFERENCES, sentence_level=True,
                                                                     **case["options"]).as_dict()
    assert raw == json.loads(json.dumps(library))
    assert _formatted(library[name]) in result[2]        # the score card


def test_api_scores_every_example_like_ngrameval(space, serve):
    name, case, url = space
    client = _client(url)
    for example in serve(name)[1].SPACE.examples:
        boxes = {f"references_{i}": "\n".join(lines) for i, lines in enumerate(example.references, 1)}
        raw = client.predict(predictions="\n".join(example.predictions), **boxes, **example.options,
                             api_name="/score")[0]
        references = [[lines[k] for lines in example.references] for k in range(len(example.predictions))]
        assert raw[name] == case["score"](example.predictions, references, **example.options), example.label


def test_api_reads_uploaded_files(space, tmp_path):
    name, case, url = space
    handle_file = _require("gradio_client").handle_file
    jsonl = tmp_path / "corpus.jsonl"
    jsonl.write_text("".join(json.dumps({"prediction": h, "references": r}) + "\n"
                             for h, r in zip(PREDICTIONS, REFERENCES)), encoding="utf-8")
    table = tmp_path / "corpus.tsv"
    table.write_text("prediction\treference\treference_2\n" + "".join(
        f"{h}\t{r[0]}\t{r[1] if len(r) > 1 else ''}\n" for h, r in zip(PREDICTIONS, REFERENCES)), encoding="utf-8")
    system = tmp_path / "system.txt"
    system.write_text("\n".join(PREDICTIONS) + "\n", encoding="utf-8")
    reference_files = []
    for i, box in enumerate(REFERENCE_BOXES, 1):
        reference_files.append(tmp_path / f"ref{i}.txt")
        reference_files[-1].write_text("\n".join(box) + "\n", encoding="utf-8")
    expected = case["score"](PREDICTIONS, REFERENCES)
    client = _client(url)
    for upload, references in ((jsonl, None), (table, None), (system, [handle_file(p) for p in reference_files])):
        raw = client.predict(predictions_file=handle_file(upload), reference_files=references, api_name="/score")[0]
        assert raw[name] == expected, upload.name


def test_api_refuses_bad_input_with_a_message(space):
    name, _, url = space
    client = _client(url)
    raw = client.predict(predictions="a b\nc d", references_1="a b", api_name="/score")[0]
    assert raw == {"error": "References 1 has 1 line(s) but Predictions has 2: give one reference per prediction, "
                            "on the same line number."}
    if name == "bleu":    # the smoothing box takes any text: the metric says what the variant accepts
        raw = client.predict(predictions="a b", references_1="a b", variant="nltk", smooth="method9",
                             api_name="/score")[0]
        assert raw["error"].startswith("unknown smooth for variant 'nltk' 'method9'; valid values: 'method0'")
    # Values outside a control's choices or range are refused by gradio, with its message.
    with pytest.raises(_require("gradio_client.exceptions").AppError, match="less than minimum value 1"):
        client.predict(predictions="a b", references_1="a b", **{"max_order" if name == "bleu" else "n": 0},
                       api_name="/score")


# --------------------------------------------------------------------------- the shared helpers

def test_text_boxes(ui):
    hyps, refs = ui.corpus_from_text("a\nb\n\n", ["r1\nr2", "s1\n", "\nt2"])
    assert (hyps, refs) == (["a", "b"], [["r1", "s1"], ["r2", "t2"]])
    for text, refs, message in [("", ["x"], "Predictions is empty"), ("a", [""], "References 1 is empty"),
                                ("a\nb", ["x"], "References 1 has 1 line(s) but Predictions has 2"),
                                ("a\nb", ["x\ny", "z\nz\nz"], "References 2 has 3 line(s) but Predictions has 2")]:
        with pytest.raises(ui.InputError, match=re.escape(message)):
            ui.corpus_from_text(text, refs)


def test_limits(ui, monkeypatch, tmp_path):
    monkeypatch.setattr(ui, "MAX_LINES", 3)
    with pytest.raises(ui.InputError, match="Predictions has 4 predictions; the limit is 3"):
        ui.corpus_from_text("a\nb\nc\nd", ["a\nb\nc\nd"])
    monkeypatch.setattr(ui, "MAX_BYTES", 10)
    with pytest.raises(ui.InputError, match="the limit is 10 MB"):
        ui.corpus_from_text("a" * 11, ["a"])
    big = tmp_path / "big.jsonl"
    big.write_text(json.dumps({"prediction": "a", "references": ["a"]}), encoding="utf-8")
    with pytest.raises(ui.InputError, match="The upload is"):
        ui.corpus_from_files(str(big), None)


def test_bad_files(ui, tmp_path):
    cases = {
        "a.jsonl": ('{"prediction": "a"}\n', 'a.jsonl, line 1: "references" must be a string'),
        "b.jsonl": ("not json\n", "b.jsonl, line 1 is not valid JSON"),
        "c.csv": ("hypothesis,reference\na,b\n", "c.csv needs a header row with the columns prediction and reference"),
        "d.csv": ("prediction,reference\na,b,c\n", "d.csv, row 2 has 3 cells but the header has 2"),
        "e.txt": ("a\n", "e.txt holds only predictions"),
        "f.xml": ("<a/>", "unsupported file type '.xml'"),
        "g.tsv": ("prediction\treference\n", "g.tsv holds no predictions"),
    }
    for file_name, (content, message) in cases.items():
        path = tmp_path / file_name
        path.write_text(content, encoding="utf-8")
        with pytest.raises(ui.InputError, match=re.escape(message)):
            ui.corpus_from_files(str(path), None)
    (tmp_path / "latin1.txt").write_bytes("caf\xe9".encode("latin-1"))
    with pytest.raises(ui.InputError, match="latin1.txt is not UTF-8 text"):
        ui.corpus_from_files(str(tmp_path / "latin1.txt"), [str(tmp_path / "latin1.txt")])


def test_weights_and_highlight(ui):
    assert ui.parse_weights("") is None
    assert ui.parse_weights("0.5 0.5") == [0.5, 0.5]
    assert ui.parse_weights("0.5, 0.5; 1") == [[0.5, 0.5], [1.0]]
    with pytest.raises(ui.InputError, match="'x' is not a number"):
        ui.parse_weights("0.5 x")
    result = ngrameval.bleu(["the the cat"], ["the cat"], tokenize="none", max_order=2, explain=True)
    item = result.explanation[0]
    pieces = ui.highlight(item["prediction_tokens"], item["orders"]).value
    labels = [entry["class_or_confidence"] for entry in pieces if entry["token"].strip()]
    assert labels == ["1-gram", "2-gram", "2-gram"]
    result = ngrameval.bleu(["the the the"], ["the cat"], tokenize="none", max_order=1, explain=True)
    item = result.explanation[0]
    pieces = ui.highlight(item["prediction_tokens"], item["orders"]).value
    assert [entry["class_or_confidence"] for entry in pieces if entry["token"].strip()] == \
        ["1-gram", ui.OVER_CLIP, ui.OVER_CLIP]
