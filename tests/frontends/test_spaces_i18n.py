"""The Spaces in English, Simplified Chinese and Japanese: every text a page shows has a translation in each
language (ngrameval.ui.i18n.TEXTS), every page is shown in the browser's language or the one its switch picks,
its messages come in that language, and it scores exactly as in English (ngrameval's own numbers).

Uses the fixtures serve, browser and page of conftest.py and the cases of test_spaces.py.
"""

import html
import importlib
import json
import re
import string
import urllib.request

import pytest
import test_spaces as cases

import ngrameval
from conftest import TIMEOUT, require

LOCALES = {"en-US": "en", "zh-CN": "zh-CN", "ja-JP": "ja"}  # the browser's locale -> the page's language
# Chinese and Japanese characters (Han, kana, CJK punctuation and full-width forms): a translation has some.
CJK = re.compile(r"[\u3000-\u30ff\u3400-\u9fff\uff00-\uffef]")


@pytest.fixture(scope="module")
def i18n():
    require("gradio")
    from ngrameval.ui import i18n

    return i18n


# BLEU's Space in the fast tier (`-m "not slow"`), every Space in the full suite.
@pytest.fixture(
    params=[pytest.param(name, marks=() if name == "bleu" else pytest.mark.slow) for name in sorted(cases.SPACES)]
)
def space(request, serve):
    """(name, the module describing the Space, URL) for each Space."""
    url, described = serve(request.param)
    return request.param, described, url


def _fields(template):
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def _words(template):
    """What a text says in words: without its {fields}, `code`, URLs and file names, option values and numbers."""
    prose = re.sub(r"\{[^{}]*\}|`[^`]*`|\S*[._/-]\S*|\d+", " ", template)
    return re.findall(r"[A-Za-z]{3,}", prose)


def test_every_text_is_translated(i18n):
    """The three languages have the same keys; a text in words in English is written in Chinese and Japanese
    (it has their characters), with the same {fields}."""
    translations = {language: set(texts) for language, texts in i18n.translations().translations_dict.items()}
    assert set(translations) == set(i18n.LANGUAGES)
    assert translations["zh-CN"] == translations["en"] and translations["ja"] == translations["en"]
    assert set(i18n.TEXTS) <= translations["en"]
    for key, entry in i18n.TEXTS.items():
        assert set(entry) == set(i18n.LANGUAGES), key
        for language, template in entry.items():
            assert template.strip(), (key, language)
            assert _fields(template) == _fields(entry["en"]), (key, language)
            if language != "en" and _words(entry["en"]):
                assert CJK.search(template), (key, language, template)


def _keys(value):
    """The translation keys in a page's configuration: gradio's I18nData objects and "__i18n__" strings."""
    if isinstance(value, dict):
        if value.get("__type__") == "translation_metadata":
            return {value["key"]}
        return set().union(*map(_keys, value.values())) if value else set()
    if isinstance(value, (list, tuple)):
        return set().union(*map(_keys, value)) if value else set()
    if isinstance(value, str) and "__i18n__" in value:
        return {json.loads(value[value.index("__i18n__") + 8 : value.index("}", value.index("__i18n__")) + 1])["key"]}
    return set()


def test_every_key_of_the_pages_exists(i18n, serve):
    """Every Space's page, as gradio sends it to the browser (its /config), uses only keys that every language
    has, among them its labels, title and help."""
    for name in cases.SPACES:
        url, described = serve(name)
        with urllib.request.urlopen(url + "config") as response:
            used = _keys(json.load(response))
        label = described.SPACE.label or name.upper()
        assert {
            "page.predictions",
            i18n.t("page.compute", label=label).key,
            "page.input_help_title",
            "page.tab_files",
        } <= used, (name, used)
        title = described.SPACE.title.key  # in the header, with the introduction
        assert any(key.startswith("page.header(") and title in key for key in used), (name, used)
        for language, texts in i18n.translations().translations_dict.items():
            assert used <= set(texts), (name, language, used - set(texts))


def test_language_of_a_request(i18n):
    """The switch's cookie first, then Accept-Language by preference; any Chinese is Simplified Chinese."""

    class Request:
        def __init__(self, **headers):
            self.headers = headers

    assert i18n.language_of(Request(**{"accept-language": "ja-JP,ja;q=0.9,en;q=0.8"})) == "ja"
    assert i18n.language_of(Request(**{"accept-language": "fr-FR,en;q=0.5,zh-TW;q=0.7"})) == "zh-CN"
    assert i18n.language_of(Request(**{"accept-language": "de", "cookie": "a=1; ngrameval_language=ja"})) == "ja"
    assert i18n.language_of(Request(**{"accept-language": "ja", "cookie": "ngrameval_language=xx"})) == "ja"
    assert i18n.language_of(Request(**{"accept-language": "de, fr"})) == "en"
    assert i18n.language_of(Request()) == "en"


