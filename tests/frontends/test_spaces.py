"""The Gradio Spaces (spaces/bleu, nist, rouge, cider, coco_caption, meteor, chrf, gleu, ter), driven as a person
and as an API client would.

Each Space is served once per session on a free port of 127.0.0.1; one headless Chromium
(Debian's, through playwright) loads the pages (the fixtures serve, browser and page of conftest.py). The
scores the pages and the API show must equal ngrameval's own for the same input.
"""

import json
import math
import re
from pathlib import Path

import pytest

import ngrameval
from conftest import require


def _expect(locator):
    return require("playwright.sync_api").expect(locator)


# --------------------------------------------------------------------------- the cases

EXAMPLES = Path(ngrameval.__file__).parent / "examples"  # Papineni et al. (2002)
PAPINENI_HYPOTHESES = (EXAMPLES / "hypotheses.txt").read_text(encoding="utf-8").splitlines()
PAPINENI_REFERENCES = [
    (EXAMPLES / f"references.{i}.txt").read_text(encoding="utf-8").splitlines()[0] for i in (1, 2, 3)
]

PREDICTIONS = ["the cat sat on the mat", "a dog barks at the cat"]
REFERENCE_BOXES = [["the cat sat on a mat", "the dog barks at a cat"], ["a cat sat on the mat", ""]]
REFERENCES = [["the cat sat on a mat", "a cat sat on the mat"], ["the dog barks at a cat"]]

SPACES = {
    "bleu": {
        "library": ngrameval.bleu,
        "details": {"sentence_level": True},  # what the page asks for besides the options (explain aside)
        "shown": lambda result: [result["bleu"]],  # the score card's numbers, from the library's result
        # options picked in the page's dropdowns: (element id, option), and the same as keyword arguments
        "picks": [("variant", "nltk"), ("smooth", "method1")],
        "options": {"variant": "nltk", "smooth": "method1"},
        "highlight": "4-gram",  # a label of the first sentence's highlighted tokens
        # (the start of an example's label, its predictions, their references, the options it sets)
        "example": ("d2l: A B B C D", ["A B B C D"], [["A B C D E F"]], {"variant": "d2l", "max_order": 2}),
        "below_minimum": {"max_order": 0},  # a value gradio refuses ("less than minimum value 1")
    },
    "nist": {
        "library": ngrameval.nist,
        "details": {"sentence_level": True},
        "shown": lambda result: [result["nist"]],
        "picks": [("variant", "mteval")],
        "options": {"variant": "mteval"},
        "highlight": "4-gram",
        "example": (
            "Papineni et al.: two hypotheses",
            PAPINENI_HYPOTHESES,
            [PAPINENI_REFERENCES, PAPINENI_REFERENCES],
            {},
        ),
        "below_minimum": {"n": 0},
    },
    "rouge": {
        "library": ngrameval.rouge,
        "details": {},
        "shown": lambda result: [value for key, value in result.items() if key != "signature" and "_" not in key],
        "picks": [("variant", "rouge155")],
        "ticks": [("rouge-types", "rougeLsum"), ("rouge-types", "rougeSU4")],  # checkboxes clicked: off, on
        "options": {"variant": "rouge155", "rouge_types": ["rouge1", "rouge2", "rougeL", "rougeSU4"]},
        "highlight": "LCS",
        "example": (
            "Chinese: each CJK character",
            ["猫坐在垫子上。", "今天天气很好"],
            [["猫在垫子上睡觉。"], ["今天的天气非常好"]],
            {"rouge_types": ["rouge1", "rouge2", "rougeL"]},
        ),
        "below_minimum": {"w": 0},
    },
    "cider": {
        "library": ngrameval.cider,
        "details": {},
        "shown": lambda result: [result["cider"]],
        "picks": [("variant", "cider")],
        "options": {"variant": "cider"},
        "highlight": "rare: high idf",  # "sat": in the references of one item of two
        "example": (
            "pycocoevalcap's toy case",
            ["a man rides a horse", "two dogs are playing in grass"],
            [
                ["a man riding a horse on a beach", "a person rides a horse"],
                ["two dogs play in the grass", "dogs playing on a lawn"],
            ],
            {},
        ),
        "below_minimum": {"max_order": 0},
    },
    "coco_caption": {
        "library": ngrameval.coco_caption,
        "details": {},
        "shown": lambda result: [
            value for key, value in result.items() if key not in ("per_item", "image_ids", "meteor_note")
        ],
        "picks": [],
        "ticks": [("metrics", "METEOR 1.5")],  # off: the defaults (with METEOR) have tests of their own below
        "options": {"metrics": ["bleu", "rouge_l", "cider"]},
        "signature": "tokenize:ptb|metrics:bleu,rouge_l,cider",
        "notice": "SPICE is not computed",
        "highlight": "4-gram",
        "example": (
            "Without METEOR",
            ["A man rides a horse.", "Two dogs are playing in grass."],
            [
                ["A man riding a horse on a beach.", "A person rides a horse."],
                ["Two dogs play in the grass.", "Dogs playing on a lawn."],
            ],
            {"metrics": ["bleu", "rouge_l", "cider"]},
        ),
        "refused": ({"metrics": ["spice"]}, "'spice' .* is not in the list of choices"),
    },
    "meteor": {
        "library": ngrameval.meteor,
        "details": {},
        "shown": lambda result: [result["meteor"]],
        "picks": [("variant", "nltk")],
        "options": {"variant": "nltk"},
        "highlight": "exact",
        "explained": "barks",  # sentence 2's matches are single words
        "example": (
            "pycocoevalcap's toy case",
            ["a man rides a horse", "two dogs are playing in grass"],
            [
                ["a man riding a horse on a beach", "a person rides a horse"],
                ["two dogs play in the grass", "dogs playing on a lawn"],
            ],
            {},
        ),
        "below_minimum": {"beam_size": 0},
    },
    "chrf": {
        "library": ngrameval.chrf,
        "details": {"sentence_level": True},
        "shown": lambda result: [result["chrf"]],
        "picks": [],
        "checks": ["whitespace"],  # single checkboxes turned on
        "options": {"whitespace": True},
        "signature": "space:yes",
        "highlight": "6-gram",
        "explained": "og",  # a bigram of sentence 2's "dog" (the table shows its first rows)
        "example": (
            "The same, chrF++ lowercased",
            [
                "The relationship between cats and dogs is not exactly friendly.",
                "a good bookshop is just a genteel black hole that knows how to read.",
            ],
            [
                [
                    "The relationship between dogs and cats is not exactly friendly.",  # per prediction
                    "The relation between cats and dogs isn't friendly.",
                ],
                [
                    "A good bookshop is just a genteel Black Hole that knows how to read.",
                    "A good bookshop is a genteel black hole that can read.",
                ],
            ],
            {"word_order": 2, "lowercase": True},
        ),
        "below_minimum": {"char_order": 0},
    },
    "gleu": {
        "library": ngrameval.gleu,
        "details": {"sentence_level": True},
        "shown": lambda result: [result["gleu"]],
        "picks": [("variant", "google_bleu")],
        "options": {"variant": "google_bleu"},
        "highlight": "4-gram",
        "example": (
            "the cat sat on the mat: bigrams",
            ["the cat sat on the mat"],
            [["the cat sat on a mat", "a cat sat on the mat"]],
            {"min_len": 2, "max_len": 3},
        ),
        "below_minimum": {"max_len": 0},
    },
    "ter": {
        "library": ngrameval.ter,
        "details": {"sentence_level": True},
        "shown": lambda result: [result["ter"]],
        "picks": [],
        "checks": ["case-sensitive"],
        "options": {"case_sensitive": True},
        "signature": "case:mixed",
        "highlight": "match",  # sentence 1 equals its second reference
        "explained": "substitution",  # sentence 2: "a" / "the" swapped
        "example": (
            "A shift: mat the cat sat on the",
            ["mat the cat sat on the", "the big dog barked loudly at a cat today"],
            [["the cat sat on the mat", "the cat sat on a mat"], ["the dog barks at the cat", "a dog barked at cats"]],
            {},
        ),
        # only checkboxes: no choice or range gradio refuses; the metric refuses a value that is not a flag
    },
}


