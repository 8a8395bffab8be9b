"""The page shared by the ngrameval Spaces: each ``ngrameval.ui.<name>`` describes its metric as a
:class:`MetricSpace`; :func:`build_demo` builds the page around the metric's ``evaluate`` script."""

from __future__ import annotations

import csv
import functools
import html
import inspect
import io
import json
import logging
import math
import os
import pickle
import re
import sys
import zlib
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Union

import gradio as gr
import numpy as np
import pandas as pd

import ngrameval
from ngrameval import TOKENIZER_NAMES, errors
from ngrameval.frontends.hub import metric_path
from ngrameval.metrics.coco import from_coco
from ngrameval.ui import i18n
from ngrameval.ui.i18n import Phrase, t

MAX_LINES = 20_000
MAX_BYTES = 10 * 1024 * 1024
MAX_FILE_SIZE = "10mb"  # gradio refuses larger uploads before they reach us
REFERENCE_BOXES = 3
DIGITS = 6
MAX_ORDER = 9  # the order sliders' maximum
LOG = logging.getLogger("ngrameval.spaces")
# Bounded memory under load: gradio keeps each session's inputs, outputs and state (~4.5 MB for 2,000 segments), so
# at most SESSIONS are kept (16 are 70 MB), a scored corpus is dropped after STATE_SECONDS and kept as one
# compressed pickle. Scoring is CPU-bound: one computation at a time, on one thread (on_worker); past QUEUE_SIZE
# waiting requests, more are refused at once (HTTP 503) instead of waiting without end.
SESSIONS = 16
STATE_SECONDS = 1800
CONCURRENCY = 1
QUEUE_SIZE = 16


class InputError(errors.InputError):
    """A problem with the user's input, named by a text key and its parameters: its message is the English text,
    :meth:`in_language` the page's (any other :class:`ngrameval.errors.InputError` is shown in English)."""

    def __init__(self, key: str, **params: Any):
        self.key, self.params = key, params
        super().__init__(i18n.text(key, **params))

    def in_language(self, language: str) -> str:
        return i18n.text(self.key, language, **self.params)


def _check_size(size: int, what: Phrase) -> None:
    if size > MAX_BYTES:
        raise InputError("error.too_large", what=what, size=size / 1024 / 1024)


def _uploads(first: str, others: Sequence[str] | None) -> tuple[Path, list[Path]]:
    """The uploaded files, within MAX_BYTES together."""
    path, paths = Path(first), [Path(p) for p in others or []]
    _check_size(sum(p.stat().st_size for p in [path, *paths]), Phrase("error.upload"))
    return path, paths


def _check_count(count: int, what: str | Phrase) -> None:
    if count > MAX_LINES:
        raise InputError("error.too_many", what=what, count=count, limit=MAX_LINES)


def lines_of(text: str | None) -> list[str]:
    """The lines of a text box or a text file (\\n, \\r\\n or \\r), without empty lines at the end."""
    lines = (text or "").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    while lines and not lines[-1].strip():
        lines.pop()
    return lines


def group_references(
    count: int, columns: Sequence[tuple[str | Phrase, list[str]]], predictions: str | Phrase
) -> list[list[str]]:
    """One list of references per prediction from reference columns (name, lines). The first column
    gives every prediction its reference; a later one may stop early (its empty lines at the end are
    ignored), and an empty or missing line there adds no reference."""
    for i, (name, lines) in enumerate(columns):
        if len(lines) > count or (i == 0 and len(lines) < count):
            raise InputError("error.line_count", name=name, lines=len(lines), predictions=predictions, count=count)
    first, *others = [lines for _, lines in columns]
    return [[first[k]] + [lines[k] for lines in others if k < len(lines) and lines[k].strip()] for k in range(count)]


def corpus_from_text(predictions: str | None, references: Sequence[str | None]):
    """(predictions, references) from the text boxes."""
    _check_size(
        sum(len((text or "").encode("utf-8")) for text in (predictions, *references)), Phrase("error.text_input")
    )
    hyps = lines_of(predictions)
    if not hyps:
        raise InputError("error.predictions_empty")
    _check_count(len(hyps), Phrase("page.predictions"))
    columns = [(Phrase("page.references", number=i), lines_of(text)) for i, text in enumerate(references, 1)]
    if not columns or not columns[0][1]:
        raise InputError("error.references_empty")
    columns = [columns[0]] + [column for column in columns[1:] if column[1]]
    return hyps, group_references(len(hyps), columns, Phrase("page.predictions"))


def _read_text(path: Path) -> str:
    try:
        return path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise InputError("error.not_utf8", file=path.name, byte=error.start) from None


def _from_jsonl(path: Path):
    hyps, refs = [], []
    for number, line in enumerate(lines_of(_read_text(path)), 1):
        if not line.strip():
            continue
        where = {"file": path.name, "line": number}
        try:
            item = json.loads(line)
        except json.JSONDecodeError as error:
            raise InputError("error.jsonl_json", **where, reason=error.msg) from None
        if not isinstance(item, dict) or not isinstance(item.get("prediction"), str):
            raise InputError("error.jsonl_prediction", **where)
        references = item.get("references", item.get("reference"))
        if isinstance(references, str):
            references = [references]
        if not isinstance(references, list) or not references or not all(isinstance(r, str) for r in references):
            raise InputError("error.jsonl_references", **where)
        hyps.append(item["prediction"])
        refs.append(references)
    return hyps, refs


def _from_table(path: Path):
    tsv = path.suffix.lower() == ".tsv"
    reader = csv.reader(
        io.StringIO(_read_text(path)),
        delimiter="\t" if tsv else ",",
        quoting=csv.QUOTE_NONE if tsv else csv.QUOTE_MINIMAL,
    )
    header = [cell.strip().lower() for cell in next(reader, [])]
    if "prediction" not in header or "reference" not in header:
        raise InputError("error.table_header", file=path.name, header=header)
    extra = sorted((int(name[10:]), i) for i, name in enumerate(header) if re.fullmatch(r"reference_\d+", name))
    columns = [header.index("reference")] + [i for _, i in extra]
    hyps, refs = [], []
    for number, row in enumerate(reader, 2):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != len(header):
            raise InputError("error.table_row", file=path.name, row=number, cells=len(row), expected=len(header))
        hyps.append(row[header.index("prediction")])
        refs.append([row[columns[0]]] + [row[i] for i in columns[1:] if row[i].strip()])
    return hyps, refs


