"""BLEU Space: the evaluate metric metrics/bleu (ngrameval) with every option, examples and explanations."""

import gradio as gr

from ngrameval.metrics.bleu import BREVITY_PENALTIES, SMOOTHING, VARIANTS
from ngrameval.ui import page as ui
from ngrameval.ui.i18n import Phrase, t

# The dropdown's words for the metric's smooth values that are not words (exp, method1, ... pass as they are).
SMOOTH_WORDS: dict[object, str] = {None: "none", False: "none", True: "add-one"}
SMOOTH_VALUES = {"none": None, "add-one": True}
EFFECTIVE_ORDER = {"default": None, "on": True, "off": False}
# The smoothing parameters, each with the smoothing methods it is for (their defaults).
PARAMETERS = {
    "smooth_value": "sacrebleu floor (0.1) / add-k (1)",
    "epsilon": "nltk method1 (0.1)",
    "alpha": "nltk method6 (5)",
    "k": "nltk method4, method7 (5)",
}


def smoothing_choices(variant):
    """The smooth values a variant accepts, after "default" (its own)."""
    return ["default", *(SMOOTH_WORDS.get(value, value) for value in SMOOTHING.get(variant, ()))]


def smoothing_for(variant, smooth):
    """The smoothing choices of a variant; the current choice is kept when that variant accepts it."""
    choices = smoothing_choices(variant)
    return gr.Dropdown(choices=choices, value=smooth if smooth in choices else "default")


def controls():
    shown: dict[str, gr.components.Component] = {}  # the controls by name, as built
    with gr.Row():
        shown["variant"] = variant = ui.variant_dropdown(VARIANTS, "sacrebleu")
        shown["tokenize"] = ui.tokenizer_dropdown()
    with gr.Row():
        choices = smoothing_choices("sacrebleu")
        shown["smooth"] = smooth = ui.control(
            gr.Dropdown, "bleu.smoothing", choices, value="default", elem_id="smooth", allow_custom_value=True
        )
        choices = ["default", *BREVITY_PENALTIES]
        shown["brevity_penalty"] = ui.control(gr.Dropdown, "bleu.brevity_penalty", choices, value="default")
    shown["max_order"] = ui.order_slider("bleu.max_order", 4)
    shown["weights"] = ui.control(gr.Textbox, "bleu.weights", placeholder=t("bleu.weights_placeholder"))
    with gr.Row():
        shown["lowercase"] = ui.control(gr.Checkbox, "page.lowercase", False)
        choices = list(EFFECTIVE_ORDER)
        shown["effective_order"] = ui.control(gr.Dropdown, "bleu.effective_order", choices, value="default")
        shown["auto_reweigh"] = gr.Checkbox(False, label=t("bleu.auto_reweigh"))
    with gr.Accordion(t("bleu.smoothing_parameters"), open=False), gr.Row():
        shown |= {name: gr.Number(None, label=name, info=info) for name, info in PARAMETERS.items()}
    variant.change(smoothing_for, [variant, smooth], smooth, api_visibility="private")
    return shown


def options(variant, tokenize, smooth, brevity_penalty, max_order, weights, lowercase, effective_order, **others):
    """compute() options; ``others``: auto_reweigh and the smoothing PARAMETERS."""
    return dict(
        variant=variant,
        tokenize=tokenize,
        smooth=SMOOTH_VALUES.get(smooth, smooth),
        brevity_penalty=None if brevity_penalty == "default" else brevity_penalty,
        max_order=int(max_order),
        weights=ui.parse_weights(weights),
        lowercase=bool(lowercase),
        use_effective_order=ui.pick(effective_order, EFFECTIVE_ORDER, "effective order"),
        auto_reweigh=bool(others["auto_reweigh"]),
        **{name: ui.optional_number(others[name], name) for name in PARAMETERS},
    )


def present(result, options, _per_sentence):
    several = isinstance(result["bleu"], list)
    captions = [
        Phrase("caption.weights", weights=" ".join(f"{w:g}" for w in ws)) if ws else Phrase("caption.corpus_score")
        for ws in (options["weights"] if several else [options["weights"]])
    ]
    sentence = result["sentence_scores"]
    columns: dict[ui.Shown, list[float]] = (
        {Phrase("column.score_of", caption=c): [row[i] for row in sentence] for i, c in enumerate(captions)}
        if several
        else {ui.SCORE: sentence}
    )
    return ui.Presentation(
        scores=list(zip(captions, result["bleu"] if several else [result["bleu"]])),
        per_order={
            ui.ORDER: ui.order_labels(len(result["precisions"])),
            ui.PRECISION: result["precisions"],
            Phrase("column.matches_clipped"): result["counts"],
            ui.PREDICTION_NGRAMS: result["totals"],
        },
        summary={
            Phrase("column.brevity_penalty"): result["brevity_penalty"],
            Phrase("column.length_ratio"): result["length_ratio"],
            ui.PREDICTION_LENGTH: result["translation_length"],
            ui.REFERENCE_LENGTH: result["reference_length"],
        },
        sentence_scores=columns,
        signature=f"corpus: {result['signature']}\nsentences: {result['sentence_signature']}",
    )


HYPOTHESES, REFERENCES = ui.papineni()  # Papineni et al. (2002), as ngrameval ships them
EXAMPLES = [
    ui.Example(Phrase("bleu.example_d2l"), ["A B B C D"], [["A B C D E F"]], {"variant": "d2l", "max_order": 2}),
    ui.Example(Phrase("bleu.example_papineni"), HYPOTHESES[:1], [box[:1] for box in REFERENCES], {"variant": "nltk"}),
    ui.Example(
        Phrase("bleu.example_clipping"),
        ["the the the the the the the"],
        [["The cat is on the mat"], ["There is a cat on the mat"]],
        {"variant": "nltk", "max_order": 1, "lowercase": True},
    ),
    ui.Example(
        Phrase("bleu.example_cat"),
        ["the cat is on the mat"],
        [["there is a cat on the mat"], ["the cat sits on the mat"]],
    ),
]

SPACE = ui.MetricSpace(__name__, (ui.PRECISION, t("bleu.precision_plot")))