def _expect(locator):
    return require("playwright.sync_api").expect(locator)


def _check_language(page, i18n, described, language):
    """The page is in ``language``: the switch, the title, labels, tabs and the button; no key shown as such."""
    text = i18n.text
    _expect(page.locator("#language input")).to_have_value(i18n.LANGUAGES[language])
    _expect(page.locator("h1").first).to_have_text(text(described.title.key, language))
    label = described.label or described.name.upper()
    _expect(page.locator("#submit")).to_have_text(text("page.compute", language, label=label))
    _expect(page.locator("#predictions")).to_contain_text(text("page.predictions", language))
    _expect(page.locator("#references-1")).to_contain_text(text("page.references", language, number=1))
    _expect(page.get_by_role("tab", name=text("page.tab_files", language))).to_be_visible()
    _expect(page.get_by_text(text("page.input_help_title", language), exact=True)).to_be_visible()
    assert "__i18n__" not in page.locator("body").inner_text()


def _check_error(page, i18n, language):
    """Two predictions, one reference: the message in ``language``."""
    cases._fill(page, ["a b c", "d e f"], [["a b c"]])
    page.locator("#submit").click()
    message = i18n.text(
        "error.line_count",
        language,
        name=i18n.Phrase("page.references", number=1),
        lines=1,
        predictions=i18n.Phrase("page.predictions"),
        count=2,
    )
    error = page.locator("#status .status-error")
    _expect(error).to_contain_text(i18n.text("status.cannot_score", language))
    _expect(error).to_contain_text(message)


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.slow  # every Space in the browser
def test_page_in_the_browser_language(space, browser, i18n, locale, tmp_path):
    """Opened by a browser in English, Chinese or Japanese, a page is in that language: its texts, an error
    message, the status line; and its score is ngrameval's."""
    name, described, url = space
    language = LOCALES[locale]
    context = browser.new_context(locale=locale, viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        page.set_default_timeout(TIMEOUT)
        page.goto(url)
        _check_language(page, i18n, described.SPACE, language)
        _check_error(page, i18n, language)
        cases._fill(page, cases.PREDICTIONS, cases.REFERENCE_BOXES)
        page.locator("#submit").click()
        expected = cases._shown(cases.SPACES[name], cases.PREDICTIONS, cases.REFERENCES)
        _expect(page.locator("#score .score-value")).to_have_text(expected)
        _expect(page.locator("#status .status-error")).to_have_count(0)
        source = i18n.text("status.text_boxes", language)
        _expect(page.locator("#status")).to_contain_text(
            i18n.text(
                "status.scored",
                language,
                count=2,
                source=source,
                per_prediction=i18n.text("status.range", language, low=1, high=2),
            )
        )
        _expect(page.locator("#sentence-info")).to_contain_text(
            i18n.text("explain.heading", language, number=1, count=2)
        )
        page.screenshot(path=str(tmp_path / f"{name}-{language}.png"), full_page=True)
    finally:
        context.close()


def test_language_switch(space, page, i18n):
    """The switch changes an English page to Japanese, then Chinese: its texts and its messages; the choice
    stays on reload; English again."""
    _, described, url = space
    page.goto(url)
    _check_language(page, i18n, described.SPACE, "en")
    for language in ("ja", "zh-CN"):
        cases._choose(page, "language", i18n.LANGUAGES[language])
        _check_language(page, i18n, described.SPACE, language)
        _check_error(page, i18n, language)
    page.reload()
    _check_language(page, i18n, described.SPACE, "zh-CN")
    cases._choose(page, "language", i18n.LANGUAGES["en"])
    _check_language(page, i18n, described.SPACE, "en")
    _check_error(page, i18n, "en")


NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
TABLES = ("per-order", "summary", "sentences", "orders", "ngrams")  # the result's tables, by element id


def _example(described, start):
    """The example whose English name starts with ``start`` (test_spaces.py's case)."""
    return next(example for example in described.SPACE.examples if str(example.label).startswith(start))


def _scored_example(browser, url, locale, name):
    """A page opened in ``locale``, its example clicked by its name in that language: (page, context)."""
    context = browser.new_context(locale=locale, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    page.goto(url)
    page.get_by_role("button", name=name, exact=True).click()
    _expect(page.locator("#highlight .token.highlighted").first).to_be_visible()
    return page, context


def _headers(page, elem_id):
    return [text.strip() for text in page.locator(f"#{elem_id} thead th").all_inner_texts() if text.strip()]


def _numbers(page):
    """The numbers the score card and the tables show, in order."""
    shown = page.locator("#score .score-value").all_inner_texts()
    for elem_id in TABLES:
        shown += NUMBER.findall(" ".join(page.locator(f"#{elem_id} tbody").all_inner_texts()))
    return shown


@pytest.mark.slow  # every Space in the browser
def test_results_in_the_page_language(space, browser, i18n):
    """An example, clicked by its name in Chinese or Japanese, shows its result in that language -- the score
    card's captions and notes, the tables' column names (no English one left), the summary's part names --
    with exactly the numbers of the English page, which are ngrameval's."""
    name, described, url = space
    label, hyps, refs, options = cases.SPACES[name]["example"]
    example = _example(described, label)
    english, context = _scored_example(browser, url, "en-US", str(example.label))
    try:
        _expect(english.locator("#score .score-value")).to_have_text(
            cases._shown(cases.SPACES[name], hyps, refs, **options)
        )
        numbers = _numbers(english)
        english_headers = {elem_id: _headers(english, elem_id) for elem_id in TABLES}
    finally:
        context.close()
    assert all(english_headers.values()) and not CJK.search(str(english_headers))
    for locale in ("zh-CN", "ja-JP"):
        language = LOCALES[locale]
        untranslated = {
            entry["en"]
            for key, entry in i18n.TEXTS.items()
            if key.startswith("column.") and entry[language] != entry["en"]
        }
        page, context = _scored_example(browser, url, locale, i18n.text(example.label.key, language))
        try:
            _expect(page.locator("#language input")).to_have_value(i18n.LANGUAGES[language])
            assert CJK.search(page.locator("#score").inner_text())  # captions, notes
            for elem_id in TABLES:
                headers = _headers(page, elem_id)
                assert len(headers) == len(english_headers[elem_id]), (elem_id, headers)
                assert CJK.search(" ".join(headers)) and not set(headers) & untranslated, (elem_id, headers)
            _expect(page.locator("#summary")).to_contain_text(i18n.text("column.part", language))
            _expect(page.locator("#sentences")).to_contain_text(i18n.text("column.prediction", language))
            notes = page.locator("#sentence-info li em").all_inner_texts()  # after the references
            assert not notes or any(CJK.search(note) for note in notes), notes
            assert _numbers(page) == numbers
        finally:
            context.close()


# --------------------------------------------------------------------------- the explanation's words
# The explanation of one sentence -- the notes after the references, the words and legends of its drawings
# (details_html), its tables' labels -- is in the page's language, with the numbers of the English page. Checked
# without a browser, on what page.explain renders, for each Space whose explanation has words of its own.


def _space(name):
    require("gradio")
    return importlib.import_module(f"ngrameval.ui.{name}")


def _visible(markup):
    """The text a browser shows of ``markup``: tags dropped, entities unescaped."""
    return html.unescape(re.sub(r"<[^>]+>", " ", markup))


def _sorted_numbers(text):
    return sorted(NUMBER.findall(text))


def _ter_case():
    """TER: segments with a shift, substitutions and deletions, and one with an insertion and no shift."""
    hyps = cases.TER_CORPUS[0][:4] + ["a c"]
    refs = cases.TER_CORPUS[1][:4] + [["a b c"]]
    result = ngrameval.ter(hyps, refs, sentence_level=True, explain=True)
    state = {
        "explanation": result.explanation,
        "predictions": hyps,
        "references": refs,
        "options": {},
        "scores": result.sentence_scores,
    }

    def expected(index, language):
        from ngrameval.ui.i18n import text

        segment = result.explanation[index]
        best, ops = segment["best_reference"] + 1, ("shift", "substitution", "insertion", "deletion")
        counts = cases._ter_counts(segment)
        shown = [
            ("ter.edits_against", {"number": best}),
            ("ter.prediction_shifted", {}),
            ("explain.reference_number", {"number": best}),
            ("ter.match_shifted", {}),
            *[(f"ter.{op}", {}) for op in ("match", *ops)],
            *[("ter.op_count", {"count": counts[op], "op": text(f"ter.{op}", language)}) for op in ops],
        ]
        for number, shift in enumerate(segment["shifts"], 1):
            shown += [
                (
                    "ter.shift_line",
                    {
                        "number": number,
                        "words": " ".join(shift["words"]),
                        "start": shift["from"] + 1,
                        "end": shift["to"] + 1,
                    },
                ),
                ("ter.shift_lands", {"number": number}),
            ]
        shown += [] if segment["shifts"] else [("ter.no_shift", {})]
        op, i, j = _space("ter").alignment_columns(segment)[0]  # the first column's tooltip
        shown.append(
            (
                "ter.column_title",
                {
                    "op": text(f"ter.{op}", language),
                    "prediction": text("explain.prediction_number", language, number=i + 1)
                    if i is not None
                    else text("ter.no_prediction_word", language),
                    "reference": text("explain.reference_number", language, number=j + 1)
                    if j is not None
                    else text("ter.no_reference_word", language),
                },
            )
        )
        shown += [("ter.no_prediction_word", {})] if counts["insertion"] else []
        shown += [("ter.no_reference_word", {})] if counts["deletion"] else []
        edits = [text("ter.shift_number", language, number=n) for n in range(1, len(segment["shifts"]) + 1)]
        edits += [text(f"ter.{edit['op']}", language) for edit in segment["edits"]]
        kinds = [text(f"ter.{op}", language) for op in ops] + [text("ter.total", language)]
        labels = {text(f"ter.{kind}", language) for kind in ("match", "shifted", "substitution", "deletion")}
        return shown, {"ngrams": ("edit", edits), "orders": ("edit", kinds), "highlight": (None, labels)}

    return state, range(len(hyps)), expected


def _meteor_case():
    space = _space("meteor")
    hyps, refs = space.TOY[0], cases._per_item(space.TOY[1])
    result = ngrameval.meteor(hyps, refs, explain=True)
    state = {
        "explanation": result.explanation,
        "predictions": hyps,
        "references": refs,
        "options": {},
        "scores": result.scores,
    }

    def expected(index, language):
        from ngrameval.ui.i18n import text

        segment = result.explanation[index]
        best = segment["reference_index"] + 1
        fragmentation = segment.get("fragmentation", segment["chunks"] / max(1, len(segment["matches"])))
        parts = {key: f"{float(segment[key]):.6f}" for key in ("precision", "recall", "fmean", "penalty", "score")}
        shown = [
            ("meteor.alignment", {"number": best}),
            ("meteor.alignment_counts", {"matches": len(segment["matches"]), "chunks": segment["chunks"]}),
            ("explain.prediction", {"words": ""}),
            ("explain.reference_words", {"number": best, "words": ""}),
            ("meteor.alignment_parts", {**parts, "fragmentation": f"{fragmentation:.6f}"}),
        ]
        references = [
            text("meteor.best_used", language, number=j) if j == best else str(j)
            for j in range(1, len(refs[index]) + 1)
        ]
        return shown, {"orders": ("reference", references)}

    return state, range(len(hyps)), expected


def _chrf_case():
    space = _space("chrf")
    hyps, refs = space.CATS, cases._per_item(space.CATS_REFERENCES)
    options = {
        "variant": "sacrebleu",
        "char_order": 6,
        "word_order": 2,
        "beta": None,
        "lowercase": True,
        "whitespace": False,
        "eps_smoothing": False,
        "min_char_order": 1,
    }
    state = {
        "predictions": hyps,
        "references": refs,
        "options": options,
        "scores": ngrameval.chrf(hyps, refs, sentence_level=True, **options).sentence_scores,
    }

    def expected(index, language):
        from ngrameval.ui.i18n import text

        kinds = {text("chrf.characters", language), text("chrf.words", language)}
        return [("chrf.words_caption", {})], {"ngrams": ("kind", kinds)}

    return state, range(len(hyps)), expected


def _notes_case(name, **options):
    """A Space whose explanation's only words of its own are its notes after the references (GLEU, ROUGE)."""
    hyps, refs = cases.PAPINENI_HYPOTHESES, [cases.PAPINENI_REFERENCES] * 2
    scores = {
        "gleu": lambda: ngrameval.gleu(hyps, refs, sentence_level=True, **options).sentence_scores,
        "rouge": lambda: ngrameval.rouge(hyps, refs, sentence_level=True, **options).fmeasure["rouge1"],
    }[name]
    state = {"predictions": hyps, "references": refs, "options": options, "scores": scores()}
    return state, range(len(hyps)), lambda index, language: ([], {})


EXPLANATION_CASES = {
    "ter": _ter_case,
    "meteor": _meteor_case,
    "chrf": _chrf_case,
    "gleu": lambda: _notes_case("gleu", variant="nltk", tokenize="default", min_len=1, max_len=4),
    "rouge": lambda: _notes_case(
        "rouge",
        rouge_types=["rouge1", "rouge2", "rougeL"],
        variant="rouge_score",
        tokenize="default",  # (what the page's options() passes: the canonical name)
        use_stemmer=False,
        remove_stopwords=False,
        multi_ref="best",
        limit_words=None,
        limit_bytes=None,
    ),
}


@pytest.mark.parametrize("name", sorted(EXPLANATION_CASES))
def test_explanation_in_the_page_language(name, i18n):
    """Each sentence's explanation, rendered in English, Chinese and Japanese: its notes after the references,
    its drawings' words and legends, its tables' labels and TER's highlight labels are in that language (Chinese
    or Japanese characters, and no English text of them left), English in English; the numbers are the same in
    every language."""
    from ngrameval.ui import page

    space = _space(name)
    state, indices, expected = EXPLANATION_CASES[name]()
    for index in indices:
        item = (
            space.explain_item(index, state)
            if hasattr(space, "explain_item")
            else space.explain_one(state["predictions"][index], state["references"][index], state["options"])
        )
        # The notes with words are phrases (ROUGE's others are a type's name and numbers).
        notes = [note for note in item["reference_notes"] if isinstance(note, i18n.Phrase)]
        assert notes, (name, item["reference_notes"])
        rendered = {}
        for language in i18n.LANGUAGES:
            heading, highlight, ngrams, orders = page.explain(
                state, index + 1, getattr(space, "explain_one", None), getattr(space, "explain_item", None), language
            )
            assert "status-error" not in heading, heading
            rendered[language] = heading, {"ngrams": ngrams, "orders": orders}
            labels = {entry["class_or_confidence"] for entry in highlight.value if entry["class_or_confidence"]}
            shown, cells = expected(index, language)
            texts = [note.in_language(language) for note in notes]
            texts += [i18n.text(key, language, **params).strip() for key, params in shown]
            for text in texts:
                assert html.escape(text) in heading, (name, index, language, text)
                if language != "en":
                    assert CJK.search(text), (name, language, text)
            for table, (column, values) in cells.items():
                if table == "highlight":  # the highlighted tokens' labels: some of these
                    assert labels and labels <= values, (name, language, labels)
                    continue
                shown_cells = rendered[language][1][table][i18n.text(f"column.{column}", language)]
                assert set(shown_cells) == values if isinstance(values, set) else list(shown_cells) == values, (
                    name,
                    table,
                    language,
                    list(shown_cells),
                )
                if language != "en":  # a label in words is in the language's characters
                    assert all(CJK.search(value) or not re.search("[A-Za-z]", value) for value in values), values
        english = [note.in_language("en") for note in notes]
        english += [i18n.text(key, "en", **params).strip() for key, params in expected(index, "en")[0]]
        for language in ("zh-CN", "ja"):
            heading, tables = rendered[language]
            visible = _visible(heading)
            assert not [text for text in english if " " in text and text in visible], (name, language)
            assert _sorted_numbers(visible) == _sorted_numbers(_visible(rendered["en"][0])), (name, index, language)
            for table, frame in tables.items():
                numbers = frame.select_dtypes("number")
                assert numbers.values.tolist() == rendered["en"][1][table].select_dtypes("number").values.tolist()


def test_ter_edit_names_in_the_page_language(i18n):
    """The TER page's table of edits by kind (the corpus) names them in the page's language, with the same counts."""
    from ngrameval.ui import page

    space = _space("ter")
    hyps, refs = cases.TER_CORPUS
    result = ngrameval.ter(hyps, refs, sentence_level=True, explain=True).as_dict()
    per_order = space.present(result, {}, None).per_order
    for language in i18n.LANGUAGES:
        shown = page.localized(per_order, language)
        assert list(shown.iloc[:, 0]) == [
            i18n.text(f"ter.{op}", language) for op in ("shift", "substitution", "insertion", "deletion")
        ]
        assert list(shown.iloc[:, 1]) == list(per_order.iloc[:, 1])
