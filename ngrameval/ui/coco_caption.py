"""COCO caption Space: the evaluate metric metrics/coco_caption (ngrameval) -- BLEU-1..4, METEOR, ROUGE-L and
CIDEr-D as pycocoevalcap reports them -- with its options, examples and explanations."""

import gradio as gr
import numpy as np
import pandas as pd

import ngrameval
from ngrameval.metrics.coco import TOKENIZERS
from ngrameval.ui import page as ui
from ngrameval.ui.i18n import Phrase, t

METRICS = [("BLEU-1..4", "bleu"), ("METEOR 1.5", "meteor"), ("ROUGE-L", "rouge_l"), ("CIDEr-D", "cider")]
NAMES = ["Bleu_1", "Bleu_2", "Bleu_3", "Bleu_4", "METEOR", "ROUGE_L", "CIDEr"]  # pycocoevalcap's, in its order
METRIC = Phrase("column.metric")
CORPUS = Phrase("column.corpus")  # the plotted column


def controls():
    tokenize = ui.tokenizer_dropdown(list(TOKENIZERS), "ptb", elem_id="tokenize", info="coco.tokenizer_info")
    metrics = ui.control(
        gr.CheckboxGroup, "coco.metrics", METRICS, value=[value for _, value in METRICS], elem_id="metrics"
    )
    return dict(tokenize=tokenize, metrics=metrics)


def options(tokenize, metrics):
    return dict(tokenize=tokenize, metrics=list(metrics or []))


def names_in(result):
    return [name for name in NAMES if name in result]


def present(result, options, _per_sentence):
    names = names_in(result)
    per_item = result["per_item"]
    first = sorted(names, key=lambda name: name != "CIDEr")  # CIDEr-D's histogram, when computed
    notes = [Phrase("coco.spice")] + ([f"METEOR: {result['meteor_note']}"] if result.get("meteor_note") else [])
    return ui.Presentation(
        scores=[(name, result[name]) for name in names],
        per_order={
            METRIC: names,
            CORPUS: [result[name] for name in names],
            Phrase("column.mean_of_items"): [float(np.mean(per_item[name])) for name in names],
            Phrase("column.median_item"): [float(np.median(per_item[name])) for name in names],
            Phrase("column.items_scoring_0"): [sum(score == 0 for score in per_item[name]) for name in names],
        },
        summary={
            Phrase("column.items"): len(next(iter(per_item.values()))),
            Phrase("column.tokenizer"): options["tokenize"],
            Phrase("column.metrics"): ", ".join(options["metrics"]),
            "SPICE": Phrase("coco.spice_not_computed"),
        },
        sentence_scores={name: per_item[name] for name in first},
        signature=f"tokenize:{options['tokenize']}|metrics:{','.join(options['metrics'])}"
        f"|ngrameval:{ngrameval.__version__}",
        notes=notes,
    )


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
        row = {METRIC: name, Phrase("column.item_score"): round(per_item[name][index], ui.DIGITS)}
        if name.startswith("Bleu_"):
            order = item["orders"][int(name[-1]) - 1]
            row.update({ui.MATCHED: order["matches"], ui.PREDICTION_NGRAMS: order["total"]})
        rows.append(row)
    return {**item, "order_table": pd.DataFrame(rows)}


CAPTIONS, REFERENCES = ui.captions()  # four captions, five references each (per box)
TOY = (
    ["A man rides a horse.", "Two dogs are playing in grass."],  # pycocoevalcap's example
    [
        ["A man riding a horse on a beach.", "Two dogs play in the grass."],
        ["A person rides a horse.", "Dogs playing on a lawn."],
    ],
)
EXAMPLES = [
    ui.Example(Phrase("coco.example_toy"), *TOY),
    ui.Example(Phrase("coco.example_four"), CAPTIONS, REFERENCES),
    ui.Example(Phrase("coco.example_untokenized"), *TOY, {"tokenize": "none"}),
    ui.Example(Phrase("coco.example_without_meteor"), *TOY, {"metrics": ["bleu", "rouge_l", "cider"]}),
]

SPACE = ui.MetricSpace(
    __name__,
    (CORPUS, t("coco.corpus_plot")),
    None,
    texts="coco",
    label="COCO caption",
    intro=t("coco.intro", spice=t("coco.spice")),
    detail_options={},
    reference_boxes=5,  # COCO has five reference captions per image
    coco_json=True,
)
