"""BLEU Space: the evaluate metric metrics/bleu (ngrameval) with every option, examples and explanations.

Run: python spaces/bleu/app.py  (http://127.0.0.1:7860; GRADIO_SERVER_PORT picks another port)
"""

import gradio as gr
import pandas as pd

from ngrameval.metrics.bleu import VARIANTS
from ngrameval.ui import page as ui
from ngrameval.ui.i18n import Phrase, t

SMOOTHING = {  # per variant: the smoothing values it accepts (the first, "default", is its own default)
    "sacrebleu": ["default", "exp", "floor", "add-k", "none"],
    "nltk": ["default"] + [f"method{i}" for i in range(8)],
    "mteval": ["default", "exp"],
    "nmt": ["default", "none", "add-one"],
    "d2l": ["default", "none"],
    "coco": ["default", "none"],
}
# The dropdown's words for the metric's values; others (exp, floor, method1, ...) pass as they are.
SMOOTH_VALUES = {"none": None, "add-one": True}
EFFECTIVE_ORDER = {"default": None, "on": True, "off": False}


def smoothing_for(variant, smooth):
    """The smoothing choices of a variant; the current choice is kept when that variant accepts it."""
    choices = SMOOTHING.get(variant, ["default"])
    return gr.Dropdown(choices=choices, value=smooth if smooth in choices else "default")


def controls():
    with gr.Row():
        variant = gr.Dropdown(list(VARIANTS), value="sacrebleu", label=t("page.variant"), elem_id="variant")
        tokenize = ui.tokenizer_dropdown()
    with gr.Row():
        smooth = gr.Dropdown(
            SMOOTHING["sacrebleu"],
            value="default",
            label=t("bleu.smoothing"),
            elem_id="smooth",
            allow_custom_value=True,
            info=t("bleu.smoothing_info"),
        )
        brevity_penalty = gr.Dropdown(
            ["default", "closest", "shortest", "average"],
            value="default",
            label=t("bleu.brevity_penalty"),
            info=t("bleu.brevity_penalty_info"),
        )
    max_order = ui.order_slider(t("bleu.max_order"), 4)
    weights = gr.Textbox(
        label=t("bleu.weights"), placeholder=t("bleu.weights_placeholder"), info=t("bleu.weights_info")
    )
    with gr.Row():
        lowercase = ui.lowercase_checkbox()
        effective_order = gr.Dropdown(
            list(EFFECTIVE_ORDER), value="default", label=t("bleu.effective_order"), info=t("bleu.effective_order_info")
        )
        auto_reweigh = gr.Checkbox(False, label=t("bleu.auto_reweigh"))
    with gr.Accordion(t("bleu.smoothing_parameters"), open=False):
        with gr.Row():
            smooth_value = gr.Number(None, label="smooth_value", info="sacrebleu floor (0.1) / add-k (1)")
            epsilon = gr.Number(None, label="epsilon", info="nltk method1 (0.1)")
            alpha = gr.Number(None, label="alpha", info="nltk method6 (5)")
            k = gr.Number(None, label="k", info="nltk method4, method7 (5)")
    variant.change(smoothing_for, [variant, smooth], smooth, api_visibility="private")
    return dict(
        variant=variant,
        tokenize=tokenize,
        smooth=smooth,
        brevity_penalty=brevity_penalty,
        max_order=max_order,
        weights=weights,
        lowercase=lowercase,
        effective_order=effective_order,
        auto_reweigh=auto_reweigh,
        smooth_value=smooth_value,
        epsilon=epsilon,
        alpha=alpha,
        k=k,
    )


def options(
    variant,
    tokenize,
    smooth,
    brevity_penalty,
    max_order,
    weights,
    lowercase,
    effective_order,
    auto_reweigh,
    smooth_value,
    epsilon,
    alpha,
    k,
):
    return dict(
        variant=variant,
        tokenize=tokenize,
        smooth=SMOOTH_VALUES.get(smooth, smooth),
        brevity_penalty=None if brevity_penalty == "default" else brevity_penalty,
        max_order=int(max_order),
        weights=ui.parse_weights(weights),
        lowercase=bool(lowercase),
        use_effective_order=ui.pick(effective_order, EFFECTIVE_ORDER, "effective order"),
        auto_reweigh=bool(auto_reweigh),
        smooth_value=ui.optional_number(smooth_value, "smooth_value"),
        epsilon=ui.optional_number(epsilon, "epsilon"),
        alpha=ui.optional_number(alpha, "alpha"),
        k=ui.optional_number(k, "k"),
    )


def present(result, options, _per_sentence):
    several = isinstance(result["bleu"], list)
    weight_sets = options["weights"] if several else [options["weights"]]
    captions = [
        Phrase("caption.weights", weights=" ".join(f"{w:g}" for w in ws)) if ws else Phrase("caption.corpus_score")
        for ws in weight_sets
    ]
    scores = result["bleu"] if several else [result["bleu"]]
    sentence = result["sentence_scores"]
    columns: dict[ui.Shown, list[float]] = (
        {Phrase("column.score_of", caption=c): [row[i] for row in sentence] for i, c in enumerate(captions)}
        if several
        else {ui.SCORE: sentence}
    )
    return ui.Presentation(
        scores=list(zip(captions, scores)),
        per_order=pd.DataFrame(
            {
                ui.ORDER: ui.order_labels(len(result["precisions"])),
                ui.PRECISION: result["precisions"],
                Phrase("column.matches_clipped"): result["counts"],
                ui.PREDICTION_NGRAMS: result["totals"],
            }
        ),
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

SPACE = ui.MetricSpace(
    name="bleu",
    controls=controls,
    options=options,
    present=present,
    order_plot=(ui.PRECISION, t("bleu.precision_plot")),
    score_high=1.0,
    examples=EXAMPLES,
)