def corpus_from_files(predictions_file: str, reference_files: Sequence[str] | None):
    """(predictions, references) from an uploaded predictions file (and reference files for .txt)."""
    path, reference_paths = _uploads(predictions_file, reference_files)
    suffix = path.suffix.lower()
    if suffix != ".txt" and reference_paths:
        raise InputError("error.references_with_table", file=path.name)
    if suffix == ".txt":
        if not reference_paths:
            raise InputError("error.txt_needs_references", file=path.name)
        hyps, refs = lines_of(_read_text(path)), []
        if hyps:  # (the references are read for predictions only: an empty file is refused as such below)
            columns = [(Phrase("error.reference_file", file=p.name), lines_of(_read_text(p))) for p in reference_paths]
            refs = group_references(len(hyps), columns, path.name)
    elif suffix in (".jsonl", ".csv", ".tsv"):
        hyps, refs = (_from_jsonl if suffix == ".jsonl" else _from_table)(path)
    else:
        raise InputError("error.file_type", file=path.name, suffix=repr(suffix or "(none)"))
    if not hyps:
        raise InputError("error.no_predictions", file=path.name)
    _check_count(len(hyps), path.name)
    return hyps, refs


def _read_json(path: Path) -> Any:
    try:
        return json.loads(_read_text(path))
    except json.JSONDecodeError as error:
        raise InputError("error.json", file=path.name, reason=error.msg, line=error.lineno) from None


def _image_id(entry: Any, file: str, kind: Phrase, number: int) -> str:
    if not isinstance(entry, dict) or "image_id" not in entry or "caption" not in entry:
        raise InputError("error.coco_entry", file=file, kind=kind, number=number)
    return str(entry["image_id"])


def coco_from_files(results_file: str, reference_files: Sequence[str] | None) -> tuple[dict[str, Any], Any]:
    """pycocoevalcap's ``(gts, res)`` from an uploaded COCO results JSON and one reference JSON (a
    ``gts`` dict or COCO's annotation file), image ids as text: JSON object keys are text while
    COCO's lists hold numbers. ``ngrameval.metrics.coco.from_coco`` then checks that they match."""
    path, reference_paths = _uploads(results_file, reference_files)
    if len(reference_paths) != 1 or reference_paths[0].suffix.lower() != ".json":
        raise InputError("error.coco_references_file", file=path.name)
    results, references = _read_json(path), _read_json(reference_paths[0])
    if isinstance(results, list):
        res: Any = [
            {**entry, "image_id": _image_id(entry, path.name, Phrase("error.coco_result"), k + 1)}
            for k, entry in enumerate(results)
        ]
    elif isinstance(results, dict):
        res = {str(image): captions for image, captions in results.items()}
    else:
        raise InputError("error.coco_results", file=path.name)
    name = reference_paths[0].name
    if isinstance(references, dict) and isinstance(references.get("annotations"), list):
        # As COCOEvalCap: evaluated on the images of the results (an annotation file covers a whole split).
        scored = {entry["image_id"] for entry in res} if isinstance(res, list) else set(res)
        gts: dict[str, Any] = {}
        for k, entry in enumerate(references["annotations"]):
            image = _image_id(entry, name, Phrase("error.coco_annotation"), k + 1)
            if image in scored:
                gts.setdefault(image, []).append(entry["caption"])
    elif isinstance(references, dict):
        gts = {str(image): captions for image, captions in references.items()}
    else:
        raise InputError("error.coco_references", file=name)
    if not gts:
        raise InputError("error.coco_no_references", file=name, results=path.name)
    _check_count(len(res), path.name)
    return gts, res


def control(kind: Callable[..., Any], key: str, *args: Any, info: str | None = None, **options: Any) -> Any:
    """``kind(*args, **options)`` labelled with the text ``key``; its help is the text ``info``, by default
    ``<key>_info`` where the texts have one."""
    info = info or f"{key}_info"
    return kind(*args, label=t(key), info=t(info) if info in i18n.TEXTS else None, **options)


def variant_dropdown(variants: Sequence[str], value: str, info: str | None = None) -> gr.Dropdown:
    return control(gr.Dropdown, "page.variant", list(variants), value=value, elem_id="variant", info=info)


def tokenizer_dropdown(choices: Sequence[Any] | None = None, value: str = "default", **options: Any) -> gr.Dropdown:
    """The tokenizer's dropdown: the metric's default, then ngrameval's tokenizers, unless a page gives its own."""
    choices = choices or [(t("page.tokenizer_default"), "default"), *TOKENIZER_NAMES]
    return control(gr.Dropdown, "page.tokenizer", choices, value=value, **options)


def order_slider(key: str, value: int, low: int = 1, **options: Any) -> gr.Slider:
    return gr.Slider(low, MAX_ORDER, value=value, step=1, label=t(key), **options)


def variant_only(variant: gr.Dropdown, owned: dict[str, list[Any]], reset: str | None = None) -> None:
    """Each variant's own controls (``owned``: variant -> its controls) editable only with it (the others' are not
    used); on ``reset``, an event of the variant ("change", or "input": a user's choice, not an example's, which
    sets every option itself), they also go back to their initial values, which every variant accepts."""
    controls = [(name, control) for name, group in owned.items() for control in group]
    outputs = [control for _, control in controls]
    initial = [{"value": control.value} for control in outputs]
    again = initial if reset == "change" else [{}] * len(outputs)
    variant.change(
        lambda chosen: [gr.update(interactive=chosen == name, **value) for (name, _), value in zip(controls, again)],
        variant,
        outputs,
        api_visibility="private",
    )
    if reset == "input":
        variant.input(lambda _: [gr.update(**value) for value in initial], variant, outputs, api_visibility="private")


def optional_number(value: Any, name: str) -> float | None:
    """A number box's value: None when left blank."""
    if value is None or value == "":
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise InputError("error.not_a_number", name=name, value=repr(value)) from None
    if not math.isfinite(number):
        raise InputError("error.not_finite", name=name, value=repr(value))
    return number


def given_numbers(**boxes: Any) -> dict[str, float]:
    """The number boxes not left blank (blank: the metric's default), by name."""
    numbers = {name: optional_number(value, name) for name, value in boxes.items()}
    return {name: number for name, number in numbers.items() if number is not None}


def parse_weights(text: str | None) -> Any:
    """'0.25 0.25 0.25 0.25' -> a list; several sets separated by ';' -> a list of lists; blank -> None."""
    parsed = []
    for part in filter(str.strip, (text or "").split(";")):
        numbers = []
        for item in re.split(r"[\s,]+", part.strip()):
            try:
                numbers.append(float(item))
            except ValueError:
                raise InputError("error.weights", item=repr(item)) from None
        parsed.append(numbers)
    return parsed[0] if len(parsed) == 1 else parsed or None


def pick(value: Any, choices: dict[Any, Any], name: str) -> Any:
    """Map a dropdown value to the metric's option, with a readable error for unknown values."""
    if value not in choices:
        raise InputError("error.unknown_value", name=name, value=repr(value), valid=", ".join(map(repr, choices)))
    return choices[value]


