"""GLEU Space: the evaluate metric metrics/gleu (ngrameval) with every option, examples and explanations."""

import gradio as gr
import numpy as np

import ngrameval
from ngrameval.engine.ngrams import ngram_counts
from ngrameval.metrics.bleu import from_rows
from ngrameval.metrics.gleu import VARIANTS, resolve_options
from ngrameval.ui import page as ui
from ngrameval.ui.i18n import Phrase, t


def controls():
    with gr.Row():
        variant = ui.variant_dropdown(VARIANTS, "nltk", "gleu.variant_info")
        tokenize = ui.tokenizer_dropdown()
    orders = {name: ui.order_slider(f"gleu.{name}", value) for name, value in (("min_len", 1), ("max_len", 4))}
    return dict(variant=variant, tokenize=tokenize, **orders)


def options(variant, tokenize, min_len, max_len):
    return dict(variant=variant, tokenize=tokenize, min_len=int(min_len), max_len=int(max_len))


# The metric returns the corpus sums and which reference each prediction's row counts; the per-order counts and
# the matched n-grams are recomputed here from ngrameval's public functions: GLEU of each (prediction,
# reference) pair gives every reference's row, and BLEU's clipped matches against the chosen reference (the
# same clipping: at most the n-gram's count in it) give the n-grams, per order.


def _bleu_options(options):
    """BLEU's options that match as GLEU does: the same tokens, orders up to max_len."""
    return dict(tokenize=resolve_options(**options).tokenize, max_order=options["max_len"])


def present(result, options, per_sentence, hyps, refs):
    chosen = ngrameval.gleu(hyps, refs, **options).best_reference  # the metric's own choice
    chosen_refs = [[group[k]] for group, k in zip(refs, chosen)]
    rows = ngrameval.statistics("bleu", hyps, chosen_refs, **_bleu_options(options)).rows
    stats = from_rows(rows, options["max_len"])
    orders = slice(options["min_len"] - 1, options["max_len"])
    matches, totals = stats.matches.sum(axis=0)[orders], stats.totals.sum(axis=0)[orders]
    reference_ngrams = ngram_counts(stats.ref_len.astype(int), options["max_len"]).sum(axis=0)[orders]
    low, high = options["min_len"], options["max_len"]
    caption = Phrase("caption.variant_orders", variant=options["variant"], low=low, high=high)
    return ui.Presentation(
        scores=[(caption, result["gleu"])],
        per_order={
            ui.ORDER: ui.order_labels(options["max_len"])[orders],
            ui.MATCHES: matches,
            ui.PREDICTION_NGRAMS: totals,
            ui.REFERENCE_NGRAMS: reference_ngrams,
            ui.PRECISION: np.divide(matches, totals, out=np.zeros(len(matches)), where=totals > 0),
            ui.RECALL: np.divide(matches, reference_ngrams, out=np.zeros(len(matches)), where=reference_ngrams > 0),
        },
        summary={
            Phrase("column.matches_all_orders"): result["n_match"],
            Phrase("column.max_ngrams"): result["n_all"],
            ui.PREDICTION_NGRAMS: int(totals.sum()),
            Phrase("column.reference_ngrams_chosen"): int(reference_ngrams.sum()),
        },
    )


def explain_item(index, state):
    """Sentence ``index`` against its chosen reference: BLEU's explanation of that pair (tokens, clipped
    n-grams with positions), orders below min_len left out, and each reference's ratio."""
    options = state["options"]
    prediction, group = state["predictions"][index], state["references"][index]
    chosen = ngrameval.gleu([prediction], [group], **options).best_reference[0]
    # Each reference's (matches, n-grams) row: GLEU of the prediction against it alone.
    rows = ngrameval.gleu([prediction] * len(group), [[r] for r in group], **options).statistics.rows
    bleu = dict(variant="nltk", **_bleu_options(options), explain=True)
    item = ngrameval.bleu([prediction], [[group[chosen]]], **bleu).explanation[0]
    orders = [order for order in item["orders"] if order["n"] >= options["min_len"]]
    # Every reference's tokens, for the list of references (the pair above holds the chosen one only).
    reference_tokens = ngrameval.bleu([prediction], [group], **bleu).explanation[0]["reference_tokens"]
    notes = [Phrase("gleu.reference_note", matches=int(m), total=int(n)) for m, n in rows]
    notes[chosen] = Phrase("gleu.chosen", note=notes[chosen])
    return dict(
        prediction_tokens=item["prediction_tokens"],
        reference_tokens=reference_tokens,
        orders=orders,
        reference_notes=notes,
        order_table=ui.order_table(orders, len(item["reference_tokens"][0])),
    )


HYPOTHESES, REFERENCES = ui.papineni()  # Papineni et al. (2002), as ngrameval ships them
EXAMPLES = [
    ui.Example(Phrase("example.papineni_two"), HYPOTHESES, REFERENCES),
    ui.Example(Phrase("gleu.example_google"), HYPOTHESES, REFERENCES, {"variant": "google_bleu"}),
    ui.Example(
        Phrase("gleu.example_bigrams"),
        ["the cat sat on the mat"],
        [["the cat sat on a mat"], ["a cat sat on the mat"]],
        {"min_len": 2, "max_len": 3},
    ),
    ui.Example(
        Phrase("gleu.example_clipping"),
        ["the the the the the the the"],
        [["the cat is on the mat"], ["there is a cat on the mat"]],
    ),
]

SPACE = ui.MetricSpace(
    __name__, (ui.PRECISION, t("gleu.precision_plot")), detail_options={"sentence_level": True}, present_corpus=True
)
