"""METEOR Space: the evaluate metric metrics/meteor (ngrameval) with its options, examples and alignments."""

import html
import itertools
import math
import re
from typing import Any

import gradio as gr
import numpy as np
import pandas as pd

import ngrameval
from ngrameval.metrics import meteor_nltk
from ngrameval.metrics.meteor import VARIANTS
from ngrameval.metrics.meteor15 import MODULES, NORMALIZATIONS, TASKS
from ngrameval.metrics.meteor15.align import DEFAULT_BEAM_SIZE
from ngrameval.ui import page as ui
from ngrameval.ui.i18n import Phrase, t

# METEOR 1.5 searches an alignment for every (prediction, reference) pair, about 0.5 ms each: these
# limits keep one request under ~10 s of CPU (the n-gram pages take 20,000 predictions).
MAX_PREDICTIONS = 5_000
MAX_REFERENCES = 20_000
SIDES = ("hypothesis", "reference")  # of an alignment
COLORS = {"exact": "#86efac", "stem": "#fde68a", "synonym": "#93c5fd", "paraphrase": "#f9a8d4"}


PENALTY = Phrase("column.penalty")
VALUE = Phrase("column.value")  # the plotted column


def task_modules(task):
    """Choosing a task also checks its modules (universal: exact and paraphrase)."""
    return list(TASKS[task][2])


def controls():
    variant = ui.variant_dropdown(VARIANTS, "meteor15", "meteor.variant_info")
    with gr.Group():
        gr.Markdown("&nbsp;METEOR 1.5 (`meteor15`)")
        with gr.Row():
            task = ui.control(gr.Dropdown, "meteor.task", list(TASKS), value="rank", elem_id="task")
            normalization = ui.control(
                gr.Dropdown, "meteor.normalization", list(NORMALIZATIONS), value="norm", elem_id="normalization"
            )
        modules = ui.control(gr.CheckboxGroup, "meteor.modules", list(MODULES), value=list(MODULES), elem_id="modules")
        with gr.Row():
            weights = ui.control(
                gr.Textbox, "meteor.weights", placeholder=t("meteor.weights_placeholder"), elem_id="weights"
            )
            hint = t("meteor.parameters_placeholder")
            parameters = gr.Textbox(label="alpha beta gamma delta (-p)", elem_id="parameters", placeholder=hint)
        beam_size = ui.control(
            gr.Number, "meteor.beam_size", DEFAULT_BEAM_SIZE, minimum=1, precision=0, elem_id="beam-size"
        )
    with gr.Group():
        gr.Markdown("&nbsp;NLTK (`nltk`)")
        with gr.Row():
            nltk = {
                name: gr.Number(value, label=name, elem_id=name, interactive=False)
                for name, value in meteor_nltk.DEFAULTS.items()
            }
        tokenize = ui.tokenizer_dropdown(
            list(meteor_nltk.TOKENIZERS), "nltk", elem_id="tokenize", interactive=False, info="meteor.tokenizer_info"
        )
    meteor15 = dict(task=task, modules=modules, normalization=normalization, weights=weights, parameters=parameters)
    meteor15["beam_size"] = beam_size
    ui.variant_only(variant, {"meteor15": list(meteor15.values()), "nltk": [*nltk.values(), tokenize]})
    task.input(task_modules, task, modules, api_visibility="private")  # a user's choice, not an example's
    return {"variant": variant, **meteor15, **nltk, "tokenize": tokenize}


def number_list(text, name, example):
    """A text box of numbers separated by spaces or commas ("1 0.6 0.8"), or None when blank."""
    numbers = []
    for item in filter(None, re.split(r"[\s,]+", text or "")):
        try:
            numbers.append(float(item))
        except ValueError:
            numbers.append(math.nan)
        if not math.isfinite(numbers[-1]):
            raise ui.InputError("error.number_list", name=name, item=repr(item), example=example)
    return numbers or None


