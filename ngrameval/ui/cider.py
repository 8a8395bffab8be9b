"""CIDEr Space: the evaluate metric metrics/cider (ngrameval) with every option, examples and explanations."""

import gradio as gr
import numpy as np
import pandas as pd

from ngrameval import TOKENIZER_NAMES
from ngrameval.metrics.cider import VARIANTS
from ngrameval.text.tokenizers import get_tokenizer
from ngrameval.ui import page as ui
from ngrameval.ui.i18n import Phrase, t

NAMES = {"cider-d": "CIDEr-D", "cider": "CIDEr"}  # what each variant is called on the page
TOKENIZERS = list(dict.fromkeys(["none", "ptb", *TOKENIZER_NAMES]))
# The highlight's classes: the word's idf as a share of the highest possible one, log(items).
IDF_LABELS = [(2 / 3, "rare: high idf", "#0284c7"), (1 / 3, "medium idf", "#38bdf8"), (0, "common: low idf", "#bae6fd")]
NO_IDF = ("idf 0: in every item's references", "#e5e7eb")
ABSENT = ("not in its references", "#fca5a5")  # the text cider.explanation_intro names it
COLORS = dict([(label, color) for _, label, color in IDF_LABELS] + [NO_IDF, ABSENT])
SHARE = Phrase("column.share_x10")  # the plotted column
LENGTH_PENALTY = Phrase("column.length_penalty")
ITEM_SHARE = Phrase("column.share_of_score_x10")


def controls():
    with gr.Row():
        variant = ui.variant_dropdown(VARIANTS, "cider-d", "cider.variant_info")
        tokenize = ui.tokenizer_dropdown(TOKENIZERS, "none", elem_id="tokenize", info="cider.tokenizer_info")
    max_order = ui.order_slider("cider.max_order", 4)
    with gr.Row():
        sigma = ui.control(gr.Number, "cider.sigma", 6.0, minimum=0, elem_id="sigma")
        lowercase = ui.control(gr.Checkbox, "page.lowercase", False)
    idf_table = gr.File(label=t("cider.idf_table"), file_types=[".json"], elem_id="idf-table")
    return dict(
        variant=variant, tokenize=tokenize, max_order=max_order, sigma=sigma, lowercase=lowercase, idf_table=idf_table
    )


def options(variant, tokenize, max_order, sigma, lowercase, idf_table):
    chosen = dict(variant=variant, tokenize=tokenize, max_order=int(max_order), lowercase=bool(lowercase))
    return dict(chosen, idf=idf_table or "corpus", **ui.given_numbers(sigma=sigma))


def present(result, options, _per_sentence):
    explanation = result["explanation"]
    name = NAMES[result["variant"]]
    # Per item and order, the order's share of the item's score: the mean over its references of cosine × length
    # penalty, times 10 (an item's score is the mean over orders; CIDEr_n of the paper).
    shares = np.array(
        [
            np.mean([np.asarray(r["cosine"]) * r["length_penalty"] for r in item["references"]], axis=0) * 10
            for item in explanation
        ]
    )
    orders = ui.order_labels(shares.shape[1])
    cosines = np.array([r["cosine"] for item in explanation for r in item["references"]])
    penalties = [r["length_penalty"] for item in explanation for r in item["references"]]
    grams = [[g for item in explanation for g in item["ngrams"] if g["n"] == n] for n in range(1, len(orders) + 1)]
    idf = result["signature"].split("idf:")[1].split("|")[0]
    notes = [Phrase("cider.note_scale")]
    if idf == "corpus" and len(explanation) == 1:
        notes.append(Phrase("cider.note_one_item"))
    return ui.Presentation(
        scores=[(Phrase("caption.mean_of_items", name=name, count=len(explanation)), result["cider"])],
        per_order={
            ui.ORDER: orders,
            SHARE: shares.mean(axis=0),
            Phrase("column.mean_cosine"): cosines.mean(axis=0),
            ui.PREDICTION_NGRAMS: [sum(g["tf"] for g in level) for level in grams],
            Phrase("column.mean_idf"): [
                sum(g["weight"] for g in level) / max(1, sum(g["tf"] for g in level)) for level in grams
            ],
        },
        summary={
            "variant": result["variant"],
            Phrase("column.idf_from"): Phrase("cider.idf_from_items", count=len(explanation))
            if idf == "corpus"
            else Phrase("cider.idf_from_table", documents=idf[6:-1]),
            Phrase("column.references"): len(penalties),
            Phrase("column.mean_length_penalty"): float(np.mean(penalties)),
            Phrase("column.items_scoring_0"): sum(score == 0 for score in result["scores"]),
            Phrase("column.best_item"): max(result["scores"]),
        },
        sentence_scores={name: result["scores"], **{order: shares[:, n].tolist() for n, order in enumerate(orders)}},
        notes=notes,
    )


