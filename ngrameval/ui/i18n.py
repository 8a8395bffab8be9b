"""The Spaces' texts in English, Simplified Chinese and Japanese, and how a page shows them.

Every label, help text, heading and message of a page is a key of :data:`TEXTS` (key -> {language -> text},
the only place translations live). Static texts (labels, help, Markdown) go to the browser as ``I18nData`` keys
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

import re
from http.cookies import SimpleCookie
from typing import Any

import gradio as gr
from gradio.i18n import I18nData

LANGUAGES = {"en": "English", "zh-CN": "简体中文", "ja": "日本語"}  # gradio's locale codes, and each one's name
DEFAULT_LANGUAGE = "en"
COOKIE = "ngrameval_language"  # the switch's choice, which the server reads back with every request

# Texts that a page builds from others or from numbers (``t(key, **params)``): each is registered under a key
# of its own, derived from the key and its parameters, so that the frontend can look it up like any other.
_DERIVED: dict[str, dict[str, str]] = {}


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
        if key not in TEXTS:
            raise KeyError(f"no text {key!r} in ngrameval.ui.i18n.TEXTS")
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
    entry = TEXTS.get(key) or _DERIVED.get(key)
    if entry is None:
        raise KeyError(f"no text {key!r} in ngrameval.ui.i18n.TEXTS")
    template = entry.get(language, entry[DEFAULT_LANGUAGE])
    if key in _DERIVED:
        return template
    return template.format(**{name: resolve(value, language) for name, value in params.items()})


def t(key: str, **params: Any) -> I18nData:
    """The text of ``key`` as a component shows it (a label, an info, a Markdown value): the browser shows it
    in the page's language. With ``params``, a derived key holds the filled-in text in every language."""
    if key not in TEXTS:
        raise KeyError(f"no text {key!r} in ngrameval.ui.i18n.TEXTS")
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
                **{key: entry[language] for key, entry in TEXTS.items()},
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