# BLEU's Space in the fast tier (`-m "not slow"`), every Space in the full suite.
@pytest.fixture(
    params=[pytest.param(name, marks=() if name == "bleu" else pytest.mark.slow) for name in sorted(SPACES)]
)
def space(request, serve):
    """(name, case, url) for each Space."""
    return request.param, SPACES[request.param], serve(request.param)[0]


def _formatted(value: float) -> str:
    return f"{value:.6f}"


def _library(case, hyps, refs, **options):
    """The library's result for what the page computes, as it comes back through JSON."""
    return json.loads(json.dumps(case["library"](hyps, refs, **case["details"], **options).as_dict()))


def _shown(case, hyps, refs, **options):
    """The score card's numbers, as the page prints them."""
    return [_formatted(value) for value in case["shown"](case["library"](hyps, refs, **options).as_dict())]


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
    for elem_id, label in case.get("ticks", []):
        page.locator(f"#{elem_id}").get_by_label(label, exact=True).click()
    for elem_id in case.get("checks", []):
        page.locator(f"#{elem_id} input[type=checkbox]").check()
    page.locator("#submit").click()
    expected = _shown(case, PREDICTIONS, REFERENCES, **case["options"])
    _expect(page.locator("#score .score-value")).to_have_text(expected)
    assert page.locator("#score .score-value").all_inner_texts() == expected
    _expect(page.locator("#status")).to_contain_text("Scored 2 prediction(s) from the text boxes, 1 to 2 reference")

    # The explanation of sentence 1, then of sentence 2: tokens highlighted by what matched.
    highlighted = page.locator("#highlight .token.highlighted")
    _expect(highlighted.first).to_be_visible()
    _expect(page.locator("#highlight")).to_contain_text(case["highlight"])
    _expect(page.locator("#sentence-info")).to_contain_text("Sentence 1 of 2")
    page.locator("#sentence-number input").fill("2")
    page.locator("#sentence-number input").press("Enter")
    _expect(page.locator("#sentence-info")).to_contain_text("Sentence 2 of 2")
    _expect(page.locator("#ngrams")).to_contain_text(case.get("explained", "barks at"))
    assert (
        case.get("signature", f"variant:{case['options'].get('variant')}")
        in page.locator("#signature textarea").input_value()
    )
    if "notice" in case:
        _expect(page.locator("#score .score-note").first).to_contain_text(case["notice"])
    page.screenshot(path=str(tmp_path / f"{name}-scored.png"), full_page=True)


def test_example_click_scores_like_ngrameval(space, page, tmp_path):
    name, case, url = space
    label, hyps, refs, options = case["example"]
    page.goto(url)
    page.get_by_role("button", name=label).first.click()  # an example's label starts with this text
    _expect(page.locator("#score .score-value")).to_have_text(_shown(case, hyps, refs, **options))
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
    _expect(page.locator("#score .score-value").first).to_be_visible()
    _expect(error).to_have_count(0)


# --------------------------------------------------------------------------- through the API


def _client(url):
    return require("gradio_client").Client(url, verbose=False)


def test_api_scores_like_ngrameval(space):
    name, case, url = space
    client = _client(url)
    result = client.predict(
        predictions="\n".join(PREDICTIONS),
        references_1="\n".join(REFERENCE_BOXES[0]),
        references_2="\n".join(REFERENCE_BOXES[1]),
        **case["options"],
        api_name="/score",
    )
    assert result[0] == _library(case, PREDICTIONS, REFERENCES, **case["options"])
    assert all(value in result[2] for value in _shown(case, PREDICTIONS, REFERENCES, **case["options"]))  # the card


def test_api_scores_every_example_like_ngrameval(space, serve):
    name, case, url = space
    client = _client(url)
    for example in serve(name)[1].SPACE.examples:
        boxes = {f"references_{i}": "\n".join(lines) for i, lines in enumerate(example.references, 1)}
        raw = client.predict(predictions="\n".join(example.predictions), **boxes, **example.options, api_name="/score")[
            0
        ]
        references = [[lines[k] for lines in example.references] for k in range(len(example.predictions))]
        assert raw == _library(case, example.predictions, references, **example.options), example.label


