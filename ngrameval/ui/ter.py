"""TER Space: the evaluate metric metrics/ter (ngrameval) with every option, examples and the edit alignment."""

import html

import gradio as gr
import pandas as pd

import ngrameval
from ngrameval.engine.inputs import check_flag
from ngrameval.ui import i18n
from ngrameval.ui import page as ui
from ngrameval.ui.i18n import Phrase, t

FLAGS = ("normalized", "no_punct", "asian_support")
OPS = ("shift", "substitution", "insertion", "deletion")
COLORS = {
    "match": "#bbf7d0",
    "shifted": "#c4b5fd",
    "substitution": "#fde68a",
    "deletion": "#fca5a5",
    "insertion": "#93c5fd",
}
SYMBOLS = {"match": "=", "shifted": "=", "substitution": "≠", "insertion": "+", "deletion": "−"}
LEGEND = ("match", "shifted", "substitution", "insertion", "deletion")  # the alignment's colours, in this order
GAP = "∅"
EDIT = Phrase("column.edit")
# The names a page shows of the kinds of edit and of a match (the metric's own names: the keys above, which
# the drawing's classes and the highlight's labels keep).
NAMES = {name: Phrase(f"ter.{name}") for name in (*OPS, "match")}
NAMES["shifted"] = Phrase("ter.match_shifted")
LABELS = {**NAMES, "shifted": Phrase("ter.shifted")}  # the highlight's (shorter)


def controls():
    """A checkbox per flag (two a row), its element id the name with "-" for "_"."""
    shown = {}
    for pair in ((FLAGS[0], FLAGS[1]), (FLAGS[2], "case_sensitive")):
        with gr.Row():
            for name in pair:
                shown[name] = ui.control(gr.Checkbox, f"ter.{name}", False, elem_id=name.replace("_", "-"))
    return shown


def options(normalized, no_punct, asian_support, case_sensitive):
    # The metric checks its flags itself (a value other than a boolean gets its message); the checkbox keeps
    # sacrebleu's name case_sensitive (the page's API parameter), the metric is asked by the common name.
    return {
        **dict(zip(FLAGS, (normalized, no_punct, asian_support))),
        "lowercase": not check_flag("case_sensitive", case_sensitive),
    }


def edit_counts(item):
    """Per kind of edit (shift, substitution, insertion, deletion) how many the segment's explanation has."""
    counts = dict.fromkeys(OPS, 0) | {"shift": len(item["shifts"])}
    for edit in item["edits"]:
        counts[edit["op"]] += 1
    return counts


def present(result, options, _per_sentence):
    counts = [edit_counts(item) for item in result["explanation"]]
    totals = {op: sum(count[op] for count in counts) for op in OPS}
    length = result["ref_length"]
    sentence_scores = result["sentence_scores"]
    return ui.Presentation(
        scores=[(Phrase("caption.ter"), result["ter"])],
        per_order={
            EDIT: [NAMES[op] for op in OPS],
            ui.COUNT: [totals[op] for op in OPS],
            Phrase("column.per_reference_word"): [totals[op] / length if length else 0.0 for op in OPS],
        },
        summary={
            Phrase("column.edits"): result["num_edits"],
            Phrase("column.reference_length_averages"): float(length),
            Phrase("column.segments"): len(sentence_scores),
            Phrase("column.segments_without_edits"): sum(s == 0 for s in sentence_scores),
        },
        sentence_scores={"TER": sentence_scores},
    )


# ngrameval.ter(explain=True) gives, per segment, the shifts in the order applied (the words moved, their
# position before and after the shift) and the word edits of the shifted prediction against the best reference
# (in alignment order). The alignment's matches are what lies between the edits.


def apply_shift(words, shift):
    """The sequence after ``shift``: its block taken out at ``from`` and put back to start at ``to``."""
    start, length = shift["from"], len(shift["words"])
    block, rest = words[start : start + length], words[:start] + words[start + length :]
    return rest[: shift["to"]] + block + rest[shift["to"] :]


def alignment_columns(item):
    """The alignment of the shifted prediction with the best reference, as columns (op, prediction position,
    reference position), None for the gap of an insertion or a deletion."""
    reference = item["reference_tokens"][item["best_reference"]]
    columns: list[tuple[str, int | None, int | None]] = []
    i = j = 0
    for edit in item["edits"]:
        # Matches up to the edit: it names the position it is at on its side(s).
        target = edit["prediction_position"] - i if "prediction_position" in edit else edit["reference_position"] - j
        for _ in range(target):
            columns.append(("match", i, j))
            i, j = i + 1, j + 1
        columns.append((edit["op"], i if edit["op"] != "insertion" else None, j if edit["op"] != "deletion" else None))
        i += edit["op"] != "insertion"
        j += edit["op"] != "deletion"
    while i < len(item["shifted_tokens"]) and j < len(reference):
        columns.append(("match", i, j))
        i, j = i + 1, j + 1
    if (i, j) != (len(item["shifted_tokens"]), len(reference)):
        raise ValueError("the explanation's edits do not align the shifted prediction with its reference")
    return columns


