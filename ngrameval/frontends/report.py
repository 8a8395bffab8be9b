"""A leaderboard's presentations: text, JSON, CSV/TSV, Markdown, LaTeX, JSON lines of segment scores, and one
self-contained HTML report (inline CSS, SVG and a few lines of JavaScript): the ranked table, a chart of each
score with its interval, a box plot of the segment scores, and for each pair of systems the segments where they
differ most, the words in an n-gram of the references highlighted.
"""

from __future__ import annotations

import csv
import html
import io
import json
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ngrameval.leaderboard.scoring import (
    MARK_MEANINGS,
    NOT_SIGNIFICANT,
    SIGNIFICANTLY_BETTER,
    SIGNIFICANTLY_WORSE,
    Column,
    Leaderboard,
    SystemScores,
)
from ngrameval.metric import get_family
from ngrameval.significance import SystemResult

FORMATS = ("text", "json", "csv", "tsv", "markdown", "latex", "html")
# The highlight's tokens: runs of word characters and single other non-space characters (13a-like, and
# independent of the metric: the highlight explains, it does not score).
TOKEN = re.compile(r"\w+|[^\w\s]")
HIGHLIGHT_ORDER = 4
PAIR_SEGMENTS = 10


def to_json(board: Leaderboard, segments: bool = False) -> str:
    """One object: the baseline and, per system in the order given, every column's result; with ``segments``,
    also each system's ``segments``: per segment, every column's sentence score."""

    def entry(column: Column, result: SystemResult) -> dict[str, object]:
        ci = list(result.ci) if result.ci is not None else None
        return dict(score=result.score, signature=column.signature, mean=result.mean, ci=ci, p_value=result.p_value)

    shown = shown_names(board)
    systems = [
        {
            "name": system.name,
            "label": shown[system.name],
            "scores": {column.key: entry(column, system.results[column.key]) for column in board.columns},
            **({"segments": _segment_entries(board, system)} if segments else {}),
        }
        for system in board.systems
    ]
    document: dict[str, object] = {"baseline": board.baseline, "systems": systems}
    if board.clusters is not None:  # a community board's standings: clusters per column, stale signatures
        document["clusters"] = board.clusters
        document["stale"] = {
            metric: {"board": stored, "ngrameval": current} for metric, (stored, current) in board.stale.items()
        }
    return json.dumps(document, indent=1, ensure_ascii=False) + "\n"


def to_delimited(board: Leaderboard, delimiter: str) -> str:
    """CSV or TSV: a header, then one row per system with each column's score, mean, interval and p-value
    (empty when not computed)."""
    fields = ("", ".mean", ".ci_low", ".ci_high", ".p_value")
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=delimiter, lineterminator="\n")
    cluster_of = board.cluster_numbers()
    writer.writerow(
        ["system"]
        + (["cluster"] if cluster_of else [])
        + [column.key + field for column in board.columns for field in fields]
    )
    for system in board.systems:
        row: list[object] = [system.name] + ([cluster_of[system.name]] if cluster_of else [])
        for column in board.columns:
            result = system.results[column.key]
            low, high = result.ci if result.ci is not None else (None, None)
            row += [
                "" if value is None else repr(float(value))
                for value in (result.score, result.mean, low, high, result.p_value)
            ]
        writer.writerow(row)
    return buffer.getvalue()


def to_sentences(board: Leaderboard) -> str:
    """JSON lines: one object per segment per system, ``{"system", "segment" (1-based), "scores"}``."""
    return "".join(
        json.dumps({"system": system.name, "segment": index, "scores": scores}, ensure_ascii=False) + "\n"
        for system in board.systems
        for index, scores in enumerate(_segment_entries(board, system), 1)
    )


def _segment_entries(board: Leaderboard, system: SystemScores) -> list[dict[str, float]]:
    """Per segment: column key -> its sentence score."""
    keys = [column.key for column in board.columns]
    return [dict(zip(keys, row)) for row in system.segment_scores.tolist()]