def test_api_reads_uploaded_files(space, tmp_path):
    name, case, url = space
    handle_file = require("gradio_client").handle_file
    jsonl = tmp_path / "corpus.jsonl"
    jsonl.write_text(
        "".join(json.dumps({"prediction": h, "references": r}) + "\n" for h, r in zip(PREDICTIONS, REFERENCES)),
        encoding="utf-8",
    )
    table = tmp_path / "corpus.tsv"
    table.write_text(
        "prediction\treference\treference_2\n"
        + "".join(f"{h}\t{r[0]}\t{r[1] if len(r) > 1 else ''}\n" for h, r in zip(PREDICTIONS, REFERENCES)),
        encoding="utf-8",
    )
    system = tmp_path / "system.txt"
    system.write_text("\n".join(PREDICTIONS) + "\n", encoding="utf-8")
    reference_files = []
    for i, box in enumerate(REFERENCE_BOXES, 1):
        reference_files.append(tmp_path / f"ref{i}.txt")
        reference_files[-1].write_text("\n".join(box) + "\n", encoding="utf-8")
    expected = _library(case, PREDICTIONS, REFERENCES)
    client = _client(url)
    for upload, references in ((jsonl, None), (table, None), (system, [handle_file(p) for p in reference_files])):
        raw = client.predict(predictions_file=handle_file(upload), reference_files=references, api_name="/score")[0]
        assert raw == expected, upload.name


def test_api_refuses_bad_input_with_a_message(space):
    name, case, url = space
    client = _client(url)
    raw = client.predict(predictions="a b\nc d", references_1="a b", api_name="/score")[0]
    assert raw == {
        "error": "References 1 has 1 line(s) but Predictions has 2: give one reference per prediction, "
        "on the same line number."
    }
    if name == "bleu":  # the smoothing box takes any text: the metric says what the variant accepts
        raw = client.predict(
            predictions="a b", references_1="a b", variant="nltk", smooth="method9", api_name="/score"
        )[0]
        assert raw["error"].startswith("unknown smooth for variant 'nltk' 'method9'; valid values: 'method0'")
    if name == "rouge":  # the page disables the tokenizer for rouge155; through the API the metric refuses it
        raw = client.predict(
            predictions="a b", references_1="a b", variant="rouge155", tokenizer="whitespace", api_name="/score"
        )[0]
        with pytest.raises(ValueError) as error:
            ngrameval.rouge(["a b"], ["a b"], variant="rouge155", tokenizer="whitespace")
        assert raw == {"error": str(error.value)}
    if name in ("cider", "coco_caption", "ter"):  # options the metric refuses, with its message
        bad = {"cider": {"sigma": 0.0}, "coco_caption": {"metrics": []}, "ter": {"normalized": "maybe"}}[name]
        raw = client.predict(predictions="a b\nc d", references_1="a b\nc d", **bad, api_name="/score")[0]
        with pytest.raises(ValueError) as error:
            case["library"](["a b", "c d"], ["a b", "c d"], **bad)
        assert raw == {"error": str(error.value)}
    if "refused" not in case and "below_minimum" not in case:  # TER: checkboxes only
        return
    # Values outside a control's choices or range are refused by gradio, with its message.
    refused, message = case.get("refused", (case.get("below_minimum"), "less than minimum value 1"))
    with pytest.raises(require("gradio_client.exceptions").AppError, match=message):
        client.predict(predictions="a b", references_1="a b", **refused, api_name="/score")


# --------------------------------------------------------------------------- the shared helpers


def test_text_boxes(ui):
    hyps, refs = ui.corpus_from_text("a\nb\n\n", ["r1\nr2", "s1\n", "\nt2"])
    assert (hyps, refs) == (["a", "b"], [["r1", "s1"], ["r2", "t2"]])
    for text, refs, message in [
        ("", ["x"], "Predictions is empty"),
        ("a", [""], "References 1 is empty"),
        ("a\nb", ["x"], "References 1 has 1 line(s) but Predictions has 2"),
        ("a\nb", ["x\ny", "z\nz\nz"], "References 2 has 3 line(s) but Predictions has 2"),
    ]:
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
    assert [entry["class_or_confidence"] for entry in pieces if entry["token"].strip()] == [
        "1-gram",
        ui.OVER_CLIP,
        ui.OVER_CLIP,
    ]


def test_highlight_with_given_labels(ui):
    pieces = ui.highlight(["a", "b", "c"], [], ["LCS", None, ui.OVER_CLIP])
    assert [(entry["token"], entry["class_or_confidence"]) for entry in pieces.value if entry["token"].strip()] == [
        ("a", "LCS"),
        ("b", None),
        ("c", ui.OVER_CLIP),
    ]
    assert set(pieces.color_map) == {"LCS", ui.OVER_CLIP}


@pytest.mark.parametrize("variant", ["rouge_score", "rouge155"])
def test_rouge_explanation_agrees_with_the_scores(serve, variant):
    """The ROUGE Space's explanation (computed in the app) counts what ngrameval's scores count: LCS tokens
    = ROUGE-L hits, matched unigrams and bigrams = ROUGE-1 and ROUGE-2 hits, against each reference alone;
    with several references it shows the one with the best F of the first type."""
    app = serve("rouge")[1]
    prediction = "The cat in the hat sat on the hat, said the cat."
    references = ["the hat is on the cat", "a cat sat in the hat", "The cat said: the hat, the hat!"]
    types = ["rougeL", "rouge1", "rouge2"]
    options = app.options(types, variant, "default", "default", False, False, 0.5, 1.2, None, None)
    for reference in references:
        item = app.explain_one(prediction, [reference], options)
        matches = {order.get("label") or f"rouge{order['n']}": order["matches"] for order in item["orders"]}
        result = ngrameval.rouge([prediction], [reference], types, variant=variant)
        hits = {
            t: round(
                result.recall[t]
                * len(item["reference_tokens"][0] if t != "rouge2" else item["reference_tokens"][0][1:])
            )
            for t in types
        }
        assert {"rougeL": matches[app.LCS], "rouge1": matches["rouge1"], "rouge2": matches["rouge2"]} == hits
        assert item["labels"].count(app.LCS) == hits["rougeL"]
    item = app.explain_one(prediction, references, options)
    alone = ngrameval.rouge([prediction] * 3, references, types, variant=variant, use_aggregator=False)
    best = max(range(3), key=lambda j: (alone.fmeasure["rougeL"][j], -j))
    assert [str(note).endswith("highlighted") for note in item["reference_notes"]] == [j == best for j in range(3)]
    assert item["reference_length"] == len(item["reference_tokens"][best])


