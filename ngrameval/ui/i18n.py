"""The Spaces' texts in English, Simplified Chinese and Japanese, and how a page shows them.

Every text of a page is a key of ``texts.json`` beside this module (key -> {language -> text}; :data:`TEXTS`).
Static texts go to the browser as ``I18nData`` keys (:func:`t`), which gradio's frontend shows in the page's
language; texts a handler computes are formatted in the request's language (:func:`language_of`) by :func:`text`;
what a result shows is given as :class:`Phrase` objects, put in the request's language where shown
(:func:`resolve`). Metric and option names, n-gram labels and the raw result stay as they are in every language.

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

# Texts built from others or numbers (``t(key, **params)``), each under a key derived from its key and parameters.
_DERIVED: dict[str, dict[str, str]] = {}


@functools.cache
def _texts() -> dict[str, dict[str, str]]:
    return json.loads(resources.files(__package__).joinpath("texts.json").read_text(encoding="utf-8"))


def __getattr__(name: str) -> Any:
    # TEXTS is read from its file only when it is first asked for.
    if name == "TEXTS":
        return _texts()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _entry(key: str) -> dict[str, str]:
    entry = _texts().get(key)
    if entry is None:
        raise KeyError(f"no text {key!r} in ngrameval/ui/texts.json")
    return entry


class Phrase:
    """A text (``text(key, **params)``) shown in the language of the page where it is shown (:func:`resolve`).
    Unlike :func:`t` it registers nothing, so its parameters may come from the user. It equals (and hashes as) its
    English text: tables with phrase columns are looked up by the English names.

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
    """A value as shown in ``language``: a key (``I18nData``) or a :class:`Phrase` translated, anything else kept."""
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
    """The text of ``key`` as a component shows it, in the page's language; with ``params``, a derived key holds
    the filled-in text in every language."""
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
    entries = {**_texts(), **_DERIVED}
    return gr.I18n(**{language: {key: entry[language] for key, entry in entries.items()} for language in LANGUAGES})


def language_code(tag: str | None) -> str | None:
    """The page language for a BCP 47 tag (any Chinese is Simplified Chinese); None for other languages.

    >>> [language_code(tag) for tag in ("zh-TW", "ja-JP", "en-GB", "fr", None)]
    ['zh-CN', 'ja', 'en', None, None]
    """
    base = (tag or "").strip().split("-")[0].split("_")[0].lower()
    return {"zh": "zh-CN", "ja": "ja", "en": "en"}.get(base)


def language_of(request: Any) -> str:
    """The language of a request (or None): the switch's cookie, else the preferred one of ``Accept-Language`` the
    pages have, else English."""
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
    return next((code for _, _, tag in sorted(preferences) if (code := language_code(tag))), DEFAULT_LANGUAGE)


def theme() -> gr.themes.Base:
    """gradio's default theme, its fonts declared at 400 and 700 only: gradio 6.31's SemiBold files (600, the theme's
    bold) hold a few letters (Source Sans Pro's: "A" and "B"), so a heading drew the others in the fallback font;
    the Bold files are whole, and CSS draws 600 with them (the nearest heavier face).

    >>> [fonts[0].weights for fonts in (theme()._font, theme()._font_mono)]
    [(400, 700), (400, 700)]
    """
    return gr.themes.Default(
        font=(gr.themes.LocalFont("Source Sans Pro", weights=(400, 700)), "ui-sans-serif", "system-ui", "sans-serif"),
        font_mono=(gr.themes.LocalFont("IBM Plex Mono", weights=(400, 700)), "ui-monospace", "Consolas", "monospace"),
    )


class TranslatedBlocks(gr.Blocks):
    """A ``gr.Blocks`` page launched with the :func:`translations` and the :func:`theme`, however it is launched."""

    def launch(self, *args: Any, **options: Any) -> Any:
        options.setdefault("i18n", translations())
        options.setdefault("theme", theme())
        return super().launch(*args, **options)


# The language switch, in the browser: it calls changeLocale of gradio's core module (as gradio's settings panel
# does; imported by its URL, the same instance) and sets the cookie the server reads.
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