Shown = Union[str, Phrase]  # a name or text a result shows: a Phrase is translated, a str shown as it is


@dataclass
class Presentation:
    """What the page shows of one result (built by the Space's ``present``); its :class:`~ngrameval.ui.i18n.Phrase`
    words are shown in the request's language, a plain ``str`` as it is."""

    scores: list[tuple[Shown, float]]  # (caption, value) per big number
    # A table (or its columns) whose first column is the plot's categories ("1-gram", ...; "rouge1", ...).
    per_order: pd.DataFrame
    summary: dict[Shown, Any]  # scalar parts of the score
    # column -> one score per prediction (the first is plotted); None: {SCORE: the result's sentence_scores}
    sentence_scores: dict[Shown, list[float]] | None = None
    signature: str | None = None  # None: the result's
    notes: Sequence[Shown] = ()  # shown under the score card (what is not computed, and why)
    order_plot: tuple[Shown, i18n.I18nData] | None = None  # instead of the Space's: other columns (chrF)

    def __post_init__(self) -> None:
        self.per_order = pd.DataFrame(self.per_order)


def fmt(value: Any) -> str:
    """Scores and parts as the page prints them (DIGITS decimals)."""
    return f"{value:.{DIGITS}f}" if isinstance(value, float) else str(value)


def order_labels(count: int) -> list[str]:
    return [f"{n}-gram" for n in range(1, count + 1)]


def localized(frame: pd.DataFrame, language: str) -> pd.DataFrame:
    """A table as the page shows it in ``language``: its column names and its :class:`~ngrameval.ui.i18n.Phrase`
    cells translated, the numbers untouched."""
    shown = frame.rename(columns=lambda column: str(i18n.resolve(column, language)))
    for position, kind in enumerate(shown.dtypes):
        if kind == object:  # noqa: E721 (a numpy dtype equals the type object it stands for)  # texts (numbers have their own dtypes): Series.map, which pandas 1.5 has too
            shown.iloc[:, position] = shown.iloc[:, position].map(lambda value: i18n.resolve(value, language))
    return shown


def score_card(metric: str, scores: Sequence[tuple[Shown, float]], notes: Sequence[Shown], language: str) -> str:
    """The score card: each big number with its caption, then the notes, in ``language``."""
    size = "2.8rem" if len(scores) <= 2 else "1.7rem"  # several scores side by side
    cards = "".join(
        '<div style="padding:.6rem 1.2rem;border-radius:.6rem;background:var(--background-fill-secondary)">'
        f'<div style="font-size:.9rem;opacity:.75">{html.escape(metric)}</div>'
        f'<div class="score-value" style="font-size:{size};font-weight:700;line-height:1.15">{fmt(float(value))}</div>'
        f'<div style="font-size:.8rem;opacity:.7">{html.escape(str(i18n.resolve(caption, language)))}</div></div>'
        for caption, value in scores
    )
    remarks = "".join(
        f'<div class="score-note" style="margin-top:.5rem;font-size:.85rem;opacity:.85">{html.escape(str(i18n.resolve(note, language)))}</div>'
        for note in notes
    )
    return f'<div style="display:flex;gap:1rem;flex-wrap:wrap">{cards}</div>{remarks}'


def status_html(
    message: str, error: bool = False, language: str = i18n.DEFAULT_LANGUAGE, heading: str = "status.cannot_score"
) -> str:
    """The status line: ``message``, or an error's, after the text of ``heading`` (a key of the texts).

    >>> status_html("bad", True, "en", "board.refused")  # doctest: +ELLIPSIS
    '<div class="status-error" ...<strong>Submission refused.</strong> bad</div>'
    """
    if not error:
        return f'<div class="status-ok" style="opacity:.8">{html.escape(message)}</div>'
    return (
        '<div class="status-error" role="alert" style="padding:.6rem .9rem;border-radius:.5rem;'
        'border:1px solid #dc2626;background:rgba(220,38,38,.08);color:var(--body-text-color)">'
        f"<strong>{html.escape(i18n.text(heading, language))}</strong> {html.escape(message)}</div>"
    )


def summary_table(summary: dict[Shown, Any], language: str) -> pd.DataFrame:
    """The summary's parts and their values, in ``language``."""

    def show(value):
        value = i18n.resolve(value, language)
        return f"{value:g}" if isinstance(value, float) and value.is_integer() else fmt(value)

    return pd.DataFrame(
        {
            i18n.text("column.part", language): [str(i18n.resolve(part, language)) for part in summary],
            i18n.text("column.value", language): [show(v) for v in summary.values()],
        }
    )


def histogram(scores: Sequence[float], high: float | None, bins: int = 10) -> pd.DataFrame:
    """Sentences per score bin, from 0 to ``high`` (or the highest score, if larger)."""
    values = np.array([s for s in scores if math.isfinite(s)], dtype=float)
    top = max([high or 0.0] + values.tolist())
    top = top if top > 0 else 1.0
    edges = np.linspace(0.0, top, bins + 1)
    counts = np.histogram(np.clip(values, 0.0, top), edges)[0]
    return pd.DataFrame(
        {SCORE: [f"{a:.2f}–{b:.2f}" for a, b in zip(edges, edges[1:])], Phrase("column.sentences"): counts}
    )