# --------------------------------------------------------------------------- CIDEr and the COCO caption suite

COCO_OPTIONS = {"cider": {}, "coco_caption": {"metrics": ["bleu", "rouge_l", "cider"]}}  # METEOR: see the end
RAW_CAPTIONS = ["A dog runs on the beach, with a frisbee!", "Two (brown) dogs play in the grass..."]
RAW_REFERENCES = [
    ["A dog is running on a sandy beach.", "Two dogs playing on a lawn."],
    ["The dog plays fetch by the ocean.", "Dogs play in the grass"],
]  # per reference box


def _per_item(boxes):
    return [[box[k] for box in boxes] for k in range(len(boxes[0]))]


def test_cider_explanation_agrees_with_the_metric(serve):
    """The CIDEr page's parts and explanation rearrange the metric's explanation: the per-order shares average
    to the score, each item's per-reference table to its score; weights are tf x idf with idf = log(items) -
    log(max(1, df)); every n-gram of the prediction is listed; a word is marked absent exactly when no
    reference of its item has it."""
    app = serve("cider")[1]
    hyps, refs = app.CAPTIONS, _per_item(app.REFERENCES)  # the page's example
    for variant in ("cider-d", "cider"):
        options = app.options(variant, "none", 4, 6.0, False, None)
        result = ngrameval.cider(hyps, refs, variant=variant, explain=True).as_dict()
        shown = app.present(result, options, result)
        assert shown.per_order["share ×10"].mean() == pytest.approx(result["cider"], abs=1e-12)
        assert shown.sentence_scores[app.NAMES[variant]] == result["scores"]
        state = {"explanation": result["explanation"], "predictions": hyps, "references": refs, "options": options}
        for index, score in enumerate(result["scores"]):
            item = app.explain_item(index, state)
            assert item["order_table"]["share of score ×10"].iloc[-1] == pytest.approx(score, abs=1e-6)
            grams = item["ngram_table"]
            assert (grams["weight"] - grams["tf"] * grams["idf"]).abs().max() < 1e-5
            idf = [math.log(len(hyps)) - math.log(max(1, df)) for df in grams["df"]]
            assert (grams["idf"] - idf).abs().max() < 1e-6
            tokens = item["prediction_tokens"]
            assert len(grams) == sum(
                len({tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1)}) for n in range(1, 5)
            )
            words = {word for reference in item["reference_tokens"] for word in reference}
            assert [label == app.ABSENT[0] for label in item["labels"]] == [word not in words for word in tokens]


def test_cider_examples_equal_pycocoevalcap(serve):
    """Every CIDEr-D example of the page, through the API, scores what pycocoevalcap 1.2's Cider computes."""
    cider_module = require("pycocoevalcap.cider.cider")
    url, app = serve("cider")
    client = _client(url)
    checked = 0
    for example in app.SPACE.examples:
        if example.options.get("variant", "cider-d") != "cider-d":
            continue
        boxes = {f"references_{i}": "\n".join(lines) for i, lines in enumerate(example.references, 1)}
        raw = client.predict(predictions="\n".join(example.predictions), **boxes, **example.options, api_name="/score")[
            0
        ]
        refs = _per_item(example.references)
        peer, peer_scores = cider_module.Cider().compute_score(
            {k: group for k, group in enumerate(refs)}, {k: [hyp] for k, hyp in enumerate(example.predictions)}
        )
        assert raw["cider"] == pytest.approx(peer, abs=1e-12), example.label
        assert raw["scores"] == pytest.approx(list(peer_scores), abs=1e-12), example.label
        checked += 1
    assert checked >= 3


@pytest.mark.slow  # a browser page
def test_cider_idf_table_upload(serve, page, tmp_path):
    """An idf table saved with DocumentFrequency.save, uploaded on the page, gives ngrameval's score with that
    table; a JSON file that is not such a table shows the metric's message."""
    url, app = serve("cider")
    table = ngrameval.DocumentFrequency.from_references(_per_item(app.REFERENCES))
    path = tmp_path / "captions-idf.json"
    table.save(path)
    hyp, refs = "a dog with a frisbee on the beach", ["a dog runs on the sand", "a dog catches a frisbee"]
    expected = ngrameval.cider([hyp], [refs], idf=table)
    page.goto(url)
    _fill(page, [hyp], [[refs[0]], [refs[1]]])
    page.locator("#idf-table input[type=file]").set_input_files(str(path))
    _expect(page.locator("#idf-table").get_by_role("cell", name=path.name)).to_be_visible()  # uploaded
    page.locator("#submit").click()
    _expect(page.locator("#score .score-value")).to_have_text([_formatted(expected.cider)])
    _expect(page.locator("#summary")).to_contain_text(f"the table ({len(app.CAPTIONS)} documents)")
    _expect(page.locator("#signature textarea")).to_have_value(expected.signature)
    assert expected.cider > 0  # one item alone, with the corpus's own idf, would score 0

    bad = tmp_path / "not-a-table.json"
    bad.write_text('{"counts": {}}', encoding="utf-8")
    handle_file = require("gradio_client").handle_file
    raw = _client(url).predict(predictions=hyp, references_1=refs[0], idf_table=handle_file(bad), api_name="/score")[0]
    with pytest.raises(ValueError) as error:
        ngrameval.cider([hyp], [refs[0]], idf=str(bad))
    assert "not-a-table.json" in raw["error"] and raw["error"].endswith(str(error.value)[len(str(bad)) :])