def _table(board: Leaderboard, scale: float, width: int, escape: Callable[[str], str]) -> list[list[str]]:
    """Header and rows; a board's standings (with clusters) start with each system's cluster."""
    cluster_of = board.cluster_numbers()
    header = (["Cluster"] if cluster_of else []) + ["System"] + [escape(column.key) for column in board.columns]
    return [header] + [
        ([str(cluster_of[system.name])] if cluster_of else [])
        + [escape(board.label(system))]
        + [escape(board.cell(system, column.key, scale, width)) for column in board.columns]
        for system in board.systems
    ]


def to_text(board: Leaderboard, scale: float, width: int) -> str:
    """An aligned table, then the signatures and the legend."""
    rows = _table(board, scale, width, str)
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    text_column = rows[0].index("System")
    lines = [
        "  ".join(cell.ljust(w) if i == text_column else cell.rjust(w) for i, (cell, w) in enumerate(zip(row, widths)))
        for row in rows
    ]
    lines.insert(1, "  ".join("-" * w for w in widths))
    lines += [""] + [f"{column.key}: {column.signature}" for column in board.columns] + board.legend()
    return "\n".join(line.rstrip() for line in lines) + "\n"


def to_markdown(board: Leaderboard, scale: float, width: int) -> str:
    """A Markdown table, then the signatures and the legend."""
    rows = _table(board, scale, width, lambda text: text.replace("|", "\\|"))
    lines = ["| " + " | ".join(row) + " |" for row in rows]
    lines.insert(1, "|" + "".join(" --- |" if cell == "System" else " ---: |" for cell in rows[0]))
    lines += [""] + [f"- `{column.key}`: `{column.signature}`" for column in board.columns]
    lines += [""] + board.legend() if board.legend() else []
    return "\n".join(lines) + "\n"


LATEX_SPECIAL = {
    **{character: "\\" + character for character in "&%$#_{}"},
    "\\": r"\textbackslash{}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "\u00b1": r"$\pm$",
    "\u03bc": r"$\mu$",
    NOT_SIGNIFICANT: r"$^\dagger$",
    SIGNIFICANTLY_BETTER: r"$^\bigtriangleup$",
    SIGNIFICANTLY_WORSE: r"$^\bigtriangledown$",
    "\u2264": r"$\leq$",
}


def latex_escape(text: str) -> str:
    r"""Text as LaTeX source.

    >>> latex_escape("sys_1 & 50% \u00b1 2")
    'sys\\_1 \\& 50\\% $\\pm$ 2'
    """
    return "".join(LATEX_SPECIAL.get(character, character) for character in text)


def to_latex(board: Leaderboard, scale: float, width: int) -> str:
    """A ``tabular`` (no packages needed), the signatures as comments, then the legend."""
    rows = _table(board, scale, width, latex_escape)
    lines = [f"% {column.key}: {column.signature}" for column in board.columns]
    alignment = "".join("l" if cell == "System" else "r" for cell in rows[0])
    lines += (
        ["\\begin{tabular}{" + alignment + "}", "\\hline", " & ".join(rows[0]) + " \\\\", "\\hline"]
        + [" & ".join(row) + " \\\\" for row in rows[1:]]
        + ["\\hline", "\\end{tabular}"]
    )
    lines += [latex_escape(line) for line in board.legend()]
    return "\n".join(lines) + "\n"


# Where the words of a system's name (a file name's parts) end: a prefix or suffix common to all is cut at one.
NAME_SEPARATORS = re.compile(r"([./\\:_\s]+)")


