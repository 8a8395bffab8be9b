"""NIST Space: the evaluate metric metrics/nist (ngrameval) with every option, examples and explanations."""

import gradio as gr

from ngrameval.metrics.nist import VARIANTS
from ngrameval.ui import page as ui
from ngrameval.ui.i18n import Phrase, t

INDIVIDUAL = Phrase("column.individual")  # the plotted column


def controls():
    with gr.Row():
        variant = ui.variant_dropdown(VARIANTS, "nltk")
        tokenize = ui.tokenizer_dropdown()
    n = ui.order_slider("nist.n", 5)
    lowercase = ui.control(gr.Checkbox, "page.lowercase", False)
    return dict(variant=variant, tokenize=tokenize, n=n, lowercase=lowercase)


def options(variant, tokenize, n, lowercase):
    # The control keeps NLTK's name n (the page's API parameter); the metric is asked by the common name.
    return dict(variant=variant, tokenize=tokenize, max_order=int(n), lowercase=bool(lowercase))


def present(result, options, _per_sentence):
    return ui.Presentation(
        scores=[(Phrase("caption.variant_n", variant=options["variant"], n=options["max_order"]), result["nist"])],
        per_order={
            ui.ORDER: ui.order_labels(len(result["individual"])),
            INDIVIDUAL: result["individual"],
            Phrase("column.cumulative"): result["cumulative"],
            Phrase("column.matched_information"): result["matched_information"],
            ui.PREDICTION_NGRAMS: result["totals"],
        },
        summary={
            Phrase("column.length_penalty"): result["length_penalty"],
            ui.PREDICTION_LENGTH: result["translation_length"],
            ui.REFERENCE_LENGTH: result["reference_length"],
        },
    )


HYPOTHESES, REFERENCES = ui.papineni()  # Papineni et al. (2002), as ngrameval ships them
EXAMPLES = [
    ui.Example(Phrase("example.papineni_two"), HYPOTHESES, REFERENCES),
    ui.Example(Phrase("nist.example_mteval"), HYPOTHESES, REFERENCES, {"variant": "mteval"}),
    ui.Example(
        Phrase("nist.example_president"),
        ["the president spoke to the audience"],
        [["the president then spoke to the audience"]],
    ),
]

SPACE = ui.MetricSpace(__name__, (INDIVIDUAL, t("nist.contribution_plot")), None)