@pytest.mark.parametrize("name", ["cider", "coco_caption"])
def test_coco_json_uploads(serve, name, tmp_path):
    """A COCO results JSON with a references JSON (pycocoevalcap's gts, or COCO's annotation file, of which
    only the images of the results count) scores as the metric does from gts/res: in gts order, with the
    image ids in the result and the per-item table. Mismatched images show ngrameval's message."""
    from ngrameval.metrics.coco import from_coco

    case, options = SPACES[name], COCO_OPTIONS[name]
    handle_file = require("gradio_client").handle_file
    images = [42, 7]
    results = [{"image_id": image, "caption": hyp} for image, hyp in zip(images, RAW_CAPTIONS)]
    gts = {str(image): group for image, group in reversed(list(zip(images, _per_item(RAW_REFERENCES))))}
    files = {
        "results.json": results,
        "gts.json": gts,
        "captions.json": {
            "annotations": [
                {"image_id": int(image), "id": n, "caption": caption}
                for n, (image, caption) in enumerate(
                    [(i, c) for i, group in gts.items() for c in group] + [(99, "an image without a result")]
                )
            ]
        },
        "twice.json": results + [{"image_id": 7, "caption": "a second caption"}],
        "other.json": [{"image_id": 5, "caption": "a caption"}, *results[1:]],
    }
    for file_name, content in files.items():
        (tmp_path / file_name).write_text(json.dumps(content), encoding="utf-8")
    image_ids, hyps, refs = from_coco(gts, [{**entry, "image_id": str(entry["image_id"])} for entry in results])
    expected = {**_library(case, hyps, refs, **options), "image_ids": image_ids}
    client = _client(serve(name)[0])
    for references in ("gts.json", "captions.json"):
        outputs = client.predict(
            predictions_file=handle_file(tmp_path / "results.json"),
            reference_files=[handle_file(tmp_path / references)],
            **options,
            api_name="/score",
        )
        assert outputs[0] == expected, references
        table = outputs[7]["value"]  # the per-item table: its image id column
        assert table["headers"][1] == "image id" and [row[1] for row in table["data"]] == image_ids == ["7", "42"]
        assert f"the COCO files results.json and {references}" in outputs[1]
    for results_file in ("twice.json", "other.json"):
        with pytest.raises(ValueError) as error:
            from_coco(gts, [{**entry, "image_id": str(entry["image_id"])} for entry in files[results_file]])
        raw = client.predict(
            predictions_file=handle_file(tmp_path / results_file),
            reference_files=[handle_file(tmp_path / "gts.json")],
            **options,
            api_name="/score",
        )[0]
        assert raw == {"error": str(error.value)}, results_file
    raw = client.predict(predictions_file=handle_file(tmp_path / "results.json"), api_name="/score")[0]
    assert raw["error"].startswith("results.json holds COCO results: upload exactly one .json reference file")


def test_coco_files(ui, tmp_path):
    """ui.coco_from_files: readable messages for files that are not COCO's shapes."""
    results = tmp_path / "results.json"
    results.write_text('[{"image_id": 1, "caption": "a cat"}]', encoding="utf-8")
    cases = {
        "broken.json": ("{", "broken.json is not valid JSON"),
        "list.json": ('["a cat"]', "list.json must be an object of image id -> reference captions"),
        "annotations.json": (
            '{"annotations": [{"image_id": 2, "caption": "a dog"}]}',
            "annotations.json holds no references for the images of results.json",
        ),
        "entry.json": (
            '{"annotations": [{"image_id": 1}]}',
            'entry.json, annotation 1 must be an object with "image_id" and "caption"',
        ),
    }
    for file_name, (content, message) in cases.items():
        (tmp_path / file_name).write_text(content, encoding="utf-8")
        with pytest.raises(ui.InputError, match=re.escape(message)):
            ui.coco_from_files(str(results), [str(tmp_path / file_name)])
    (tmp_path / "gts.json").write_text('{"1": ["a cat", "the cat"]}', encoding="utf-8")
    assert ui.coco_from_files(str(results), [str(tmp_path / "gts.json")]) == (
        {"1": ["a cat", "the cat"]},
        [{"image_id": "1", "caption": "a cat"}],
    )
    with pytest.raises(ui.InputError, match="upload exactly one .json reference file"):
        ui.coco_from_files(str(results), [str(tmp_path / "gts.json")] * 2)


# The parts that need ngrameval.text.ptb as a tokenizer of CIDEr and ngrameval.meteor (the COCO page's defaults).


def test_cider_page_ptb_tokenizer(serve):
    """tokenize="ptb" on the CIDEr page is pycocoevalcap's PTB tokenization (ngrameval.text.ptb) followed by CIDEr-D."""
    from ngrameval.text.ptb import ptb_tokenize

    client = _client(serve("cider")[0])
    raw = client.predict(
        predictions="\n".join(RAW_CAPTIONS),
        references_1="\n".join(RAW_REFERENCES[0]),
        references_2="\n".join(RAW_REFERENCES[1]),
        tokenize="ptb",
        api_name="/score",
    )[0]
    refs = _per_item(RAW_REFERENCES)
    expected = ngrameval.cider(ptb_tokenize(RAW_CAPTIONS), [ptb_tokenize(group) for group in refs])
    assert (raw.get("cider"), raw.get("scores")) == (expected.cider, expected.scores), raw


@pytest.mark.slow  # a browser page
def test_coco_page_defaults_ptb_and_meteor(serve, page):
    """The COCO page by default: PTB tokenization and all four metrics, METEOR included; the explanation shows
    the PTB tokens, and SPICE's absence is stated."""
    from ngrameval.text.ptb import ptb_tokenize

    page.goto(serve("coco_caption")[0])
    _fill(page, RAW_CAPTIONS, RAW_REFERENCES)
    page.locator("#submit").click()
    expected = ngrameval.coco_caption(RAW_CAPTIONS, _per_item(RAW_REFERENCES)).as_dict()
    assert "METEOR" in expected
    _expect(page.locator("#score .score-value")).to_have_text(
        _shown(SPACES["coco_caption"], RAW_CAPTIONS, _per_item(RAW_REFERENCES))
    )
    _expect(page.locator("#score")).to_contain_text("SPICE is not computed")
    tokens = [text for text in page.locator("#highlight .token").all_inner_texts() if text.strip()]
    assert tokens == ptb_tokenize(RAW_CAPTIONS[:1])[0].split(" ")
    _expect(page.locator("#orders")).to_contain_text("METEOR")