def distinct_names(names: Sequence[str]) -> list[str]:
    """What tells the systems apart: each name less the words (split at ``.``, ``/``, ``\\``, ``:``, ``_`` and
    whitespace) that begin or end every name, keeping at least one word of each (a common suffix, such as an
    extension, goes first); one name is kept whole. The results are as distinct as the names.

    >>> distinct_names(["generaltest2022.de-en.hyp.Online-A.en", "generaltest2022.de-en.hyp.LT22.en"])
    ['Online-A', 'LT22']
    >>> distinct_names(["out.txt", "out.v2.txt"]), distinct_names(["runs/a.txt"]), distinct_names(["a b", "a_b"])
    (['out', 'out.v2'], ['runs/a.txt'], ['a b', 'a_b'])
    """
    if len(names) < 2:
        return list(names)
    parts = [NAME_SEPARATORS.split(name) for name in names]  # words at even positions, separators between
    shortest = min(len(split) for split in parts)

    def common(key: Callable[[list[str], int], list[str]]) -> int:
        """How many words (with their separators) every name shares, by ``key(parts, count)``."""
        count = 0
        while 2 * (count + 1) < shortest + 1 and len({tuple(key(split, count + 1)) for split in parts}) == 1:
            count += 1
        return count

    words = (shortest + 1) // 2
    suffix = min(common(lambda split, count: split[-2 * count :]), words - 1)
    prefix = min(common(lambda split, count: split[: 2 * count]), words - 1 - suffix)
    return ["".join(split[2 * prefix : len(split) - 2 * suffix]) for split in parts]


def shown_names(board: Leaderboard) -> dict[str, str]:
    """Each system's name -> the part of it the report shows (:func:`distinct_names` of the board's systems)."""
    names = [system.name for system in board.systems]
    return dict(zip(names, distinct_names(names)))


def direction(column: Column) -> str:
    """Which way a score column is better, from its metric's family.

    >>> direction(Column("ter", "ter", "ter", "")), direction(Column("bleu", "bleu", "bleu", ""))
    ('lower is better', 'higher is better')
    """
    return "lower is better" if get_family(column.metric).lower_is_better else "higher is better"


def matched_spans(
    prediction: str, references: Sequence[str], max_order: int = HIGHLIGHT_ORDER
) -> list[tuple[int, int, int]]:
    """``(start, end, n)`` for each token of ``prediction``: n is the longest n-gram (up to ``max_order``)
    holding the token that occurs in one of ``references`` (0: the token occurs in none).

    >>> matched_spans("the cat sat", ["a cat sat down", "the end"])
    [(0, 3, 1), (4, 7, 2), (8, 11, 2)]
    """
    tokens = list(TOKEN.finditer(prediction))
    words = [token.group() for token in tokens]
    reference_ngrams = {
        tuple(reference[i : i + n])
        for reference in map(TOKEN.findall, references)
        for n in range(1, max_order + 1)
        for i in range(len(reference) - n + 1)
    }
    longest = [0] * len(words)
    for n in range(1, max_order + 1):
        for i in range(len(words) - n + 1):
            if tuple(words[i : i + n]) in reference_ngrams:
                longest[i : i + n] = [n] * n
    return [(token.start(), token.end(), n) for token, n in zip(tokens, longest)]


def highlighted(prediction: str, references: Sequence[str]) -> str:
    """``prediction`` as escaped HTML, each matched token in ``<mark class="nN">``.

    >>> highlighted("a <b> c", ["<b>", "b c"])
    'a <mark class="n3">&lt;</mark><mark class="n3">b</mark><mark class="n3">&gt;</mark> <mark class="n1">c</mark>'
    """
    parts, position = [], 0
    for start, end, n in matched_spans(prediction, references):
        parts.append(html.escape(prediction[position:start]))
        token = html.escape(prediction[start:end])
        parts.append(f'<mark class="n{n}">{token}</mark>' if n else token)
        position = end
    parts.append(html.escape(prediction[position:]))
    return "".join(parts)