def options(variant, task, modules, normalization, weights, parameters, beam_size, alpha, beta, gamma, tokenize):
    """compute() options: only the chosen variant's (the metric refuses the other's)."""
    if variant != "meteor15":
        return dict(variant=variant, tokenize=tokenize, **ui.given_numbers(alpha=alpha, beta=beta, gamma=gamma))
    chosen = dict(
        variant=variant,
        modules=[m for m in MODULES if m in (modules or [])],
        normalization=normalization,
        beam_size=int(beam_size) if beam_size is not None else DEFAULT_BEAM_SIZE,
    )
    parameters = number_list(parameters, "alpha beta gamma delta", "0.85 0.2 0.6 0.75")
    chosen |= {"task": task} if parameters is None else {"parameters": parameters}  # the jar's task is then "custom"
    weights = number_list(weights, "module weights", "1 0.6 0.8 0.6")
    return chosen if weights is None else chosen | {"weights": weights}


def detail_options(options):
    """NLTK's explanations cost little: with them the page shows each segment's parts. METEOR 1.5 explains
    one segment when it is shown (an alignment search per segment would multiply the time by ten)."""
    return {"explain": options["variant"] == "nltk"}


def present(result, options, _per_sentence):
    scores = result["scores"]
    signature = dict(part.split(":", 1) for part in result["signature"].split("|"))
    count = len(scores)
    mean = float(np.mean(scores))
    shared: dict[ui.Shown, Any] = {
        Phrase("column.segments"): count,
        Phrase("column.mean_segment_score"): mean,
        Phrase("column.segments_scoring_0"): sum(score == 0 for score in scores),
        Phrase("column.best_segment_score"): max(scores),
    }
    if result["variant"] == "meteor15":
        alpha, beta, gamma, delta = signature["params"].split(",")
        parts: dict[ui.Shown, tuple[float, ui.Shown]] = {  # part -> (its value, how it is computed)
            ui.PRECISION: (result["precision"], Phrase("meteor.how_precision")),
            ui.RECALL: (result["recall"], Phrase("meteor.how_recall")),
            "Fmean": (result["fmean"], f"P R / ({alpha} P + (1 - {alpha}) R)"),
            PENALTY: (result["penalty"], Phrase("meteor.how_penalty", gamma=gamma, beta=beta)),
            "METEOR": (result["meteor"], "Fmean (1 - penalty)"),
        }
        summary: dict[ui.Shown, Any] = {
            "variant": "meteor15 (METEOR 1.5)",
            Phrase("column.modules"): signature["modules"].replace(",", ", "),
            Phrase("column.module_weights"): signature["weights"].replace(",", ", "),
            "alpha, beta, gamma, delta": f"{alpha}, {beta}, {gamma}, {delta}",
            Phrase("column.normalization"): signature["norm"],
            **shared,
        }
        sentence_scores: dict[ui.Shown, list[float]] = {"METEOR": scores}
        caption = Phrase("caption.meteor15", count=count)
        notes: list[ui.Shown] = [Phrase("meteor.note_corpus", mean=ui.fmt(mean))]
    else:
        explanation = result["explanation"]
        per_segment = {key: [item[key] for item in explanation] for key in ("precision", "recall", "fmean", "penalty")}
        alpha, beta, gamma = (signature[name] for name in ("alpha", "beta", "gamma"))
        formulas: dict[str, ui.Shown] = {  # each part is the mean of the segments'
            "precision": Phrase("meteor.matches_over_prediction"),
            "recall": Phrase("meteor.matches_over_reference"),
            "fmean": f"P R / ({alpha} P + (1 - {alpha}) R)",
            "penalty": f"{gamma} (chunks / matches)^{beta}",
        }
        columns: list[ui.Shown] = [ui.PRECISION, ui.RECALL, "Fmean", PENALTY]
        parts = {
            column: (float(np.mean(per_segment[key])), Phrase("meteor.mean_of", formula=formula))
            for column, (key, formula) in zip(columns, formulas.items())
        }
        parts["METEOR"] = (result["meteor"], Phrase("meteor.how_nltk_score"))
        summary = {
            "variant": "nltk (NLTK 3.10.4 meteor_score)",
            Phrase("column.tokenizer"): signature["tok"],
            "alpha, beta, gamma": f"{alpha}, {beta}, {gamma}",
            "WordNet": signature["wordnet"],
            **shared,
        }
        sentence_scores = {"METEOR": scores, **{c: per_segment[k] for c, k in zip(columns, formulas) if k != "fmean"}}
        caption = Phrase("caption.meteor_nltk", count=count)
        notes = []
    values, hows = zip(*parts.values())
    return ui.Presentation(
        scores=[(caption, result["meteor"])],
        per_order={Phrase("column.part"): list(parts), VALUE: values, Phrase("column.how"): hows},
        summary=summary,
        sentence_scores=sentence_scores,
        notes=[result["note"], *notes] if result.get("note") else notes,
    )


