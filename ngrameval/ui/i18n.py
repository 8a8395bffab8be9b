"""The Spaces' texts in English, Simplified Chinese and Japanese, and how a page shows them.

Every label, help text, heading and message of a page is a key of ``texts.json`` beside this module (key ->
{language -> text}, the only place translations live; read once, when a page first asks for a text, and seen
here as :data:`TEXTS`). Static texts (labels, help, Markdown) go to the browser as ``I18nData`` keys
(:func:`t`) and gradio's frontend picks the language: the browser's at first, then the page's *Language* switch.
Texts a handler computes (the status line, error messages, the explanation's heading) are formatted on the
server in the request's language (:func:`language_of`: the switch's cookie, else the browser's
``Accept-Language``) by :func:`text`. What a result shows -- the tables' column names and labels (TER's
kinds of edit), the score card's captions and notes, the summary's part names, the examples' names, the notes
after an explanation's references -- is given as :class:`Phrase` objects, which the page puts in the request's
language where it shows them (:func:`resolve`); an explanation's drawings (``details_html``: an alignment, its
legend) are built in that language by a function of it. Metric names, option names and values, n-gram labels
("2-gram"), the highlight's labels (which the explanations' introductions quote) and code stay as they are in
every language; the raw result (JSON) keeps the metric's own English keys.

>>> text("page.predictions", "ja")
'予測'
>>> text("page.references", "zh-CN", number=2)
'参考 2'
>>> language_of(None)
'en'
"""

from __future__ import annotations

import functools
import json
import re
from http.cookies import SimpleCookie
from importlib import resources
from typing import Any

import gradio as gr
from gradio.i18n import I18nData

LANGUAGES = {"en": "English", "zh-CN": "简体中文", "ja": "日本語"}  # gradio's locale codes, and each one's name
DEFAULT_LANGUAGE = "en"
COOKIE = "ngrameval_language"  # the switch's choice, which the server reads back with every request

# Texts that a page builds from others or from numbers (``t(key, **params)``): each is registered under a key
# of its own, derived from the key and its parameters, so that the frontend can look it up like any other.
_DERIVED: dict[str, dict[str, str]] = {}


@functools.cache
def _texts() -> dict[str, dict[str, str]]:
    return json.loads(resources.files(__package__).joinpath("texts.json").read_text(encoding="utf-8"))


def __getattr__(name: str) -> Any:
    # TEXTS, the table of texts, is read from its file only when it is first asked for (importing the pages
    # reads nothing).
    if name == "TEXTS":
        return _texts()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _entry(key: str) -> dict[str, str]:
    entry = _texts().get(key)
    if entry is None:
        raise KeyError(f"no text {key!r} in ngrameval/ui/texts.json")
    return entry


class Phrase:
    """A text that is part of a message (``text(key, **params)``), or a name a result shows (a column, a
    caption), put in the language of the page where it is shown (:func:`resolve`). Unlike :func:`t` it
    registers nothing, so its parameters may come from the user (a file name).

    A phrase equals (and hashes as) its English text: a table whose columns are phrases is looked up by the
    English names, in code and in tests, whatever language the page shows them in.

    >>> text("error.line_count", "ja", name=Phrase("error.reference_file", file="b.txt"), lines=1,
    ...      predictions="a.txt", count=2).split("。")[0]
    '参照ファイル b.txt は 1 行ですが、a.txt は 2 行です'
    >>> Phrase("column.precision") == "precision", resolve(Phrase("column.precision"), "zh-CN")
    (True, '精确率')
    """

    def __init__(self, key: str, **params: Any):
        _entry(key)
        self.key, self.params = key, params
        self._english = text(key, DEFAULT_LANGUAGE, **params)

    def in_language(self, language: str) -> str:
        return text(self.key, language, **self.params)

    def __str__(self) -> str:
        return self._english

    def __repr__(self) -> str:
        return f"Phrase({self._english!r})"

    def __eq__(self, other: Any) -> bool:
        return str(self) == (str(other) if isinstance(other, Phrase) else other)

    def __hash__(self) -> int:
        return hash(self._english)


def resolve(value: Any, language: str) -> Any:
    """A value as a page shows it in ``language``: a key (``I18nData``) or a :class:`Phrase` is translated,
    anything else kept (a metric's name, a number)."""
    if isinstance(value, Phrase):
        return value.in_language(language)
    return text(value.key, language) if isinstance(value, I18nData) else value


def text(key: str, language: str = DEFAULT_LANGUAGE, **params: Any) -> str:
    """The text of ``key`` in ``language`` (English for an unknown language), ``{name}`` fields filled from
    ``params`` (an ``I18nData`` or :class:`Phrase` parameter is translated too)."""
    if key in _DERIVED:
        return _DERIVED[key].get(language, _DERIVED[key][DEFAULT_LANGUAGE])
    entry = _entry(key)
    template = entry.get(language, entry[DEFAULT_LANGUAGE])
    return template.format(**{name: resolve(value, language) for name, value in params.items()})


def t(key: str, **params: Any) -> I18nData:
    """The text of ``key`` as a component shows it (a label, an info, a Markdown value): the browser shows it
    in the page's language. With ``params``, a derived key holds the filled-in text in every language."""
    _entry(key)
    if not params:
        return I18nData(key)
    shown = ",".join(
        f"{name}={value.key if isinstance(value, I18nData) else value}" for name, value in sorted(params.items())
    )
    derived = re.sub(r"[{}\s]", "_", f"{key}({shown})")  # the frontend's key ends before the first "}"
    _DERIVED[derived] = {language: text(key, language, **params) for language in LANGUAGES}
    return I18nData(derived)