# The charts' and highlights' rules: also what a page embedding them (the leaderboard Space) needs.
CHART_CSS = """
svg{max-width:100%;height:auto}svg text{font:12px system-ui,sans-serif}.point{fill:#4c78a8}
.whisker{stroke:#222;stroke-width:1.5}
.axis{stroke:#888}.grid{stroke:#eee}svg text.tick,svg text.better{fill:#555;font-size:11px}
.box{fill:#c6dbef;stroke:#4c78a8}.median{stroke:#08306b;stroke-width:2}.range{stroke:#888}.mean{fill:#e45756}
mark{background:none}mark.n1{background:#fdf0c2}mark.n2{background:#fbe08a}mark.n3{background:#f8c95a}
mark.n4{background:#f0a830}.pair td.text{min-width:16em}.refs{color:#555}.refs div+div{border-top:1px dotted #ccc}
"""
CSS = (
    """
body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:1100px;padding:0 1em;color:#222}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ddd}
table{border-collapse:collapse}th,td{padding:.25em .6em;border-bottom:1px solid #eee;vertical-align:top}
td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.scroll{overflow-x:auto;max-width:100%}.scroll th,.scroll td{background:#fff}
.fixed{position:sticky;z-index:1;box-sizing:border-box}.fixed.rank{left:0;min-width:3.5em;max-width:3.5em}
.fixed.cluster{left:3.5em;min-width:4.5em;max-width:4.5em}.fixed.system{left:3.5em;text-align:left;
box-shadow:inset -1px 0 #ccc}.clustered .fixed.system{left:8em}
td.score{white-space:normal}td.score span{white-space:nowrap}.mark.better{color:#1a7f37}.mark.worse{color:#c62828}th .direction{font-weight:normal;font-size:.8em;color:#555}
code{font-size:.85em;word-break:break-all}.legend{color:#555;font-size:.9em}"""
    + CHART_CSS
)

SCRIPT = """
document.getElementById('pair').addEventListener('change', function (event) {
  document.querySelectorAll('section.pair').forEach(function (section) {
    section.hidden = section.dataset.pair !== event.target.value;
  });
});
"""


def _display(value: float, scale: float, width: int) -> str:
    return f"{value * scale:.{width}f}"


def nice_ticks(low: float, high: float, intervals: int = 5) -> list[float]:
    """Round values, a step of 1, 2 or 5 times a power of ten apart, from at most ``low`` to at least ``high``
    in about ``intervals`` steps: an axis that spans the values, not one that starts at 0.

    >>> nice_ticks(0.4882, 0.5021)
    [0.485, 0.49, 0.495, 0.5, 0.505]
    >>> nice_ticks(0.0, 1.0)
    [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]
    >>> ticks = nice_ticks(0.3, 0.3)      # one value: an axis around it
    >>> ticks[0] < 0.3 < ticks[-1]
    True
    """
    if not high > low:
        pad = max(abs(low), 1.0) * 0.005
        low, high = low - pad, high + pad
    raw = (high - low) / intervals
    power = 10.0 ** math.floor(math.log10(raw))
    step = next(multiple * power for multiple in (1, 2, 5, 10) if multiple * power >= raw * (1 - 1e-9))
    first, last = math.floor(low / step + 1e-9), math.ceil(high / step - 1e-9)
    return [round(index * step, 12) for index in range(first, last + 1)]


SVG_WIDTH, VALUE_WIDTH, ROW, AXIS_HEIGHT = 760, 110, 24, 34
# System names are labels left of the plot: as wide as the longest shown name (about 7 px a character at the
# page's 12 px font), within bounds; a longer name is cut with an ellipsis (its tooltip has the whole name).
LABEL_CHARS, MIN_LABEL_WIDTH, MAX_LABEL_WIDTH, CHAR_WIDTH = 48, 80, 340, 7