# --------------------------------------------------------------------------- METEOR


def _meteor_state(app, hyps, refs, options):
    """What the METEOR page keeps after scoring: the corpus, its options, and the explanations it computed."""
    result = ngrameval.meteor(hyps, refs, **options, **app.detail_options(options)).as_dict()
    return result, {
        "explanation": result.get("explanation"),
        "predictions": hyps,
        "references": refs,
        "options": options,
        "scores": result["scores"],
    }


@pytest.mark.slow  # a browser page
def test_meteor_nltk_example_click(serve, page, tmp_path):
    """Clicking an NLTK example scores what ngrameval's nltk variant scores and explains the first segment: the
    chunks boxed in the alignment and the rows of the matches table are ngrameval's explanation's."""
    url, app = serve("meteor")
    example = next(e for e in app.SPACE.examples if str(e.label).startswith("The same with NLTK"))
    hyps, refs = list(example.predictions), _per_item(example.references)
    expected = ngrameval.meteor(hyps, refs, **example.options, explain=True)
    page.goto(url)
    page.get_by_role("button", name=str(example.label)).click()
    _expect(page.locator("#score .score-value")).to_have_text([_formatted(expected.meteor)])
    _expect(page.locator("#variant input")).to_have_value("nltk")
    first = expected.explanation[0]
    _expect(page.locator("#sentence-info .aligned-prediction .chunk")).to_have_count(first["chunks"])
    _expect(page.locator("#sentence-info .aligned-reference .chunk")).to_have_count(first["chunks"])
    _expect(page.locator("#ngrams [role=grid]")).to_have_attribute("aria-rowcount", str(len(first["matches"]) + 1))
    for match in first["matches"]:
        _expect(page.locator("#ngrams")).to_contain_text(" ".join(match["reference_words"]))
    _expect(page.locator("#signature textarea")).to_have_value(expected.signature)
    page.screenshot(path=str(tmp_path / "meteor-nltk-example.png"), full_page=True)


@pytest.mark.slow  # a browser page
def test_meteor_task_checks_its_modules(serve, page):
    """Choosing a task on the page checks its modules (universal: exact and paraphrase), and the page then
    scores what ngrameval scores with that task."""
    url, app = serve("meteor")
    page.goto(url)
    _fill(page, PREDICTIONS, REFERENCE_BOXES)
    _choose(page, "task", "universal")
    modules = page.locator("#modules")
    for module in app.MODULES:
        checked = module in ("exact", "paraphrase")
        _expect(modules.get_by_label(module, exact=True)).to_be_checked(checked=checked)
    page.locator("#submit").click()
    expected = ngrameval.meteor(PREDICTIONS, REFERENCES, task="universal")
    _expect(page.locator("#score .score-value")).to_have_text([_formatted(expected.meteor)])
    _expect(page.locator("#signature textarea")).to_have_value(expected.signature)


def test_explanation_failure_is_a_message(ui):
    """A Space's explanation that fails shows a message in place of the explanation (the score stays)."""

    def failing(index, state):
        raise RuntimeError("no alignment")

    heading, *tables = ui.explain({"scores": [0.5]}, 1, explain_item=failing)
    assert "unexpected RuntimeError: no alignment" in heading and tables == [None, None, None]


@pytest.mark.parametrize(
    "options",
    [
        {"task": "adq"},
        {"modules": ["exact", "synonym"], "normalization": "lower", "beam_size": 5},
        {
            "modules": ["exact", "stem", "synonym", "paraphrase"],
            "parameters": "0.5 1.0 0.3 0.6",
            "weights": "1 0.5 0.5 0.5",
        },
        {"variant": "nltk", "alpha": 0.8, "beta": 2.0, "gamma": 0.4, "tokenize": "whitespace"},
    ],
    ids=["task", "modules", "parameters", "nltk"],
)
def test_meteor_api_options_like_ngrameval(serve, options):
    """Every option of the page, through the API, gives ngrameval's result with the same options."""
    url, app = serve("meteor")
    raw = _client(url).predict(
        predictions="\n".join(RAW_CAPTIONS),
        references_1="\n".join(RAW_REFERENCES[0]),
        references_2="\n".join(RAW_REFERENCES[1]),
        **options,
        api_name="/score",
    )[0]
    library = {
        name: [float(x) for x in value.split()] if name in ("parameters", "weights") else value
        for name, value in options.items()
    }
    assert raw == _library(SPACES["meteor"], RAW_CAPTIONS, _per_item(RAW_REFERENCES), **library)


def test_meteor_refuses_bad_options_and_large_input(serve):
    """Options the metric refuses show its message; input over the page's limits is refused before scoring."""
    url, app = serve("meteor")
    client = _client(url)
    for bad, library in [
        ({"modules": []}, {"modules": []}),
        ({"parameters": "0.5 1"}, {"parameters": [0.5, 1.0]}),
        ({"weights": "1 0.5"}, {"weights": [1.0, 0.5]}),
    ]:
        raw = client.predict(predictions="a b", references_1="a b", **bad, api_name="/score")[0]
        with pytest.raises(ValueError) as error:
            ngrameval.meteor(["a b"], ["a b"], **library)
        assert raw == {"error": str(error.value)}, bad
    raw = client.predict(predictions="a b", references_1="a b", weights="1 x", api_name="/score")[0]
    assert raw == {"error": "module weights: 'x' is not a number (write e.g. 1 0.6 0.8 0.6)."}
    many = app.MAX_PREDICTIONS + 1
    raw = client.predict(predictions="a\n" * many, references_1="a\n" * many, api_name="/score")[0]
    assert raw == {"error": f"The input has {many:,} predictions; the limit of this page is {app.MAX_PREDICTIONS:,}."}
    count = app.MAX_REFERENCES // 5 + 1
    boxes = {f"references_{i}": "a\n" * count for i in range(1, 6)}
    raw = client.predict(predictions="a\n" * count, **boxes, api_name="/score")[0]
    assert raw == {
        "error": f"The input has {5 * count:,} references in all; the limit of this page is {app.MAX_REFERENCES:,}."
    }


