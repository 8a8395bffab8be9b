"""The Spaces in English, Simplified Chinese and Japanese: every text a page shows has a translation in each
language (ngrameval.ui.i18n.TEXTS), every page is shown in the browser's language or the one its switch picks,
its messages come in that language, and it scores exactly as in English (ngrameval's own numbers).

Uses the fixtures serve, browser and page of conftest.py and the cases of test_spaces.py.
"""
import json
import re
import string
import urllib.request

import pytest

import test_spaces as cases
from conftest import TIMEOUT, require

LOCALES = {"en-US": "en", "zh-CN": "zh-CN", "ja-JP": "ja"}      # the browser's locale -> the page's language
# Chinese and Japanese characters (Han, kana, CJK punctuation and full-width forms): a translation has some.
CJK = re.compile(r"[\u3000-\u30ff\u3400-\u9fff\uff00-\uffef]")


@pytest.fixture(scope="module")
def i18n():
    require("gradio")
    from ngrameval.ui import i18n
    return i18n


@pytest.fixture(params=sorted(cases.SPACES))
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
        return {json.loads(value[value.index("__i18n__") + 8:value.index("}", value.index("__i18n__")) + 1])["key"]}
    return set()


def test_every_key_of_the_pages_exists(i18n, serve):
    """Every Space's page, as gradio sends it to the browser (its /config), uses only keys that every language
    has, among them its labels, title and help."""
    for name in cases.SPACES:
        url, described = serve(name)
        with urllib.request.urlopen(url + "config") as response:
            used = _keys(json.load(response))
        label = described.SPACE.label or name.upper()
        assert {"page.predictions", i18n.t("page.compute", label=label).key, "page.input_help_title",
                "page.tab_files"} <= used, (name, used)
        title = described.SPACE.title.key           # in the header, with the introduction
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
    message = i18n.text("error.line_count", language, name=i18n.Phrase("page.references", number=1), lines=1,
                        predictions=i18n.Phrase("page.predictions"), count=2)
    error = page.locator("#status .status-error")
    _expect(error).to_contain_text(i18n.text("status.cannot_score", language))
    _expect(error).to_contain_text(message)


@pytest.mark.parametrize("locale", LOCALES)
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
        _expect(page.locator("#status")).to_contain_text(i18n.text(
            "status.scored", language, count=2, source=source,
            per_prediction=i18n.text("status.range", language, low=1, high=2)))
        _expect(page.locator("#sentence-info")).to_contain_text(
            i18n.text("explain.heading", language, number=1, count=2))
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
TABLES = ("per-order", "summary", "sentences", "orders", "ngrams")      # the result's tables, by element id


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


def test_results_in_the_page_language(space, browser, i18n):
    """An example, clicked by its name in Chinese or Japanese, shows its result in that language -- the score
    card's captions and notes, the tables' column names (no English one left), the summary's part names --
    with exactly the numbers of the English page, which are ngrameval's."""
    name, described, url = space
    label, hyps, refs, options = cases.SPACES[name]["example"]
    example = _example(described, label)
    english, context = _scored_example(browser, url, "en-US", str(example.label))
    try:
        _expect(english.locator("#score .score-value")).to_have_text(cases._shown(cases.SPACES[name], hyps, refs,
                                                                                  **options))
        numbers = _numbers(english)
        english_headers = {elem_id: _headers(english, elem_id) for elem_id in TABLES}
    finally:
        context.close()
    assert all(english_headers.values()) and not CJK.search(str(english_headers))
    for locale in ("zh-CN", "ja-JP"):
        language = LOCALES[locale]
        untranslated = {entry["en"] for key, entry in i18n.TEXTS.items()
                        if key.startswith("column.") and entry[language] != entry["en"]}
        page, context = _scored_example(browser, url, locale, i18n.text(example.label.key, language))
        try:
            _expect(page.locator("#language input")).to_have_value(i18n.LANGUAGES[language])
            assert CJK.search(page.locator("#score").inner_text())          # captions, notes
            for elem_id in TABLES:
                headers = _headers(page, elem_id)
                assert len(headers) == len(english_headers[elem_id]), (elem_id, headers)
                assert CJK.search(" ".join(headers)) and not set(headers) & untranslated, (elem_id, headers)
            _expect(page.locator("#summary")).to_contain_text(i18n.text("column.part", language))
            _expect(page.locator("#sentences")).to_contain_text(i18n.text("column.prediction", language))
            assert _numbers(page) == numbers
        finally:
            context.close()
