"""chrF Space: the evaluate metric metrics/chrf (ngrameval) with every option, examples and explanations."""

from collections.abc import Callable

import gradio as gr
import pandas as pd

import ngrameval

# How chrF turns a line into the characters and the words it counts. They are the metric's own (private)
# steps: the explanation must count exactly what the score counts, so it calls them rather than copy them.
from ngrameval.metrics.chrf import VARIANTS, character_text, resolve_options, words_without_punctuation
from ngrameval.ui import page as ui
from ngrameval.ui.i18n import Phrase, t

MEAN_F = Phrase("column.f_mean")


def controls():
    shown: dict[str, gr.components.Component] = {}  # the controls by name, as built
    with gr.Row():
        shown["variant"] = variant = ui.variant_dropdown(VARIANTS, "sacrebleu", "chrf.variant_info")
        # A text box: a blank number box comes back from the browser as 0, and blank must mean the variant's beta.
        hint = t("chrf.beta_placeholder")
        beta = gr.Textbox(label="beta", elem_id="beta", placeholder=hint, info=t("chrf.beta_info"))
    shown["char_order"] = ui.order_slider("chrf.char_order", 6)
    shown["word_order"] = ui.order_slider("chrf.word_order", 0, 0, elem_id="word-order")
    shown["beta"] = beta
    min_char_order = ui.order_slider("chrf.min_char_order", 1, elem_id="min-char-order", interactive=False)
    with gr.Row():
        shown["lowercase"] = gr.Checkbox(False, label=t("page.lowercase"), elem_id="lowercase", info="sacrebleu")
        shown["whitespace"] = ui.control(gr.Checkbox, "chrf.whitespace", False, elem_id="whitespace")
        shown["eps_smoothing"] = ui.control(gr.Checkbox, "chrf.eps_smoothing", False, elem_id="eps-smoothing")
    shown["min_char_order"] = min_char_order
    # A user's choice of variant puts the other's options back to their defaults, which the chosen one accepts (NLTK
    # refuses word n-grams, lowercasing and eps smoothing).
    sacrebleu = [shown[name] for name in ("word_order", "lowercase", "eps_smoothing")]
    ui.variant_only(variant, {"sacrebleu": sacrebleu, "nltk": [min_char_order]}, reset="input")
    return shown


def options(variant, char_order, word_order, beta, lowercase, whitespace, eps_smoothing, min_char_order):
    orders = dict(char_order=char_order, word_order=word_order, min_char_order=min_char_order)
    flags = dict(lowercase=lowercase, whitespace=whitespace, eps_smoothing=eps_smoothing)
    return dict(
        variant=variant,
        beta=ui.optional_number(beta, "beta"),
        **{name: int(value) for name, value in orders.items()},
        **{name: bool(value) for name, value in flags.items()},
    )


def _labels(kind, orders):
    return [f"{kind} {label}" for label in ui.order_labels(orders)]


def present(result, options, _per_sentence):
    resolved, low = resolve_options(**options), options["min_char_order"]
    if "char_fscores" in result:  # NLTK's mean sentence F per character order from min_char_order
        fscores = result["char_fscores"]
        per_order = {ui.ORDER: _labels("char", low - 1 + len(fscores))[low - 1 :], MEAN_F: fscores}
    else:  # sacrebleu's precision and recall per character order, then per word order
        words = len(result.get("word_precisions", []))
        per_order = {
            ui.ORDER: _labels("char", len(result["char_precisions"])) + _labels("word", words),
            ui.PRECISION: result["char_precisions"] + result.get("word_precisions", []),
            ui.RECALL: result["char_recalls"] + result.get("word_recalls", []),
        }
    return ui.Presentation(
        scores=[(Phrase("caption.name_variant", name=result["name"], variant=options["variant"]), result["chrf"])],
        per_order=per_order,
        summary={
            "beta": float(resolved.beta),
            Phrase("column.character_orders"): f"{resolved.min_char_order}–{resolved.char_order}",
            Phrase("column.word_orders"): resolved.word_order,
        },
        order_plot=(MEAN_F, t("chrf.f_plot")) if options["variant"] == "nltk" else None,
    )


# The metric returns scores only. The explanation takes the reference the score uses (the best sentence chrF of
# each pair: the metric's own choice rule), and the clipped n-gram matches with positions from BLEU's explanation
# of the pair, run on the very character (and word) sequences chrF counts (both metrics clip the same way).


def _matches(prediction, reference, max_order):
    """BLEU's explanation of one pre-split pair (token lists): clipped matched n-grams per order, with positions."""
    explained = ngrameval.bleu([prediction], [[reference]], variant="nltk", max_order=max_order, explain=True)
    return explained.explanation[0]["orders"]


