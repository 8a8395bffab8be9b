"""NIST Space: the evaluate metric metrics/nist (ngrameval) with every option, examples and explanations.

Run: python spaces/nist/app.py  (http://127.0.0.1:7860; GRADIO_SERVER_PORT picks another port)
"""
import gradio as gr
import pandas as pd

from ngrameval.ui import page as ui


INTRO = """\
NIST (Doddington, 2002): like BLEU, but every matched n-gram counts by its **information weight**,
log2(count(w1..wn-1) / count(w1..wn)) over the references, so rare n-grams count more; the per-order
averages are added up and scaled by a length penalty (0.5 when the output is 2/3 of the reference
length). The tools disagree on several references, so **variant** picks one to reproduce exactly: `nltk`
(NLTK 3.10.4 `corpus_nist`: per order, the single best reference; default) or `mteval` (mteval-v13a.pl:
clipping against all references, the average reference length). The page runs the evaluate metric
`metrics/nist` of ngrameval; its metric card (`metrics/nist/README.md`) lists every option.
"""

NOTE = """The information weights shown are the corpus ones, which the corpus score uses. With `nltk`,
each order is scored against the single reference with the most matched information (the per-order table
shows the information against each reference; the clipped counts of the n-gram table are against all
references together), and a sentence's score is NLTK's `sentence_nist`, which takes its weights from that
sentence's own references."""


def controls():
    with gr.Row():
        variant = gr.Dropdown(["nltk", "mteval"], value="nltk", label="Variant", elem_id="variant")
        tokenize = ui.tokenizer_dropdown()
    n = ui.order_slider("n (max n-gram order)", 5)
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

SPACE = ui.MetricSpace(name="nist", title="NIST, exact to NLTK or mteval-v13a.pl", intro=INTRO,
                       controls=controls, options=options, present=present,
                       order_plot=("individual", "Contribution per order"), score_high=None, examples=EXAMPLES,
                       explanation_note=NOTE)