@dataclass
class _Frame:
    """The charts' geometry: a row per ranked system (its shown name on the left, a value on the right) and below
    them an axis with ticks from ``ticks[0]`` to ``ticks[-1]``, the better end marked."""

    board: Leaderboard
    column: Column
    ticks: list[float]
    scale: float

    def __post_init__(self) -> None:
        self.systems = self.board.ranked()
        self.shown = shown_names(self.board)
        longest = max((len(_label(self.shown[system.name])) for system in self.systems), default=0)
        self.label_width = min(max(longest * CHAR_WIDTH + 12, MIN_LABEL_WIDTH), MAX_LABEL_WIDTH)

    def x(self, value: float) -> float:
        plot = SVG_WIDTH - self.label_width - VALUE_WIDTH
        low, high = self.ticks[0], self.ticks[-1]
        return self.label_width + (value - low) / (high - low) * plot

    def label(self, row: int) -> str:
        name = self.systems[row].name
        return (
            f'<g><title>{html.escape(name)}</title><text class="name" x="{self.label_width - 6}" '
            f'y="{5 + row * ROW + 15}" text-anchor="end">{html.escape(_label(self.shown[name]))}</text></g>'
        )

    def row(self, row: int, tooltip: str, shapes: str, value: str) -> str:
        """A system's row: its label, its ``shapes`` with their ``tooltip``, and ``value`` on the right."""
        return (
            f"{self.label(row)}<g><title>{html.escape(tooltip)}</title>{shapes}</g>"
            f'<text x="{SVG_WIDTH - VALUE_WIDTH + 6}" y="{5 + row * ROW + 15}">{value}</text>'
        )

    def svg(self, body: list[str], title: str) -> str:
        """The rows, under grid lines at the ticks, the axis, the ticks' values (scaled as the table's) and the
        better end."""
        bottom = len(self.systems) * ROW + 10
        height = bottom + AXIS_HEIGHT
        step = (self.ticks[-1] - self.ticks[0]) / max(len(self.ticks) - 1, 1) * self.scale
        decimals = max(0, -math.floor(math.log10(abs(step)) + 1e-9)) if step else 0
        parts = [f'<path class="axis" d="M{self.x(self.ticks[0]):.1f},{bottom}H{self.x(self.ticks[-1]):.1f}"/>']
        for tick in self.ticks:
            x = self.x(tick)
            parts.append(
                f'<path class="grid" d="M{x:.1f},0V{bottom + 4}"/><text class="tick" x="{x:.1f}" '
                f'y="{bottom + 16}" text-anchor="middle">{tick * self.scale:.{decimals}f}</text>'
            )
        x, anchor, better = (
            (self.x(self.ticks[0]), "start", "\u2190 lower is better")
            if get_family(self.column.metric).lower_is_better
            else (self.x(self.ticks[-1]), "end", "higher is better \u2192")
        )
        parts.append(f'<text class="better" x="{x:.1f}" y="{bottom + 30}" text-anchor="{anchor}">{better}</text>')
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{SVG_WIDTH}" height="{height}" '
            f'viewBox="0 0 {SVG_WIDTH} {height}" role="img" aria-label="{html.escape(title)}">'
            + "".join(parts + body)
            + "</svg>"
        )


def _label(name: str) -> str:
    """A system name as a chart label: cut to LABEL_CHARS characters with an ellipsis."""
    return name if len(name) <= LABEL_CHARS else name[: LABEL_CHARS - 1] + "\u2026"


def interval_chart(board: Leaderboard, column: Column, scale: float, width: int) -> str:
    """An SVG row per system (ranked): its score as a dot and its interval as a whisker, on an axis that spans
    the scores and intervals (not from 0: close scores must look apart), the better end marked."""
    results = [system.results[column.key] for system in board.ranked()]
    values = [
        bound for result in results for bound in ((result.score,) + tuple(result.ci or ())) if math.isfinite(bound)
    ] or [0.0]
    frame = _Frame(board, column, nice_ticks(min(values), max(values)), scale)
    x = frame.x
    body = []
    for row, (system, result) in enumerate(zip(frame.systems, results)):
        y = 5 + row * ROW
        middle = y + ROW / 2 - 1
        whisker = ""
        if result.ci is not None:
            a, b = x(result.ci[0]), x(result.ci[1])
            whisker = (
                f'<path class="whisker" d="M{a:.1f},{middle}H{b:.1f}M{a:.1f},{y + 6}V{y + ROW - 8}'
                f'M{b:.1f},{y + 6}V{y + ROW - 8}"/>'
            )
        body.append(
            frame.row(
                row,
                f"{system.name}: {board.cell(system, column.key, scale, width)}",
                f'{whisker}<circle class="point" cx="{x(result.score):.1f}" cy="{middle}" r="4"/>',
                _display(result.score, scale, width),
            )
        )
    return frame.svg(body, f"{column.key} per system ({direction(column)})")