def word_marks(length, matches, numbers, side):
    """Per word of one side (hypothesis or reference): (module, chunk) of the match covering it, or None."""
    marks: list[tuple[str, int] | None] = [None] * length
    for match, number in zip(matches, numbers):
        start = match[f"{side}_start"]
        for i in range(start, start + match[f"{side}_length"]):
            marks[i] = (match["module"], number)
    return marks


def aligned_html(words, marks):
    """One side of the alignment: the words coloured by module, each chunk boxed with its number."""
    pieces = []
    for chunk, run in itertools.groupby(zip(words, marks), key=lambda pair: pair[1] and pair[1][1]):
        if chunk is None:
            pieces += [f'<span class="unmatched" style="opacity:.55">{html.escape(word)}</span>' for word, _ in run]
            continue
        inner = " ".join(
            f'<span class="word" data-module="{mark[0]}" style="background:{COLORS[mark[0]]};color:#111;'
            f'padding:0 .2rem;border-radius:.2rem">{html.escape(word)}</span>'
            for word, mark in run
        )
        pieces.append(
            f'<span class="chunk" data-chunk="{chunk}" style="border:1px solid var(--border-color-primary);'
            f'border-radius:.35rem;padding:.1rem .25rem;margin:0 .1rem">{inner}'
            f'<sub style="opacity:.7">{chunk}</sub></span>'
        )
    return " ".join(pieces)


def positions(start, length):
    return f"{start + 1}" if length == 1 else f"{start + 1}–{start + length}"


# The alignment table's columns, each named by its text column.<name>.
ALIGNMENT_COLUMNS = "chunk module prediction_words prediction_positions reference_words reference_positions".split()


def explain_item(index, state):
    """The segment's alignment with its best reference (the metric's explanation: NLTK's computed with the
    score, METEOR 1.5's now) and its score against each reference alone."""
    options, prediction, references = state["options"], state["predictions"][index], state["references"][index]
    item = (
        state["explanation"][index]
        if state.get("explanation")
        else ngrameval.meteor([prediction], [references], **options, explain=True).explanation[0]
    )
    alone = [item]
    if len(references) > 1:
        pairs = ngrameval.meteor([prediction] * len(references), [[r] for r in references], **options, explain=True)
        alone = pairs.explanation
    best = item["reference_index"]
    matches = sorted(item["matches"], key=lambda m: m["hypothesis_start"])
    # Per match its chunk, from 1: a chunk goes on while the next match starts where the last ended on both sides.
    numbers = [1] * len(matches)
    for k in range(1, len(matches)):
        last, match = matches[k - 1], matches[k]
        goes_on = all(match[f"{side}_start"] == last[f"{side}_start"] + last[f"{side}_length"] for side in SIDES)
        numbers[k] = numbers[k - 1] + (0 if goes_on else 1)
    marks = {side: word_marks(len(item[side]), matches, numbers, side) for side in SIDES}
    rows = [
        (number, m["module"], " ".join(m["hypothesis_words"]), positions(m["hypothesis_start"], m["hypothesis_length"]))
        + (" ".join(m["reference_words"]), positions(m["reference_start"], m["reference_length"]))
        for m, number in zip(matches, numbers)
    ]
    per_reference = [
        {
            ui.REFERENCE: Phrase("meteor.best_used", number=j + 1) if j == best else str(j + 1),
            ui.SCORE: e["score"],
            ui.PRECISION: e["precision"],
            ui.RECALL: e["recall"],
            "Fmean": e["fmean"],
            PENALTY: e["penalty"],
            ui.MATCHES: len(e["matches"]),
            Phrase("column.chunks"): e["chunks"],
        }
        for j, e in enumerate(alone)
    ]
    fragmentation = item.get("fragmentation", item["chunks"] / len(matches) if matches else 0.0)
    legend = ui.legend_html(
        (module, color) for module, color in COLORS.items() if any(m["module"] == module for m in matches)
    )
    prediction_html, reference_html = (aligned_html(item[side], marks[side]) for side in SIDES)
    parts = {key: ui.fmt(item[key]) for key in ("precision", "recall", "fmean", "penalty", "score")}
    parts["fragmentation"] = ui.fmt(float(fragmentation))

    def details(language):
        return (
            f'<div class="meteor-alignment" style="margin-top:.4rem">'
            f"<div><strong>{ui.html_text('meteor.alignment', language, number=best + 1)}</strong>: "
            f"{ui.html_text('meteor.alignment_counts', language, matches=len(matches), chunks=item['chunks'])} "
            f"{legend}</div>"
            f'<div class="aligned-prediction" style="margin:.3rem 0;line-height:1.9">'
            f"{ui.html_text('explain.prediction', language, {'words': prediction_html})}</div>"
            f'<div class="aligned-reference" style="margin:.3rem 0;line-height:1.9">'
            f"{ui.html_text('explain.reference_words', language, {'words': reference_html}, number=best + 1)}</div>"
            f"<div>{ui.html_text('meteor.alignment_parts', language, None, **parts)}</div></div>"
        )

    return {
        "prediction_tokens": item["hypothesis"],
        "reference_tokens": [e["reference"] for e in alone],
        "labels": [mark and mark[0] for mark in marks["hypothesis"]],
        "colors": COLORS,
        "reference_notes": [
            Phrase("meteor.reference_best" if j == best else "meteor.reference_score", score=ui.fmt(e["score"]))
            for j, e in enumerate(alone)
        ],
        "details_html": details,
        "ngram_table": pd.DataFrame(rows, columns=[Phrase(f"column.{name}") for name in ALIGNMENT_COLUMNS]),
        "order_table": pd.DataFrame(per_reference),
    }