def idf_label(idf, top):
    """The highlight class of a word whose idf is ``idf``, ``top`` being the highest possible, log(items)."""
    if idf <= 0 or top <= 0:
        return NO_IDF[0]
    return next(label for share, label, _ in IDF_LABELS if idf >= share * top)


WEIGHT = Phrase("column.weight")
IN_REFERENCES = Phrase("column.in_its_references")


def explain_item(index, state):
    """The page's view of the metric's explanation of item ``index``: the tokens (as the metric splits
    them), coloured by idf, the per-reference table and the n-gram table."""
    item, options = state["explanation"][index], state["options"]
    prediction, *references = get_tokenizer(options["tokenize"], options["lowercase"]).tokenize(
        [state["predictions"][index], *state["references"][index]]
    )
    # The highest possible idf, log(items), is idf + log(max(1, df)) of any n-gram.
    top = next((g["idf"] + np.log(max(1, g["df"])) for g in item["ngrams"]), 0.0)
    in_references, rows = {}, []
    for gram in sorted(item["ngrams"], key=lambda g: (g["n"], -g["weight"])):
        n, text = gram["n"], gram["ngram"]
        found = sum(text in {" ".join(r[i : i + n]) for i in range(len(r) - n + 1)} for r in references)
        in_references[text] = found
        positions = [i + 1 for i in range(len(prediction) - n + 1) if " ".join(prediction[i : i + n]) == text]
        shown = round(gram["idf"], ui.DIGITS), round(gram["weight"], ui.DIGITS)
        found_of = Phrase("cider.found_of", found=found, count=len(references))
        rows.append((n, text, gram["tf"], gram["df"], *shown, found_of, ", ".join(map(str, positions))))
    idf_of = {g["ngram"]: g["idf"] for g in item["ngrams"] if g["n"] == 1}
    labels = [ABSENT[0] if not in_references.get(token) else idf_label(idf_of[token], top) for token in prediction]
    table = []
    for j, (reference, tokens) in enumerate(zip(item["references"], references), 1):
        row = {ui.REFERENCE: str(j), Phrase("column.length"): len(tokens), LENGTH_PENALTY: reference["length_penalty"]}
        row.update({Phrase("column.ngram_cosine", n=n): value for n, value in enumerate(reference["cosine"], 1)})
        row[ITEM_SHARE] = float(np.mean(reference["cosine"])) * reference["length_penalty"] * 10
        table.append(row)
    mean = {key: float(np.mean([row[key] for row in table])) for key in table[0] if key != ui.REFERENCE}
    table.append({**mean, ui.REFERENCE: Phrase("cider.mean_row")})
    notes = [
        Phrase("cider.reference_note", share=ui.fmt(row[ITEM_SHARE]), penalty=ui.fmt(row[LENGTH_PENALTY]))
        for row in table[:-1]
    ]
    return {
        "prediction_tokens": prediction,
        "reference_tokens": references,
        "labels": labels,
        "colors": COLORS,
        "reference_notes": notes,
        "ngram_table": pd.DataFrame(
            rows, columns=[ui.ORDER, ui.NGRAM, "tf", "df", "idf", WEIGHT, IN_REFERENCES, ui.POSITIONS]
        ),
        "order_table": pd.DataFrame(table),
    }


CAPTIONS, REFERENCES = ui.captions()  # four captions, five references each (per box)
# The first caption said twice: the cosine ignores the scale, CIDEr-D's clipping and length penalty do not.
TWICE = [" ".join(["a dog with a frisbee on the beach"] * 2), *CAPTIONS[1:]]

EXAMPLES = [
    ui.Example(Phrase("cider.example_toy"), *ui.TOY),
    ui.Example(Phrase("cider.example_four"), CAPTIONS, REFERENCES),
    ui.Example(Phrase("cider.example_twice_cider"), TWICE, REFERENCES, {"variant": "cider"}),
    ui.Example(Phrase("cider.example_twice_cider_d"), TWICE, REFERENCES),
    ui.Example(
        Phrase("cider.example_one_item"), ["a cat sits on a mat"], [["a cat is sitting on a mat"], ["a cat on a rug"]]
    ),
]

SPACE = ui.MetricSpace(
    __name__,
    (SHARE, t("cider.share_plot")),
    None,
    label="CIDEr",
    detail_options={"explain": True},
    reference_boxes=5,  # COCO has five reference captions per image
    coco_json=True,
)