def box_plot(board: Leaderboard, column_index: int, scale: float, width: int) -> str:
    """An SVG box plot per system (ranked) of its segment scores: range, quartiles, median, mean."""
    column = board.columns[column_index]
    scores = [system.segment_scores[:, column_index] for system in board.ranked()]
    # The axis holds 0 (the zeros appended) and is never empty: segment scores' spread from 0 matters.
    finite = np.concatenate([values[np.isfinite(values)] for values in scores] + [np.zeros(1)])
    low, high = float(finite.min()), float(finite.max())
    frame = _Frame(board, column, nice_ticks(low, high if high > low else low + 1.0), scale)
    x = frame.x
    body = []
    for row, (system, values) in enumerate(zip(frame.systems, scores)):
        values = values[np.isfinite(values)]
        if not len(values):
            body.append(frame.label(row))
            continue
        y = 5 + row * ROW
        quantiles = np.percentile(values, [0, 25, 50, 75, 100]).tolist()
        minimum, q1, median, q3, maximum = (_display(value, scale, width) for value in quantiles)
        x_minimum, x_q1, x_median, x_q3, x_maximum = map(x, quantiles)
        mean = float(values.mean())
        body.append(
            frame.row(
                row,
                f"{system.name}: {len(values)} segments, min {minimum}, quartiles {q1} / {median} / {q3}, "
                f"max {maximum}, mean {_display(mean, scale, width)}",
                f'<path class="range" d="M{x_minimum:.1f},{y + ROW / 2 - 1}H{x_maximum:.1f}"/>'
                f'<rect class="box" x="{x_q1:.1f}" y="{y + 4}" width="{max(x_q3 - x_q1, 1):.1f}" height="{ROW - 10}"/>'
                f'<path class="median" d="M{x_median:.1f},{y + 4}V{y + ROW - 6}"/>'
                f'<circle class="mean" cx="{x(mean):.1f}" cy="{y + ROW / 2 - 1}" r="3"/>',
                f"median {median}",
            )
        )
    return frame.svg(body, f"segment {column.key} per system")


def pairs(board: Leaderboard) -> list[tuple[int, int]]:
    """Every two ranked systems' indices, the pair shown first leading: the best system and the baseline, or the
    best two."""
    ranked = [system.name for system in board.ranked()]
    first = (0, ranked.index(board.baseline)) if board.baseline is not None and ranked[0] != board.baseline else (0, 1)
    return sorted(((i, j) for i in range(len(ranked)) for j in range(i + 1, len(ranked))), key=first.__ne__)


def charts(board: Leaderboard, scale: float, width: int, heading: str = "h3") -> tuple[str, str]:
    """Each score column's :func:`interval_chart`, and its :func:`box_plot`, under a ``heading`` element (no chart
    before a community board's first submission)."""
    columns = board.columns if board.systems else []
    headings = [f"<{heading}>{html.escape(c.key)} ({direction(c)})</{heading}>" for c in columns]
    bars = "".join(h + interval_chart(board, c, scale, width) for h, c in zip(headings, columns))
    return bars, "".join(h + box_plot(board, i, scale, width) for i, h in enumerate(headings))


def legend_html(board: Leaderboard, attributes: str = "") -> str:
    """What the marks, intervals and clusters mean, and each score column's signature, as HTML (``attributes``: the
    paragraphs' and the list's).

    >>> from ngrameval.leaderboard.scoring import Significance, score_leaderboard
    >>> legend_html(score_leaderboard(["a"], [["a cat"]], [["a cat"]], {"bleu": {}}, Significance()))
    '<ul><li><b>bleu</b>: <code>nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0</code></li></ul>'
    """
    legend = "".join(f"<p{attributes}>{html.escape(line)}</p>" for line in board.legend())
    signatures = "".join(
        f"<li><b>{html.escape(c.key)}</b>: <code>{html.escape(c.signature)}</code></li>" for c in board.columns
    )
    return f"{legend}<ul{attributes}>{signatures}</ul>"


