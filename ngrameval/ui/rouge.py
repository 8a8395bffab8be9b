"""ROUGE Space: the evaluate metric metrics/rouge (ngrameval) with every option, examples and explanations."""

from itertools import accumulate
from typing import Any

import gradio as gr

import ngrameval
from ngrameval.engine.lcs import lcs_positions
from ngrameval.metrics import rouge155
from ngrameval.metrics.rouge import DEFAULT_TYPES, TOKENIZERS, VARIANTS, RougeTokenizer, parse_rouge_types
from ngrameval.metrics.rouge import MULTI_REF as MULTI_REF_NAMES
from ngrameval.ui import page as ui
from ngrameval.ui.i18n import Phrase, t

TYPES = "rouge1 rouge2 rouge3 rouge4 rougeL rougeLsum rougeW rougeS4 rougeSU4 rougeS* rougeSU*".split()
MULTI_REF = {"default": None, **{name: name for name in MULTI_REF_NAMES}}
LCS = "LCS"  # the text rouge.explanation_intro names it
F_MEASURE = Phrase("column.f_measure")


def controls():
    shown: dict[str, gr.components.Component] = {}  # the controls by name, as built
    shown["rouge_types"] = ui.control(
        gr.CheckboxGroup, "rouge.types", TYPES, value=list(DEFAULT_TYPES), elem_id="rouge-types"
    )
    with gr.Row():
        shown["variant"] = variant = ui.variant_dropdown(VARIANTS, "rouge_score")
        choices = list(MULTI_REF)
        shown["multi_ref"] = ui.control(gr.Dropdown, "rouge.multi_ref", choices, value="default", elem_id="multi-ref")
    with gr.Row():
        choices = list(TOKENIZERS)
        shown["tokenizer"] = ui.control(gr.Dropdown, "rouge.tokenizer", choices, value="default", elem_id="tokenizer")
        shown["use_stemmer"] = ui.control(gr.Checkbox, "rouge.stemmer", False, elem_id="stemmer")
        shown["remove_stopwords"] = ui.control(gr.Checkbox, "rouge.stopwords", False, elem_id="stopwords")
    with gr.Row():
        alpha_info = "F = PR / ((1 - alpha) P + alpha R); 0.5: F1"
        shown["alpha"] = gr.Slider(0, 1, value=0.5, step=0.05, label="alpha", elem_id="alpha", info=alpha_info)
        shown["w"] = gr.Number(1.2, minimum=1, label="w (rougeW)", elem_id="w", info="f(k) = k^w")
    with gr.Row():
        limit: dict[str, Any] = dict(precision=0, info="rouge.limit_info", interactive=False)
        for name in ("limit_words", "limit_bytes"):
            shown[name] = ui.control(gr.Number, f"rouge.{name}", None, elem_id=name.replace("_", "-"), **limit)
    # The tokenizer is rouge_score's option, the length limits rouge155's.
    limits = [shown["limit_words"], shown["limit_bytes"]]
    ui.variant_only(variant, {"rouge_score": [shown["tokenizer"]], "rouge155": limits}, reset="change")
    return shown


def options(
    rouge_types, variant, multi_ref, tokenizer, use_stemmer, remove_stopwords, alpha, w, limit_words, limit_bytes
):
    return dict(
        rouge_types=list(rouge_types or []),
        variant=variant,
        multi_ref=ui.pick(multi_ref, MULTI_REF, "multi_ref"),
        tokenize=tokenizer,  # the control keeps rouge-score's name (the page's API parameter)
        use_stemmer=bool(use_stemmer),
        remove_stopwords=bool(remove_stopwords),
        alpha=float(alpha),
        limit_words=limit_words or None,
        limit_bytes=limit_bytes or None,  # a blank box sends 0
        **ui.given_numbers(w=w),
    )


def _types(options):
    return [t.name for t in parse_rouge_types(options["rouge_types"])]


def present(result, options, per_sentence):
    types = _types(options)
    signature = dict(part.split(":", 1) for part in result["signature"].split("|"))
    return ui.Presentation(
        scores=[(Phrase("caption.f_measure", type=t), result[t]) for t in types],
        per_order={
            Phrase("column.type"): types,
            ui.PRECISION: [result[f"{t}_precision"] for t in types],
            ui.RECALL: [result[f"{t}_recall"] for t in types],
            F_MEASURE: [result[f"{t}_fmeasure"] for t in types],
        },
        summary={
            "variant": options["variant"],
            Phrase("column.several_references"): signature["refs"],
            "alpha": signature["alpha"],
            Phrase("column.stemmer"): signature["stem"],
            Phrase("column.stop_words_removed"): signature["stop"],
        },
        sentence_scores={f"{t} F": per_sentence[t] for t in types},
    )