@pytest.mark.parametrize("variant", [pytest.param("meteor15", marks=pytest.mark.slow), "nltk"])
def test_meteor_explanation_matches_ngrameval(serve, shared, variant):
    """The page's explanation of each segment (E2E outputs, 1 to 45 references; the page's examples) is
    ngrameval's: the matches table row for row (module, words, positions), as many chunks as the metric
    counts, the coloured words those of the matches, the best reference's parts, and the score against each
    reference equal to the segment's score against that reference alone (METEOR 1.5: the explanation's
    reference_scores), the best one the segment's score."""
    from tests.data import e2e_outputs, e2e_references

    app = serve("meteor")[1]
    hyps, refs = e2e_outputs(shared, "tgen")[:15], e2e_references(shared)[1][:15]
    for example in app.EXAMPLES[:2] + app.EXAMPLES[4:5]:
        hyps, refs = hyps + list(example.predictions), refs + _per_item(example.references)
    options = app.options(variant, "rank", list(app.MODULES), "norm", "", "", 40, 0.9, 3.0, 0.5, "nltk")
    expected = ngrameval.meteor(hyps, refs, **options, explain=True)
    result, state = _meteor_state(app, hyps, refs, options)
    assert result["scores"] == expected.scores
    for index, segment in enumerate(expected.explanation):
        item = app.explain_item(index, state)
        matches = sorted(segment["matches"], key=lambda m: m["hypothesis_start"])
        table = item["ngram_table"]
        assert list(table["module"]) == [m["module"] for m in matches]
        assert list(table["prediction words"]) == [" ".join(m["hypothesis_words"]) for m in matches]
        assert list(table["reference words"]) == [" ".join(m["reference_words"]) for m in matches]
        assert list(table["prediction positions"]) == [
            app.positions(m["hypothesis_start"], m["hypothesis_length"]) for m in matches
        ]
        assert list(table["reference positions"]) == [
            app.positions(m["reference_start"], m["reference_length"]) for m in matches
        ]
        assert (table["chunk"].max() if matches else 0) == segment["chunks"]
        assert item["details_html"]("en").count('class="chunk"') == 2 * segment["chunks"]
        assert sum(label is not None for label in item["labels"]) == sum(m["hypothesis_length"] for m in matches)
        assert item["prediction_tokens"] == segment["hypothesis"]
        per_reference = item["order_table"]
        best = per_reference.iloc[segment["reference_index"]]
        assert str(best["reference"]).endswith("(best, used)")
        for column, key in (
            ("score", "score"),
            ("precision", "precision"),
            ("recall", "recall"),
            ("Fmean", "fmean"),
            ("penalty", "penalty"),
        ):
            assert best[column] == pytest.approx(segment[key], abs=1e-6), column
        alone = ngrameval.meteor([hyps[index]] * len(refs[index]), [[r] for r in refs[index]], **options).scores
        assert list(per_reference["score"]) == pytest.approx(alone, abs=1e-6)
        assert max(alone) == segment["score"] == expected.scores[index]
        if variant == "meteor15":
            assert segment["reference_scores"] == alone


# --------------------------------------------------------------------------- chrF and GLEU: rebuilt explanations
# Neither metric returns its matches; the pages rebuild them (the reference used, the clipped n-grams) from
# ngrameval's public functions. Their numbers must give back the metric's own.

CHRF_OPTIONS = [
    {
        "variant": "sacrebleu",
        "char_order": 6,
        "word_order": 2,
        "beta": None,
        "lowercase": True,
        "whitespace": False,
        "eps_smoothing": False,
        "min_char_order": 1,
    },
    {
        "variant": "sacrebleu",
        "char_order": 4,
        "word_order": 0,
        "beta": 1.0,
        "lowercase": False,
        "whitespace": True,
        "eps_smoothing": True,
        "min_char_order": 1,
    },
    {
        "variant": "nltk",
        "char_order": 5,
        "word_order": 0,
        "beta": None,
        "lowercase": False,
        "whitespace": False,
        "eps_smoothing": False,
        "min_char_order": 2,
    },
]


@pytest.mark.parametrize("options", CHRF_OPTIONS)
def test_chrf_explanation_agrees_with_the_metric(serve, options):
    app = serve("chrf")[1]
    hyps = PAPINENI_HYPOTHESES + ["The Cat, sat (on) the mat!", "x"]
    refs = [PAPINENI_REFERENCES, PAPINENI_REFERENCES, ["the cat sat on a mat.", "A cat sat on the mat"], ["y"]]
    if options["variant"] == "nltk":
        refs = [group[:1] for group in refs]
    result = ngrameval.chrf(hyps, refs, sentence_level=True, **options)
    state = {"options": options, "predictions": hyps, "references": refs}
    for index, score in enumerate(result.sentence_scores):
        item = app.explain_item(index, state)
        used = [str(note).startswith("used: ") for note in item["reference_notes"]]
        assert used.count(True) == 1
        assert f"{score:.6f}" in str(item["reference_notes"][used.index(True)])
        for row in item["order_table"].to_dict("records"):
            if "precision" in row and row["reference n-grams"]:  # sacrebleu: the metric's parts of the pair
                assert row["precision"] == pytest.approx(row["matched (clipped)"] / row["prediction n-grams"], abs=1e-6)
                assert row["recall"] == pytest.approx(row["matched (clipped)"] / row["reference n-grams"], abs=1e-6)
        counted = [label for label in item["labels"] if label]
        assert len(item["labels"]) == len(item["prediction_tokens"]) and (counted or index == 3)
        assert item["ngram_table"]["clipped count"].sum() == item["order_table"]["matched (clipped)"].sum()
        if index < 3:  # sentence 4 matches nothing
            assert ("words" in set(item["ngram_table"]["kind"])) == bool(options["word_order"])