def pair_section(board: Leaderboard, first: int, second: int, scale: float, width: int, shown: bool) -> str:
    """The segments where two systems' headline segment scores differ most, both predictions highlighted."""
    ranked = board.ranked()
    a, b = ranked[first], ranked[second]
    headline = board.columns[0].key
    difference = a.segment_scores[:, 0] - b.segment_scores[:, 0]
    order = np.argsort(-np.abs(np.nan_to_num(difference)), kind="stable")[:PAIR_SEGMENTS]
    shown_as = shown_names(board)
    name_a, name_b = (f'<span title="{html.escape(s.name)}">{html.escape(shown_as[s.name])}</span>' for s in (a, b))
    rows = []
    for segment in order.tolist():
        # A community board's references are never shown: no highlight (none to match), no references column.
        references = board.references[segment] if board.references is not None else None
        rows.append(
            f'<tr><td class="num">{segment + 1}</td>'
            + "".join(f'<td class="num">{_display(s.segment_scores[segment, 0], scale, width)}</td>' for s in (a, b))
            + "".join(f'<td class="text">{highlighted(s.predictions[segment], references or [])}</td>' for s in (a, b))
            + (
                f'<td class="text refs">{"".join(f"<div>{html.escape(r)}</div>" for r in references)}</td>'
                if references is not None
                else ""
            )
            + "</tr>"
        )
    return (
        f'<section class="pair" data-pair="{first}-{second}"{"" if shown else " hidden"}>'
        f'<h3><span class="a">{name_a}</span> vs <span class="b">{name_b}</span></h3>'
        f'<div class="scroll"><table><thead><tr><th>segment</th><th>{name_a}</th><th>{name_b}</th>'
        f"<th>{name_a}</th><th>{name_b}</th>{'<th>references</th>' if board.references is not None else ''}</tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table></div>"
        f'<p class="legend">The {len(rows)} segments where their segment {html.escape(headline)} differs most.'
        f"</p></section>"
    )


MARK_CLASSES = {NOT_SIGNIFICANT: "same", SIGNIFICANTLY_BETTER: "better", SIGNIFICANTLY_WORSE: "worse"}


def _wrappable(cell: str, mark: str = "") -> str:
    """A displayed score as HTML that may wrap between its parts (score, mean and interval, p-value with its
    ``mark``, which says what it means on hover), never inside one: a narrow page then shows the table whole.

    >>> _wrappable("20.4 (μ = 20.4 ± 0.8) (p = 0.0010)*", "▲")
    '<span>20.4</span> <span>(μ = 20.4 ± 0.8)</span> <span>(p = 0.0010)*<span class="mark better" \
title="significantly better than the baseline">▲</span></span>'
    """
    first, *rest = cell.split(" (")
    parts = [html.escape(part) for part in [first] + ["(" + part for part in rest]]
    if mark:
        parts[-1] += f'<span class="mark {MARK_CLASSES[mark]}" title="{MARK_MEANINGS[mark]}">{mark}</span>'
    return " ".join(f"<span>{part}</span>" for part in parts)