def tokens(text, options):
    """(tokens, tokens per sentence) of a summary as the variant counts them: the unigram tokens, and the
    sentences its LCS is taken over."""
    if options["variant"] == "rouge155":
        return rouge155.summary_tokens(
            text, options["use_stemmer"], options["remove_stopwords"], options["limit_words"], options["limit_bytes"]
        )
    return RougeTokenizer(options["tokenize"], options["use_stemmer"], options["remove_stopwords"]).split(text)


def lcs_marks(prediction, reference, summary_level):
    """Positions of the prediction's tokens on an LCS with the reference, each a (tokens, sentences) pair:
    of the whole texts, or, summary level, the union over the sentence pairs (positions in the sentences joined)."""
    if not summary_level:
        return set(lcs_positions(prediction[0], reference[0]))
    starts = accumulate((len(sentence) for sentence in prediction[1]), initial=0)
    return {
        start + i
        for start, sentence in zip(starts, prediction[1])
        for other in reference[1]
        for i in lcs_positions(sentence, other)
    }


def explain_one(prediction, references, options):
    types = _types(options)
    alone = ngrameval.rouge([prediction] * len(references), references, **options, sentence_level=True)
    first = alone.fmeasure[types[0]]
    chosen = first.index(max(first))
    ours = tokens(prediction, options)
    theirs = [tokens(reference, options) for reference in references]
    reference = theirs[chosen]
    orders = sorted({1} | {t.size for t in parse_rouge_types(types) if t.kind == "n" and t.size is not None})
    # The clipped n-gram matches against that one reference: ngrameval's own (BLEU's explanation on these tokens).
    matched = ngrameval.bleu([ours[0]], [[reference[0]]], max_order=orders[-1], explain=True).explanation[0]
    shown = [order for order in matched["orders"] if order["n"] in orders]
    summary_level = options["variant"] == "rouge155" or ("rougeLsum" in types and "rougeL" not in types)
    marks = lcs_marks(ours, reference, summary_level)
    labels = [LCS if i in marks else label for i, label in enumerate(ui.ngram_labels(ours[0], shown[:1]))]
    shown.append({"n": 0, "label": LCS, "matches": len(marks), "total": len(ours[0]), "ngrams": []})
    notes: list[ui.Shown] = [
        f"{types[0]} P {ui.fmt(alone.precision[types[0]][j])} R {ui.fmt(alone.recall[types[0]][j])} "
        f"F {ui.fmt(first[j])}"
        for j in range(len(references))
    ]
    notes[chosen] = Phrase("rouge.highlighted", note=notes[chosen])
    return {
        "prediction_tokens": ours[0],
        "reference_tokens": [r[0] for r in theirs],
        "reference_length": len(reference[0]),
        "orders": shown,
        "labels": labels,
        "reference_notes": notes,
    }


EXAMPLES = [
    ui.Example(
        Phrase("rouge.example_skip"),
        ["the cat in the hat"],
        [["the cat sat in the big hat"]],
        {"rouge_types": ["rouge1", "rouge2", "rougeL", "rougeS4", "rougeSU4"]},
    ),
    ui.Example(
        Phrase("rouge.example_summaries"),
        [
            "Police killed the gunman after a two-hour standoff at the bank.",
            "Heavy rains flooded the city center and closed schools on Monday.",
        ],
        [
            [
                "The gunman was shot dead by police after a standoff at a bank.",
                "Schools were closed on Monday after heavy rain flooded the city centre.",
            ],
            [
                "Police shot and killed a gunman who had held hostages at the bank for two hours.",
                "Monday's downpour flooded the centre of the city, forcing schools to close.",
            ],
        ],
        {"use_stemmer": True},
    ),
    ui.Example(Phrase("rouge.example_chinese"), *ui.CHINESE, {"rouge_types": ["rouge1", "rouge2", "rougeL"]}),
    ui.Example(
        Phrase("rouge.example_lin"),
        ["police kill the gunman", "the gunman kill police", "the gunman police killed"],
        [["police killed the gunman"] * 3],
        {"variant": "rouge155", "rouge_types": ["rouge2", "rougeL", "rougeS*", "rougeSU*"]},
    ),
]

SPACE = ui.MetricSpace(
    __name__, (F_MEASURE, t("rouge.f_plot")), detail_options={}, sentence_options={"sentence_level": True}
)