@pytest.mark.parametrize(
    "options",
    [
        {"variant": "nltk", "tokenize": "default", "min_len": 1, "max_len": 4},
        {"variant": "google_bleu", "tokenize": "default", "min_len": 2, "max_len": 3},
    ],
)
def test_gleu_explanation_agrees_with_the_metric(serve, options):
    app = serve("gleu")[1]
    hyps = PAPINENI_HYPOTHESES + ["the cat, sat on the mat!", "x"]
    refs = [PAPINENI_REFERENCES, PAPINENI_REFERENCES, ["the cat sat on a mat.", "a cat sat on the mat"], ["y z"]]
    result = ngrameval.gleu(hyps, refs, sentence_level=True, **options).as_dict()
    shown = app.present(result, options, result, hyps, refs)
    assert shown.per_order["matches"].sum() == result["n_match"]
    state = {"options": options, "predictions": hyps, "references": refs}
    for index, score in enumerate(result["sentence_scores"]):
        table = app.explain_item(index, state)["order_table"]
        largest = max(table["prediction n-grams"].sum(), table["reference n-grams"].sum())
        assert (table["matched (clipped)"].sum() / largest if largest else 0.0) == pytest.approx(score, abs=1e-12)


# --------------------------------------------------------------------------- TER: the drawn edits

TER_CORPUS = (
    [
        "mat the cat sat on the",
        "a b c d e f",
        "the big dog barked loudly at a cat today",
        "on the mat the cat sat quietly",
        "",
        "x y",
    ],
    [
        ["the cat sat on the mat"],
        ["f e d c b a", "a b c"],
        ["the dog barks at the cat", "a dog barked at cats"],
        ["the cat sat on the mat", "the cat sat"],
        ["a b"],
        [""],
    ],
)


def _ter_counts(item):
    counts = {op: sum(edit["op"] == op for edit in item["edits"]) for op in ("substitution", "insertion", "deletion")}
    return {"shift": len(item["shifts"]), **counts}


@pytest.mark.parametrize("options", [{}, {"normalized": True, "no_punct": True, "case_sensitive": True}])
def test_ter_drawing_counts_equal_the_explanation(serve, options):
    """The drawn alignment of every segment (the corpus above, the page's examples) has as many bracketed shift
    blocks, and substitution, insertion and deletion columns, as ngrameval's explanation has edits of each kind;
    they add up to the segment's edits; the edit table has a row per edit; the columns' prediction words are the
    shifted prediction, their reference words the best reference."""
    app = serve("ter")[1]
    hyps, refs = list(TER_CORPUS[0]), list(TER_CORPUS[1])
    for example in app.EXAMPLES:
        hyps, refs = hyps + list(example.predictions), refs + _per_item(example.references)
    result = ngrameval.ter(hyps, refs, sentence_level=True, explain=True, **options)
    state = {
        "explanation": result.explanation,
        "predictions": hyps,
        "references": refs,
        "options": options,
        "scores": result.sentence_scores,
    }
    shifted = 0
    for index, segment in enumerate(result.explanation):
        item = app.explain_item(index, state)
        drawing, counts = item["details_html"]("en"), _ter_counts(segment)
        drawn = {
            "shift": drawing.count('class="ter-shift-block"'),
            **{op: drawing.count(f'class="ter-col ter-op-{op}"') for op in ("substitution", "insertion", "deletion")},
        }
        assert drawn == counts, index
        assert sum(drawn.values()) == segment["num_edits"], index
        assert drawing.count('class="ter-shift-target"') == len(segment["shifts"])
        assert len(item["ngram_table"]) == len(segment["shifts"]) + len(segment["edits"])
        assert dict(zip(item["order_table"]["edit"], item["order_table"]["count"])) == {
            **counts,
            "total": segment["num_edits"],
        }
        tops = re.findall(r'class="ter-pred"[^>]*>([^<]*)', drawing)
        bottoms = re.findall(r'class="ter-ref"[^>]*>([^<]*)', drawing)
        unescape = __import__("html").unescape
        assert [unescape(w) for w in tops if w != "∅"] == segment["shifted_tokens"]
        assert [unescape(w) for w in bottoms if w != "∅"] == segment["reference_tokens"][segment["best_reference"]]
        shifted += bool(segment["shifts"])
    assert shifted >= 3  # the cases have shifts to draw


@pytest.mark.slow  # a browser page
def test_ter_page_draws_the_edits(serve, page, tmp_path):
    """In the browser: the shift example's first segment shows one bracketed shift and no other edit; the second
    its substitutions and deletions as coloured columns, as many as the explanation has; text is escaped."""
    url, app = serve("ter")
    example = app.EXAMPLES[0]
    hyps, refs = list(example.predictions), _per_item(example.references)
    expected = ngrameval.ter(hyps, refs, explain=True)
    page.goto(url)
    page.get_by_role("button", name=str(example.label)).click()
    _expect(page.locator("#score .score-value")).to_have_text([_formatted(expected.ter)])
    info = page.locator("#sentence-info")
    for number, segment in enumerate(expected.explanation, 1):
        if number > 1:
            page.locator("#sentence-number input").fill(str(number))
            page.locator("#sentence-number input").press("Enter")
            _expect(info).to_contain_text(f"Sentence {number} of 2")
        counts = _ter_counts(segment)
        _expect(info.locator(".ter-shift-block")).to_have_count(counts["shift"])
        for op in ("substitution", "insertion", "deletion"):
            _expect(info.locator(f".ter-col.ter-op-{op}")).to_have_count(counts[op])
        _expect(info.locator(".ter-col")).to_have_count(len(segment["shifted_tokens"]) + counts["insertion"])
        page.screenshot(path=str(tmp_path / f"ter-segment-{number}.png"), full_page=True)
    _fill(page, ["<b>bold</b> & co"], [["<b>bold</b> and co"], []])  # (the example filled References 2)
    page.locator("#submit").click()
    _expect(info.locator(".ter-col.ter-op-substitution")).to_have_count(1)
    _expect(info.locator(".ter-alignment")).to_contain_text("<b>bold</b>")
    assert info.locator("b").count() == 0