def sentence_table(
    predictions: list[str],
    references: list[list[str]],
    scores: dict[Shown, list[float]],
    image_ids: Sequence[Any] | None = None,
    language: str = i18n.DEFAULT_LANGUAGE,
):
    """Per prediction: its number, its image id (COCO input), its scores and the texts; column names in
    ``language``."""
    columns: dict[Shown, list[Any]] = {"#": list(range(1, len(predictions) + 1))}
    if image_ids is not None:
        columns[Phrase("column.image_id")] = [str(image) for image in image_ids]
    columns.update({name: [round(s, DIGITS) for s in values] for name, values in scores.items()})
    columns[Phrase("column.prediction")] = predictions
    columns[Phrase("column.references")] = [" ‖ ".join(group) for group in references]
    ids = 0 if image_ids is None else 8
    width = min(11, 60 // len(scores))  # the score columns take at most 60% together
    text = (100 - 6 - ids - width * len(scores)) // 2
    widths: list[str | int] = ["6%", *[f"{ids}%"] * bool(ids), *[f"{width}%"] * len(scores), f"{text}%", f"{text}%"]
    return gr.Dataframe(value=localized(pd.DataFrame(columns), language), column_widths=widths)


_PALETTE = ["#bae6fd", "#7dd3fc", "#38bdf8", "#0ea5e9", "#0284c7", "#818cf8", "#6366f1", "#a78bfa", "#8b5cf6"]
_EXTRA_COLORS = ["#fcd34d", "#86efac", "#f9a8d4"]
OVER_CLIP = "beyond clip"


def ngram_labels(tokens: list[str], orders: list[dict[str, Any]]) -> list[str | None]:
    """Per token the highest order of a counted match covering it ("2-gram"). Occurrences of an n-gram
    past its clipped count (the first ``clipped`` occurrences count) are marked OVER_CLIP when nothing
    counted covers the token; None: no match."""
    best = [0] * len(tokens)
    excess = [False] * len(tokens)
    for order in orders:
        n = order["n"]
        for ngram in order["ngrams"]:
            for rank, start in enumerate(sorted(ngram["positions"])):
                for i in range(start, min(start + n, len(tokens))):
                    if rank < ngram["clipped"]:
                        best[i] = max(best[i], n)
                    else:
                        excess[i] = True
    return [f"{best[i]}-gram" if best[i] else OVER_CLIP if excess[i] else None for i in range(len(tokens))]


def label_colors(labels: Sequence[str | None], colors: dict[str, str] | None = None) -> dict[str, str]:
    """The colour of each label used: from ``colors`` when given there, n-gram labels the order palette,
    OVER_CLIP red, others the extra colours."""
    color_map = {f"{n}-gram": _PALETTE[(n - 1) % len(_PALETTE)] for n in range(1, MAX_ORDER + 1)}
    color_map[OVER_CLIP] = "#fca5a5"
    color_map.update(colors or {})
    others = sorted({label for label in labels if label and label not in color_map})
    color_map.update({label: _EXTRA_COLORS[i % len(_EXTRA_COLORS)] for i, label in enumerate(others)})
    return {k: v for k, v in color_map.items() if k in set(labels)}


def highlight(
    tokens: list[str],
    orders: list[dict[str, Any]],
    labels: Sequence[str | None] | None = None,
    colors: dict[str, str] | None = None,
    separator: str = " ",
):
    """The tokens with their labels: ``labels`` (one per token, None for none) when given, else
    :func:`ngram_labels`, coloured by :func:`label_colors`. ``separator`` goes between tokens ("" for
    characters that keep their own spaces)."""
    if labels is None:
        labels = ngram_labels(tokens, orders)
    pieces: list[tuple[str, str | float | None]] = []  # (token, its label; None: not highlighted)
    for i, (token, label) in enumerate(zip(tokens, labels)):
        if i and separator:
            pieces.append((separator, None))
        pieces.append((token, label))
    return gr.HighlightedText(value=pieces, color_map=label_colors(labels, colors))


def marked_html(tokens: Sequence[str], labels: Sequence[str | None], colors: dict[str, str] | None = None) -> str:
    """The tokens as HTML, each labelled one marked in its :func:`highlight` colour (with the label as its
    tooltip): a second highlighted sequence in an explanation's ``details_html`` (chrF++'s words)."""
    color_map = label_colors(labels, colors)
    return " ".join(
        f'<mark title="{html.escape(label)}" style="background:{color_map[label]};color:#111;'
        f'border-radius:.2rem;padding:0 .15rem">{html.escape(token)}</mark>'
        if label
        else html.escape(token)
        for token, label in zip(tokens, labels)
    )


def legend_html(entries: Iterable[tuple[str, str]]) -> str:
    """An explanation's legend: each (HTML, colour) entry on its colour."""
    return " ".join(
        f'<span style="background:{color};color:#111;padding:0 .3rem;border-radius:.2rem">{entry}</span>'
        for entry, color in entries
    )


def html_text(key: str, language: str, markup: dict[str, str] | None = None, **params: Any) -> str:
    """The text of ``key`` in ``language`` as HTML (an explanation's ``details_html``): escaped, but for its
    ``markup`` fields, which are HTML already (drawn words).

    >>> html_text("explain.prediction", "ja", markup={"words": "<b>a</b>"})
    '予測：<b>a</b>'
    >>> html_text("ter.shift_line", "en", number=1, words="<a>", start=2, end=3)
    'shift 1: “&lt;a&gt;” from 2 to 3'
    """
    markup = markup or {}
    holders = {name: f"\0{number}\0" for number, name in enumerate(markup)}
    shown = html.escape(i18n.text(key, language, **params, **holders))
    for name, holder in holders.items():
        shown = shown.replace(holder, markup[name])
    return shown


# Column names that several tables share.
_COLUMNS = "order ngram count information_weight matches clipped_count positions precision recall score matched_clipped"
_MORE_COLUMNS = "prediction_ngrams reference_ngrams prediction_length reference_length reference prediction_words"
ORDER, NGRAM, COUNT, INFORMATION_WEIGHT, MATCHES, CLIPPED_COUNT, POSITIONS, PRECISION, RECALL, SCORE, MATCHED = (
    Phrase(f"column.{key}") for key in _COLUMNS.split()
)
PREDICTION_NGRAMS, REFERENCE_NGRAMS, PREDICTION_LENGTH, REFERENCE_LENGTH, REFERENCE, PREDICTION_WORDS = (
    Phrase(f"column.{key}") for key in _MORE_COLUMNS.split()
)


def ngram_table(orders: list[dict[str, Any]], kind: Shown | None = None) -> pd.DataFrame:
    """The matched n-grams of ``orders``; with ``kind``, a first column naming their kind (chrF's characters)."""
    rows = []
    for order in orders:
        for ngram in sorted(order["ngrams"], key=lambda g: min(g["positions"])):
            row = {
                ORDER: order["n"],
                NGRAM: ngram["ngram"],
                COUNT: ngram["count"],
                CLIPPED_COUNT: ngram["clipped"],
                POSITIONS: ", ".join(str(p + 1) for p in ngram["positions"]),
            }
            if "weight" in ngram:
                row[INFORMATION_WEIGHT] = round(ngram["weight"], DIGITS)
            rows.append(row)
    frame = pd.DataFrame(rows) if rows else pd.DataFrame(columns=[ORDER, NGRAM, COUNT, CLIPPED_COUNT, POSITIONS])
    if kind is not None:
        frame.insert(0, Phrase("column.kind"), kind)
    return frame


def order_table(
    orders: list[dict[str, Any]],
    reference_length: int | None = None,
    kind: str = "",
    parts: dict[Any, Sequence[float]] | None = None,
) -> pd.DataFrame:
    """Per order: matches and n-grams (``kind`` before its label); with ``reference_length``, the reference's
    n-grams; ``parts``: the metric's values per order shown (column -> values). With information weights (NIST)
    the matched information: per reference when the explanation has it (NLTK scores each order against the best
    one), else clipped against all references together (mteval-v13a.pl)."""
    weighted = any("weight" in g for order in orders for g in order["ngrams"])
    rows = []
    for k, order in enumerate(orders):
        row: dict[Shown, Any] = {
            ORDER: order.get("label") or f"{kind}{order['n']}-gram",
            MATCHED: order["matches"],
            PREDICTION_NGRAMS: order["total"],
        }
        if reference_length is not None:
            row[REFERENCE_NGRAMS] = max(0, reference_length - order["n"] + 1)
        row |= {column: round(values[k], DIGITS) for column, values in (parts or {}).items()}
        per_reference = order.get("reference_information")
        if per_reference:
            row |= {Phrase("column.vs_reference", number=i): round(v, DIGITS) for i, v in enumerate(per_reference, 1)}
            row[Phrase("column.best_used")] = round(max(per_reference), DIGITS)
        elif weighted:
            row[Phrase("column.information")] = round(
                sum(g["clipped"] * g.get("weight", 0.0) for g in order["ngrams"]), DIGITS
            )
        rows.append(row)
    return pd.DataFrame(rows)


def _failed_explanation(message: str, language: str) -> tuple[str, None, None, None]:
    return status_html(message, True, language), None, None, None


ExplainOne = Callable[[str, list[str], dict[str, Any]], dict[str, Any]]
ExplainItem = Callable[[int, dict[str, Any]], dict[str, Any]]


def explain(
    state: dict[str, Any] | None,
    number: Any,
    explain_one: ExplainOne | None = None,
    explain_item: ExplainItem | None = None,
    language: str = i18n.DEFAULT_LANGUAGE,
):
    """The explanation of prediction ``number`` (from 1): heading, highlight, n-gram and order tables.

    The item is ``explain_item(index, state)``, else the metric's explanation entry, else ``explain_one(prediction,
    references, options)``: BLEU's entries' keys, optionally ``labels``, ``colors``, ``reference_notes``,
    ``ngram_table``, ``order_table``, ``details_html`` (or a function of the language), ``separator`` and
    ``prediction_length``."""
    if not state:
        return "", None, None, None
    count = len(state["scores"])
    try:
        index = int(number) - 1
    except (TypeError, ValueError):
        index = -1
    if not 0 <= index < count:
        return _failed_explanation(i18n.text("explain.choose", language, count=count), language)
    try:
        if explain_item is not None:
            item = explain_item(index, state)
        elif state.get("explanation") is not None:
            item = state["explanation"][index]
        else:
            assert explain_one is not None  # a Space whose metric gives no explanation has explain_one or explain_item
            item = explain_one(state["predictions"][index], state["references"][index], state["options"])
    except errors.InputError as error:
        return _failed_explanation(str(error), language)
    except Exception as error:
        LOG.exception("explaining sentence %d failed", index + 1)
        return _failed_explanation(
            i18n.text("status.unexpected", language, kind=type(error).__name__, message=error), language
        )
    notes = [
        i18n.resolve(note, language) for note in item.get("reference_notes") or [""] * len(item["reference_tokens"])
    ]
    references = "".join(
        f"<li>{html.escape(' '.join(tokens))}" + (f" <em>({html.escape(note)})</em>" if note else "") + "</li>"
        for tokens, note in zip(item["reference_tokens"], notes)
    )
    score_name = str(i18n.resolve(state.get("score_name") or Phrase("explain.sentence_score"), language))
    facts = [f"{html.escape(score_name)} {fmt(float(state['scores'][index]))}"]
    if state.get("image_ids") is not None:
        facts.insert(0, html.escape(i18n.text("explain.image_id", language, image=state["image_ids"][index])))
    if item.get("reference_length") is not None:
        facts.append(i18n.text("explain.reference_length", language, length=item["reference_length"]))
    length = item.get("prediction_length", len(item["prediction_tokens"]))
    facts.append(i18n.text("explain.prediction_length", language, length=length))
    title = i18n.text("explain.heading", language, number=index + 1, count=count)
    details = item.get("details_html", "")
    details = details(language) if callable(details) else details
    heading = (
        f'<div class="sentence-info"><strong>{title}</strong> · {" · ".join(facts)}'
        f'<div style="margin-top:.3rem">{i18n.text("explain.references", language)}</div><ol>{references}</ol>'
        f"{details}</div>"
    )
    ngrams = item["ngram_table"] if "ngram_table" in item else ngram_table(item["orders"])
    per_order = item["order_table"] if "order_table" in item else order_table(item["orders"])
    tables = tuple(localized(table.round(DIGITS), language) for table in (ngrams, per_order))
    labels = item.get("labels")  # a Phrase label (and its colour's key) is shown in the language
    labels = labels and [i18n.resolve(label, language) for label in labels]
    colors = {i18n.resolve(label, language): color for label, color in (item.get("colors") or {}).items()}
    shown = highlight(item["prediction_tokens"], item.get("orders", []), labels, colors, item.get("separator", " "))
    return (heading, shown, *tables)


def papineni() -> tuple[list[str], list[list[str]]]:
    """The two hypotheses and, per reference box, the three references of Papineni et al. (2002)
    that ngrameval ships (ngrameval/examples)."""
    folder = Path(ngrameval.__file__).parent / "examples"
    hypotheses = lines_of((folder / "hypotheses.txt").read_text(encoding="utf-8"))
    return hypotheses, [lines_of((folder / f"references.{i}.txt").read_text(encoding="utf-8")) for i in (1, 2, 3)]


_SCENES = {  # caption: its five references, written for these pages, tokenized as COCO's evaluation does
    "a dog runs on the beach with a frisbee": [
        "a brown dog running along the beach",
        "a dog carries a frisbee across the sand",
        "a dog is running on a sandy beach",
        "a dog with a red frisbee in its mouth on the beach",
        "the dog plays fetch by the ocean",
    ],
    "a kitchen with a stove and a refrigerator": [
        "a small kitchen with a white stove",
        "a kitchen with wooden cabinets and a refrigerator",
        "an old stove next to a refrigerator in a kitchen",
        "a clean kitchen with appliances and a window",
        "the kitchen has a stove a sink and a fridge",
    ],
    "a red bus driving down a city street": [
        "a red double decker bus on a street",
        "a bus drives down a busy city street",
        "a red bus stopped at a traffic light",
        "people waiting as a bus drives by",
        "a city bus driving past tall buildings",
    ],
    "a man riding a skateboard down a ramp": [
        "a skateboarder doing a trick on a ramp",
        "a man rides his skateboard at a skate park",
        "a young man skateboarding down a ramp",
        "a person on a skateboard in the air",
        "a skateboarder jumps off a concrete ramp",
    ],
}


CHINESE = (["猫坐在垫子上。", "今天天气很好"], [["猫在垫子上睡觉。", "今天的天气非常好"]])  # the ROUGE and TER pages'
# pycocoevalcap's example, lowercase and without its periods (the METEOR and CIDEr pages' example).
TOY = (
    ["a man rides a horse", "two dogs are playing in grass"],
    [
        ["a man riding a horse on a beach", "two dogs play in the grass"],
        ["a person rides a horse", "dogs playing on a lawn"],
    ],
)


def captions() -> tuple[list[str], list[list[str]]]:
    """Four image captions and, per reference box, their five references (the CIDEr and COCO pages'
    examples)."""
    return list(_SCENES), [[group[k] for group in _SCENES.values()] for k in range(5)]


@dataclass
class Example:
    label: Shown  # its name on the page (a Phrase: in the page's language)
    predictions: Sequence[str]
    references: Sequence[Sequence[str]]  # per reference box, one line per prediction
    options: dict[str, Any] = field(default_factory=dict)


@dataclass
class MetricSpace:
    """The page of the metric that the module ``module`` (``ngrameval.ui.<name>``, where ``SPACE`` is made last)
    describes; :func:`build_demo` does the rest. The module defines ``controls()`` (the option controls by name),
    ``options(**values)`` (control values -> compute() options), ``present`` and ``EXAMPLES``, and may define
    ``detail_options(options)``, ``explain_item``, ``explain_one`` and ``warm_up`` (run once before serving).

    The result shown is ``compute(**options, **detail_options)``. ``present(result, options, per_sentence)`` gets as
    ``per_sentence`` a second ``compute(**options, **sentence_options)`` when ``sentence_options`` is set, else the
    result; with ``present_corpus`` also the predictions and references; it returns a :class:`Presentation`. A
    sentence is explained as :func:`explain` says. The page's texts are ``<prefix>.title``, ``.intro`` and, where
    the texts have them, ``.note`` (added to the explanation's introduction), ``.explanation_intro`` (else the
    page's: it names OVER_CLIP) and the tables' labels ``.per_order_label``, ``.ngrams`` and ``.orders_label``."""

    module: str
    order_plot: tuple[Shown, i18n.I18nData]  # (per_order column plotted, its title)
    score_high: float | None = 1.0  # nominal top of the score range (None: open)
    texts: str | None = None  # the prefix of the page's texts (default: name)
    label: str | None = None  # the metric's name on the page (default: NAME)
    intro: i18n.I18nData | None = None  # Markdown under the title
    detail_options: dict[str, Any] | Callable[[dict[str, Any]], dict[str, Any]] = field(
        default_factory=lambda: {"sentence_level": True, "explain": True}
    )
    sentence_options: dict[str, Any] | None = None
    reference_boxes: int = REFERENCE_BOXES  # text boxes for references (API: references_1, ...)
    coco_json: bool = False  # also read COCO results + references JSON uploads
    max_predictions: int | None = None  # lower limits than MAX_LINES
    max_references: int | None = None
    present_corpus: bool = False

    def __post_init__(self) -> None:
        described = sys.modules[self.module]
        self.name = self.module.rpartition(".")[2]  # metrics/<name>
        self.controls: Callable[[], dict[str, gr.components.Component]] = described.controls
        self.options: Callable[..., dict[str, Any]] = described.options
        self.present: Callable[..., Presentation] = described.present
        self.examples: Sequence[Example] = described.EXAMPLES
        self.detail_options = getattr(described, "detail_options", self.detail_options)
        self.explain_one: ExplainOne | None = getattr(described, "explain_one", None)
        self.explain_item: ExplainItem | None = getattr(described, "explain_item", None)
        self.warm_up: Callable[[], None] | None = getattr(described, "warm_up", None)
        self.title, self.intro = self.text("title"), self.intro or self.text("intro")
        self.per_order_label = self.text("per_order_label", t("page.per_ngram_order"))
        self.ngrams_label = self.text("ngrams", t("page.ngrams"))
        self.orders_label = self.text("orders_label", t("page.per_order"))

    def text(self, name: str, default: Any = None) -> Any:
        """The page's own text ``<prefix>.<name>``; where the texts have none, ``default`` if given."""
        key = f"{self.texts or self.name}.{name}"
        return t(key) if default is None or key in i18n.TEXTS else default

    def build(self) -> gr.Blocks:
        """The page (:func:`build_demo`)."""
        return build_demo(self)

    def input_help(self) -> i18n.I18nData:
        """The page's *How to enter predictions and references* (Markdown), with its limits."""
        count, references = self.max_predictions or MAX_LINES, self.max_references
        limits = (
            t("page.limit_predictions_references", count=count, references=references)
            if references
            else t("page.limit_predictions", count=count)
        )
        coco = t("page.input_help_coco") if self.coco_json else ""
        return t("page.input_help", boxes=self.reference_boxes, limits=limits, coco=coco)

    def check_limits(self, predictions: Sequence[Any], references: Sequence[Sequence[Any]]) -> None:
        """The page's own limits, below MAX_LINES for a slower metric: predictions, and references in all."""
        if self.max_predictions is not None and len(predictions) > self.max_predictions:
            raise InputError("error.page_predictions", count=len(predictions), limit=self.max_predictions)
        total = sum(len(group) for group in references)
        if self.max_references is not None and total > self.max_references:
            raise InputError("error.page_references", count=total, limit=self.max_references)


# The scoring event's outputs, in order.
OUTPUTS = "raw status score per_order summary order_plot histogram sentences number heading highlight ngrams orders"
OUTPUTS += " signature results state"


def _outputs(**given: Any) -> list[Any]:
    """The outputs in order: the given ones, None (cleared) for the others."""
    return [given.get(name) for name in OUTPUTS.split()]


def _examples(space: MetricSpace, controls: dict[str, gr.components.Component]) -> list[list[Any]]:
    rows = []
    for example in space.examples:
        boxes = ["\n".join(lines) for lines in example.references]
        boxes += [""] * (space.reference_boxes - len(boxes))
        values = [example.options.get(name, control.value) for name, control in controls.items()]
        rows.append(["\n".join(example.predictions), *boxes, *values])
    return rows


def example_labels(space: MetricSpace, language: str) -> list[str]:
    """The names of the Space's examples in ``language``."""
    return [str(i18n.resolve(example.label, language)) for example in space.examples]


def on_worker(worker: Executor, function: Callable[..., Any]) -> Callable[..., Any]:
    """``function`` (an event's, its signature kept for gradio) run on ``worker``, whichever thread calls it:
    glibc's malloc keeps a thread's freed memory in that thread's arena, so corpus-sized arrays built on gradio's
    many threads left a request's worth in each (the BLEU Space grew ~6 MB a request); on one thread every request
    reuses what the one before freed.

    >>> import threading
    >>> with ThreadPoolExecutor(max_workers=1) as worker:
    ...     name = on_worker(worker, lambda: threading.current_thread().name)()
    >>> name != threading.current_thread().name
    True
    """

    @functools.wraps(function)
    def on_the_worker(*args: Any, **kwargs: Any) -> Any:
        return worker.submit(function, *args, **kwargs).result()

    return on_the_worker


def _bar_plot(frame: pd.DataFrame, title: i18n.I18nData | None = None) -> gr.BarPlot:
    """A bar per row: its first column the bars (in their order), its second their heights."""
    x, y = frame.columns[:2]
    # gradio translates an I18nData title (annotated str)
    return gr.BarPlot(value=frame, x=x, y=y, title=title, sort=list(frame.iloc[:, 0]))  # type: ignore[arg-type]


def build_demo(space: MetricSpace) -> gr.Blocks:
    """The page: inputs and options, examples, the score and its parts, plots, per-sentence scores,
    the explanation of one sentence, the signature and the raw result."""
    import evaluate

    # evaluate's compute keeps per-call state on the module: every computation runs on the page's one worker thread.
    metric = evaluate.load(metric_path(space.name), keep_in_memory=True)
    label = space.label or space.name.upper()
    boxes = space.reference_boxes

    def explain_sentence(request: gr.Request, state, number):
        language = i18n.language_of(request)
        if state is None and number is not None:  # scored, then the session's state expired
            return _failed_explanation(i18n.text("status.expired", language, minutes=STATE_SECONDS // 60), language)
        return explain(unpacked(state), number, space.explain_one, space.explain_item, language)

    def run(request: gr.Request, predictions, *values):
        references, option_values = values[:boxes], values[boxes + 2 :]
        predictions_file, reference_files = values[boxes : boxes + 2]
        language = i18n.language_of(request)
        image_ids = None
        try:
            if predictions_file and space.coco_json and Path(predictions_file).suffix.lower() == ".json":
                gts, res = coco_from_files(predictions_file, reference_files)
                image_ids, hyps, refs = from_coco(gts, res)  # as the metric reads them: for the tables
                inputs = {"predictions": None, "references": None, "gts": gts, "res": res}
                source = i18n.text(
                    "status.coco_files",
                    language,
                    results=Path(predictions_file).name,
                    references=Path(reference_files[0]).name,
                )
            elif predictions_file:
                hyps, refs = corpus_from_files(predictions_file, reference_files)
                inputs = {"predictions": hyps, "references": refs}
                source = i18n.text("status.file", language, name=Path(predictions_file).name)
            else:
                hyps, refs = corpus_from_text(predictions, references)
                inputs = {"predictions": hyps, "references": refs}
                source = i18n.text("status.text_boxes", language)
            space.check_limits(hyps, refs)
            options = space.options(**dict(zip(controls, option_values)))
            details = space.detail_options(options) if callable(space.detail_options) else space.detail_options
            result = metric.compute(**inputs, **options, **details)
            again = space.sentence_options
            per_sentence = result if again is None else metric.compute(**inputs, **options, **again)
            shown = space.present(result, options, per_sentence, *((hyps, refs) if space.present_corpus else ()))
        except Exception as error:
            if isinstance(error, (errors.InputError, ImportError)):  # the page's, and the metric's own (English)
                message = str(error)
                shown_message = error.in_language(language) if isinstance(error, InputError) else message
            else:
                LOG.exception("scoring failed")
                message = f"unexpected {type(error).__name__}: {error}"
                shown_message = i18n.text("status.unexpected", language, kind=type(error).__name__, message=error)
            status = status_html(shown_message, True, language)
            return _outputs(raw={"error": message}, status=status, results=gr.Column(visible=False))
        sentence_scores = shown.sentence_scores or {SCORE: result["sentence_scores"]}
        score_name, first_scores = next(iter(sentence_scores.items()))
        state = {
            "explanation": result.pop("explanation", None),
            "scores": first_scores,
            "predictions": hyps,
            "references": refs,
            "options": options,
            "result": result,
            "image_ids": image_ids,
            "score_name": None if score_name == SCORE else score_name,
        }  # None: "sentence score"
        counts = sorted({len(group) for group in refs})
        per_prediction = (
            f"{counts[0]}" if len(counts) == 1 else i18n.text("status.range", language, low=counts[0], high=counts[-1])
        )
        plotted_column, plot_title = shown.order_plot or space.order_plot
        plotted = shown.per_order[[shown.per_order.columns[0], plotted_column]]
        explained = explain(state, 1, space.explain_one, space.explain_item, language)
        return _outputs(
            raw=result,  # the metric's own result: English keys in every language (machine-readable)
            status=status_html(
                i18n.text("status.scored", language, count=len(hyps), source=source, per_prediction=per_prediction)
            ),
            score=score_card(label, shown.scores, shown.notes, language),
            per_order=localized(shown.per_order.round(DIGITS), language),
            summary=summary_table(shown.summary, language),
            order_plot=_bar_plot(localized(plotted, language), plot_title),
            histogram=_bar_plot(localized(histogram(first_scores, space.score_high), language)),
            sentences=sentence_table(hyps, refs, sentence_scores, image_ids, language),
            number=gr.Number(value=1, maximum=len(hyps)),
            **dict(zip(("heading", "highlight", "ngrams", "orders"), explained)),
            signature=shown.signature or result["signature"],
            results=gr.Column(visible=True),
            state=packed(state),
        )

    with i18n.TranslatedBlocks(title=f"{label} · ngrameval", analytics_enabled=False) as demo:
        with gr.Row(equal_height=False):
            gr.Markdown(t("page.header", title=space.title, intro=space.intro))
            language = i18n.language_switch()
        with gr.Row(equal_height=False):
            with gr.Column(scale=3):
                with gr.Tabs():
                    with gr.Tab(t("page.tab_text")):
                        hint = t("page.predictions_placeholder")
                        predictions = gr.Textbox(
                            label=t("page.predictions"), lines=3, max_lines=12, elem_id="predictions", placeholder=hint
                        )
                        reference_boxes = [
                            gr.Textbox(
                                label=t("page.references", number=i),
                                lines=3 if i == 1 else 1,
                                max_lines=12,
                                elem_id=f"references-{i}",
                                placeholder=t(
                                    "page.references_placeholder" if i == 1 else "page.more_references_placeholder"
                                ),
                            )
                            for i in range(1, boxes + 1)
                        ]
                    with gr.Tab(t("page.tab_files")):
                        coco = [".json"] if space.coco_json else []
                        predictions_file = gr.File(
                            label=t("page.predictions_file_coco" if coco else "page.predictions_file"),
                            file_types=[".txt", ".jsonl", ".csv", ".tsv", *coco],
                            elem_id="predictions-file",
                        )
                        reference_files = gr.File(
                            label=t("page.reference_files_coco" if coco else "page.reference_files"),
                            file_count="multiple",
                            file_types=[".txt", *coco],
                            elem_id="reference-files",
                        )
                with gr.Accordion(t("page.input_help_title"), open=False):
                    gr.Markdown(space.input_help())
            with gr.Column(scale=2):
                controls = space.controls()
                # Named API parameters, with defaults (inspect reads __signature__, which typeshed's functions lack).
                run.__signature__ = _api_signature(controls, boxes)  # type: ignore[attr-defined]
                submit = gr.Button(t("page.compute", label=label), variant="primary", elem_id="submit")
        status = gr.HTML(label=t("page.status"), elem_id="status")
        examples_area = gr.Column()  # filled below, once the outputs exist

        with gr.Column(visible=False) as results:  # shown once something is scored
            gr.Markdown(t("page.result"))
            with gr.Row(equal_height=False):
                with gr.Column(scale=2):
                    score = gr.HTML(label=t("page.score"), elem_id="score")
                    summary = gr.Dataframe(label=t("page.summary"), interactive=False, elem_id="summary")
                per_order = gr.Dataframe(label=space.per_order_label, interactive=False, elem_id="per-order", scale=3)
            with gr.Row():
                order_plot = gr.BarPlot(
                    x="order",
                    y=str(space.order_plot[0]),
                    title=space.order_plot[1],  # type: ignore[arg-type]  # gradio translates an I18nData title (annotated str)
                    label=space.per_order_label,
                    elem_id="order-plot",
                    height=260,
                    y_lim=[0, None],
                )
                histogram_plot = gr.BarPlot(
                    x="score",
                    y="sentences",
                    title=t("page.sentence_scores"),  # type: ignore[arg-type]  # gradio translates an I18nData title (annotated str)
                    label=t("page.histogram"),
                    elem_id="histogram",
                    x_label_angle=-30,
                    height=260,
                )
            sentences = gr.Dataframe(
                label=t("page.sentences"), interactive=False, max_height=320, elem_id="sentences", wrap=True
            )

            intro = space.text("explanation_intro", t("page.explanation_intro"))
            gr.Markdown(t("page.explanation", intro=intro, note=space.text("note", "")))
            with gr.Row(equal_height=False):
                number = gr.Number(
                    value=1,
                    minimum=1,
                    precision=0,
                    label=t("page.sentence"),
                    elem_id="sentence-number",
                    scale=1,
                    min_width=120,
                )
                heading = gr.HTML(label=t("page.sentence"), elem_id="sentence-info")
            highlight_view = gr.HighlightedText(
                label=t("page.prediction_tokens"), show_legend=True, elem_id="highlight"
            )
            orders = gr.Dataframe(label=space.orders_label, interactive=False, elem_id="orders")
            ngrams = gr.Dataframe(label=space.ngrams_label, interactive=False, max_height=320, elem_id="ngrams")
            signature = gr.Textbox(
                label=t("page.signature"),
                interactive=False,
                elem_id="signature",
                buttons=["copy"],
                lines=1,
                max_lines=3,
            )
            with gr.Accordion(t("page.raw_title"), open=False):
                raw = gr.JSON(label=t("page.raw"), elem_id="raw")
        state = gr.State(time_to_live=STATE_SECONDS)

        # In the order of OUTPUTS.
        outputs = [raw, status, score, per_order, summary, order_plot, histogram_plot, sentences, number, heading]
        outputs += [highlight_view, ngrams, orders, signature, results, state]
        texts = [predictions, *reference_boxes]
        # Scoring and explaining run on one thread of the page's: see on_worker.
        worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"ngrameval-{space.name}")
        run, explain_sentence = on_worker(worker, run), on_worker(worker, explain_sentence)

        def run_example(request: gr.Request, *values):
            return run(request, *values[: len(texts)], None, None, *values[len(texts) :])

        with examples_area:
            examples = gr.Examples(
                _examples(space, controls),
                texts + list(controls.values()),
                outputs,
                run_example,
                cache_examples=False,
                label=t("page.examples"),
                run_on_click=True,
                example_labels=example_labels(space, i18n.DEFAULT_LANGUAGE),
            )
        inputs = texts + [predictions_file, reference_files] + list(controls.values())
        submit.click(run, inputs, outputs, api_name="score")
        number.change(
            explain_sentence, [state, number], [heading, highlight_view, ngrams, orders], api_visibility="private"
        )
        sentences.select(_selected_sentence, None, number, api_visibility="private")
        # The language switch: shown as the browser's (or the last chosen) language, it changes the page's.
        demo.load(None, None, language, js=i18n.INITIAL_JS)
        language.change(None, language, None, js=i18n.SWITCH_JS)
        # gradio's frontend translates no example label: the server sends them again in the chosen language.
        language.change(
            lambda chosen: gr.Dataset(sample_labels=example_labels(space, chosen)),
            language,
            examples.dataset,
            api_visibility="private",
            queue=False,
        )
    demo.queue(default_concurrency_limit=CONCURRENCY, max_size=QUEUE_SIZE)
    return demo


def packed(state: dict[str, Any]) -> bytes:
    """A scored corpus as the session keeps it: one compressed pickle.

    >>> unpacked(packed({"scores": [0.5]}))
    {'scores': [0.5]}
    """
    return zlib.compress(pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL), 1)


def unpacked(state: bytes | None) -> dict[str, Any] | None:
    """What :func:`packed` kept (None: nothing scored yet). The bytes come from this page's own
    state, never from a client: gradio does not accept a State's value from the API."""
    return None if state is None else pickle.loads(zlib.decompress(state))


def _api_signature(controls: dict[str, gr.components.Component], boxes: int) -> inspect.Signature:
    """The submit function's API: the text boxes, the files, then one parameter per control. All are
    optional for gradio_client (a None default; a control left out takes its initial value). The request
    (gradio passes it; not an API parameter) goes first: its language is the messages'."""
    texts = ["predictions", *(f"references_{i}" for i in range(1, boxes + 1)), "predictions_file", "reference_files"]
    kind = inspect.Parameter.POSITIONAL_OR_KEYWORD
    parameters = [inspect.Parameter(name, kind, default=None) for name in [*texts, *controls]]
    return inspect.Signature([inspect.Parameter("request", kind, annotation=gr.Request), *parameters])


def _selected_sentence(event: gr.SelectData):
    """A click on a row of the per-sentence table explains that sentence (its "#" column)."""
    return event.row_value[0] if event.row_value else gr.update()


def launch(demo: gr.Blocks, **options) -> None:
    """Serve on 127.0.0.1:$GRADIO_SERVER_PORT (7860 by default); ``options`` go to ``demo.launch``."""
    demo.launch(
        **{
            "server_name": os.environ.get("GRADIO_SERVER_NAME", "127.0.0.1"),
            "server_port": int(os.environ.get("GRADIO_SERVER_PORT", "7860")),
            "max_file_size": MAX_FILE_SIZE,
            "show_error": False,
            "state_session_capacity": SESSIONS,
            **options,
        }
    )