def scores_table(board: Leaderboard, scale: float, width: int) -> str:
    """The ranked table, scrolling sideways with its rank, cluster and system columns kept in view; each score
    column says which way is better; a system shows its :func:`shown_names` part (its whole name as the tooltip)."""
    cluster_of = board.cluster_numbers()
    shown = shown_names(board)
    fixed = ["rank"] + (["cluster"] if cluster_of else []) + ["system"]
    header = "".join(f'<th class="fixed {name}">{name}</th>' for name in fixed) + "".join(
        f'<th class="score" data-direction="{direction(column).split()[0]}">{html.escape(column.key)}'
        f'<div class="direction">{direction(column)}</div></th>'
        for column in board.columns
    )

    def row(rank: int, system: SystemScores) -> str:
        label = board.label(system, shown[system.name])
        cells = [f'<td class="fixed rank num">{rank}</td>']
        cells += [f'<td class="fixed cluster num">{cluster_of[system.name]}</td>'] if cluster_of else []
        cells.append(f'<td class="fixed system" title="{html.escape(system.name)}">{html.escape(label)}</td>')
        cells += [
            f'<td class="num score">'
            f"{_wrappable(system.results[column.key].formatted(scale, width), board.mark(system, column.key))}</td>"
            for column in board.columns
        ]
        return f"<tr>{''.join(cells)}</tr>"

    rows = "".join(row(rank, system) for rank, system in enumerate(board.ranked(), 1))
    return (
        f'<div class="scroll{" clustered" if cluster_of else ""}"><table id="leaderboard"><thead><tr>{header}'
        f"</tr></thead><tbody>{rows}</tbody></table></div>"
    )


def to_html(board: Leaderboard, scale: float, width: int) -> str:
    """The report: one HTML document with everything inline."""
    ranked = board.ranked()
    segments = len(board.references) if board.references is not None else len(ranked[0].segment_scores) if ranked else 0
    shown_as = shown_names(board)
    bars, boxes = charts(board, scale, width)
    ordered = pairs(board)
    options = "".join(
        f'<option value="{i}-{j}" title="{html.escape(ranked[i].name)} vs '
        f'{html.escape(ranked[j].name)}">{html.escape(shown_as[ranked[i].name])} vs '
        f"{html.escape(shown_as[ranked[j].name])}</option>"
        for i, j in ordered
    )
    sections = "".join(pair_section(board, i, j, scale, width, (i, j) == ordered[0]) for i, j in ordered)
    highlights = (
        '<p class="legend">Highlighted: the words of a prediction that are part of an n-gram (up '
        f"to {HIGHLIGHT_ORDER} words; darker: longer) of one of the segment's references.</p>"
    )
    pair_view = (
        f'<label>Pair: <select id="pair">{options}</select></label>{sections}'
        f"{highlights if board.references is not None else ''}<script>{SCRIPT}</script>"
        if ordered
        else "<p>One system: no pair to compare.</p>"
    )
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy"
 content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<title>ngrameval leaderboard</title><style>{CSS}</style></head>
<body><h1>ngrameval leaderboard</h1>
<p>{len(ranked)} systems, {segments} segments, ranked by {html.escape(board.columns[0].key)}
({direction(board.columns[0])}).</p>
<h2>Scores</h2>{scores_table(board, scale, width)}{legend_html(board, ' class="legend"')}
<h2>Scores per system</h2><div id="bars">{bars}
<p class="legend">Dot: the score; whisker: its 95% confidence interval (when computed). The axis spans the
scores, not from 0.</p></div>
<h2>Segment scores</h2><div id="distributions">{boxes}
<p class="legend">Each segment scored by the metric's own sentence rule (sacrebleu's sentence_bleu, NLTK's
sentence_bleu, ...). Box: quartiles; line: median; dot: mean; whisker: range.</p></div>
<h2>Where two systems differ</h2><div id="pairs">{pair_view}</div>
</body></html>
"""


def render(board: Leaderboard, output_format: str, scale: float = 1.0, width: int = 4) -> str:
    """The leaderboard as ``output_format`` (one of :data:`FORMATS`, ``"sentences"``: JSON lines of the
    segment scores, or ``"json-sentences"``: the JSON object with each system's segment scores); ``scale`` and
    ``width`` apply to the formats meant for reading."""
    formats: dict[str, Callable[[Leaderboard, float, int], str]] = {
        "text": to_text,
        "markdown": to_markdown,
        "latex": to_latex,
        "html": to_html,
        "json": lambda board, *_: to_json(board),
        "sentences": lambda board, *_: to_sentences(board),
        "json-sentences": lambda board, *_: to_json(board, segments=True),
        "csv": lambda board, *_: to_delimited(board, ","),
        "tsv": lambda board, *_: to_delimited(board, "\t"),
    }
    return formats[output_format](board, scale, width)