TOY = ui.TOY
MODULES_AT_WORK = (
    [
        "a man is riding a bicycle down the street",
        "he purchased a large automobile yesterday",
        "the boy quickly ran to his house",
    ],
    [["a guy rides a bike along the road", "yesterday he bought a big car", "the young man runs fast toward his home"]],
)
NLTK_DOCS = (
    ["It is a guide to action which ensures that the military always obeys the commands of the party"],
    [["It is a guide to action that ensures that the military will forever heed Party commands"]],
)
SHUFFLED = (
    ["the cat sat on the mat", "on the mat the cat sat", "mat the on sat cat the"],
    [["the cat sat on the mat"] * 3],
)
CAPTIONS, REFERENCES = ui.captions()  # four captions, five references each (per box)

EXAMPLES = [
    ui.Example(Phrase("meteor.example_toy"), *TOY),
    ui.Example(Phrase("meteor.example_modules"), *MODULES_AT_WORK),
    ui.Example(Phrase("meteor.example_nltk"), *MODULES_AT_WORK, {"variant": "nltk"}),
    ui.Example(Phrase("meteor.example_nltk_docs"), *NLTK_DOCS, {"variant": "nltk", "tokenize": "whitespace"}),
    ui.Example(Phrase("meteor.example_word_order"), *SHUFFLED),
    ui.Example(Phrase("meteor.example_without_paraphrases"), *TOY, {"modules": ["exact", "stem", "synonym"]}),
    ui.Example(Phrase("meteor.example_four"), CAPTIONS, REFERENCES, {"task": "adq"}),
]


def warm_up():
    """Prepare both variants' data before serving: METEOR 1.5's first run in a machine indexes its paraphrase
    table into the user's cache (~15 CPU seconds, once), NLTK's reads WordNet (~2 s, each start)."""
    for variant in ("meteor15", "nltk"):
        ngrameval.meteor(["a man rides a horse"], [["a person rides a horse"]], variant=variant)


SPACE = ui.MetricSpace(
    __name__,
    (VALUE, t("meteor.per_order_label")),
    label="METEOR",
    reference_boxes=5,
    max_predictions=MAX_PREDICTIONS,
    max_references=MAX_REFERENCES,
)
