"""COCO caption Space: the evaluate metric metrics/coco_caption (ngrameval) -- BLEU-1..4, METEOR, ROUGE-L and
CIDEr-D as pycocoevalcap reports them -- with its options, examples and explanations.

Run: python spaces/coco_caption/app.py  (http://127.0.0.1:7860; GRADIO_SERVER_PORT picks another port)
"""
import gradio as gr
import numpy as np
import pandas as pd

import ngrameval
from ngrameval.ui import page as ui


METRICS = [("BLEU-1..4", "bleu"), ("METEOR 1.5", "meteor"), ("ROUGE-L", "rouge_l"), ("CIDEr-D", "cider")]
NAMES = ["Bleu_1", "Bleu_2", "Bleu_3", "Bleu_4", "METEOR", "ROUGE_L", "CIDEr"]     # pycocoevalcap's, in its order
REFERENCE_BOXES = 5          # COCO has five reference captions per image
SPICE = ("SPICE is not computed: it needs the Stanford CoreNLP parser models (Java), which no package registry "
         "ships, and this page works offline.")

INTRO = f"""\
The numbers captioning and data-to-text papers report from the COCO caption evaluation code
(pycocoevalcap 1.2): **BLEU-1 to BLEU-4, METEOR 1.5, ROUGE-L and CIDEr-D**, after Stanford's PTB
tokenization (lowercased, punctuation dropped), with pycocoevalcap's own rules (BLEU: the closest reference
length and tiny epsilons instead of smoothing; ROUGE-L: beta 1.2, best precision and best recall over the
references; CIDEr-D: document frequencies from the references given). Everything runs in Python, without
Java, and reproduces pycocoevalcap's numbers. **Tokenizer** `none` takes the texts as they are (what
nlg-eval does). {SPICE} The page runs the evaluate metric `metrics/coco_caption` of ngrameval; its metric
card lists every option. Upload COCO's own files (a results JSON and the references) in *Upload files*.
"""

EXPLANATION = ("The prediction's tokens as the metrics see them (after the tokenizer), labelled with the highest "
               "order of a BLEU n-gram match covering them (clipped counts against all references together, as "
               f"pycocoevalcap's BLEU; “{ui.OVER_CLIP}”: occurrences past the clip). The table gives every "
               "metric's score of this item.")
NOTE = ("An item's BLEU is pycocoevalcap's per-image BLEU (its brevity penalty from this item alone); the "
        "corpus BLEU pools the counts of all items, so it is not the mean of the item scores. The CIDEr Space "
        "explains an item's CIDEr-D (its n-grams' idf weights).")


def controls():
    tokenize = gr.Dropdown(["ptb", "none"], value="ptb", label="Tokenizer", elem_id="tokenize",
                           info="ptb: pycocoevalcap's PTBTokenizer (in Python); none: the texts as they are")
    metrics = gr.CheckboxGroup(METRICS, value=[value for _, value in METRICS], label="Metrics", elem_id="metrics",
                               info="SPICE is not offered: it needs Stanford CoreNLP models that no registry ships")
    return dict(tokenize=tokenize, metrics=metrics)


def options(tokenize, metrics):
    return dict(tokenize=tokenize, metrics=list(metrics or []))


def names_in(result):
    return [name for name in NAMES if name in result]


def present(result, options, _per_sentence):
    names = names_in(result)
    per_item = result["per_item"]
    first = sorted(names, key=lambda name: name != "CIDEr")     # CIDEr-D's histogram, when computed
    notes = [SPICE] + ([f"METEOR: {result['meteor_note']}"] if result.get("meteor_note") else [])
    return ui.Presentation(
        scores=[(name, result[name]) for name in names],
        per_order=pd.DataFrame({"metric": names, "corpus": [result[name] for name in names],
                                "mean of items": [float(np.mean(per_item[name])) for name in names],
                                "median item": [float(np.median(per_item[name])) for name in names],
                                "items scoring 0": [sum(score == 0 for score in per_item[name]) for name in names]}),
        summary={"items": len(next(iter(per_item.values()))), "tokenizer": options["tokenize"],
                 "metrics": ", ".join(options["metrics"]), "SPICE": "not computed (no CoreNLP models offline)"},
        sentence_scores={name: per_item[name] for name in first},
        signature=f"tokenize:{options['tokenize']}|metrics:{','.join(options['metrics'])}"
                  f"|ngrameval:{ngrameval.__version__}",
        notes=notes)


def explain_item(index, state):
    """Item ``index`` as the metrics see it: its tokens (PTB or as given), BLEU's clipped n-gram matches
    against its references, and every metric's score of it."""
    texts = [state["predictions"][index], *state["references"][index]]
    if state["options"]["tokenize"] == "ptb":
        from ngrameval.text.ptb import ptb_tokenize
        texts = ptb_tokenize(texts)
    item = ngrameval.bleu(texts[:1], [texts[1:]], variant="coco", max_order=4, explain=True).explanation[0]
    per_item = state["result"]["per_item"]
    rows = []
    for name in names_in(state["result"]):
        row = {"metric": name, "item score": round(per_item[name][index], ui.DIGITS)}
        if name.startswith("Bleu_"):
            order = item["orders"][int(name[-1]) - 1]
            row.update({"matched (clipped)": order["matches"], "prediction n-grams": order["total"]})
        rows.append(row)
    return {**item, "ngram_table": ui.ngram_table(item["orders"]), "order_table": pd.DataFrame(rows)}


CAPTIONS, REFERENCES = ui.captions()       # four captions, five references each (per box)
TOY = (["A man rides a horse.", "Two dogs are playing in grass."],          # pycocoevalcap's example
       [["A man riding a horse on a beach.", "Two dogs play in the grass."],
        ["A person rides a horse.", "Dogs playing on a lawn."]])
EXAMPLES = [
    ui.Example("pycocoevalcap's toy case: A man rides a horse.", *TOY),
    ui.Example("Four captions, five references each", CAPTIONS, REFERENCES),
    ui.Example("The toy case untokenized, as nlg-eval scores it (punctuation stays)", *TOY, {"tokenize": "none"}),
    ui.Example("Without METEOR: the toy case's BLEU, ROUGE-L and CIDEr-D", *TOY,
               {"metrics": ["bleu", "rouge_l", "cider"]}),
]

SPACE = ui.MetricSpace(name="coco_caption", label="COCO caption", intro=INTRO,
                       title="COCO caption metrics (BLEU, METEOR, ROUGE-L, CIDEr-D), exact to pycocoevalcap 1.2",
                       controls=controls, options=options, present=present,
                       order_plot=("corpus", "Corpus score per metric (CIDEr-D is ×10)"), score_high=None,
                       examples=EXAMPLES, explanation_intro=EXPLANATION, explanation_note=NOTE, detail_options={},
                       explain_item=explain_item, per_order_label="Per metric",
                       ngrams_label="BLEU's matched n-grams (count: in the prediction; clipped count: at most the "
                                    "count in a reference; positions: token numbers, from 1)",
                       orders_label="This item's scores", reference_boxes=REFERENCE_BOXES, coco_json=True)