def translations() -> gr.I18n:
    """Every text, keyed for gradio's frontend: the fixed ones and those the pages built so far."""
    return gr.I18n(
        **{
            language: {
                **{key: entry[language] for key, entry in _texts().items()},
                **{key: entry[language] for key, entry in _DERIVED.items()},
            }
            for language in LANGUAGES
        }
    )


def language_code(tag: str | None) -> str | None:
    """The page language for a BCP 47 tag: any Chinese is Simplified Chinese (the only Chinese here), any
    Japanese Japanese, any English English; None for other languages.

    >>> [language_code(tag) for tag in ("zh-TW", "ja-JP", "en-GB", "fr", None)]
    ['zh-CN', 'ja', 'en', None, None]
    """
    base = (tag or "").strip().split("-")[0].split("_")[0].lower()
    return {"zh": "zh-CN", "ja": "ja", "en": "en"}.get(base)


def language_of(request: Any) -> str:
    """The language of a request (a ``gr.Request``, or None): the page switch's cookie, else the first
    language of ``Accept-Language`` (by preference) the pages have, else English."""
    headers = getattr(request, "headers", None) or {}
    cookie = SimpleCookie()
    try:
        cookie.load(headers.get("cookie", ""))
    except Exception:
        cookie = SimpleCookie()
    chosen = cookie.get(COOKIE)
    if chosen is not None and chosen.value in LANGUAGES:
        return chosen.value
    preferences = []
    for position, part in enumerate(headers.get("accept-language", "").split(",")):
        tag, _, quality = part.strip().partition(";q=")
        try:
            weight = float(quality) if quality else 1.0
        except ValueError:
            weight = 0.0
        preferences.append((-weight, position, tag))
    for _, _, tag in sorted(preferences):
        code = language_code(tag)
        if code is not None:
            return code
    return DEFAULT_LANGUAGE


def theme() -> gr.themes.Base:
    """gradio's default theme, its fonts declared at the weights whose files hold every glyph: gradio 6.31's
    Source Sans Pro and IBM Plex Mono SemiBold files (weight 600, the default theme's bold) hold a few letters
    only (Source Sans Pro's: "A" and "B"), so a heading or a button drew those in the theme's font and every
    other letter in the fallback (a larger, wider font): the "B" of "BLEU" looked smaller than "LEU". The Bold
    files (700) are whole; text asked for at 600 is drawn with them (CSS picks the nearest heavier face).

    >>> [fonts[0].weights for fonts in (theme()._font, theme()._font_mono)]
    [(400, 700), (400, 700)]
    """
    return gr.themes.Default(
        font=(gr.themes.LocalFont("Source Sans Pro", weights=(400, 700)), "ui-sans-serif", "system-ui", "sans-serif"),
        font_mono=(gr.themes.LocalFont("IBM Plex Mono", weights=(400, 700)), "ui-monospace", "Consolas", "monospace"),
    )


class TranslatedBlocks(gr.Blocks):
    """A ``gr.Blocks`` page whose ``launch`` hands gradio the translations (:func:`translations`) and the
    :func:`theme`, however it is launched (an app run as a program, a test, ``gradio app.py``)."""

    def launch(self, *args: Any, **options: Any) -> Any:
        options.setdefault("i18n", translations())
        options.setdefault("theme", theme())
        return super().launch(*args, **options)


# The page's language switch, in the browser. gradio's frontend keeps the locale in its core module, whose
# changeLocale is what gradio's own settings panel calls; the page imports that module (already loaded: the
# same instance) by its URL. The cookie tells the server the language of the messages it computes. gradio 6.31
# relabels only the selected tab on a change of locale: the others are selected once, then the selected again.
SWITCH_JS = f"""async (language) => {{
  document.cookie = "{COOKIE}=" + language + "; path=/; max-age=31536000; SameSite=Lax";
  const core = performance.getEntriesByType("resource").map((entry) => entry.name)
    .find((name) => /\\/assets\\/core-[^/]*\\.js$/.test(name));
  if (core) (await import(core)).changeLocale(language);
  // gradio relabels a tab when it is selected: select each tab once, then the one that was.
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  for (const tablist of document.querySelectorAll("[role=tablist]")) {{
    const tabs = [...tablist.querySelectorAll("[role=tab]")];
    const selected = tabs.find((tab) => tab.getAttribute("aria-selected") === "true");
    for (const tab of tabs.filter((tab) => tab !== selected)) {{ tab.click(); await settle(); }}
    if (selected) {{ selected.click(); await settle(); }}
  }}
  return language;
}}"""
# On load the switch shows the language chosen before (the cookie), else the browser's.
INITIAL_JS = f"""() => {{
  const chosen = document.cookie.split("; ").find((part) => part.startsWith("{COOKIE}="));
  if (chosen && {list(LANGUAGES)!r}.includes(chosen.split("=")[1])) return chosen.split("=")[1];
  const base = (navigator.language || "en").split("-")[0].toLowerCase();
  return base === "zh" ? "zh-CN" : base === "ja" ? "ja" : "en";
}}"""


def language_switch() -> gr.Dropdown:
    """The page's language switch (each language named in itself)."""
    return gr.Dropdown(
        [(name, code) for code, name in LANGUAGES.items()],
        value=DEFAULT_LANGUAGE,
        label=t("page.language"),
        elem_id="language",
        container=True,
        scale=0,
        min_width=160,
        interactive=True,
    )