def shift_history(item):
    """The words before each shift, per position of the shifted prediction the position its word had in the
    prediction, and per moved word's position in the prediction the shifts (numbers from 1) that moved it."""
    words, origin, steps = list(item["prediction_tokens"]), list(range(len(item["prediction_tokens"]))), []
    moved: dict[int, list[int]] = {}  # word's position in the prediction -> the shifts that moved it
    for number, shift in enumerate(item["shifts"], 1):
        steps.append(list(words))
        for k in origin[shift["from"] : shift["from"] + len(shift["words"])]:
            moved.setdefault(k, []).append(number)
        words, origin = apply_shift(words, shift), apply_shift(origin, shift)
    if words != item["shifted_tokens"]:
        raise ValueError("the explanation's shifts do not give its shifted prediction")
    return steps, origin, moved


def _word(text):
    return f'<span class="ter-word">{html.escape(text)}</span>'


def shift_html(number, words, shift, language):
    """The words before shift ``number``: the moved block bracketed and labelled, ↓ where it lands; its words
    in ``language``."""
    start, length, to = shift["from"], len(shift["words"]), shift["to"]
    gap = to if to < start else to + length  # in the words before the shift
    pieces = []
    for k in range(len(words) + 1):
        if k == gap:
            lands = ui.html_text("ter.shift_lands", language, number=number)
            pieces.append(
                f'<span class="ter-shift-target" title="{lands}" style="color:#7c3aed;font-weight:700">'
                f"↓S{number}</span>"
            )
        if k == start:
            block = " ".join(_word(w) for w in words[start : start + length])
            arrow = "→" if to > start else "←"
            pieces.append(
                f'<span class="ter-shift-block" data-shift="{number}" style="border:2px solid #7c3aed;'
                f'border-radius:.35rem;padding:.05rem .25rem;background:{COLORS["shifted"]};color:#111">'
                f'[ {block} ]<sub style="font-weight:700">S{number} {arrow}</sub></span>'
            )
        elif k < len(words) and not start < k < start + length:
            pieces.append(_word(words[k]))
    moved = " ".join(shift["words"])
    line = ui.html_text("ter.shift_line", language, number=number, words=moved, start=start + 1, end=to + 1)
    return f'<div class="ter-shift" style="margin:.25rem 0;line-height:2">{line} · {" ".join(pieces)}</div>'


def alignment_html(item, columns, moved_by, language):
    """The alignment drawn: one column per aligned pair, the shifted prediction above, the reference below,
    each edit coloured with its symbol, words that shifts moved labelled S1, S2, ...; its words in
    ``language``."""
    shifted, reference = item["shifted_tokens"], item["reference_tokens"][item["best_reference"]]
    cell = "padding:0 .3rem;white-space:nowrap"
    reference_name = ui.html_text("explain.reference_number", language, number=item["best_reference"] + 1)
    cells = [
        (
            f'<div style="display:inline-flex;flex-direction:column;opacity:.7;font-size:.85rem">'
            f'<span style="{cell}">{ui.html_text("ter.prediction_shifted", language)}</span>'
            f'<span style="{cell}">&nbsp;</span><span style="{cell}">{reference_name}</span></div>'
        )
    ]
    for op, i, j in columns:
        top = html.escape(shifted[i]) if i is not None else GAP
        labels = "".join(f"S{n}" for n in moved_by[i]) if i is not None else ""
        if labels:
            top += f'<sup class="ter-shift-label" style="color:#7c3aed;font-weight:700">{labels}</sup>'
        bottom = html.escape(reference[j]) if j is not None else GAP
        ours = Phrase("explain.prediction_number", number=i + 1) if i is not None else Phrase("ter.no_prediction_word")
        theirs = Phrase("explain.reference_number", number=j + 1) if j is not None else Phrase("ter.no_reference_word")
        title = ui.html_text("ter.column_title", language, op=NAMES[op], prediction=ours, reference=theirs)
        color = COLORS["shifted"] if op == "match" and labels else COLORS[op]
        cells.append(
            f'<div class="ter-col ter-op-{op}" title="{title}" style="display:inline-flex;flex-direction:column;'
            f'align-items:center;background:{color};color:#111;border-radius:.3rem;margin:.1rem">'
            f'<span class="ter-pred" style="{cell}">{top}</span>'
            f'<span class="ter-symbol" style="{cell};font-size:.75rem;opacity:.7">{SYMBOLS[op]}</span>'
            f'<span class="ter-ref" style="{cell}">{bottom}</span></div>'
        )
    return f'<div class="ter-alignment" style="display:flex;flex-wrap:wrap;align-items:stretch">{"".join(cells)}</div>'


# The edit table's columns, each named by its text column.<name>.
EDIT_COLUMNS = "edit prediction_words prediction_position reference_word reference_position".split()