TEXTS: dict[str, dict[str, str]] = {
    # ------------------------------------------------------------------ the shared page
    "page.language": {"en": "Language", "zh-CN": "语言", "ja": "言語"},
    "page.header": {"en": "# {title}\n\n{intro}", "zh-CN": "# {title}\n\n{intro}", "ja": "# {title}\n\n{intro}"},
    "page.tab_text": {"en": "Type text", "zh-CN": "输入文本", "ja": "テキストを入力"},
    "page.tab_files": {"en": "Upload files", "zh-CN": "上传文件", "ja": "ファイルをアップロード"},
    "page.predictions": {"en": "Predictions", "zh-CN": "预测", "ja": "予測"},
    "page.predictions_placeholder": {
        "en": "one prediction per line",
        "zh-CN": "每行一条预测",
        "ja": "1 行に 1 件の予測",
    },
    "page.references": {"en": "References {number}", "zh-CN": "参考 {number}", "ja": "参照 {number}"},
    "page.references_placeholder": {
        "en": "one reference per line, on the line of its prediction",
        "zh-CN": "每行一条参考，写在其预测所在的同一行",
        "ja": "1 行に 1 件の参照（対応する予測と同じ行に）",
    },
    "page.more_references_placeholder": {
        "en": "optional: another reference per prediction (empty = unused)",
        "zh-CN": "可选：为每条预测再提供一条参考（留空表示不使用）",
        "ja": "任意：予測ごとにもう 1 件の参照（空欄なら使いません）",
    },
    "page.predictions_file": {
        "en": "Predictions file (.txt, .jsonl, .csv, .tsv)",
        "zh-CN": "预测文件（.txt、.jsonl、.csv、.tsv）",
        "ja": "予測ファイル（.txt、.jsonl、.csv、.tsv）",
    },
    "page.predictions_file_coco": {
        "en": "Predictions file (.txt, .jsonl, .csv, .tsv, COCO results .json)",
        "zh-CN": "预测文件（.txt、.jsonl、.csv、.tsv，或 COCO 结果 .json）",
        "ja": "予測ファイル（.txt、.jsonl、.csv、.tsv、COCO の結果 .json）",
    },
    "page.reference_files": {
        "en": "Reference files (.txt; only with a .txt predictions file)",
        "zh-CN": "参考文件（.txt；仅与 .txt 预测文件一起使用）",
        "ja": "参照ファイル（.txt。予測ファイルが .txt のときのみ）",
    },
    "page.reference_files_coco": {
        "en": "Reference files (.txt; only with a .txt predictions file; one .json with a COCO results file)",
        "zh-CN": "参考文件（.txt，仅与 .txt 预测文件一起使用；COCO 结果文件则配一个 .json）",
        "ja": "参照ファイル（.txt は予測ファイルが .txt のときのみ。COCO の結果ファイルには .json を 1 つ）",
    },
    "page.input_help_title": {
        "en": "How to enter predictions and references",
        "zh-CN": "如何输入预测和参考",
        "ja": "予測と参照の入力方法",
    },
    "page.input_help": {
        "en": """\
**Text boxes.** One prediction per line in *Predictions*; on the same line of *References 1*, its
reference. Several references per prediction: fill *References 2* to *References {boxes}* line by line too
(leave a box empty when unused; an empty or missing line there means no extra reference for that
prediction). Empty lines at the end of a box are ignored.

**Files** (the *Upload files* tab; an uploaded predictions file is scored instead of the text boxes):
- `.txt`: one prediction per line, plus one `.txt` reference file per reference (line *k* is the
  reference of prediction *k*);
- `.jsonl`: one object per line, `{{"prediction": "...", "references": ["...", "..."]}}`;
- `.csv` / `.tsv`: a header row with the columns `prediction`, `reference` and optionally
  `reference_2`, `reference_3`, ... (an empty cell in those means no extra reference).{coco}

**Limits:** {limits} and 10 MB of input.
""",
        "zh-CN": """\
**文本框。** 在*预测*中每行写一条预测；在*参考 1* 的同一行写它的参考。一条预测有多条参考时，
同样逐行填写*参考 2* 至*参考 {boxes}*（不用的框留空；其中某行为空或缺失，表示该预测没有额外的参考）。
框末尾的空行会被忽略。

**文件**（*上传文件*标签页；上传了预测文件时，评分的是该文件而不是文本框）：
- `.txt`：每行一条预测，另为每组参考上传一个 `.txt` 参考文件（第 *k* 行是第 *k* 条预测的参考）；
- `.jsonl`：每行一个对象，`{{"prediction": "...", "references": ["...", "..."]}}`；
- `.csv` / `.tsv`：首行为表头，包含 `prediction`、`reference` 列，可选 `reference_2`、`reference_3`……
  （这些列中的空单元格表示没有额外的参考）。{coco}

**限制：** {limits}，输入总量不超过 10 MB。
""",
        "ja": """\
**テキストボックス。** *予測* に 1 行 1 件で予測を書き、*参照 1* の同じ行にその参照を書きます。
1 件の予測に複数の参照があるときは、*参照 2* ～ *参照 {boxes}* も同じく行ごとに書きます（使わない欄は
空のままにします。そこの行が空か欠けていれば、その予測に追加の参照はありません）。欄の末尾の空行は無視されます。

**ファイル**（*ファイルをアップロード* タブ。予測ファイルをアップロードすると、テキストボックスの代わりに
それを採点します）：
- `.txt`：1 行 1 件の予測と、参照 1 組ごとに 1 つの `.txt` 参照ファイル（*k* 行目が *k* 番目の予測の参照）；
- `.jsonl`：1 行に 1 つのオブジェクト `{{"prediction": "...", "references": ["...", "..."]}}`；
- `.csv` / `.tsv`：`prediction`、`reference` 列と、任意で `reference_2`、`reference_3` … 列を持つ
  見出し行（これらの列の空のセルは追加の参照なしを表します）。{coco}

**上限：** {limits}、入力は合計 10 MB まで。
""",
    },
    "page.input_help_coco": {
        "en": """
- `.json`: COCO caption results, `[{{"image_id": 1, "caption": "..."}}, ...]` (or `{{"1": "..."}}`), plus one
  `.json` reference file: `{{"1": ["caption", "caption", ...], ...}}` (pycocoevalcap's `gts`) or COCO's
  annotation file (`{{"annotations": [{{"image_id": 1, "caption": "..."}}, ...]}}`). Image ids are matched as
  text; both files must have the same images and one result per image.""",
        "zh-CN": """
- `.json`：COCO 图像描述结果 `[{{"image_id": 1, "caption": "..."}}, ...]`（或 `{{"1": "..."}}`），再加一个
  `.json` 参考文件：`{{"1": ["caption", "caption", ...], ...}}`（pycocoevalcap 的 `gts`）或 COCO 的标注文件
  （`{{"annotations": [{{"image_id": 1, "caption": "..."}}, ...]}}`）。图像 id 按文本匹配；两个文件的图像
  必须相同，且每张图像一条结果。""",
        "ja": """
- `.json`：COCO キャプションの結果 `[{{"image_id": 1, "caption": "..."}}, ...]`（または `{{"1": "..."}}`）と、
  `.json` の参照ファイル 1 つ：`{{"1": ["caption", "caption", ...], ...}}`（pycocoevalcap の `gts`）または
  COCO のアノテーションファイル（`{{"annotations": [{{"image_id": 1, "caption": "..."}}, ...]}}`）。画像 id は
  テキストとして照合します。両ファイルの画像は同じで、画像ごとに結果が 1 件でなければなりません。""",
    },
    "page.limit_predictions": {"en": "{count:,} predictions", "zh-CN": "{count:,} 条预测", "ja": "予測 {count:,} 件"},
    "page.limit_predictions_references": {
        "en": "{count:,} predictions, {references:,} references in all",
        "zh-CN": "{count:,} 条预测，参考合计 {references:,} 条",
        "ja": "予測 {count:,} 件、参照は合計 {references:,} 件",
    },
    "page.compute": {"en": "Compute {label}", "zh-CN": "计算 {label}", "ja": "{label} を計算"},
    "page.status": {"en": "Status", "zh-CN": "状态", "ja": "状態"},
    "page.examples": {
        "en": "Examples (click one to score it)",
        "zh-CN": "示例（点击即可评分）",
        "ja": "例（クリックすると採点します）",
    },
    "page.result": {"en": "## Result", "zh-CN": "## 结果", "ja": "## 結果"},
    "page.score": {"en": "Score", "zh-CN": "得分", "ja": "スコア"},
    "page.summary": {"en": "Corpus statistics", "zh-CN": "语料统计", "ja": "コーパスの統計"},
    "page.per_ngram_order": {"en": "Per n-gram order", "zh-CN": "按 n-gram 阶数", "ja": "n-gram の次数ごと"},
    "page.sentence_scores": {"en": "Sentence scores", "zh-CN": "句子得分", "ja": "文ごとのスコア"},
    "page.histogram": {"en": "Histogram", "zh-CN": "直方图", "ja": "ヒストグラム"},
    "page.sentences": {
        "en": "Per-sentence scores (click a header to sort, a row to explain it)",
        "zh-CN": "逐句得分（点击表头排序，点击某一行查看该句的解释）",
        "ja": "文ごとのスコア（見出しをクリックで並べ替え、行をクリックでその文を説明）",
    },
    "page.explanation": {
        "en": "## Explanation of one sentence\n{intro} {note}",
        "zh-CN": "## 单句解释\n{intro} {note}",
        "ja": "## 1 文の説明\n{intro} {note}",
    },
    "page.sentence": {"en": "Sentence", "zh-CN": "句子", "ja": "文"},
    "page.prediction_tokens": {"en": "Prediction tokens", "zh-CN": "预测的词元", "ja": "予測のトークン"},
    "page.per_order": {"en": "Per order", "zh-CN": "按阶数", "ja": "次数ごと"},
    "page.signature": {
        "en": "Signature (the options used)",
        "zh-CN": "签名（所用的选项）",
        "ja": "シグネチャ（使用したオプション）",
    },
    "page.raw_title": {
        "en": "Raw result (what evaluate's compute() returned, without the explanation)",
        "zh-CN": "原始结果（evaluate 的 compute() 的返回值，不含解释）",
        "ja": "生の結果（evaluate の compute() が返した値。説明は除く）",
    },
    "page.raw": {"en": "Result", "zh-CN": "结果", "ja": "結果"},
    "page.ngrams": {
        "en": "Matched n-grams (count: in the prediction; clipped count: at most the count in a reference; "
        "positions: token numbers, from 1)",
        "zh-CN": "匹配的 n-gram（count：在预测中的次数；clipped count：至多为在某条参考中的次数；"
        "positions：词元序号，从 1 开始）",
        "ja": "一致した n-gram（count：予測での出現回数。clipped count：いずれかの参照での出現回数が上限。"
        "positions：トークン番号、1 から）",
    },
    "page.explanation_intro": {
        "en": "Matched n-grams of the prediction: each token is labelled with the highest order of a counted "
        "match covering it. Occurrences of an n-gram past its clipped count (more than in any one "
        "reference; the first ones count) are marked “beyond clip”.",
        "zh-CN": "预测中匹配的 n-gram：每个词元标注为覆盖它的、被计入的匹配的最高阶数。某个 n-gram 超出截断计数"
        "的出现（多于任一条参考中的次数；先出现的计入）标为“beyond clip”。",
        "ja": "予測の一致した n-gram：各トークンには、それを覆う数えられた一致の最高次数のラベルが付きます。"
        "クリップ後の回数を超えた n-gram の出現（どの参照よりも多い分。先に出たものから数えます）は"
        "「beyond clip」と示します。",
    },
    "page.tokenizer": {"en": "Tokenizer", "zh-CN": "分词器", "ja": "トークナイザ"},
    "page.tokenizer_info": {
        "en": "none = split on whitespace",
        "zh-CN": "none = 按空白切分",
        "ja": "none = 空白で分割",
    },
    "page.tokenizer_default": {
        "en": "default (per variant)",
        "zh-CN": "default（随变体而定）",
        "ja": "default（変種ごと）",
    },
    "page.lowercase": {"en": "Lowercase", "zh-CN": "转为小写", "ja": "小文字化"},
    "page.lowercase_info": {
        "en": "lowercase predictions and references first",
        "zh-CN": "先将预测和参考转为小写",
        "ja": "予測と参照を先に小文字にする",
    },
    "page.variant": {"en": "Variant", "zh-CN": "变体", "ja": "変種"},
    # ------------------------------------------------------------------ what a handler computes
    "status.scored": {
        "en": "Scored {count:,} prediction(s) from {source}, {per_prediction} reference(s) each.",
        "zh-CN": "已对来自{source}的 {count:,} 条预测评分，每条有 {per_prediction} 条参考。",
        "ja": "{source}の予測 {count:,} 件を採点しました（参照は各 {per_prediction} 件）。",
    },
    "status.range": {"en": "{low} to {high}", "zh-CN": "{low} 至 {high}", "ja": "{low}～{high}"},
    "status.text_boxes": {"en": "the text boxes", "zh-CN": "文本框", "ja": "テキストボックス"},
    "status.file": {"en": "the file {name}", "zh-CN": "文件 {name} ", "ja": "ファイル {name} "},
    "status.coco_files": {
        "en": "the COCO files {results} and {references}",
        "zh-CN": "COCO 文件 {results} 和 {references} ",
        "ja": "COCO ファイル {results} と {references} ",
    },
    "status.cannot_score": {
        "en": "Cannot compute the score.",
        "zh-CN": "无法计算得分。",
        "ja": "スコアを計算できません。",
    },
    "status.unexpected": {
        "en": "unexpected {kind}: {message}",
        "zh-CN": "意外错误 {kind}：{message}",
        "ja": "予期しないエラー {kind}: {message}",
    },
    "explain.choose": {
        "en": "Choose a sentence from 1 to {count}.",
        "zh-CN": "请选择第 1 至第 {count} 句。",
        "ja": "1～{count} 番の文を選んでください。",
    },
    "explain.heading": {
        "en": "Sentence {number} of {count}",
        "zh-CN": "第 {number} 句（共 {count} 句）",
        "ja": "{count} 文中の第 {number} 文",
    },
    "explain.sentence_score": {"en": "sentence score", "zh-CN": "句子得分", "ja": "文のスコア"},
    "explain.image_id": {"en": "image id {image}", "zh-CN": "图像 id {image}", "ja": "画像 id {image}"},
    "explain.reference_length": {
        "en": "reference length used {length:g}",
        "zh-CN": "所用参考长度 {length:g}",
        "ja": "使用した参照の長さ {length:g}",
    },
    "explain.prediction_length": {
        "en": "prediction length {length}",
        "zh-CN": "预测长度 {length}",
        "ja": "予測の長さ {length}",
    },
    "explain.references": {"en": "Tokenized references:", "zh-CN": "分词后的参考：", "ja": "トークン化した参照："},
    "status.expired": {
        "en": "This result is no longer kept (results are kept for {minutes} minutes): compute the score again.",
        "zh-CN": "该结果已不再保留（结果保留 {minutes} 分钟）：请重新计算分数。",
        "ja": "この結果はもう保持されていません（結果の保持は {minutes} 分間です）。スコアをもう一度計算してください。",
    },
    # ------------------------------------------------------------------ input errors
    "error.too_large": {
        "en": "{what} is {size:.1f} MB; the limit is 10 MB.",
        "zh-CN": "{what}为 {size:.1f} MB，上限为 10 MB。",
        "ja": "{what}は {size:.1f} MB です。上限は 10 MB です。",
    },
    "error.text_input": {"en": "The text input", "zh-CN": "文本输入", "ja": "テキスト入力"},
    "error.upload": {"en": "The upload", "zh-CN": "上传的文件", "ja": "アップロードしたファイル"},
    "error.too_many": {
        "en": "{what} has {count:,} predictions; the limit is {limit:,}.",
        "zh-CN": "{what} 有 {count:,} 条预测，上限为 {limit:,} 条。",
        "ja": "{what} の予測は {count:,} 件です。上限は {limit:,} 件です。",
    },
    "error.page_predictions": {
        "en": "The input has {count:,} predictions; the limit of this page is {limit:,}.",
        "zh-CN": "输入有 {count:,} 条预测，本页面的上限为 {limit:,} 条。",
        "ja": "入力の予測は {count:,} 件です。このページの上限は {limit:,} 件です。",
    },
    "error.page_references": {
        "en": "The input has {count:,} references in all; the limit of this page is {limit:,}.",
        "zh-CN": "输入共有 {count:,} 条参考，本页面的上限为 {limit:,} 条。",
        "ja": "入力の参照は合計 {count:,} 件です。このページの上限は {limit:,} 件です。",
    },
    "error.line_count": {
        "en": "{name} has {lines} line(s) but {predictions} has {count}: give one reference per prediction, "
        "on the same line number.",
        "zh-CN": "{name} 有 {lines} 行，而 {predictions} 有 {count} 行：请为每条预测给出一条参考，写在相同的行号上。",
        "ja": "{name} は {lines} 行ですが、{predictions} は {count} 行です。予測ごとに 1 件の参照を、同じ行番号に"
        "書いてください。",
    },
    "error.reference_file": {"en": "Reference file {file}", "zh-CN": "参考文件 {file}", "ja": "参照ファイル {file}"},
    "error.predictions_empty": {
        "en": "Predictions is empty: type one prediction per line, upload a file, or click an example.",
        "zh-CN": "预测为空：请每行输入一条预测、上传文件，或点击一个示例。",
        "ja": "予測が空です。1 行に 1 件ずつ予測を入力するか、ファイルをアップロードするか、例をクリックしてください。",
    },
    "error.references_empty": {
        "en": "References 1 is empty: type the reference of each prediction on its line.",
        "zh-CN": "参考 1 为空：请在每条预测对应的行上输入它的参考。",
        "ja": "参照 1 が空です。各予測の参照をその行に入力してください。",
    },
    "error.not_utf8": {
        "en": "{file} is not UTF-8 text (byte {byte}).",
        "zh-CN": "{file} 不是 UTF-8 文本（第 {byte} 字节）。",
        "ja": "{file} は UTF-8 のテキストではありません（{byte} バイト目）。",
    },
    "error.jsonl_json": {
        "en": "{file}, line {line} is not valid JSON ({reason}).",
        "zh-CN": "{file} 第 {line} 行不是有效的 JSON（{reason}）。",
        "ja": "{file} の {line} 行目は有効な JSON ではありません（{reason}）。",
    },
    "error.jsonl_prediction": {
        "en": '{file}, line {line}: each line needs a string field "prediction".',
        "zh-CN": '{file} 第 {line} 行：每行都需要一个字符串字段 "prediction"。',
        "ja": '{file} の {line} 行目：各行には文字列のフィールド "prediction" が必要です。',
    },
    "error.jsonl_references": {
        "en": '{file}, line {line}: "references" must be a string or a non-empty list of strings.',
        "zh-CN": '{file} 第 {line} 行："references" 必须是字符串或非空的字符串列表。',
        "ja": '{file} の {line} 行目："references" は文字列か、空でない文字列のリストでなければなりません。',
    },
    "error.table_header": {
        "en": "{file} needs a header row with the columns prediction and reference (then reference_2, "
        "reference_3, ...); its first row is {header}.",
        "zh-CN": "{file} 需要包含 prediction 和 reference 列（其后可有 reference_2、reference_3……）的表头行；"
        "它的第一行是 {header}。",
        "ja": "{file} には prediction と reference の列（続いて reference_2、reference_3 …）を持つ見出し行が"
        "必要です。先頭行は {header} です。",
    },
    "error.table_row": {
        "en": "{file}, row {row} has {cells} cells but the header has {expected}.",
        "zh-CN": "{file} 第 {row} 行有 {cells} 个单元格，而表头有 {expected} 个。",
        "ja": "{file} の {row} 行目のセルは {cells} 個ですが、見出し行は {expected} 個です。",
    },
    "error.references_with_table": {
        "en": "Reference files are read only with a .txt predictions file; {file} holds its references "
        "itself: remove the reference files.",
        "zh-CN": "只有预测文件为 .txt 时才读取参考文件；{file} 自身已包含参考：请移除参考文件。",
        "ja": "参照ファイルを読むのは予測ファイルが .txt のときだけです。{file} は参照を自分で持っています。"
        "参照ファイルを取り除いてください。",
    },
    "error.txt_needs_references": {
        "en": "{file} holds only predictions: upload one .txt reference file per reference.",
        "zh-CN": "{file} 只包含预测：请为每组参考上传一个 .txt 参考文件。",
        "ja": "{file} には予測しかありません。参照 1 組ごとに .txt の参照ファイルを 1 つアップロードしてください。",
    },
    "error.file_type": {
        "en": "{file}: unsupported file type {suffix}; use .txt, .jsonl, .csv or .tsv.",
        "zh-CN": "{file}：不支持的文件类型 {suffix}；请使用 .txt、.jsonl、.csv 或 .tsv。",
        "ja": "{file}：対応していないファイル形式 {suffix} です。.txt、.jsonl、.csv、.tsv のいずれかを使ってください。",
    },
    "error.no_predictions": {
        "en": "{file} holds no predictions.",
        "zh-CN": "{file} 不包含任何预测。",
        "ja": "{file} には予測がありません。",
    },
    "error.json": {
        "en": "{file} is not valid JSON ({reason}, line {line}).",
        "zh-CN": "{file} 不是有效的 JSON（{reason}，第 {line} 行）。",
        "ja": "{file} は有効な JSON ではありません（{reason}、{line} 行目）。",
    },
    "error.coco_entry": {
        "en": '{file}, {kind} {number} must be an object with "image_id" and "caption".',
        "zh-CN": '{file} 的第 {number} 个{kind}必须是包含 "image_id" 和 "caption" 的对象。',
        "ja": '{file} の {number} 番目の{kind}は "image_id" と "caption" を持つオブジェクトでなければなりません。',
    },
    "error.coco_result": {"en": "result", "zh-CN": "结果", "ja": "結果"},
    "error.coco_annotation": {"en": "annotation", "zh-CN": "标注", "ja": "アノテーション"},
    "error.coco_references_file": {
        "en": '{file} holds COCO results: upload exactly one .json reference file ({{"image_id": ["caption", '
        "...]}} or a COCO annotation file).",
        "zh-CN": '{file} 包含 COCO 结果：请上传恰好一个 .json 参考文件（{{"image_id": ["caption", ...]}} '
        "或 COCO 标注文件）。",
        "ja": "{file} は COCO の結果です。.json の参照ファイルをちょうど 1 つアップロードしてください"
        '（{{"image_id": ["caption", ...]}} または COCO のアノテーションファイル）。',
    },
    "error.coco_results": {
        "en": '{file} must be a COCO results list ([{{"image_id": ..., "caption": ...}}]) or an object of image '
        "id -> caption.",
        "zh-CN": '{file} 必须是 COCO 结果列表（[{{"image_id": ..., "caption": ...}}]）或“图像 id -> 描述”的对象。',
        "ja": '{file} は COCO の結果のリスト（[{{"image_id": ..., "caption": ...}}]）か、画像 id -> キャプションの'
        "オブジェクトでなければなりません。",
    },
    "error.coco_references": {
        "en": "{file} must be an object of image id -> reference captions, or COCO's annotation file "
        '({{"annotations": [{{"image_id": ..., "caption": ...}}]}}).',
        "zh-CN": "{file} 必须是“图像 id -> 参考描述”的对象，或 COCO 的标注文件"
        '（{{"annotations": [{{"image_id": ..., "caption": ...}}]}}）。',
        "ja": "{file} は画像 id -> 参照キャプションのオブジェクトか、COCO のアノテーションファイル"
        '（{{"annotations": [{{"image_id": ..., "caption": ...}}]}}）でなければなりません。',
    },
    "error.coco_no_references": {
        "en": "{file} holds no references for the images of {results}.",
        "zh-CN": "{file} 中没有 {results} 中图像的参考。",
        "ja": "{file} には {results} の画像の参照がありません。",
    },
    "error.not_a_number": {
        "en": "{name} must be a number, got {value}.",
        "zh-CN": "{name} 必须是数字，收到的是 {value}。",
        "ja": "{name} は数値でなければなりません（入力：{value}）。",
    },
    "error.not_finite": {
        "en": "{name} must be a finite number, got {value}.",
        "zh-CN": "{name} 必须是有限的数字，收到的是 {value}。",
        "ja": "{name} は有限の数値でなければなりません（入力：{value}）。",
    },
    "error.weights": {
        "en": "weights: {item} is not a number (write e.g. 0.25 0.25 0.25 0.25; separate several sets with ';').",
        "zh-CN": "weights：{item} 不是数字（例如写作 0.25 0.25 0.25 0.25；多组之间用 ';' 分隔）。",
        "ja": "weights：{item} は数値ではありません（例：0.25 0.25 0.25 0.25。複数の組は ';' で区切ります）。",
    },
    "error.unknown_value": {
        "en": "unknown {name} {value}; valid values: {valid}.",
        "zh-CN": "未知的 {name} {value}；有效值：{valid}。",
        "ja": "不明な {name} {value} です。有効な値：{valid}。",
    },
    "error.number_list": {
        "en": "{name}: {item} is not a number (write e.g. {example}).",
        "zh-CN": "{name}：{item} 不是数字（例如写作 {example}）。",
        "ja": "{name}：{item} は数値ではありません（例：{example}）。",
    },
    # ------------------------------------------------------------------ BLEU
    "bleu.title": {
        "en": "BLEU, exact to sacrebleu, NLTK, mteval, tensorflow/nmt or d2l",
        "zh-CN": "BLEU：与 sacrebleu、NLTK、mteval、tensorflow/nmt 或 d2l 完全一致",
        "ja": "BLEU：sacrebleu、NLTK、mteval、tensorflow/nmt、d2l と完全に一致",
    },
    "bleu.intro": {
        "en": """\
BLEU (Papineni et al., 2002): clipped n-gram precisions against one or more references, combined as a
weighted geometric mean and multiplied by a brevity penalty; in [0, 1]. Each **variant** reproduces one
tool exactly: `sacrebleu` 2.6.0 (default), `nltk` 3.10.4 (`corpus_bleu`, smoothing `method0`–`method7`),
`mteval` (mteval-v13a.pl), `nmt` (tensorflow/nmt, what HF evaluate's `bleu` runs) and `d2l` (Dive into
Deep Learning). The page runs the evaluate metric `metrics/bleu` of ngrameval; its metric card
(`metrics/bleu/README.md`) lists every option.
""",
        "zh-CN": """\
BLEU（Papineni 等，2002）：相对一条或多条参考计算截断（clipped）的 n-gram 精确率，取加权几何平均，
再乘以简短惩罚（brevity penalty），取值在 [0, 1]。每个**变体**（variant）精确复现一个工具：`sacrebleu` 2.6.0
（默认）、`nltk` 3.10.4（`corpus_bleu`，平滑 `method0`–`method7`）、`mteval`（mteval-v13a.pl）、`nmt`
（tensorflow/nmt，即 HF evaluate 的 `bleu` 所用实现）和 `d2l`（《动手学深度学习》）。本页面运行 ngrameval 的
evaluate 指标 `metrics/bleu`；其指标卡（`metrics/bleu/README.md`）列出了全部选项。
""",
        "ja": """\
BLEU（Papineni ら、2002）：1 つ以上の参照に対するクリップ済み n-gram 適合率を重み付き幾何平均でまとめ、
簡潔さペナルティ（brevity penalty）を掛けたもので、値は [0, 1] です。各**変種**（variant）は 1 つのツールを
正確に再現します：`sacrebleu` 2.6.0（既定）、`nltk` 3.10.4（`corpus_bleu`、平滑化 `method0`–`method7`）、
`mteval`（mteval-v13a.pl）、`nmt`（tensorflow/nmt。HF evaluate の `bleu` が使う実装）、`d2l`（Dive into
Deep Learning）。このページは ngrameval の evaluate 指標 `metrics/bleu` を実行します。すべてのオプションは
指標カード（`metrics/bleu/README.md`）にあります。
""",
    },
    "bleu.smoothing": {"en": "Smoothing", "zh-CN": "平滑", "ja": "平滑化"},
    "bleu.smoothing_info": {
        "en": "choices depend on the variant",
        "zh-CN": "可选项取决于变体",
        "ja": "選択肢は変種によって変わります",
    },
    "bleu.brevity_penalty": {
        "en": "Brevity penalty: reference length",
        "zh-CN": "简短惩罚：参考长度",
        "ja": "簡潔さペナルティ：参照の長さ",
    },
    "bleu.brevity_penalty_info": {
        "en": "default: nmt shortest, else closest",
        "zh-CN": "default：nmt 用 shortest，其余用 closest",
        "ja": "default：nmt は shortest、それ以外は closest",
    },
    "bleu.max_order": {"en": "Max n-gram order", "zh-CN": "最大 n-gram 阶数", "ja": "n-gram の最大次数"},
    "bleu.weights": {"en": "Weights", "zh-CN": "权重", "ja": "重み"},
    "bleu.weights_placeholder": {
        "en": "default: uniform (d2l: 1/2^n), e.g. 0.25 0.25 0.25 0.25",
        "zh-CN": "默认：均匀（d2l：1/2^n），例如 0.25 0.25 0.25 0.25",
        "ja": "既定：均等（d2l：1/2^n）。例：0.25 0.25 0.25 0.25",
    },
    "bleu.weights_info": {
        "en": "one weight per order; several sets separated by ';' give one score each",
        "zh-CN": "每个阶数一个权重；用 ';' 分隔多组权重，每组得到一个得分",
        "ja": "次数ごとに 1 つの重み。';' で区切った複数の組はそれぞれのスコアになります",
    },
    "bleu.effective_order": {
        "en": "Effective order (sacrebleu)",
        "zh-CN": "有效阶数（sacrebleu）",
        "ja": "有効次数（sacrebleu）",
    },
    "bleu.effective_order_info": {
        "en": "default: off for the corpus, on for sentences",
        "zh-CN": "默认：语料级关闭，句子级开启",
        "ja": "既定：コーパスではオフ、文ではオン",
    },
    "bleu.auto_reweigh": {"en": "Auto reweigh (nltk)", "zh-CN": "自动重新加权（nltk）", "ja": "自動再重み付け（nltk）"},
    "bleu.smoothing_parameters": {
        "en": "Smoothing parameters (blank = default)",
        "zh-CN": "平滑参数（留空 = 默认）",
        "ja": "平滑化のパラメータ（空欄 = 既定）",
    },
    "bleu.precision_plot": {"en": "Precision per order", "zh-CN": "各阶精确率", "ja": "次数ごとの適合率"},
    # ------------------------------------------------------------------ NIST
    "nist.title": {
        "en": "NIST, exact to NLTK or mteval-v13a.pl",
        "zh-CN": "NIST：与 NLTK 或 mteval-v13a.pl 完全一致",
        "ja": "NIST：NLTK または mteval-v13a.pl と完全に一致",
    },
    "nist.intro": {
        "en": """\
NIST (Doddington, 2002): like BLEU, but every matched n-gram counts by its **information weight**,
log2(count(w1..wn-1) / count(w1..wn)) over the references, so rare n-grams count more; the per-order
averages are added up and scaled by a length penalty (0.5 when the output is 2/3 of the reference
length). The tools disagree on several references, so **variant** picks one to reproduce exactly: `nltk`
(NLTK 3.10.4 `corpus_nist`: per order, the single best reference; default) or `mteval` (mteval-v13a.pl:
clipping against all references, the average reference length). The page runs the evaluate metric
`metrics/nist` of ngrameval; its metric card (`metrics/nist/README.md`) lists every option.
""",
        "zh-CN": """\
NIST（Doddington，2002）：与 BLEU 类似，但每个匹配的 n-gram 按其**信息量权重**计分，即在参考上计算的
log2(count(w1..wn-1) / count(w1..wn))，因此罕见的 n-gram 分量更重；各阶的平均值相加后再乘以长度惩罚
（输出长度为参考的 2/3 时为 0.5）。各工具在多条参考时的做法不同，因此由**变体**选择要精确复现的一个：
`nltk`（NLTK 3.10.4 `corpus_nist`：每个阶数只取最佳的一条参考；默认）或 `mteval`（mteval-v13a.pl：
对全部参考截断计数，使用参考的平均长度）。本页面运行 ngrameval 的 evaluate 指标 `metrics/nist`；
其指标卡（`metrics/nist/README.md`）列出了全部选项。
""",
        "ja": """\
NIST（Doddington、2002）：BLEU に似ていますが、一致した n-gram はそれぞれの**情報量の重み**、つまり参照上の
log2(count(w1..wn-1) / count(w1..wn)) で数えるため、まれな n-gram ほど重くなります。次数ごとの平均を足し合わせ、
長さペナルティ（出力が参照の長さの 2/3 のとき 0.5）を掛けます。複数の参照の扱いがツールによって異なるため、
**変種**で正確に再現するものを選びます：`nltk`（NLTK 3.10.4 `corpus_nist`：次数ごとに最良の参照 1 つ。既定）
または `mteval`（mteval-v13a.pl：すべての参照に対してクリップし、参照の平均の長さを使う）。このページは
ngrameval の evaluate 指標 `metrics/nist` を実行します。すべてのオプションは指標カード
（`metrics/nist/README.md`）にあります。
""",
    },
    "nist.note": {
        "en": "The information weights shown are the corpus ones, which the corpus score uses. With `nltk`, each "
        "order is scored against the single reference with the most matched information (the per-order "
        "table shows the information against each reference; the clipped counts of the n-gram table are "
        "against all references together), and a sentence's score is NLTK's `sentence_nist`, which takes "
        "its weights from that sentence's own references.",
        "zh-CN": "所示的信息量权重是语料级的，即语料得分所用的权重。使用 `nltk` 时，每个阶数都只与匹配信息量最多的"
        "那一条参考比较（按阶数的表给出相对每条参考的信息量；n-gram 表中的截断计数是相对全部参考合计的），"
        "句子得分是 NLTK 的 `sentence_nist`，其权重取自该句自身的参考。",
        "ja": "表示している情報量の重みはコーパス全体のもので、コーパスのスコアが使うものです。`nltk` では、各次数を"
        "一致した情報量が最も多い参照 1 つに対して採点します（次数ごとの表は各参照に対する情報量を示し、"
        "n-gram の表のクリップ後の回数はすべての参照をまとめたものに対する値です）。文のスコアは NLTK の "
        "`sentence_nist` で、その文自身の参照から重みを求めます。",
    },
    "nist.n": {"en": "n (max n-gram order)", "zh-CN": "n（最大 n-gram 阶数）", "ja": "n（n-gram の最大次数）"},
    "nist.contribution_plot": {"en": "Contribution per order", "zh-CN": "各阶贡献", "ja": "次数ごとの寄与"},
    # ------------------------------------------------------------------ chrF
    "chrf.title": {
        "en": "chrF and chrF++, exact to sacrebleu or NLTK",
        "zh-CN": "chrF 与 chrF++：与 sacrebleu 或 NLTK 完全一致",
        "ja": "chrF と chrF++：sacrebleu または NLTK と完全に一致",
    },
    "chrf.intro": {
        "en": """\
chrF (Popović, 2015): the F-score of character n-gram precision and recall (orders 1 to 6, whitespace
removed, recall weighted **beta** = 2 times as much as precision); chrF++ (Popović, 2017) adds word
n-grams (**word order** 2). Each **variant** reproduces one tool exactly: `sacrebleu` (sacrebleu 2.6.0
`CHRF`, what HF evaluate's `chrf` runs; per segment the best reference; default) or `nltk` (NLTK 3.10.4
`corpus_chrf`: one reference per prediction, beta 3, a mean of sentence scores over orders `min_char_order`
to `char_order`). Scores are in [0, 1] (sacrebleu prints them × 100). The page runs the evaluate metric
`metrics/chrf` of ngrameval; its metric card (`metrics/chrf/README.md`) lists every option.
""",
        "zh-CN": """\
chrF（Popović，2015）：字符 n-gram 精确率与召回率的 F 值（阶数 1 至 6，去除空白，召回率的权重是精确率的
**beta** = 2 倍）；chrF++（Popović，2017）再加入词 n-gram（**词阶数** word order 2）。每个**变体**精确复现
一个工具：`sacrebleu`（sacrebleu 2.6.0 的 `CHRF`，即 HF evaluate 的 `chrf` 所用实现；每个片段取最佳参考；默认）
或 `nltk`（NLTK 3.10.4 `corpus_chrf`：每条预测一条参考，beta 3，对阶数 `min_char_order` 至 `char_order`
的句子得分取平均）。得分在 [0, 1] 之间（sacrebleu 显示为 × 100）。本页面运行 ngrameval 的 evaluate 指标
`metrics/chrf`；其指标卡（`metrics/chrf/README.md`）列出了全部选项。
""",
        "ja": """\
chrF（Popović、2015）：文字 n-gram の適合率と再現率の F 値（次数 1～6、空白は除去、再現率を適合率の
**beta** = 2 倍重視）。chrF++（Popović、2017）は単語 n-gram（**単語の次数** word order 2）を加えます。
各**変種**は 1 つのツールを正確に再現します：`sacrebleu`（sacrebleu 2.6.0 の `CHRF`。HF evaluate の `chrf`
が使う実装。セグメントごとに最良の参照。既定）または `nltk`（NLTK 3.10.4 `corpus_chrf`：予測ごとに参照 1 つ、
beta 3、次数 `min_char_order`～`char_order` の文スコアの平均）。スコアは [0, 1] です（sacrebleu は × 100 で
表示）。このページは ngrameval の evaluate 指標 `metrics/chrf` を実行します。すべてのオプションは指標カード
（`metrics/chrf/README.md`）にあります。
""",
    },
    "chrf.explanation_intro": {
        "en": "Matched character n-grams of the prediction, against the reference the score uses: each character "
        "is labelled with the highest order of a counted match covering it (clipped: an n-gram counts at "
        "most as often as in the reference; later occurrences are marked “beyond clip”). With word n-grams "
        "(chrF++), the prediction's words are marked the same way under the references.",
        "zh-CN": "预测中与得分所用参考匹配的字符 n-gram：每个字符标注为覆盖它的、被计入的匹配的最高阶数（截断：一个 "
        "n-gram 至多按它在参考中的次数计入；之后的出现标为“beyond clip”）。使用词 n-gram（chrF++）时，"
        "预测的词以同样方式标注在参考下方。",
        "ja": "得点に使う参照に対して一致した、予測の文字 n-gram：各文字には、それを覆う数えられた一致の最高次数の"
        "ラベルが付きます（クリップ：n-gram は参照での出現回数までしか数えません。それ以降の出現は"
        "「beyond clip」と示します）。単語 n-gram（chrF++）を使うときは、予測の単語も参照の下に同じように"
        "示します。",
    },
    "chrf.note": {
        "en": "sacrebleu uses, per segment, the reference with the best sentence chrF (the first on ties); its "
        "statistics go into the corpus score. An order the reference has no n-gram of counts none of the "
        "prediction's either (sacrebleu's rule; the precision and recall shown are the metric's).",
        "zh-CN": "sacrebleu 对每个片段使用句子 chrF 最高的参考（并列时取第一条），其统计量计入语料得分。参考中没有"
        "某阶 n-gram 时，预测的该阶 n-gram 也不计入（sacrebleu 的规则；所示精确率和召回率为指标本身的值）。",
        "ja": "sacrebleu はセグメントごとに文の chrF が最も高い参照（同点なら最初のもの）を使い、その統計量を"
        "コーパスのスコアに加えます。参照にその次数の n-gram がないときは、予測の n-gram も数えません"
        "（sacrebleu の規則。表示する適合率と再現率は指標自身の値です）。",
    },
    "chrf.variant_info": {
        "en": "sacrebleu: CHRF (HF evaluate's chrf); nltk: corpus_chrf",
        "zh-CN": "sacrebleu：CHRF（HF evaluate 的 chrf）；nltk：corpus_chrf",
        "ja": "sacrebleu：CHRF（HF evaluate の chrf）、nltk：corpus_chrf",
    },
    "chrf.beta_placeholder": {
        "en": "blank: 2 (sacrebleu), 3 (nltk)",
        "zh-CN": "留空：2（sacrebleu）、3（nltk）",
        "ja": "空欄：2（sacrebleu）、3（nltk）",
    },
    "chrf.beta_info": {"en": "the weight of recall", "zh-CN": "召回率的权重", "ja": "再現率の重み"},
    "chrf.char_order": {
        "en": "Character order (char_order; NLTK's max_len)",
        "zh-CN": "字符阶数（char_order；NLTK 的 max_len）",
        "ja": "文字の次数（char_order。NLTK の max_len）",
    },
    "chrf.word_order": {
        "en": "Word order (word_order; 2 = chrF++; sacrebleu)",
        "zh-CN": "词阶数（word_order；2 = chrF++；sacrebleu）",
        "ja": "単語の次数（word_order。2 = chrF++。sacrebleu）",
    },
    "chrf.min_char_order": {
        "en": "Lowest character order (NLTK's min_len)",
        "zh-CN": "最低字符阶数（NLTK 的 min_len）",
        "ja": "文字の最小次数（NLTK の min_len）",
    },
    "chrf.whitespace": {"en": "Keep whitespace", "zh-CN": "保留空白", "ja": "空白を残す"},
    "chrf.whitespace_info": {"en": "in character n-grams", "zh-CN": "在字符 n-gram 中", "ja": "文字 n-gram の中に"},
    "chrf.eps_smoothing": {"en": "eps smoothing", "zh-CN": "eps 平滑", "ja": "eps 平滑化"},
    "chrf.eps_smoothing_info": {
        "en": "sacrebleu: mean of per-order F (chrF++.py, Moses)",
        "zh-CN": "sacrebleu：各阶 F 的平均（chrF++.py、Moses）",
        "ja": "sacrebleu：次数ごとの F の平均（chrF++.py、Moses）",
    },
    "chrf.recall_plot": {"en": "Recall per order", "zh-CN": "各阶召回率", "ja": "次数ごとの再現率"},
    "chrf.f_plot": {"en": "Mean sentence F per order", "zh-CN": "各阶句子 F 的平均", "ja": "次数ごとの文 F の平均"},
    "chrf.ngrams": {
        "en": "Matched n-grams (count: in the prediction; clipped count: at most the count in the reference used; "
        "positions: numbers of the counted characters, or words, from 1)",
        "zh-CN": "匹配的 n-gram（count：在预测中的次数；clipped count：至多为在所用参考中的次数；positions：被计数的"
        "字符或词的序号，从 1 开始）",
        "ja": "一致した n-gram（count：予測での出現回数。clipped count：使った参照での出現回数が上限。positions："
        "数えた文字または単語の番号、1 から）",
    },
    # ------------------------------------------------------------------ GLEU
    "gleu.title": {
        "en": "GLEU (Google BLEU), exact to NLTK or HF evaluate's google_bleu",
        "zh-CN": "GLEU（Google BLEU）：与 NLTK 或 HF evaluate 的 google_bleu 完全一致",
        "ja": "GLEU（Google BLEU）：NLTK または HF evaluate の google_bleu と完全に一致",
    },
    "gleu.intro": {
        "en": """\
GLEU (Wu et al., 2016), Google's sentence-level BLEU: all n-grams of orders **min_len** to **max_len** of a
prediction and of a reference are counted together; the matches (each n-gram clipped by its count in the
reference) are divided by the larger of the two n-gram counts, i.e. the minimum of precision and recall.
With several references the one with the highest ratio counts (the first on ties); the corpus score sums
matches and n-grams over the segments. Each **variant** reproduces one tool exactly: `nltk` (NLTK 3.10.4
`corpus_gleu`, whitespace tokens; default) or `google_bleu` (HF evaluate's `google_bleu`: its 13a tokens).
The page runs the evaluate metric `metrics/gleu` of ngrameval; its metric card (`metrics/gleu/README.md`)
lists every option.
""",
        "zh-CN": """\
GLEU（Wu 等，2016），Google 的句子级 BLEU：把预测和参考中阶数 **min_len** 至 **max_len** 的所有 n-gram
合在一起计数；匹配数（每个 n-gram 按其在参考中的次数截断）除以两者 n-gram 数中较大的一个，即精确率与召回率中
的较小值。有多条参考时，取比值最高的一条（并列时取第一条）；语料得分对各片段的匹配数和 n-gram 数求和。
每个**变体**精确复现一个工具：`nltk`（NLTK 3.10.4 `corpus_gleu`，按空白分词；默认）或 `google_bleu`
（HF evaluate 的 `google_bleu`：使用其 13a 分词）。本页面运行 ngrameval 的 evaluate 指标 `metrics/gleu`；
其指标卡（`metrics/gleu/README.md`）列出了全部选项。
""",
        "ja": """\
GLEU（Wu ら、2016）、Google の文単位の BLEU：予測と参照の次数 **min_len**～**max_len** のすべての n-gram を
まとめて数え、一致数（各 n-gram は参照での出現回数でクリップ）を 2 つの n-gram 数の大きい方で割ります。
つまり適合率と再現率の小さい方です。参照が複数あるときは比が最も高いもの（同点なら最初のもの）を使い、
コーパスのスコアはセグメント全体の一致数と n-gram 数を合計して求めます。各**変種**は 1 つのツールを正確に
再現します：`nltk`（NLTK 3.10.4 `corpus_gleu`、空白区切りのトークン。既定）または `google_bleu`
（HF evaluate の `google_bleu`：13a のトークン）。このページは ngrameval の evaluate 指標 `metrics/gleu` を
実行します。すべてのオプションは指標カード（`metrics/gleu/README.md`）にあります。
""",
    },
    "gleu.note": {
        "en": "Each sentence is matched against its chosen reference only (the reference with the highest ratio, "
        "listed first); the score is the matches of every order over the larger of the prediction's and "
        "the reference's n-gram counts.",
        "zh-CN": "每个句子只与选中的参考（比值最高的那条，列在最前）比较；得分是所有阶数的匹配数除以预测与参考的 "
        "n-gram 数中较大的一个。",
        "ja": "各文は選ばれた参照（比が最も高いもの。先頭に表示）とだけ照合します。スコアは全次数の一致数を、予測と"
        "参照の n-gram 数の大きい方で割った値です。",
    },
    "gleu.variant_info": {
        "en": "google_bleu: HF evaluate's google_bleu (13a tokens)",
        "zh-CN": "google_bleu：HF evaluate 的 google_bleu（13a 分词）",
        "ja": "google_bleu：HF evaluate の google_bleu（13a のトークン）",
    },
    "gleu.min_len": {
        "en": "min_len (lowest n-gram order)",
        "zh-CN": "min_len（最低 n-gram 阶数）",
        "ja": "min_len（n-gram の最小次数）",
    },
    "gleu.max_len": {
        "en": "max_len (highest n-gram order)",
        "zh-CN": "max_len（最高 n-gram 阶数）",
        "ja": "max_len（n-gram の最大次数）",
    },
    "gleu.precision_plot": {
        "en": "Precision per order (against the chosen references)",
        "zh-CN": "各阶精确率（相对选中的参考）",
        "ja": "次数ごとの適合率（選ばれた参照に対して）",
    },
    # ------------------------------------------------------------------ ROUGE
    "rouge.title": {
        "en": "ROUGE, exact to rouge-score or ROUGE-1.5.5",
        "zh-CN": "ROUGE：与 rouge-score 或 ROUGE-1.5.5 完全一致",
        "ja": "ROUGE：rouge-score または ROUGE-1.5.5 と完全に一致",
    },
    "rouge.intro": {
        "en": """\
ROUGE (Lin, 2004): what a summary shares with its references (n-grams, the longest common subsequence
**L**, its weighted form **W**, skip-bigrams **S** and skip-bigrams plus unigrams **SU**), each as precision,
recall and F. Each **variant** reproduces one tool exactly: `rouge_score` (google-research rouge-score 0.1.2,
what HF evaluate's `rouge` runs; its default tokenizer here gives rouge-score's tokens on Latin-script text
and also keeps the words of other scripts, each CJK character a token) or `rouge155` (ROUGE-1.5.5.pl: its
tokens, `-m` stemmer, `-s` stop words, `-l`/`-b` limits, pooled references, and as the score the average it
prints: the mean of its bootstrap means, `-c 95 -r 1000`). Each line of the text boxes is one summary;
`rougeLsum` splits sentences at newlines, which
only an uploaded `.jsonl`, `.csv` or `.tsv` file can hold. The page runs the evaluate metric `metrics/rouge`
of ngrameval; its metric card (`metrics/rouge/README.md`) lists every option.
""",
        "zh-CN": """\
ROUGE（Lin，2004）：摘要与其参考的共有部分（n-gram、最长公共子序列 **L**、其加权形式 **W**、跳跃二元组
**S** 以及跳跃二元组加一元组 **SU**），各自给出精确率、召回率和 F 值。每个**变体**精确复现一个工具：
`rouge_score`（google-research rouge-score 0.1.2，即 HF evaluate 的 `rouge` 所用实现；这里的默认分词器
对拉丁字母文本给出与 rouge-score 相同的词元，同时保留其他文字的词，每个 CJK 字符为一个词元）或
`rouge155`（ROUGE-1.5.5.pl：其分词、`-m` 词干化、`-s` 停用词、`-l`/`-b` 长度限制、合并参考，得分取它输出
的平均值，即 bootstrap 均值的平均，`-c 95 -r 1000`）。文本框的每一行是一篇摘要；`rougeLsum` 按换行切分
句子，只有上传的 `.jsonl`、`.csv` 或 `.tsv` 文件能包含换行。本页面运行 ngrameval 的 evaluate 指标
`metrics/rouge`；其指标卡（`metrics/rouge/README.md`）列出了全部选项。
""",
        "ja": """\
ROUGE（Lin、2004）：要約が参照と共有するもの（n-gram、最長共通部分列 **L**、その重み付き版 **W**、
スキップバイグラム **S**、スキップバイグラムとユニグラム **SU**）を、それぞれ適合率・再現率・F 値で示します。
各**変種**は 1 つのツールを正確に再現します：`rouge_score`（google-research rouge-score 0.1.2。HF evaluate の
`rouge` が使う実装。ここでの既定のトークナイザは、ラテン文字のテキストでは rouge-score と同じトークンを返し、
ほかの文字の単語も残します。CJK の文字は 1 文字が 1 トークン）または `rouge155`（ROUGE-1.5.5.pl：その
トークン、`-m` ステマー、`-s` ストップワード、`-l`/`-b` の長さ制限、参照の統合、スコアとしてそれが出力する
平均、すなわちブートストラップ平均の平均 `-c 95 -r 1000`）。テキストボックスの 1 行が 1 つの要約です。
`rougeLsum` は改行で文を区切りますが、改行を含められるのはアップロードした `.jsonl`、`.csv`、`.tsv`
ファイルだけです。このページは ngrameval の evaluate 指標 `metrics/rouge` を実行します。すべてのオプションは
指標カード（`metrics/rouge/README.md`）にあります。
""",
    },
    "rouge.explanation_intro": {
        "en": "The prediction's tokens, as the variant counts them, against one reference: “LCS” marks the tokens "
        "on the longest common subsequence (`rouge_score`: of the whole texts, as rougeL; summary level, "
        "sentence by sentence, with `rouge155` or rougeLsum alone), “1-gram” the other matched unigrams, "
        "“beyond clip” occurrences past the count in the reference.",
        "zh-CN": "按该变体计数方式得到的预测词元，相对一条参考：“LCS”标出最长公共子序列上的词元（`rouge_score`："
        "与 rougeL 一样取整段文本；使用 `rouge155` 或只选 rougeLsum 时为摘要级，逐句计算），“1-gram”标出"
        "其他匹配的一元组，“beyond clip”标出超过参考中次数的出现。",
        "ja": "変種が数えるとおりの予測のトークンを、1 つの参照に対して示します：「LCS」は最長共通部分列上の"
        "トークン（`rouge_score`：rougeL と同じくテキスト全体。`rouge155` または rougeLsum だけのときは"
        "要約レベルで文ごと）、「1-gram」はそれ以外の一致したユニグラム、「beyond clip」は参照での出現回数を"
        "超えた出現です。",
    },
    "rouge.note": {
        "en": "The reference is the one with the best F of the first type checked (each reference's score, from "
        "ngrameval, is listed after it): rouge-score's rule for several references. ROUGE-1.5.5's `-f B` "
        "picks by recall instead, and `pooled` (`-f A`) counts all references together.",
        "zh-CN": "所用参考是第一个选中类型 F 值最高的那条（各参考的得分由 ngrameval 计算，列在其后）：这是 rouge-score "
        "处理多条参考的规则。ROUGE-1.5.5 的 `-f B` 则按召回率选择，`pooled`（`-f A`）把全部参考合在一起计数。",
        "ja": "参照は、最初に選んだ種類の F 値が最も高いものです（各参照の ngrameval によるスコアをその後ろに示します）。"
        "これは複数の参照に対する rouge-score の規則です。ROUGE-1.5.5 の `-f B` は代わりに再現率で選び、"
        "`pooled`（`-f A`）はすべての参照をまとめて数えます。",
    },
    "rouge.types": {"en": "ROUGE types", "zh-CN": "ROUGE 类型", "ja": "ROUGE の種類"},
    "rouge.types_info": {
        "en": "S4 / SU4: skip-bigrams at most 4 words apart; S* / SU*: any distance",
        "zh-CN": "S4 / SU4：间隔至多 4 个词的跳跃二元组；S* / SU*：任意间隔",
        "ja": "S4 / SU4：間隔が最大 4 語のスキップバイグラム、S* / SU*：任意の間隔",
    },
    "rouge.multi_ref": {"en": "Several references", "zh-CN": "多条参考", "ja": "複数の参照"},
    "rouge.multi_ref_info": {
        "en": "default: rouge_score best, rouge155 pooled",
        "zh-CN": "default：rouge_score 用 best，rouge155 用 pooled",
        "ja": "default：rouge_score は best、rouge155 は pooled",
    },
    "rouge.tokenizer": {
        "en": "Tokenizer (rouge_score)",
        "zh-CN": "分词器（rouge_score）",
        "ja": "トークナイザ（rouge_score）",
    },
    "rouge.tokenizer_info": {
        "en": "default: rouge-score's tokens + other scripts' words",
        "zh-CN": "default：rouge-score 的词元 + 其他文字的词",
        "ja": "default：rouge-score のトークン + ほかの文字の単語",
    },
    "rouge.stemmer": {"en": "Stemmer", "zh-CN": "词干化", "ja": "ステマー"},
    "rouge.stemmer_info": {
        "en": "Porter (rouge_score); -m (rouge155)",
        "zh-CN": "Porter（rouge_score）；-m（rouge155）",
        "ja": "Porter（rouge_score）、-m（rouge155）",
    },
    "rouge.stopwords": {"en": "Remove stop words", "zh-CN": "去除停用词", "ja": "ストップワードを除く"},
    "rouge.stopwords_info": {
        "en": "ROUGE-1.5.5's list (-s)",
        "zh-CN": "ROUGE-1.5.5 的列表（-s）",
        "ja": "ROUGE-1.5.5 のリスト（-s）",
    },
    "rouge.limit_words": {
        "en": "Limit words (rouge155 -l)",
        "zh-CN": "词数上限（rouge155 -l）",
        "ja": "単語数の上限（rouge155 -l）",
    },
    "rouge.limit_bytes": {
        "en": "Limit bytes (rouge155 -b)",
        "zh-CN": "字节数上限（rouge155 -b）",
        "ja": "バイト数の上限（rouge155 -b）",
    },
    "rouge.limit_info": {"en": "blank or 0: none", "zh-CN": "留空或 0：不限制", "ja": "空欄または 0：制限なし"},
    "rouge.f_plot": {"en": "F-measure per type", "zh-CN": "各类型的 F 值", "ja": "種類ごとの F 値"},
    "rouge.per_type": {"en": "Per ROUGE type", "zh-CN": "按 ROUGE 类型", "ja": "ROUGE の種類ごと"},
    # ------------------------------------------------------------------ METEOR
    "meteor.title": {
        "en": "METEOR, exact to METEOR 1.5 or NLTK's meteor_score",
        "zh-CN": "METEOR：与 METEOR 1.5 或 NLTK 的 meteor_score 完全一致",
        "ja": "METEOR：METEOR 1.5 または NLTK の meteor_score と完全に一致",
    },
    "meteor.intro": {
        "en": """\
METEOR (Banerjee and Lavie, 2005) **aligns** the words of a prediction with a reference in stages --
identical words (**exact**), then words with the same **stem**, then WordNet **synonyms**, and in METEOR 1.5
**paraphrases** from a phrase table -- choosing the alignment with the fewest **chunks** (runs of matched
words adjacent and in the same order on both sides). From the matches it computes precision P, recall R,
their recall-weighted harmonic mean Fmean = P R / (alpha P + (1 - alpha) R), and a fragmentation penalty
gamma (chunks / matches)^beta; the score is Fmean (1 - penalty), against the best reference. The two tools
in use give different numbers, so **variant** picks the one to reproduce exactly: `meteor15` (default:
meteor-1.5.jar as pycocoevalcap runs it for captioning papers, `-l en -norm`; its corpus score comes from
the statistics summed over all segments) or `nltk` (NLTK 3.10.4's `meteor_score`, what Hugging Face's
`meteor` runs; the corpus score is the mean of the segment scores). Both run in Python, without Java and
without downloads. The page runs the evaluate metric `metrics/meteor` of ngrameval; its metric card
(`metrics/meteor/README.md`) lists every option.
""",
        "zh-CN": """\
METEOR（Banerjee 和 Lavie，2005）分阶段把预测的词与参考**对齐**：先是相同的词（**exact**），再是词干相同
的词（**stem**），然后是 WordNet **同义词**（synonym），METEOR 1.5 还使用短语表中的**释义**（paraphrase），
并选择**块**（chunk，即两侧都相邻且顺序相同的一串匹配词）最少的对齐。由匹配计算精确率 P、召回率 R、
偏重召回的调和平均 Fmean = P R / (alpha P + (1 - alpha) R)，以及碎片惩罚 gamma (chunks / matches)^beta；
得分为 Fmean (1 - penalty)，取相对最佳参考的值。常用的两个工具给出的数值不同，因此由**变体**选择要精确复现
的一个：`meteor15`（默认：pycocoevalcap 为图像描述论文运行的 meteor-1.5.jar，`-l en -norm`；语料得分由
全部片段的统计量求和得到）或 `nltk`（NLTK 3.10.4 的 `meteor_score`，即 Hugging Face 的 `meteor` 所用实现；
语料得分为各片段得分的平均）。两者都在 Python 中运行，无需 Java，也无需下载。本页面运行 ngrameval 的
evaluate 指标 `metrics/meteor`；其指标卡（`metrics/meteor/README.md`）列出了全部选项。
""",
        "ja": """\
METEOR（Banerjee と Lavie、2005）は予測の単語を参照と段階的に**アラインメント**します。まず同じ単語
（**exact**）、次に語幹が同じ単語（**stem**）、続いて WordNet の**同義語**（synonym）、METEOR 1.5 では
さらにフレーズテーブルの**言い換え**（paraphrase）を使い、**チャンク**（両側で隣り合い同じ順に並ぶ一致語の
まとまり）が最も少ないアラインメントを選びます。一致から適合率 P、再現率 R、再現率を重視した調和平均
Fmean = P R / (alpha P + (1 - alpha) R)、断片化ペナルティ gamma (chunks / matches)^beta を求め、スコアは
最良の参照に対する Fmean (1 - penalty) です。よく使われる 2 つのツールは異なる値を出すため、**変種**で正確に
再現するものを選びます：`meteor15`（既定：pycocoevalcap がキャプション生成の論文向けに実行する
meteor-1.5.jar、`-l en -norm`。コーパスのスコアは全セグメントの統計量の合計から求めます）または `nltk`
（NLTK 3.10.4 の `meteor_score`。Hugging Face の `meteor` が使う実装。コーパスのスコアはセグメントの
スコアの平均）。どちらも Java もダウンロードも使わず Python で動きます。このページは ngrameval の evaluate
指標 `metrics/meteor` を実行します。すべてのオプションは指標カード（`metrics/meteor/README.md`）にあります。
""",
    },
    "meteor.explanation_intro": {
        "en": "The prediction's words as the variant aligns them (METEOR 1.5: its normalized words; NLTK: its "
        "tokens, compared lowercased), coloured by the module that matched them: exact, stem, synonym or "
        "paraphrase (METEOR 1.5 matches phrases too); uncoloured words are unmatched. Under the references, "
        "the alignment with the best one: both sentences, each chunk boxed and numbered in the prediction's "
        "order. The first table lists the matches, the second the score's parts against each reference alone.",
        "zh-CN": "按该变体对齐方式得到的预测词（METEOR 1.5：其规范化后的词；NLTK：其词元，转为小写后比较），按匹配它们的"
        "模块着色：exact、stem、synonym 或 paraphrase（METEOR 1.5 也匹配短语）；未着色的词没有匹配。参考下方"
        "是与最佳参考的对齐：两个句子中的每个块都加框，并按预测中的顺序编号。第一个表列出各个匹配，第二个表给出"
        "相对每条参考单独计算的得分组成部分。",
        "ja": "変種がアラインメントするとおりの予測の単語（METEOR 1.5：正規化した単語。NLTK：トークンを小文字にして"
        "比較）を、一致させたモジュールで色分けします：exact、stem、synonym、paraphrase（METEOR 1.5 は句も"
        "一致させます）。色のない単語は一致していません。参照の下には最良の参照とのアラインメントを示します："
        "両方の文で各チャンクを枠で囲み、予測での順に番号を付けます。1 つ目の表は一致の一覧、2 つ目は各参照"
        "だけに対するスコアの内訳です。",
    },
    "meteor.note": {
        "en": "METEOR 1.5 weighs each match by its module (the module weights) and content words against function "
        "words (delta), so its P and R are not plain word counts; NLTK counts words.",
        "zh-CN": "METEOR 1.5 按模块（模块权重）以及实词与虚词（delta）为每个匹配加权，因此它的 P 和 R 不是单纯的词数；"
        "NLTK 则按词计数。",
        "ja": "METEOR 1.5 は各一致をモジュール（モジュールの重み）と、内容語か機能語か（delta）で重み付けするため、"
        "P と R は単純な単語数ではありません。NLTK は単語を数えます。",
    },
    "meteor.matches": {
        "en": "Matches, in the prediction's order (positions: word numbers, from 1)",
        "zh-CN": "匹配，按预测中的顺序（positions：词的序号，从 1 开始）",
        "ja": "一致（予測での順。positions：単語番号、1 から）",
    },
    "meteor.per_reference": {
        "en": "Against each reference alone (the best one is used)",
        "zh-CN": "相对每条参考单独计算（使用最佳的一条）",
        "ja": "各参照だけに対して（最良のものを使用）",
    },
    "meteor.variant_info": {
        "en": "meteor15: meteor-1.5.jar (pycocoevalcap); nltk: NLTK's meteor_score (HF evaluate)",
        "zh-CN": "meteor15：meteor-1.5.jar（pycocoevalcap）；nltk：NLTK 的 meteor_score（HF evaluate）",
        "ja": "meteor15：meteor-1.5.jar（pycocoevalcap）、nltk：NLTK の meteor_score（HF evaluate）",
    },
    "meteor.task": {"en": "Task", "zh-CN": "任务", "ja": "タスク"},
    "meteor.task_info": {
        "en": "the jar's -t: parameters and module weights",
        "zh-CN": "jar 的 -t：参数与模块权重",
        "ja": "jar の -t：パラメータとモジュールの重み",
    },
    "meteor.normalization": {"en": "Normalization", "zh-CN": "规范化", "ja": "正規化"},
    "meteor.normalization_info": {
        "en": "norm: pycocoevalcap's -norm",
        "zh-CN": "norm：pycocoevalcap 的 -norm",
        "ja": "norm：pycocoevalcap の -norm",
    },
    "meteor.modules": {"en": "Modules", "zh-CN": "模块", "ja": "モジュール"},
    "meteor.modules_info": {
        "en": "run in this order; weights go by position (the jar's -m)",
        "zh-CN": "按此顺序运行；权重按位置对应（jar 的 -m）",
        "ja": "この順に実行。重みは位置で対応します（jar の -m）",
    },
    "meteor.weights": {"en": "Module weights (-w)", "zh-CN": "模块权重（-w）", "ja": "モジュールの重み（-w）"},
    "meteor.weights_placeholder": {
        "en": "blank: the task's, e.g. 1 0.6 0.8 0.6",
        "zh-CN": "留空：使用任务的权重，例如 1 0.6 0.8 0.6",
        "ja": "空欄：タスクのもの。例：1 0.6 0.8 0.6",
    },
    "meteor.parameters_placeholder": {
        "en": "blank: the task's; given: instead of the task",
        "zh-CN": "留空：使用任务的参数；填写：代替任务",
        "ja": "空欄：タスクのもの。指定：タスクの代わりに使用",
    },
    "meteor.beam_size": {"en": "Beam size (-x)", "zh-CN": "束宽（-x）", "ja": "ビーム幅（-x）"},
    "meteor.tokenizer_info": {
        "en": "nltk: NLTK's word tokenizer on the whole line; whitespace: split on spaces",
        "zh-CN": "nltk：对整行使用 NLTK 的词切分器；whitespace：按空格切分",
        "ja": "nltk：行全体に NLTK の単語トークナイザ、whitespace：空白で分割",
    },
    "meteor.parts": {"en": "The score's parts", "zh-CN": "得分的组成部分", "ja": "スコアの内訳"},
    # ------------------------------------------------------------------ CIDEr
    "cider.title": {
        "en": "CIDEr-D and CIDEr, exact to pycocoevalcap 1.2",
        "zh-CN": "CIDEr-D 与 CIDEr：与 pycocoevalcap 1.2 完全一致",
        "ja": "CIDEr-D と CIDEr：pycocoevalcap 1.2 と完全に一致",
    },
    "cider.intro": {
        "en": """\
CIDEr (Vedantam et al., 2015) scores a caption by its **consensus** with the references: each text becomes
a vector of its n-grams (n = 1..4) weighted by **tf-idf**, where the idf is log(items / items whose
references contain the n-gram), so words every caption uses (*a*, *the*) weigh nothing and rare, specific
ones weigh most. An item scores the cosine similarity with each reference, averaged over orders and
references, times 10 (no fixed upper bound). **CIDEr-D** (the default, what pycocoevalcap 1.2 and COCO
leaderboards report) also clips the caption's weights at the reference's, against repeated words, and
multiplies by a Gaussian penalty on the length difference (sigma 6); `cider` is the original, without
either. Texts are split on whitespace as pycocoevalcap does (give PTB-tokenized, lowercased captions, or
pick a tokenizer). The idf comes from the references given (one item alone scores 0), or from an
uploaded table. The page runs the evaluate metric `metrics/cider` of ngrameval; its metric card lists
every option.
""",
        "zh-CN": """\
CIDEr（Vedantam 等，2015）按描述与参考的**共识**程度评分：每段文本表示为其 n-gram（n = 1..4）的向量，
以 **tf-idf** 加权，其中 idf 为 log(条目数 / 参考中含该 n-gram 的条目数)，因此所有描述都用的词（*a*、*the*）
权重为零，罕见而具体的词权重最大。一个条目的得分是它与每条参考的余弦相似度，在各阶数和各参考上取平均，
再乘以 10（没有固定上限）。**CIDEr-D**（默认，即 pycocoevalcap 1.2 和 COCO 排行榜报告的值）还会把描述的
权重截断到参考的权重以抑制重复词，并乘以长度差的高斯惩罚（sigma 6）；`cider` 是原始版本，两者都不做。
文本按 pycocoevalcap 的方式以空白切分（请给出经 PTB 分词并转为小写的描述，或选择一个分词器）。idf 来自给出的
参考（单个条目单独评分为 0），或来自上传的表。本页面运行 ngrameval 的 evaluate 指标 `metrics/cider`；
其指标卡列出了全部选项。
""",
        "ja": """\
CIDEr（Vedantam ら、2015）はキャプションを参照との**合意**（consensus）で採点します。各テキストを
**tf-idf** で重み付けした n-gram（n = 1..4）のベクトルにします。idf は log(項目数 / 参照にその n-gram を含む
項目数) なので、どのキャプションも使う単語（*a*、*the*）の重みはゼロ、まれで具体的な単語ほど重くなります。
項目のスコアは各参照とのコサイン類似度を次数と参照で平均し、10 倍したものです（決まった上限はありません）。
**CIDEr-D**（既定。pycocoevalcap 1.2 と COCO のリーダーボードが報告する値）は、繰り返し語への対策として
キャプションの重みを参照の重みでクリップし、長さの差に対するガウス型ペナルティ（sigma 6）を掛けます。
`cider` はどちらも行わない元の定義です。テキストは pycocoevalcap と同じく空白で分割します（PTB でトークン化
して小文字にしたキャプションを与えるか、トークナイザを選んでください）。idf は与えた参照から求めます
（1 項目だけなら 0 点）。アップロードした表から求めることもできます。このページは ngrameval の evaluate 指標
`metrics/cider` を実行します。すべてのオプションは指標カードにあります。
""",
    },
    "cider.explanation_intro": {
        "en": "The prediction's tokens, coloured by the idf of the word (rare words carry the most weight); “not in "
        "its references”: no reference of this item has the word, so it adds nothing to the cosine. The first "
        "table gives, per reference, the cosine similarity per order (CIDEr-D: with the prediction's weights "
        "clipped at the reference's), the length penalty and the reference's share of the score; the second, "
        "every n-gram of the prediction with its tf (count in the prediction), df (items whose references "
        "contain it), idf and weight tf × idf: the vector CIDEr compares.",
        "zh-CN": "预测的词元，按词的 idf 着色（罕见词权重最大）；“not in its references”：该条目的参考中都没有这个词，"
        "因此它对余弦没有贡献。第一个表按参考给出各阶的余弦相似度（CIDEr-D：预测的权重截断到参考的权重）、"
        "长度惩罚以及该参考在得分中的份额；第二个表列出预测的每个 n-gram 及其 tf（在预测中的次数）、df（参考中"
        "含它的条目数）、idf 和权重 tf × idf，即 CIDEr 所比较的向量。",
        "ja": "予測のトークンを単語の idf で色分けしています（まれな単語ほど重い）。「not in its references」：この項目の"
        "どの参照にもない単語で、コサインに何も加えません。1 つ目の表は参照ごとに、次数ごとのコサイン類似度"
        "（CIDEr-D：予測の重みを参照の重みでクリップ）、長さペナルティ、その参照のスコアへの寄与を示します。"
        "2 つ目は予測のすべての n-gram と、その tf（予測での出現回数）、df（参照にそれを含む項目数）、idf、"
        "重み tf × idf、つまり CIDEr が比べるベクトルです。",
    },
    "cider.note": {
        "en": "The item's score is the mean of the last column over its references; CIDEr is the mean over items.",
        "zh-CN": "条目的得分是最后一列在其各参考上的平均；CIDEr 是各条目得分的平均。",
        "ja": "項目のスコアは最後の列の参照全体での平均で、CIDEr は項目全体での平均です。",
    },
    "cider.ngrams": {
        "en": "The prediction's n-grams (tf: count in the prediction; df: items whose references contain it; "
        "weight: tf × idf; in its references: how many of this item's references have it)",
        "zh-CN": "预测的 n-gram（tf：在预测中的次数；df：参考中含它的条目数；weight：tf × idf；in its references："
        "该条目的参考中有几条含它）",
        "ja": "予測の n-gram（tf：予測での出現回数。df：参照にそれを含む項目数。weight：tf × idf。in its references："
        "この項目の参照のうちそれを含む数）",
    },
    "cider.variant_info": {
        "en": "cider-d: pycocoevalcap 1.2; cider: the original",
        "zh-CN": "cider-d：pycocoevalcap 1.2；cider：原始版本",
        "ja": "cider-d：pycocoevalcap 1.2、cider：元の定義",
    },
    "cider.tokenizer_info": {
        "en": "none = split on whitespace (pycocoevalcap); ptb = its PTB tokenizer",
        "zh-CN": "none = 按空白切分（pycocoevalcap）；ptb = 其 PTB 分词器",
        "ja": "none = 空白で分割（pycocoevalcap）、ptb = その PTB トークナイザ",
    },
    "cider.max_order": {
        "en": "max_order (highest n-gram order)",
        "zh-CN": "max_order（最高 n-gram 阶数）",
        "ja": "max_order（n-gram の最大次数）",
    },
    "cider.sigma": {"en": "sigma (CIDEr-D)", "zh-CN": "sigma（CIDEr-D）", "ja": "sigma（CIDEr-D）"},
    "cider.sigma_info": {
        "en": "the length penalty's standard deviation; blank: 6",
        "zh-CN": "长度惩罚的标准差；留空：6",
        "ja": "長さペナルティの標準偏差。空欄：6",
    },
    "cider.idf_table": {
        "en": "idf table (.json written by ngrameval.cider.DocumentFrequency.save; empty: the references given)",
        "zh-CN": "idf 表（由 ngrameval.cider.DocumentFrequency.save 写出的 .json；留空：使用给出的参考）",
        "ja": "idf の表（ngrameval.cider.DocumentFrequency.save が書いた .json。空欄：与えた参照）",
    },
    "cider.share_plot": {
        "en": "Share of the score per order",
        "zh-CN": "各阶在得分中的份额",
        "ja": "次数ごとのスコアへの寄与",
    },
    "cider.per_reference": {
        "en": "Per reference (cosine per order before the penalty)",
        "zh-CN": "按参考（惩罚前各阶的余弦）",
        "ja": "参照ごと（ペナルティ前の次数ごとのコサイン）",
    },
    # ------------------------------------------------------------------ COCO caption
    "coco.title": {
        "en": "COCO caption metrics (BLEU, METEOR, ROUGE-L, CIDEr-D), exact to pycocoevalcap 1.2",
        "zh-CN": "COCO 图像描述指标（BLEU、METEOR、ROUGE-L、CIDEr-D）：与 pycocoevalcap 1.2 完全一致",
        "ja": "COCO キャプション指標（BLEU、METEOR、ROUGE-L、CIDEr-D）：pycocoevalcap 1.2 と完全に一致",
    },
    "coco.spice": {
        "en": "SPICE is not computed: it needs the Stanford CoreNLP parser models (Java), which no package registry "
        "ships, and this page works offline.",
        "zh-CN": "不计算 SPICE：它需要 Stanford CoreNLP 的句法分析模型（Java），没有任何软件包仓库提供这些模型，而本页面"
        "离线运行。",
        "ja": "SPICE は計算しません。Stanford CoreNLP の構文解析モデル（Java）が必要で、どのパッケージレジストリも"
        "配布しておらず、このページはオフラインで動くためです。",
    },
    "coco.intro": {
        "en": """\
The numbers captioning and data-to-text papers report from the COCO caption evaluation code
(pycocoevalcap 1.2): **BLEU-1 to BLEU-4, METEOR 1.5, ROUGE-L and CIDEr-D**, after Stanford's PTB
tokenization (lowercased, punctuation dropped), with pycocoevalcap's own rules (BLEU: the closest reference
length and tiny epsilons instead of smoothing; ROUGE-L: beta 1.2, best precision and best recall over the
references; CIDEr-D: document frequencies from the references given). Everything runs in Python, without
Java, and reproduces pycocoevalcap's numbers. **Tokenizer** `none` takes the texts as they are (what
nlg-eval does). {spice} The page runs the evaluate metric `metrics/coco_caption` of ngrameval; its metric
card lists every option. Upload COCO's own files (a results JSON and the references) in *Upload files*.
""",
        "zh-CN": """\
图像描述和数据到文本论文用 COCO 图像描述评测代码（pycocoevalcap 1.2）报告的数值：**BLEU-1 至 BLEU-4、
METEOR 1.5、ROUGE-L 和 CIDEr-D**，先经 Stanford 的 PTB 分词（转为小写，去掉标点），并遵循 pycocoevalcap 自身的
规则（BLEU：最接近的参考长度，以极小的 epsilon 代替平滑；ROUGE-L：beta 1.2，在各参考上取最佳精确率和最佳召回率；
CIDEr-D：文档频率来自给出的参考）。全部在 Python 中运行，无需 Java，并复现 pycocoevalcap 的数值。**分词器**
`none` 按原样使用文本（nlg-eval 的做法）。{spice} 本页面运行 ngrameval 的 evaluate 指标 `metrics/coco_caption`；
其指标卡列出了全部选项。可在*上传文件*中上传 COCO 自己的文件（结果 JSON 和参考）。
""",
        "ja": """\
キャプション生成や data-to-text の論文が COCO キャプション評価コード（pycocoevalcap 1.2）で報告する値：
**BLEU-1～BLEU-4、METEOR 1.5、ROUGE-L、CIDEr-D** を、Stanford の PTB トークン化（小文字化、句読点の除去）の
後に、pycocoevalcap 自身の規則（BLEU：最も近い参照の長さと、平滑化の代わりのごく小さな epsilon。ROUGE-L：
beta 1.2、参照全体での最良の適合率と最良の再現率。CIDEr-D：与えた参照から求める文書頻度）で計算します。
すべて Java を使わず Python で動き、pycocoevalcap の値を再現します。**トークナイザ** `none` はテキストを
そのまま使います（nlg-eval と同じ）。{spice} このページは ngrameval の evaluate 指標 `metrics/coco_caption` を
実行します。すべてのオプションは指標カードにあります。COCO 自身のファイル（結果の JSON と参照）は
*ファイルをアップロード* からアップロードできます。
""",
    },
    "coco.explanation_intro": {
        "en": "The prediction's tokens as the metrics see them (after the tokenizer), labelled with the highest "
        "order of a BLEU n-gram match covering them (clipped counts against all references together, as "
        "pycocoevalcap's BLEU; “beyond clip”: occurrences past the clip). The table gives every metric's "
        "score of this item.",
        "zh-CN": "各指标所见的预测词元（经分词器处理后），标注为覆盖它们的 BLEU n-gram 匹配的最高阶数（与 pycocoevalcap "
        "的 BLEU 一样，相对全部参考合计截断计数；“beyond clip”：超出截断的出现）。表中给出该条目在每个指标"
        "上的得分。",
        "ja": "指標から見た予測のトークン（トークナイザの後）に、それを覆う BLEU の n-gram 一致の最高次数のラベルを"
        "付けています（pycocoevalcap の BLEU と同じく、すべての参照をまとめたものに対するクリップ後の回数。"
        "「beyond clip」：クリップを超えた出現）。表はこの項目の各指標のスコアです。",
    },
    "coco.note": {
        "en": "An item's BLEU is pycocoevalcap's per-image BLEU (its brevity penalty from this item alone); the "
        "corpus BLEU pools the counts of all items, so it is not the mean of the item scores. The CIDEr "
        "Space explains an item's CIDEr-D (its n-grams' idf weights).",
        "zh-CN": "条目的 BLEU 是 pycocoevalcap 的逐图像 BLEU（简短惩罚只由该条目计算）；语料 BLEU 汇总全部条目的计数，"
        "因此不是各条目得分的平均。CIDEr 的 Space 会解释条目的 CIDEr-D（其 n-gram 的 idf 权重）。",
        "ja": "項目の BLEU は pycocoevalcap の画像ごとの BLEU（簡潔さペナルティはこの項目だけから）です。コーパスの "
        "BLEU は全項目の回数をまとめて求めるので、項目スコアの平均ではありません。項目の CIDEr-D（n-gram の "
        "idf の重み）は CIDEr の Space で説明しています。",
    },
    "coco.tokenizer_info": {
        "en": "ptb: pycocoevalcap's PTBTokenizer (in Python); none: the texts as they are",
        "zh-CN": "ptb：pycocoevalcap 的 PTBTokenizer（Python 实现）；none：按原样使用文本",
        "ja": "ptb：pycocoevalcap の PTBTokenizer（Python 版）、none：テキストをそのまま",
    },
    "coco.metrics": {"en": "Metrics", "zh-CN": "指标", "ja": "指標"},
    "coco.metrics_info": {
        "en": "SPICE is not offered: it needs Stanford CoreNLP models that no registry ships",
        "zh-CN": "不提供 SPICE：它需要没有任何仓库提供的 Stanford CoreNLP 模型",
        "ja": "SPICE はありません。どのレジストリも配布していない Stanford CoreNLP のモデルが必要です",
    },
    "coco.corpus_plot": {
        "en": "Corpus score per metric (CIDEr-D is ×10)",
        "zh-CN": "各指标的语料得分（CIDEr-D 为 ×10）",
        "ja": "指標ごとのコーパスのスコア（CIDEr-D は ×10）",
    },
    "coco.per_metric": {"en": "Per metric", "zh-CN": "按指标", "ja": "指標ごと"},
    "coco.ngrams": {
        "en": "BLEU's matched n-grams (count: in the prediction; clipped count: at most the count in a reference; "
        "positions: token numbers, from 1)",
        "zh-CN": "BLEU 匹配的 n-gram（count：在预测中的次数；clipped count：至多为在某条参考中的次数；positions："
        "词元序号，从 1 开始）",
        "ja": "BLEU で一致した n-gram（count：予測での出現回数。clipped count：いずれかの参照での出現回数が上限。"
        "positions：トークン番号、1 から）",
    },
    "coco.item_scores": {"en": "This item's scores", "zh-CN": "该条目的得分", "ja": "この項目のスコア"},
    # ------------------------------------------------------------------ the leaderboard
    "lb.header": {"en": "# ngrameval leaderboard", "zh-CN": "# ngrameval 排行榜", "ja": "# ngrameval リーダーボード"},
    "lb.intro": {
        "en": "Rank several systems on one test set, as `ngrameval score` does on the command line: every chosen "
        "metric's corpus score with its signature, sacrebleu's paired bootstrap or approximate randomization "
        "test of every system against the **baseline** (p-values; † marks a system not significantly "
        "different from it, ▲ / ▼ one significantly better / worse, by the metric's direction: a lower TER is "
        "better), or bootstrap confidence intervals, the charts of the HTML report, and the "
        "segments where two systems differ most. Upload one text file per reference (line *k* is the "
        "reference of segment *k*) and one text file per system (any name, `.gz` too), or a `.zip` of system "
        "files; a system is named after its file. Files are read as sacrebleu's command line reads them (lines end at `\\n`, "
        "trailing whitespace stripped).",
        "zh-CN": "在同一测试集上为多个系统排名，与命令行的 `ngrameval score` 相同：每个所选指标的语料级分数及其签名、"
        "每个系统相对于**基线**的 sacrebleu 配对自助法（paired bootstrap）或近似随机化检验（p 值；† 表示与基线无显著差异，"
        "▲ / ▼ 表示按该指标的方向显著优于 / 劣于基线：TER 越低越好），"
        "或自助法置信区间，HTML 报告中的图表，以及两个系统差异最大的片段。每条参考上传一个文本文件"
        "（第 *k* 行是第 *k* 个片段的参考），每个系统上传一个文本文件（任意文件名，也可为 `.gz`），或上传系统文件的 `.zip`；"
        "系统以其文件名命名。文件按 sacrebleu 命令行的方式读取（行以 `\\n` 结束，去掉行尾空白）。",
        "ja": "1 つのテストセットで複数のシステムを順位付けします（コマンドラインの `ngrameval score` と同じ）：選んだ"
        "各指標のコーパススコアとシグネチャ、**ベースライン**に対する各システムの sacrebleu のペアブートストラップ"
        "または近似ランダム化検定（p 値。† はベースラインと有意差がないシステム、"
        "▲ / ▼ は指標の向きで見てベースラインより有意に良い / 悪いシステム：TER は低いほど良い）、またはブートストラップ信頼区間、"
        "HTML レポートのグラフ、2 つのシステムの差が最も大きいセグメントを示します。参照ごとにテキストファイルを 1 つ"
        "（*k* 行目がセグメント *k* の参照）、システムごとにテキストファイルを 1 つ（名前は自由、`.gz` も可）、"
        "またはシステムファイルの `.zip` をアップロードしてください。システム名はファイル名です。ファイルは sacrebleu のコマンドラインと同じく"
        "読み込みます（行は `\\n` で終わり、行末の空白は除きます）。",
    },
    "lb.references": {
        "en": "References (text files, .gz or .zip; one file per reference)",
        "zh-CN": "参考（文本文件、.gz 或 .zip；每条参考一个文件）",
        "ja": "参照（テキストファイル、.gz または .zip。参照ごとに 1 ファイル）",
    },
    "lb.systems": {
        "en": "Systems (text files, .gz, or a .zip of them)",
        "zh-CN": "系统（文本文件、.gz 或其 .zip）",
        "ja": "システム（テキストファイル、.gz、またはその .zip）",
    },
    "lb.metrics": {"en": "Metrics", "zh-CN": "指标", "ja": "指標"},
    "lb.baseline": {
        "en": "Baseline (the paired tests' reference system)",
        "zh-CN": "基线（配对检验的对照系统）",
        "ja": "ベースライン（ペア検定の比較対象システム）",
    },
    "lb.test": {
        "en": "Paired test against the baseline",
        "zh-CN": "相对于基线的配对检验",
        "ja": "ベースラインに対するペア検定",
    },
    "lb.confidence": {
        "en": "Bootstrap confidence intervals",
        "zh-CN": "自助法置信区间",
        "ja": "ブートストラップ信頼区間",
    },
    "lb.samples": {
        "en": "Samples (sacrebleu's: {bootstrap} bootstrap, {randomization} randomization; at most {limit})",
        "zh-CN": "样本数（sacrebleu 的默认值：自助法 {bootstrap}，随机化 {randomization}；最多 {limit}）",
        "ja": "サンプル数（sacrebleu の既定値：ブートストラップ {bootstrap}、ランダム化 {randomization}。"
        "最大 {limit}）",
    },
    "lb.seed": {"en": "Seed", "zh-CN": "随机种子", "ja": "シード"},
    "lb.scale": {"en": "Scores x 100", "zh-CN": "分数 x 100", "ja": "スコア x 100"},
    "lb.options": {"en": "Metric options", "zh-CN": "指标选项", "ja": "指標のオプション"},
    "lb.options_info": {
        "en": "One METRIC.NAME=VALUE a line, as ngrameval score --option: bleu.tokenize=zh, rouge.use_stemmer=true, "
        "bleu.max_order=3, chrf.word_order=2.",
        "zh-CN": "每行一个 METRIC.NAME=VALUE，与 ngrameval score --option 相同：bleu.tokenize=zh、"
        "rouge.use_stemmer=true、bleu.max_order=3、chrf.word_order=2。",
        "ja": "1 行に 1 つの METRIC.NAME=VALUE（ngrameval score --option と同じ）：bleu.tokenize=zh、"
        "rouge.use_stemmer=true、bleu.max_order=3、chrf.word_order=2。",
    },
    "lb.submit": {"en": "Rank the systems", "zh-CN": "为系统排名", "ja": "システムを順位付け"},
    "lb.board": {"en": "Leaderboard", "zh-CN": "排行榜", "ja": "リーダーボード"},
    "lb.pair": {"en": "Where two systems differ", "zh-CN": "两个系统的差异之处", "ja": "2 つのシステムの違い"},
    "lb.report": {"en": "The HTML report", "zh-CN": "HTML 报告", "ja": "HTML レポート"},
    "lb.bars": {"en": "Scores per system", "zh-CN": "各系统的分数", "ja": "システムごとのスコア"},
    "lb.distributions": {
        "en": "Segment scores (each segment scored alone)",
        "zh-CN": "片段分数（每个片段单独计分）",
        "ja": "セグメントスコア（各セグメントを単独で採点）",
    },
    "lb.scored": {
        "en": "{systems} systems, {segments} segments, ranked by {column}.",
        "zh-CN": "{systems} 个系统，{segments} 个片段，按 {column} 排名。",
        "ja": "{systems} システム、{segments} セグメント、{column} で順位付け。",
    },
    "lb.error.no_metric": {
        "en": "pick at least one metric",
        "zh-CN": "请至少选择一个指标",
        "ja": "指標を 1 つ以上選んでください",
    },
    "lb.error.no_references": {
        "en": "upload at least one reference file",
        "zh-CN": "请至少上传一个参考文件",
        "ja": "参照ファイルを 1 つ以上アップロードしてください",
    },
    "lb.error.no_systems": {
        "en": "upload the systems' files (or a .zip of them)",
        "zh-CN": "请上传各系统的文件（或其 .zip）",
        "ja": "システムのファイル（またはその .zip）をアップロードしてください",
    },
    "lb.error.too_large": {
        "en": "{name}: the uploads come to more than {limit:g} MB (.gz and .zip files unpacked), the limit",
        "zh-CN": "{name}：上传内容超过 {limit:g} MB（.gz 与 .zip 文件按解压后计算），即上限",
        "ja": "{name}：アップロードが {limit:g} MB（.gz と .zip は展開後の大きさ）を超えました。これが上限です",
    },
    "lb.error.not_zip": {
        "en": "{name} is not a zip file",
        "zh-CN": "{name} 不是 zip 文件",
        "ja": "{name} は zip ファイルではありません",
    },
    "lb.error.zip_empty": {
        "en": "{name} holds no file",
        "zh-CN": "{name} 中没有文件",
        "ja": "{name} にファイルがありません",
    },
    "lb.error.not_gzip": {
        "en": "{name} is not a gzip file",
        "zh-CN": "{name} 不是 gzip 文件",
        "ja": "{name} は gzip ファイルではありません",
    },
    "lb.error.too_many_files": {
        "en": "{count} files; the limit is {limit}",
        "zh-CN": "{count} 个文件；上限为 {limit}",
        "ja": "{count} ファイルです。上限は {limit} です",
    },
    "lb.error.too_many_segments": {
        "en": "{count:,} segments; the limit is {limit:,}",
        "zh-CN": "{count:,} 个片段；上限为 {limit:,}",
        "ja": "{count:,} セグメントです。上限は {limit:,} です",
    },
    "lb.error.samples": {
        "en": "Samples must be a whole number from 1 to {limit:,}, got {value:g}",
        "zh-CN": "样本数必须是 1 到 {limit:,} 之间的整数，收到的是 {value:g}",
        "ja": "サンプル数は 1 から {limit:,} までの整数にしてください（{value:g} が指定されました）",
    },
    "lb.error.seed": {
        "en": "Seed must be a whole number of at least 0, got {value:g}",
        "zh-CN": "随机种子必须是不小于 0 的整数，收到的是 {value:g}",
        "ja": "シードは 0 以上の整数にしてください（{value:g} が指定されました）",
    },
    "lb.error.baseline": {
        "en": "the baseline {name!r} is not one of the systems: {names}",
        "zh-CN": "基线 {name!r} 不在系统中：{names}",
        "ja": "ベースライン {name!r} はシステムの中にありません：{names}",
    },
    "lb.error.pair": {
        "en": "a paired test needs at least two systems",
        "zh-CN": "配对检验至少需要两个系统",
        "ja": "ペア検定には 2 つ以上のシステムが必要です",
    },
    # ------------------------------------------------------------------ the leaderboard serving a board
    "board.header": {"en": "# {title}", "zh-CN": "# {title}", "ja": "# {title}"},
    "board.intro": {
        "en": "A community leaderboard: {segments} segments, scored with {metrics}. Submit a system's output (one "
        "segment a line) under *Submit*: it is scored once and kept, and ranked with 95% bootstrap intervals "
        "and clusters of systems not significantly different from each other. The references are never "
        "shown. Limits: {limit} MB a file; {per_hour} submissions an hour from one address.",
        "zh-CN": "社区排行榜：{segments} 个片段，使用 {metrics} 计分。在“提交”中提交系统输出（每行一个片段）：它只计分一次"
        "并被保存，排名附 95% 自助法置信区间，以及彼此无显著差异的系统簇。参考从不公开。限制：每个文件 {limit} MB；"
        "每个地址每小时 {per_hour} 次提交。",
        "ja": "コミュニティのリーダーボード：{segments} セグメント、{metrics} で採点します。システムの出力（1 行に 1 "
        "セグメント）を「提出」から送ってください。採点は一度だけで保存され、95% ブートストラップ信頼区間と、互いに"
        "有意差のないシステムのクラスタとともに順位付けされます。参照は公開しません。制限：1 ファイル {limit} MB、"
        "1 アドレスにつき 1 時間に {per_hour} 件の提出。",
    },
    "board.tab_board": {"en": "Leaderboard", "zh-CN": "排行榜", "ja": "リーダーボード"},
    "board.tab_submit": {"en": "Submit", "zh-CN": "提交", "ja": "提出"},
    "board.tab_submission": {"en": "Submission", "zh-CN": "提交详情", "ja": "提出の詳細"},
    "board.refresh": {"en": "Refresh", "zh-CN": "刷新", "ja": "更新"},
    "board.report": {"en": "Make the HTML report", "zh-CN": "生成 HTML 报告", "ja": "HTML レポートを作成"},
    "board.report_made": {
        "en": "The report holds the best {count} of {total} submissions.",
        "zh-CN": "报告包含 {total} 个提交中最好的 {count} 个。",
        "ja": "レポートには {total} 件の提出のうち上位 {count} 件を載せています。",
    },
    "board.file": {
        "en": "System output (one segment a line: a text file of any name, a .gz, or a .zip of one "
        "file; at most {limit} MB)",
        "zh-CN": "系统输出（每行一个片段：任意文件名的文本文件、.gz，或只含一个文件的 .zip；最多 {limit} MB）",
        "ja": "システムの出力（1 行に 1 セグメント：任意の名前のテキストファイル、.gz、または 1 ファイルだけの "
        ".zip。最大 {limit} MB）",
    },
    "board.name": {
        "en": "Name (unique on the board)",
        "zh-CN": "名称（在排行榜上唯一）",
        "ja": "名前（ボード上で一意）",
    },
    "board.team": {"en": "Team", "zh-CN": "团队", "ja": "チーム"},
    "board.submit": {"en": "Submit", "zh-CN": "提交", "ja": "提出"},
    "board.stored_json": {"en": "The stored submission", "zh-CN": "已保存的提交", "ja": "保存された提出"},
    "board.submission": {"en": "Submission", "zh-CN": "提交", "ja": "提出"},
    "board.shown": {
        "en": "{count} submissions, {segments} segments, ranked by {column}.",
        "zh-CN": "{count} 个提交，{segments} 个片段，按 {column} 排名。",
        "ja": "{count} 件の提出、{segments} セグメント、{column} で順位付け。",
    },
    "board.empty": {"en": "No submission yet.", "zh-CN": "尚无提交。", "ja": "まだ提出はありません。"},
    "board.stale": {
        "en": "This ngrameval gives other signatures for {metrics}: the scores shown are the board's until "
        "it is rescored (ngrameval board rescore), and submissions wait until then.",
        "zh-CN": "当前 ngrameval 对 {metrics} 给出不同的签名：在排行榜重新计分（ngrameval board rescore）"
        "之前显示原有分数，新提交也需等待。",
        "ja": "この ngrameval は {metrics} に別のシグネチャを与えます：ボードを再採点する（ngrameval board "
        "rescore）まで表示はボードのスコアのままで、提出もそれまで受け付けません。",
    },
    "board.stored": {
        "en": "{name}: stored ({scores}). Its page is under Submission.",
        "zh-CN": "{name}：已保存（{scores}）。其详情见“提交详情”。",
        "ja": "{name}：保存しました（{scores}）。詳細は「提出の詳細」にあります。",
    },
    "board.refused": {"en": "Submission refused.", "zh-CN": "提交被拒绝。", "ja": "提出を受け付けませんでした。"},
    "board.not_shown": {"en": "Nothing to show.", "zh-CN": "没有可显示的内容。", "ja": "表示するものはありません。"},
    "board.link": {"en": "The page of {name}", "zh-CN": "{name} 的详情页", "ja": "{name} のページ"},
    "board.rank": {"en": "Rank", "zh-CN": "名次", "ja": "順位"},
    "board.cluster": {"en": "Cluster", "zh-CN": "簇", "ja": "クラスタ"},
    "board.time": {"en": "Submitted (UTC)", "zh-CN": "提交时间（UTC）", "ja": "提出日時（UTC）"},
    "board.digest": {"en": "SHA-256 of its segments", "zh-CN": "其片段的 SHA-256", "ja": "セグメントの SHA-256"},
    "board.score": {"en": "Score", "zh-CN": "分数", "ja": "スコア"},
    "board.signature": {"en": "Signature", "zh-CN": "签名", "ja": "シグネチャ"},
    "board.error.no_file": {
        "en": "upload the system's output file",
        "zh-CN": "请上传系统输出文件",
        "ja": "システムの出力ファイルをアップロードしてください",
    },
    "board.error.no_name": {
        "en": "give the submission a name",
        "zh-CN": "请为提交命名",
        "ja": "提出に名前を付けてください",
    },
    "board.error.lines": {
        "en": "{file} has {lines} lines, but the board has {segments} segments: one line per segment",
        "zh-CN": "{file} 有 {lines} 行，但排行榜有 {segments} 个片段：每个片段一行",
        "ja": "{file} は {lines} 行ですが、ボードは {segments} セグメントです：1 セグメントにつき 1 行",
    },
    "board.error.no_submission": {
        "en": "no submission named {name!r} on the board",
        "zh-CN": "排行榜上没有名为 {name!r} 的提交",
        "ja": "ボードに {name!r} という名前の提出はありません",
    },
    # ------------------------------------------------------------------ TER
    "ter.title": {
        "en": "TER, exact to sacrebleu",
        "zh-CN": "TER：与 sacrebleu 完全一致",
        "ja": "TER：sacrebleu と完全に一致",
    },
    "ter.intro": {
        "en": """\
TER (Snover et al., 2006), translation edit rate: the edits that turn a prediction into a reference --
word **insertions**, **deletions** and **substitutions**, and **shifts** (moving a block of words, one edit
whatever its length) -- per reference word; lower is better, and above 1 when the edits outnumber the
reference words. The page reproduces sacrebleu 2.6.0's `TER` exactly (what HF evaluate's `ter` runs):
its Tercom tokenizer, its greedy shift search and, with several references, the fewest edits over them
and their *average* length. Scores are fractions (sacrebleu prints them × 100). The page runs the evaluate
metric `metrics/ter` of ngrameval; its metric card (`metrics/ter/README.md`) lists every option.
""",
        "zh-CN": """\
TER（Snover 等，2006），翻译编辑率：把预测改成参考所需的编辑——词的**插入**、**删除**和**替换**，以及
**移位**（移动一段词，无论长短都算一次编辑）——除以参考的词数；越低越好，编辑数多于参考词数时会超过 1。
本页面精确复现 sacrebleu 2.6.0 的 `TER`（即 HF evaluate 的 `ter` 所用实现）：其 Tercom 分词器、贪心的移位
搜索，以及有多条参考时取其中最少的编辑数和参考的*平均*长度。得分为小数（sacrebleu 显示为 × 100）。本页面运行
ngrameval 的 evaluate 指标 `metrics/ter`；其指标卡（`metrics/ter/README.md`）列出了全部选项。
""",
        "ja": """\
TER（Snover ら、2006）、翻訳編集率：予測を参照に変える編集、つまり単語の**挿入**・**削除**・**置換**と
**シフト**（単語のまとまりの移動。長さにかかわらず 1 回の編集）を、参照の単語数で割ったものです。低いほど
良く、編集数が参照の単語数より多いと 1 を超えます。このページは sacrebleu 2.6.0 の `TER`（HF evaluate の
`ter` が使う実装）を正確に再現します：その Tercom トークナイザ、貪欲なシフト探索、そして参照が複数あるときは
その中で最も少ない編集数と参照の*平均*の長さ。スコアは小数です（sacrebleu は × 100 で表示）。このページは
ngrameval の evaluate 指標 `metrics/ter` を実行します。すべてのオプションは指標カード
（`metrics/ter/README.md`）にあります。
""",
    },
    "ter.explanation_intro": {
        "en": "The edits of the prediction against the reference the score uses (its fewest edits): first the "
        "shifts, each drawn on the words before it (the moved block in brackets, ↓ where it lands), then "
        "the alignment of the shifted prediction with that reference, column by column. The prediction's "
        "tokens below are coloured by what happens to them.",
        "zh-CN": "预测相对得分所用参考（编辑最少的那条）的编辑：先是各次移位，每次都画在移位前的词上（被移动的词块放在"
        "方括号中，↓ 表示落点），然后逐列给出移位后的预测与该参考的对齐。下方预测的词元按其经历的编辑着色。",
        "ja": "得点に使う参照（編集が最も少ないもの）に対する予測の編集です。まずシフトを、それぞれシフト前の単語の上に"
        "描きます（移動するまとまりは角かっこで囲み、↓ が移動先）。続いてシフト後の予測とその参照の"
        "アラインメントを列ごとに示します。下の予測のトークンは、それぞれに起きることで色分けしています。",
    },
    "ter.note": {
        "en": "An insertion is a reference word the prediction lacks, a deletion a prediction word the reference "
        "lacks (sacrebleu's wording). Positions count from 1; a shift's *from* is its position before the "
        "shift, *to* after it; the alignment's positions are those in the shifted prediction.",
        "zh-CN": "插入是预测缺少的参考词，删除是参考中没有的预测词（沿用 sacrebleu 的说法）。位置从 1 开始计数；移位的 "
        "*from* 是移位前的位置，*to* 是移位后的位置；对齐中的位置是在移位后的预测中的位置。",
        "ja": "挿入は予測にない参照の単語、削除は参照にない予測の単語です（sacrebleu の用語）。位置は 1 から数えます。"
        "シフトの *from* はシフト前の位置、*to* はシフト後の位置で、アラインメントの位置はシフト後の予測での"
        "位置です。",
    },
    "ter.normalized": {"en": "Normalized", "zh-CN": "规范化", "ja": "正規化"},
    "ter.normalized_info": {
        "en": "split punctuation, unescape &amp; etc.",
        "zh-CN": "切分标点，还原 &amp; 等转义",
        "ja": "句読点を分割し、&amp; などを元に戻す",
    },
    "ter.no_punct": {"en": "No punctuation", "zh-CN": "去除标点", "ja": "句読点を除く"},
    "ter.no_punct_info": {
        "en": 'delete . , ? : ; ! " ( ) (HF: ignore_punct)',
        "zh-CN": '删除 . , ? : ; ! " ( )（HF：ignore_punct）',
        "ja": '. , ? : ; ! " ( ) を削除（HF：ignore_punct）',
    },
    "ter.asian_support": {"en": "Asian support", "zh-CN": "亚洲文字支持", "ja": "アジア文字対応"},
    "ter.asian_support_info": {
        "en": "split CJK characters (HF: support_zh_ja_chars)",
        "zh-CN": "切分 CJK 字符（HF：support_zh_ja_chars）",
        "ja": "CJK の文字を分割（HF：support_zh_ja_chars）",
    },
    "ter.case_sensitive": {"en": "Case sensitive", "zh-CN": "区分大小写", "ja": "大文字と小文字を区別"},
    "ter.case_sensitive_info": {"en": "do not lowercase", "zh-CN": "不转为小写", "ja": "小文字にしない"},
    "ter.edits_plot": {"en": "Edits by kind", "zh-CN": "按类型的编辑数", "ja": "種類ごとの編集数"},
    "ter.edits_corpus": {
        "en": "Edits by kind (corpus)",
        "zh-CN": "按类型的编辑数（语料）",
        "ja": "種類ごとの編集数（コーパス）",
    },
    "ter.edits_segment": {"en": "Edits of this segment", "zh-CN": "该片段的编辑", "ja": "このセグメントの編集"},
    "ter.edits": {
        "en": "The edits (shifts in the order applied, then the word edits of the shifted prediction; "
        "positions from 1)",
        "zh-CN": "编辑（先按执行顺序列出移位，再列出移位后预测的词编辑；位置从 1 开始）",
        "ja": "編集（適用順のシフト、続いてシフト後の予測の単語編集。位置は 1 から）",
    },
    # ------------------------------------------------------------------ what a result shows: tables' column names,
    # the summary's parts, the score card's captions and notes (Phrase objects, put in the page's language)
    "column.order": {"en": "order", "zh-CN": "阶数", "ja": "次数"},
    "column.ngram": {"en": "n-gram", "zh-CN": "n-gram", "ja": "n-gram"},
    "column.count": {"en": "count", "zh-CN": "次数", "ja": "回数"},
    "column.clipped_count": {"en": "clipped count", "zh-CN": "截断后次数", "ja": "クリップ後の回数"},
    "column.positions": {"en": "positions", "zh-CN": "位置", "ja": "位置"},
    "column.information_weight": {"en": "information weight", "zh-CN": "信息权重", "ja": "情報量の重み"},
    "column.matched_clipped": {"en": "matched (clipped)", "zh-CN": "匹配数（截断后）", "ja": "一致数（クリップ後）"},
    "column.matches_clipped": {"en": "matches (clipped)", "zh-CN": "匹配数（截断后）", "ja": "一致数（クリップ後）"},
    "column.prediction_ngrams": {"en": "prediction n-grams", "zh-CN": "预测 n-gram 数", "ja": "予測の n-gram 数"},
    "column.reference_ngrams": {"en": "reference n-grams", "zh-CN": "参考 n-gram 数", "ja": "参照の n-gram 数"},
    "column.vs_reference": {"en": "vs reference {number}", "zh-CN": "对参考 {number}", "ja": "参照 {number} に対して"},
    "column.best_used": {"en": "best (used)", "zh-CN": "最佳（采用）", "ja": "最良（使用）"},
    "column.information": {"en": "information", "zh-CN": "信息量", "ja": "情報量"},
    "column.precision": {"en": "precision", "zh-CN": "精确率", "ja": "適合率"},
    "column.recall": {"en": "recall", "zh-CN": "召回率", "ja": "再現率"},
    "column.score": {"en": "score", "zh-CN": "得分", "ja": "スコア"},
    "column.score_of": {"en": "score ({caption})", "zh-CN": "得分（{caption}）", "ja": "スコア（{caption}）"},
    "column.sentences": {"en": "sentences", "zh-CN": "句子数", "ja": "文の数"},
    "column.part": {"en": "part", "zh-CN": "项", "ja": "項目"},
    "column.value": {"en": "value", "zh-CN": "值", "ja": "値"},
    "column.how": {"en": "how", "zh-CN": "计算方式", "ja": "求め方"},
    "column.image_id": {"en": "image id", "zh-CN": "图像 id", "ja": "画像 id"},
    "column.prediction": {"en": "prediction", "zh-CN": "预测", "ja": "予測"},
    "column.references": {"en": "references", "zh-CN": "参考", "ja": "参照"},
    "column.reference": {"en": "reference", "zh-CN": "参考", "ja": "参照"},
    "column.prediction_length": {"en": "prediction length", "zh-CN": "预测长度", "ja": "予測の長さ"},
    "column.reference_length": {"en": "reference length", "zh-CN": "参考长度", "ja": "参照の長さ"},
    "column.length": {"en": "length", "zh-CN": "长度", "ja": "長さ"},
    "column.brevity_penalty": {"en": "brevity penalty", "zh-CN": "简短惩罚", "ja": "簡潔さペナルティ"},
    "column.length_ratio": {"en": "length ratio", "zh-CN": "长度比", "ja": "長さの比"},
    "column.length_penalty": {"en": "length penalty", "zh-CN": "长度惩罚", "ja": "長さペナルティ"},
    "column.individual": {"en": "individual", "zh-CN": "单阶", "ja": "各次数"},
    "column.cumulative": {"en": "cumulative", "zh-CN": "累计", "ja": "累積"},
    "column.matched_information": {"en": "matched information", "zh-CN": "匹配信息量", "ja": "一致した情報量"},
    "column.matches": {"en": "matches", "zh-CN": "匹配数", "ja": "一致数"},
    "column.matches_all_orders": {"en": "matches (all orders)", "zh-CN": "匹配数（所有阶）", "ja": "一致数（全次数）"},
    "column.max_ngrams": {
        "en": "max(prediction, reference) n-grams",
        "zh-CN": "max(预测, 参考) n-gram 数",
        "ja": "max(予測, 参照) の n-gram 数",
    },
    "column.reference_ngrams_chosen": {
        "en": "reference n-grams (chosen)",
        "zh-CN": "参考 n-gram 数（所选参考）",
        "ja": "参照の n-gram 数（選ばれた参照）",
    },
    "column.f_mean": {"en": "F (mean)", "zh-CN": "F（平均）", "ja": "F（平均）"},
    "column.f_measure": {"en": "F-measure", "zh-CN": "F 值", "ja": "F 値"},
    "column.character_orders": {"en": "character orders", "zh-CN": "字符阶数", "ja": "文字の次数"},
    "column.word_orders": {"en": "word orders", "zh-CN": "词阶数", "ja": "単語の次数"},
    "column.kind": {"en": "kind", "zh-CN": "类型", "ja": "種類"},
    "column.type": {"en": "type", "zh-CN": "类型", "ja": "種類"},
    "column.several_references": {"en": "several references", "zh-CN": "多条参考", "ja": "複数の参照"},
    "column.stemmer": {"en": "stemmer", "zh-CN": "词干提取", "ja": "ステミング"},
    "column.stop_words_removed": {"en": "stop words removed", "zh-CN": "去除停用词", "ja": "ストップワード除去"},
    "column.share_x10": {"en": "share ×10", "zh-CN": "占比 ×10", "ja": "寄与 ×10"},
    "column.share_of_score_x10": {"en": "share of score ×10", "zh-CN": "得分占比 ×10", "ja": "スコアへの寄与 ×10"},
    "column.mean_cosine": {"en": "mean cosine", "zh-CN": "平均余弦", "ja": "平均コサイン"},
    "column.ngram_cosine": {"en": "{n}-gram cosine", "zh-CN": "{n}-gram 余弦", "ja": "{n}-gram コサイン"},
    "column.mean_idf": {"en": "mean idf", "zh-CN": "平均 idf", "ja": "平均 idf"},
    "column.idf_from": {"en": "idf from", "zh-CN": "idf 来源", "ja": "idf の出所"},
    "column.mean_length_penalty": {"en": "mean length penalty", "zh-CN": "平均长度惩罚", "ja": "長さペナルティの平均"},
    "column.items": {"en": "items", "zh-CN": "条目数", "ja": "項目数"},
    "column.items_scoring_0": {"en": "items scoring 0", "zh-CN": "得分为 0 的条目", "ja": "スコア 0 の項目"},
    "column.best_item": {"en": "best item", "zh-CN": "最佳条目", "ja": "最良の項目"},
    "column.item_score": {"en": "item score", "zh-CN": "条目得分", "ja": "項目のスコア"},
    "column.mean_of_items": {"en": "mean of items", "zh-CN": "条目平均", "ja": "項目の平均"},
    "column.median_item": {"en": "median item", "zh-CN": "条目中位数", "ja": "項目の中央値"},
    "column.weight": {"en": "weight", "zh-CN": "权重", "ja": "重み"},
    "column.in_its_references": {"en": "in its references", "zh-CN": "出现于其参考", "ja": "参照での出現"},
    "column.metric": {"en": "metric", "zh-CN": "指标", "ja": "指標"},
    "column.metrics": {"en": "metrics", "zh-CN": "指标", "ja": "指標"},
    "column.corpus": {"en": "corpus", "zh-CN": "语料", "ja": "コーパス"},
    "column.tokenizer": {"en": "tokenizer", "zh-CN": "分词器", "ja": "トークナイザ"},
    "column.edit": {"en": "edit", "zh-CN": "编辑", "ja": "編集"},
    "column.edits": {"en": "edits", "zh-CN": "编辑数", "ja": "編集数"},
    "column.per_reference_word": {"en": "per reference word", "zh-CN": "每个参考词", "ja": "参照の単語あたり"},
    "column.reference_length_averages": {
        "en": "reference length (sum of averages)",
        "zh-CN": "参考长度（平均值之和）",
        "ja": "参照の長さ（平均の合計）",
    },
    "column.segments": {"en": "segments", "zh-CN": "片段数", "ja": "セグメント数"},
    "column.segments_without_edits": {
        "en": "segments without edits",
        "zh-CN": "无编辑的片段",
        "ja": "編集のないセグメント",
    },
    "column.segments_scoring_0": {
        "en": "segments scoring 0",
        "zh-CN": "得分为 0 的片段",
        "ja": "スコア 0 のセグメント",
    },
    "column.mean_segment_score": {"en": "mean segment score", "zh-CN": "片段平均得分", "ja": "セグメントの平均スコア"},
    "column.best_segment_score": {"en": "best segment score", "zh-CN": "片段最高得分", "ja": "セグメントの最高スコア"},
    "column.prediction_words": {"en": "prediction words", "zh-CN": "预测词", "ja": "予測の単語"},
    "column.prediction_position": {"en": "prediction position", "zh-CN": "预测位置", "ja": "予測の位置"},
    "column.prediction_positions": {"en": "prediction positions", "zh-CN": "预测位置", "ja": "予測の位置"},
    "column.reference_word": {"en": "reference word", "zh-CN": "参考词", "ja": "参照の単語"},
    "column.reference_words": {"en": "reference words", "zh-CN": "参考词", "ja": "参照の単語"},
    "column.reference_position": {"en": "reference position", "zh-CN": "参考位置", "ja": "参照の位置"},
    "column.reference_positions": {"en": "reference positions", "zh-CN": "参考位置", "ja": "参照の位置"},
    "column.penalty": {"en": "penalty", "zh-CN": "惩罚", "ja": "ペナルティ"},
    "column.modules": {"en": "modules", "zh-CN": "模块", "ja": "モジュール"},
    "column.module": {"en": "module", "zh-CN": "模块", "ja": "モジュール"},
    "column.module_weights": {"en": "module weights", "zh-CN": "模块权重", "ja": "モジュールの重み"},
    "column.normalization": {"en": "normalization", "zh-CN": "规范化", "ja": "正規化"},
    "column.chunk": {"en": "chunk", "zh-CN": "块", "ja": "チャンク"},
    "column.chunks": {"en": "chunks", "zh-CN": "块数", "ja": "チャンク数"},
    "caption.corpus_score": {"en": "corpus score", "zh-CN": "语料得分", "ja": "コーパスのスコア"},
    "caption.weights": {"en": "weights {weights}", "zh-CN": "权重 {weights}", "ja": "重み {weights}"},
    "caption.variant_n": {
        "en": "{variant} variant, n = {n}",
        "zh-CN": "{variant} 变体，n = {n}",
        "ja": "{variant} 変種、n = {n}",
    },
    "caption.variant_orders": {
        "en": "{variant} variant, orders {low}–{high}",
        "zh-CN": "{variant} 变体，阶数 {low}–{high}",
        "ja": "{variant} 変種、次数 {low}–{high}",
    },
    "caption.name_variant": {
        "en": "{name}, {variant} variant",
        "zh-CN": "{name}，{variant} 变体",
        "ja": "{name}、{variant} 変種",
    },
    "caption.f_measure": {"en": "{type} F-measure", "zh-CN": "{type} F 值", "ja": "{type} F 値"},
    "caption.mean_of_items": {
        "en": "{name}, mean of {count:,} item(s)",
        "zh-CN": "{name}，{count:,} 个条目的平均",
        "ja": "{name}、{count:,} 項目の平均",
    },
    "caption.ter": {
        "en": "edits per reference word (lower is better)",
        "zh-CN": "每个参考词的编辑数（越低越好）",
        "ja": "参照の単語あたりの編集数（低いほど良い）",
    },
    "caption.meteor15": {
        "en": "METEOR 1.5, {count:,} segment(s)",
        "zh-CN": "METEOR 1.5，{count:,} 个片段",
        "ja": "METEOR 1.5、{count:,} セグメント",
    },
    "caption.meteor_nltk": {
        "en": "NLTK meteor_score, mean of {count:,} segment(s)",
        "zh-CN": "NLTK meteor_score，{count:,} 个片段的平均",
        "ja": "NLTK meteor_score、{count:,} セグメントの平均",
    },
    "cider.note_scale": {
        "en": "CIDEr is ×10 and has no fixed upper bound: a caption equal to all its references scores 10 when "
        "every n-gram is informative.",
        "zh-CN": "CIDEr 乘以 10，且没有固定上限：当每个 n-gram 都有信息量时，与其全部参考相同的描述得 10 分。",
        "ja": "CIDEr は ×10 で、決まった上限はありません。すべての n-gram に情報量があれば、すべての参照と同じ"
        "キャプションは 10 になります。",
    },
    "cider.note_one_item": {
        "en": "One item alone scores 0 with the corpus's own idf (all its references contain every n-gram they share "
        "with it): score several items, or upload an idf table.",
        "zh-CN": "只有一个条目时，用语料自身的 idf 得分为 0（其全部参考都包含与它共有的每个 n-gram）：请对多个条目评分，"
        "或上传 idf 表。",
        "ja": "項目が 1 つだけだと、コーパス自身の idf ではスコアは 0 です（その参照のすべてが、共有する n-gram をすべて"
        "含むため）。複数の項目を採点するか、idf の表をアップロードしてください。",
    },
    "cider.idf_from_items": {
        "en": "the {count:,} item(s) given",
        "zh-CN": "所给的 {count:,} 个条目",
        "ja": "与えられた {count:,} 項目",
    },
    "cider.idf_from_table": {
        "en": "the table ({documents} documents)",
        "zh-CN": "该表（{documents} 篇文档）",
        "ja": "表（{documents} 文書）",
    },
    "cider.found_of": {"en": "{found} of {count}", "zh-CN": "{count} 条中 {found} 条", "ja": "{count} 件中 {found} 件"},
    "cider.mean_row": {
        "en": "mean (the item's score)",
        "zh-CN": "平均（该条目的得分）",
        "ja": "平均（この項目のスコア）",
    },
    "cider.reference_note": {
        "en": "share {share}, length penalty {penalty}",
        "zh-CN": "占比 {share}，长度惩罚 {penalty}",
        "ja": "寄与 {share}、長さペナルティ {penalty}",
    },
    "coco.spice_not_computed": {
        "en": "not computed (no CoreNLP models offline)",
        "zh-CN": "未计算（离线时没有 CoreNLP 模型）",
        "ja": "計算しません（オフラインでは CoreNLP のモデルがありません）",
    },
    "meteor.how_precision": {
        "en": "weighted matched prediction words / the prediction's weighted length, summed over all segments",
        "zh-CN": "加权的已匹配预测词数 / 预测的加权长度，对所有片段求和",
        "ja": "重み付きの一致した予測の単語数 / 予測の重み付きの長さ（全セグメントの合計）",
    },
    "meteor.how_recall": {"en": "the same for the references", "zh-CN": "参考的同一计算", "ja": "参照について同じ計算"},
    "meteor.how_penalty": {
        "en": "{gamma} (chunks / mean matches)^{beta}, all segments",
        "zh-CN": "{gamma} (块数 / 平均匹配数)^{beta}，所有片段",
        "ja": "{gamma} (チャンク数 / 平均一致数)^{beta}、全セグメント",
    },
    "meteor.mean_of": {"en": "mean of {formula}", "zh-CN": "{formula} 的平均", "ja": "{formula} の平均"},
    "meteor.matches_over_prediction": {
        "en": "matches / prediction length",
        "zh-CN": "匹配数 / 预测长度",
        "ja": "一致数 / 予測の長さ",
    },
    "meteor.matches_over_reference": {
        "en": "matches / reference length",
        "zh-CN": "匹配数 / 参考长度",
        "ja": "一致数 / 参照の長さ",
    },
    "meteor.how_nltk_score": {
        "en": "mean of the segment scores Fmean (1 - penalty)",
        "zh-CN": "片段得分 Fmean (1 - penalty) 的平均",
        "ja": "セグメントのスコア Fmean (1 - penalty) の平均",
    },
    "meteor.note_corpus": {
        "en": "METEOR 1.5's corpus score comes from the statistics summed over all segments (the jar's EVAL), not from "
        "the mean of the segment scores ({mean}).",
        "zh-CN": "METEOR 1.5 的语料得分来自对所有片段求和的统计量（jar 的 EVAL），而不是片段得分的平均（{mean}）。",
        "ja": "METEOR 1.5 のコーパスのスコアは、全セグメントで合計した統計量から求めます（jar の EVAL）。"
        "セグメントのスコアの平均（{mean}）ではありません。",
    },
    # ------------------------------------------------------------------ the explanation of one sentence: notes
    # after the references, the legends and words of its drawings, its tables' labels (Phrase objects)
    "explain.list_separator": {"en": ", ", "zh-CN": "，", "ja": "、"},
    "explain.used": {"en": "used: {note}", "zh-CN": "采用：{note}", "ja": "使用：{note}"},
    "explain.prediction": {"en": "prediction: {words}", "zh-CN": "预测：{words}", "ja": "予測：{words}"},
    "explain.prediction_number": {"en": "prediction {number}", "zh-CN": "预测 {number}", "ja": "予測 {number}"},
    "explain.reference_number": {"en": "reference {number}", "zh-CN": "参考 {number}", "ja": "参照 {number}"},
    "explain.reference_words": {
        "en": "reference {number}: {words}",
        "zh-CN": "参考 {number}：{words}",
        "ja": "参照 {number}：{words}",
    },
    "chrf.reference_note": {
        "en": "sentence {name} {score}",
        "zh-CN": "句子 {name} {score}",
        "ja": "文の {name} {score}",
    },
    "chrf.characters": {"en": "characters", "zh-CN": "字符", "ja": "文字"},
    "chrf.words": {"en": "words", "zh-CN": "词", "ja": "単語"},
    "chrf.words_caption": {
        "en": "Words of the prediction (punctuation split off as sacrebleu does), by matched word order:",
        "zh-CN": "预测的词（按 sacrebleu 的方式切分出标点），按匹配的词阶数标注：",
        "ja": "予測の単語（sacrebleu と同じく句読点を切り離す）、一致した単語の次数ごと：",
    },
    "gleu.chosen": {"en": "chosen: {note}", "zh-CN": "选定：{note}", "ja": "選択：{note}"},
    "gleu.reference_note": {
        "en": "{matches} matches / {total} n-grams",
        "zh-CN": "{matches} 个匹配 / {total} 个 n-gram",
        "ja": "一致 {matches} / n-gram {total}",
    },
    "rouge.highlighted": {"en": "{note} · highlighted", "zh-CN": "{note} · 已高亮", "ja": "{note} · ハイライト表示"},
    "meteor.best_used": {
        "en": "{number} (best, used)",
        "zh-CN": "{number}（最佳，采用）",
        "ja": "{number}（最良、使用）",
    },
    "meteor.reference_score": {"en": "score {score}", "zh-CN": "得分 {score}", "ja": "スコア {score}"},
    "meteor.reference_best": {
        "en": "score {score}: the best, aligned below",
        "zh-CN": "得分 {score}：最佳，对齐见下",
        "ja": "スコア {score}：最良、下にアラインメント",
    },
    "meteor.alignment": {
        "en": "Alignment with reference {number}",
        "zh-CN": "与参考 {number} 的对齐",
        "ja": "参照 {number} とのアラインメント",
    },
    "meteor.alignment_counts": {
        "en": "{matches} match(es) in {chunks} chunk(s)",
        "zh-CN": "{matches} 个匹配，共 {chunks} 个块",
        "ja": "一致 {matches} 件、チャンク {chunks} 個",
    },
    "meteor.alignment_parts": {
        "en": "P {precision} · R {recall} · Fmean {fmean} · fragmentation {fragmentation} · penalty {penalty} · "
        "score = Fmean (1 - penalty) = {score}",
        "zh-CN": "P {precision} · R {recall} · Fmean {fmean} · 碎片度 {fragmentation} · 惩罚 {penalty} · "
        "得分 = Fmean (1 - penalty) = {score}",
        "ja": "P {precision} · R {recall} · Fmean {fmean} · 断片化 {fragmentation} · ペナルティ {penalty} · "
        "スコア = Fmean (1 - penalty) = {score}",
    },
    "ter.reference_note": {
        "en": "{edits} edit(s), {words} words",
        "zh-CN": "{edits} 次编辑，{words} 个词",
        "ja": "編集 {edits}、{words} 語",
    },
    "ter.shift": {"en": "shift", "zh-CN": "移位", "ja": "シフト"},
    "ter.substitution": {"en": "substitution", "zh-CN": "替换", "ja": "置換"},
    "ter.insertion": {"en": "insertion", "zh-CN": "插入", "ja": "挿入"},
    "ter.deletion": {"en": "deletion", "zh-CN": "删除", "ja": "削除"},
    "ter.match": {"en": "match", "zh-CN": "匹配", "ja": "一致"},
    "ter.match_shifted": {
        "en": "match, moved by a shift (S1, ...)",
        "zh-CN": "匹配，经移位移动（S1, ...）",
        "ja": "一致、シフトで移動（S1, ...）",
    },
    "ter.shifted": {"en": "shifted", "zh-CN": "已移位", "ja": "シフト済み"},
    "ter.total": {"en": "total", "zh-CN": "合计", "ja": "合計"},
    "ter.shift_number": {"en": "shift {number}", "zh-CN": "移位 {number}", "ja": "シフト {number}"},
    "ter.op_count": {"en": "{count} {op}(s)", "zh-CN": "{op} {count}", "ja": "{op} {count}"},
    "ter.edits_against": {
        "en": "Edits against reference {number}",
        "zh-CN": "相对参考 {number} 的编辑",
        "ja": "参照 {number} に対する編集",
    },
    "ter.no_shift": {"en": "no shift", "zh-CN": "无移位", "ja": "シフトなし"},
    "ter.shift_lands": {
        "en": "shift {number} lands here",
        "zh-CN": "移位 {number} 落在此处",
        "ja": "シフト {number} の移動先",
    },
    "ter.shift_line": {
        "en": "shift {number}: “{words}” from {start} to {end}",
        "zh-CN": "移位 {number}：“{words}” 从 {start} 移到 {end}",
        "ja": "シフト {number}：「{words}」を {start} から {end} へ",
    },
    "ter.prediction_shifted": {"en": "prediction (shifted)", "zh-CN": "预测（移位后）", "ja": "予測（シフト後）"},
    "ter.no_prediction_word": {"en": "no prediction word", "zh-CN": "无预测词", "ja": "予測の単語なし"},
    "ter.no_reference_word": {"en": "no reference word", "zh-CN": "无参考词", "ja": "参照の単語なし"},
    "ter.column_title": {
        "en": "{op}: {prediction}, {reference}",
        "zh-CN": "{op}：{prediction}，{reference}",
        "ja": "{op}：{prediction}、{reference}",
    },
    # ------------------------------------------------------------------ the examples' names
    "example.papineni_two": {
        "en": "Papineni et al.: two hypotheses, three references (nltk)",
        "zh-CN": "Papineni 等：两条假设，三条参考（nltk）",
        "ja": "Papineni ら：仮説 2 件、参照 3 件（nltk）",
    },
    "bleu.example_d2l": {
        "en": "d2l: A B B C D vs A B C D E F (max order 2)",
        "zh-CN": "d2l：A B B C D 对 A B C D E F（最大阶数 2）",
        "ja": "d2l：A B B C D 対 A B C D E F（最大次数 2）",
    },
    "bleu.example_papineni": {
        "en": "Papineni et al.: three references (nltk)",
        "zh-CN": "Papineni 等：三条参考（nltk）",
        "ja": "Papineni ら：参照 3 件（nltk）",
    },
    "bleu.example_clipping": {
        "en": "Clipping: the the the ... (unigrams, lowercased)",
        "zh-CN": "截断：the the the ……（一元组，转为小写）",
        "ja": "クリップ：the the the …（ユニグラム、小文字化）",
    },
    "bleu.example_cat": {
        "en": "the cat is on the mat (sacrebleu, two references)",
        "zh-CN": "the cat is on the mat（sacrebleu，两条参考）",
        "ja": "the cat is on the mat（sacrebleu、参照 2 件）",
    },
    "nist.example_mteval": {
        "en": "The same with mteval-v13a.pl",
        "zh-CN": "同上，使用 mteval-v13a.pl",
        "ja": "同じものを mteval-v13a.pl で",
    },
    "nist.example_president": {
        "en": "the president spoke to the audience",
        "zh-CN": "例句：the president spoke to the audience",
        "ja": "例文：the president spoke to the audience",
    },
    "gleu.example_google": {
        "en": "The same with google_bleu (13a tokens)",
        "zh-CN": "同上，使用 google_bleu（13a 词元）",
        "ja": "同じものを google_bleu で（13a のトークン）",
    },
    "gleu.example_bigrams": {
        "en": "the cat sat on the mat: bigrams and trigrams only",
        "zh-CN": "the cat sat on the mat：仅二元组和三元组",
        "ja": "the cat sat on the mat：バイグラムとトライグラムのみ",
    },
    "gleu.example_clipping": {
        "en": "Clipping: the the the ...",
        "zh-CN": "截断：the the the ……",
        "ja": "クリップ：the the the …",
    },
    "chrf.example_cats": {
        "en": "Cats and dogs, two references: chrF2",
        "zh-CN": "猫和狗，两条参考：chrF2",
        "ja": "猫と犬、参照 2 件：chrF2",
    },
    "chrf.example_chrf_pp": {
        "en": "The same, chrF++ lowercased",
        "zh-CN": "同上，chrF++，转为小写",
        "ja": "同じものを chrF++ で、小文字化",
    },
    "chrf.example_nltk": {
        "en": "NLTK: the cat sat on the mat (orders 2 to 4)",
        "zh-CN": "NLTK：the cat sat on the mat（阶数 2 至 4）",
        "ja": "NLTK：the cat sat on the mat（次数 2 ～ 4）",
    },
    "rouge.example_skip": {
        "en": "cat in the hat: skip-bigrams (S4, SU4) against bigrams",
        "zh-CN": "cat in the hat：跳跃二元组（S4、SU4）与二元组对比",
        "ja": "cat in the hat：スキップバイグラム（S4、SU4）とバイグラムの比較",
    },
    "rouge.example_summaries": {
        "en": "Summaries with two references each (stemmer)",
        "zh-CN": "摘要，每条两条参考（词干提取）",
        "ja": "要約、各 2 件の参照（ステミング）",
    },
    "rouge.example_chinese": {
        "en": "Chinese: each CJK character is a token",
        "zh-CN": "中文：每个 CJK 字符是一个词元",
        "ja": "中国語：CJK の各文字が 1 トークン",
    },
    "rouge.example_lin": {
        "en": "Lin (2004): police killed the gunman (ROUGE-1.5.5)",
        "zh-CN": "Lin (2004)：police killed the gunman（ROUGE-1.5.5）",
        "ja": "Lin (2004)：police killed the gunman（ROUGE-1.5.5）",
    },
    "cider.example_toy": {
        "en": "pycocoevalcap's toy case: a man rides a horse (CIDEr-D)",
        "zh-CN": "pycocoevalcap 的示例：a man rides a horse（CIDEr-D）",
        "ja": "pycocoevalcap の例：a man rides a horse（CIDEr-D）",
    },
    "cider.example_four": {
        "en": "Four captions, five references each (CIDEr-D)",
        "zh-CN": "四条描述，每条五条参考（CIDEr-D）",
        "ja": "キャプション 4 件、各 5 件の参照（CIDEr-D）",
    },
    "cider.example_twice_cider": {
        "en": "A caption said twice: the original CIDEr barely notices",
        "zh-CN": "描述重复两遍：原始 CIDEr 几乎察觉不到",
        "ja": "キャプションを 2 回繰り返す：元の CIDEr はほとんど気づかない",
    },
    "cider.example_twice_cider_d": {
        "en": "A caption said twice: CIDEr-D clips the repeats and penalizes the length",
        "zh-CN": "描述重复两遍：CIDEr-D 截断重复并惩罚长度",
        "ja": "キャプションを 2 回繰り返す：CIDEr-D は繰り返しをクリップし、長さにペナルティ",
    },
    "cider.example_one_item": {
        "en": "One item alone scores 0 (idf from the references given)",
        "zh-CN": "单个条目得 0 分（idf 来自所给的参考）",
        "ja": "項目 1 つだけならスコアは 0（idf は与えた参照から）",
    },
    "coco.example_toy": {
        "en": "pycocoevalcap's toy case: A man rides a horse.",
        "zh-CN": "pycocoevalcap 的示例：A man rides a horse.",
        "ja": "pycocoevalcap の例：A man rides a horse.",
    },
    "coco.example_four": {
        "en": "Four captions, five references each",
        "zh-CN": "四条描述，每条五条参考",
        "ja": "キャプション 4 件、各 5 件の参照",
    },
    "coco.example_untokenized": {
        "en": "The toy case untokenized, as nlg-eval scores it (punctuation stays)",
        "zh-CN": "示例不分词，与 nlg-eval 的评分方式相同（保留标点）",
        "ja": "例をトークン化せずに（nlg-eval と同じ。句読点は残る）",
    },
    "coco.example_without_meteor": {
        "en": "Without METEOR: the toy case's BLEU, ROUGE-L and CIDEr-D",
        "zh-CN": "不含 METEOR：示例的 BLEU、ROUGE-L 和 CIDEr-D",
        "ja": "METEOR なし：例の BLEU、ROUGE-L、CIDEr-D",
    },
    "meteor.example_toy": {
        "en": "pycocoevalcap's toy case: a man rides a horse (METEOR 1.5)",
        "zh-CN": "pycocoevalcap 的示例：a man rides a horse（METEOR 1.5）",
        "ja": "pycocoevalcap の例：a man rides a horse（METEOR 1.5）",
    },
    "meteor.example_modules": {
        "en": "Stems, synonyms and paraphrases (METEOR 1.5)",
        "zh-CN": "词干、同义词和释义（METEOR 1.5）",
        "ja": "語幹、同義語、言い換え（METEOR 1.5）",
    },
    "meteor.example_nltk": {
        "en": "The same with NLTK's meteor_score",
        "zh-CN": "同上，使用 NLTK 的 meteor_score",
        "ja": "同じものを NLTK の meteor_score で",
    },
    "meteor.example_nltk_docs": {
        "en": "NLTK's documentation example (whitespace tokens)",
        "zh-CN": "NLTK 文档中的示例（按空白分词）",
        "ja": "NLTK のドキュメントの例（空白で分割）",
    },
    "meteor.example_word_order": {
        "en": "Word order: the same words in more chunks",
        "zh-CN": "词序：同样的词，更多的块",
        "ja": "語順：同じ単語で、より多くのチャンク",
    },
    "meteor.example_without_paraphrases": {
        "en": "Without paraphrases: the toy case with -m exact stem synonym",
        "zh-CN": "不用释义：示例使用 -m exact stem synonym",
        "ja": "言い換えなし：例を -m exact stem synonym で",
    },
    "meteor.example_four": {
        "en": "Four captions, five references each (task adq)",
        "zh-CN": "四条描述，每条五条参考（task adq）",
        "ja": "キャプション 4 件、各 5 件の参照（task adq）",
    },
    "ter.example_shift": {
        "en": "A shift: mat the cat sat on the",
        "zh-CN": "一次移位：mat the cat sat on the",
        "ja": "シフト 1 回：mat the cat sat on the",
    },
    "ter.example_hf": {
        "en": "HF evaluate's example (case sensitive)",
        "zh-CN": "HF evaluate 的示例（区分大小写）",
        "ja": "HF evaluate の例（大文字と小文字を区別）",
    },
    "ter.example_normalized": {
        "en": "Normalized, without punctuation",
        "zh-CN": "规范化，去除标点",
        "ja": "正規化、句読点を除く",
    },
    "ter.example_chinese": {
        "en": "Chinese: normalized with Asian support",
        "zh-CN": "中文：规范化并启用亚洲文字支持",
        "ja": "中国語：正規化とアジア文字対応",
    },
}
