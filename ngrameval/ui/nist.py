"""NIST Space: the evaluate metric metrics/nist (ngrameval) with every option, examples and explanations.

Run: python spaces/nist/app.py  (http://127.0.0.1:7860; GRADIO_SERVER_PORT picks another port)
"""
import gradio as gr
import pandas as pd

from ngrameval.ui import page as ui
from ngrameval.ui.i18n import t


INTRO = t("nist.intro")

NOTE = t("nist.note")


def controls():
    with gr.Row():
        variant = gr.Dropdown(["nltk", "mteval"], value="nltk", label=t("page.variant"), elem_id="variant")
        tokenize = ui.tokenizer_dropdown()
    n = ui.order_slider(t("nist.n"), 5)
    lowercase = ui.lowercase_checkbox()
    return dict(variant=variant, tokenize=tokenize, n=n, lowercase=lowercase)


def options(variant, tokenize, n, lowercase):
    return dict(variant=variant, tokenize=tokenize, n=int(n), lowercase=bool(lowercase))


def present(result, options, _per_sentence):
    return ui.Presentation(
        scores=[(f"{options['variant']} variant, n = {options['n']}", result["nist"])],
        per_order=pd.DataFrame({"order": ui.order_labels(len(result["individual"])),
                                "individual": result["individual"], "cumulative": result["cumulative"],
                                "matched information": result["matched_information"],
                                "prediction n-grams": result["totals"]}),
        summary={"length penalty": result["length_penalty"], "prediction length": result["translation_length"],
                 "reference length": result["reference_length"]},
        sentence_scores={"score": result["sentence_scores"]},
        signature=result["signature"])


HYPOTHESES, REFERENCES = ui.papineni()   # Papineni et al. (2002), as ngrameval ships them
EXAMPLES = [
    ui.Example("Papineni et al.: two hypotheses, three references (nltk)", HYPOTHESES, REFERENCES),
    ui.Example("The same with mteval-v13a.pl", HYPOTHESES, REFERENCES, {"variant": "mteval"}),
    ui.Example("the president spoke to the audience", ["the president spoke to the audience"],
               [["the president then spoke to the audience"]]),
]

SPACE = ui.MetricSpace(name="nist", title=t("nist.title"), intro=INTRO,
                       controls=controls, options=options, present=present,
                       order_plot=("individual", t("nist.contribution_plot")), score_high=None, examples=EXAMPLES,
                       explanation_note=NOTE)