def explain_item(index, state):
    """Sentence ``index`` against the reference its score uses: its characters coloured by matched order,
    its words (chrF++) marked under the references, the matched n-grams and the per-order counts."""
    options = state["options"]
    resolved = resolve_options(**options)
    prediction, group = state["predictions"][index], state["references"][index]
    # The reference the score uses: the first of the best sentence scores.
    scores = ngrameval.chrf([prediction] * len(group), [[r] for r in group], sentence_level=True, **options)
    chosen = scores.sentence_scores.index(max(scores.sentence_scores))
    if resolved.lowercase:  # what the metric counts (and so what the page shows)
        prediction, group = prediction.lower(), [r.lower() for r in group]
    reference = group[chosen]
    characters, reference_characters = character_text(prediction, resolved), character_text(reference, resolved)
    # Orders from min_char_order, their n-grams written as the characters they are (a kept space shows as ␣).
    char_orders = [
        {
            **order,
            "ngrams": [
                {
                    **g,
                    "ngram": "".join(characters[g["positions"][0] : g["positions"][0] + order["n"]]).replace(" ", "␣"),
                }
                for g in order["ngrams"]
            ],
        }
        for order in _matches(list(characters), list(reference_characters), resolved.char_order)
        if order["n"] >= resolved.min_char_order
    ]
    # The pair's own result: the metric's per-order precision and recall (or NLTK's F) for the table.
    pair = ngrameval.chrf([prediction], [[reference]], **{**options, "lowercase": False}).as_dict()
    labels: list[str | None] = [None] * len(prediction)  # None: a space, or a character not matched
    at = 0  # whitespace removal only deletes characters: each counted one is the next equal one of the line
    for character, label in zip(characters, ui.ngram_labels(list(characters), char_orders)):
        at = prediction.index(character, at) + 1
        labels[at - 1] = label
    char_parts = (
        {"F": pair["char_fscores"]}
        if "char_fscores" in pair
        else {ui.PRECISION: pair["char_precisions"], ui.RECALL: pair["char_recalls"]}
    )
    order_tables = [ui.order_table(char_orders, len(reference_characters), "char ", char_parts)]
    ngram_tables = [ui.ngram_table(char_orders, Phrase("chrf.characters"))]
    details: str | Callable[[str], str] = ""  # chrF++'s words, captioned in the page's language
    if resolved.word_order:
        words, reference_words = words_without_punctuation(prediction), words_without_punctuation(reference)
        word_orders = _matches(words, reference_words, resolved.word_order)
        word_parts = {ui.PRECISION: pair["word_precisions"], ui.RECALL: pair["word_recalls"]}
        order_tables.append(ui.order_table(word_orders, len(reference_words), "word ", word_parts))
        ngram_tables.append(ui.ngram_table(word_orders, Phrase("chrf.words")))
        marked = ui.marked_html(words, ui.ngram_labels(words, word_orders))

        def details(language):
            return f'<div style="margin-top:.3rem">{ui.html_text("chrf.words_caption", language)} {marked}</div>'

    notes = [Phrase("chrf.reference_note", name=pair["name"], score=ui.fmt(float(s))) for s in scores.sentence_scores]
    notes[chosen] = Phrase("explain.used", note=notes[chosen])
    return dict(
        prediction_tokens=list(prediction),
        labels=labels,
        separator="",
        prediction_length=len(characters),
        reference_tokens=[[r] for r in group],
        reference_notes=notes,
        orders=char_orders,
        details_html=details,
        ngram_table=pd.concat(ngram_tables, ignore_index=True),
        order_table=pd.concat(order_tables, ignore_index=True),
    )


# sacrebleu's chrF example (from its documentation), with a second reference for the second sentence.
CATS = [
    "The relationship between cats and dogs is not exactly friendly.",
    "a good bookshop is just a genteel black hole that knows how to read.",
]
CATS_REFERENCES = [
    [
        "The relationship between dogs and cats is not exactly friendly.",
        "A good bookshop is just a genteel Black Hole that knows how to read.",
    ],
    ["The relation between cats and dogs isn't friendly.", "A good bookshop is a genteel black hole that can read."],
]
EXAMPLES = [
    ui.Example(Phrase("chrf.example_cats"), CATS, CATS_REFERENCES),
    ui.Example(Phrase("chrf.example_chrf_pp"), CATS, CATS_REFERENCES, {"word_order": 2, "lowercase": True}),
    ui.Example(
        Phrase("chrf.example_nltk"),
        ["the cat sat on the mat", "a dog barks"],
        [["the cat sat on a mat", "the dog barks"]],
        {"variant": "nltk", "min_char_order": 2, "char_order": 4},
    ),
]

SPACE = ui.MetricSpace(
    __name__, (ui.RECALL, t("chrf.recall_plot")), label="chrF", detail_options={"sentence_level": True}
)