def explain_item(index, state):
    """Segment ``index``: its shifts and its alignment with the best reference drawn, its edits tabled, and the
    edits against each reference."""
    item = state["explanation"][index]
    options, prediction, group = state["options"], state["predictions"][index], state["references"][index]
    best = item["best_reference"]
    alone = [item["num_edits"]]
    if len(group) > 1:
        pairs = ngrameval.ter([prediction] * len(group), [[r] for r in group], **options, explain=True)
        alone = [e["num_edits"] for e in pairs.explanation]
    notes = [
        Phrase("ter.reference_note", edits=edits, words=len(item["reference_tokens"][k]))
        for k, edits in enumerate(alone)
    ]
    notes[best] = Phrase("explain.used", note=notes[best])
    columns = alignment_columns(item)
    steps, origin, moved = shift_history(item)
    moved_by = [moved.get(k, []) for k in origin]
    counts = edit_counts(item)
    # Per token of the (unshifted) prediction what happens to it (substitution, deletion, shifted, match).
    labels: list[Phrase | None] = [None] * len(origin)
    for op, i, _ in columns:
        if i is not None:
            labels[origin[i]] = LABELS[op if op != "match" else "shifted" if origin[i] in moved else "match"]

    def details(language):
        names = {key: html.escape(i18n.resolve(NAMES[key], language)) for key in LEGEND}
        legend = ui.legend_html((f"{SYMBOLS[key]} {names[key]}", COLORS[key]) for key in LEGEND)
        summary = i18n.text("explain.list_separator", language).join(
            ui.html_text("ter.op_count", language, count=counts[op], op=NAMES[op]) for op in OPS
        )
        shifts = (
            "".join(
                shift_html(n, words, shift, language) for n, (words, shift) in enumerate(zip(steps, item["shifts"]), 1)
            )
            or f'<div class="ter-no-shift" style="opacity:.75">{ui.html_text("ter.no_shift", language)}</div>'
        )
        return (
            f'<div class="ter-explanation" style="margin-top:.4rem">'
            f"<div><strong>{ui.html_text('ter.edits_against', language, number=best + 1)}</strong>: "
            f"{item['num_edits']} ({summary}) · TER = {item['num_edits']} / {item['reference_length']:g} "
            f"{legend}</div>"
            f'<div class="ter-shifts" style="margin:.3rem 0">{shifts}</div>'
            f"{alignment_html(item, columns, moved_by, language)}</div>"
        )

    def position(edit, side):
        return str(edit[f"{side}_position"] + 1) if f"{side}_position" in edit else ""

    rows = [
        (Phrase("ter.shift_number", number=n), " ".join(shift["words"]), f"{shift['from'] + 1} → {shift['to'] + 1}")
        + ("", "")
        for n, shift in enumerate(item["shifts"], 1)
    ]
    rows += [
        (NAMES[edit["op"]], edit.get("prediction_word", ""), position(edit, "prediction"))
        + (edit.get("reference_word", ""), position(edit, "reference"))
        for edit in item["edits"]
    ]
    count_rows = [(NAMES[op], counts[op]) for op in OPS] + [(Phrase("ter.total"), item["num_edits"])]
    return {
        "prediction_tokens": item["prediction_tokens"],
        "reference_tokens": item["reference_tokens"],
        "reference_length": item["reference_length"],
        "labels": labels,
        "colors": {LABELS[kind]: color for kind, color in COLORS.items()},
        "reference_notes": notes,
        "details_html": details,
        "ngram_table": pd.DataFrame(rows, columns=[Phrase(f"column.{name}") for name in EDIT_COLUMNS]),
        "order_table": pd.DataFrame(count_rows, columns=[EDIT, ui.COUNT]),
    }


SHIFTS = (
    ["mat the cat sat on the", "the big dog barked loudly at a cat today"],
    [["the cat sat on the mat", "the dog barks at the cat"], ["the cat sat on a mat", "a dog barked at cats"]],
)
# HF evaluate's ter example (its metric card), with its case_sensitive=True.
HF = (
    ["does this sentence match??", "what about this sentence?", "What did the TER metric user say to the developer?"],
    [
        ["does this sentence match", "wHaT aBoUt ThIs SeNtEnCe?", "Your jokes are..."],
        ["does this sentence match!?!", "wHaT aBoUt ThIs SeNtEnCe?", "...TERrible"],
    ],
)
NORMALIZE = (
    ["It's 3.5 &amp; more, isn't it?", "The results (see above) are fine."],
    [["it is 3.5 & more, isn't it?", "The results are fine (see above)."]],
)

EXAMPLES = [
    ui.Example(Phrase("ter.example_shift"), *SHIFTS),
    ui.Example(Phrase("ter.example_hf"), *HF, {"case_sensitive": True}),
    ui.Example(Phrase("ter.example_normalized"), *NORMALIZE, {"normalized": True, "no_punct": True}),
    ui.Example(Phrase("ter.example_chinese"), *ui.CHINESE, {"normalized": True, "asian_support": True}),
]

SPACE = ui.MetricSpace(__name__, (ui.COUNT, t("ter.edits_plot")), label="TER")
