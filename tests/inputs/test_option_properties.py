"""Properties every metric's options share: a flag is a real boolean, a number is finite and in
its range, an n-gram order is bounded (refused at once, never minutes of work), and any callable
works as a tokenizer. One table lists each metric's options by kind; a metric added later gets a
row here."""

import dataclasses
import functools
import math
import re

import pytest

import ngrameval
from ngrameval.engine.inputs import MAX_ORDER

PREDICTIONS = ["the cat sat on the mat", "a dog barks"]
REFERENCES = [["the cat sat on a mat", "a cat sat on the mat"], ["the dog barks"]]

# metric -> (base options, flags, numbers (option -> base options it needs), orders)
OPTIONS = {
    "bleu": (
        {},
        ["lowercase", "sentence_level", "explain", "auto_reweigh", "use_effective_order"],
        {
            "smooth_value": {"smooth": "floor"},
            "epsilon": {"variant": "nltk", "smooth": "method1"},
            "alpha": {"variant": "nltk", "smooth": "method6"},
            "k": {"variant": "nltk", "smooth": "method4"},
        },
        {"max_order": {}},
    ),
    "statistics:bleu": ({}, ["lowercase"], {}, {"max_order": {}}),
    "nist": ({}, ["lowercase", "sentence_level", "explain"], {}, {"n": {}}),
    "rouge": (
        {},
        ["use_stemmer", "remove_stopwords", "use_aggregator"],
        {"alpha": {}, "w": {"variant": "rouge155", "rouge_types": ["rougeW"]}},
        {},
    ),
    "meteor": (
        {},
        ["explain"],
        {"alpha": {"variant": "nltk"}, "beta": {"variant": "nltk"}, "gamma": {"variant": "nltk"}},
        {},
    ),
    "cider": ({}, ["lowercase", "explain"], {"sigma": {}}, {"max_order": {}}),
    "chrf": (
        {},
        ["lowercase", "whitespace", "eps_smoothing", "sentence_level"],
        {"beta": {}},
        {"char_order": {}},
    ),  # (NLTK's min_char_order needs one reference: tests/inputs/test_chrf_gleu_inputs.py)
    "gleu": ({}, ["sentence_level"], {}, {"max_len": {}, "min_len": {"max_len": 100}}),
    # (TER's HF aliases ignore_punct and support_zh_ja_chars default to None, "use sacrebleu's name".)
    "ter": ({}, ["normalized", "no_punct", "asian_support", "case_sensitive", "sentence_level", "explain"], {}, {}),
}
# Options that scale work with their value, given as a sequence or a name.
ORDER_SPELLINGS = {
    "rouge": lambda order: {"rouge_types": [f"rouge{order}"]},
}
BAD_FLAGS = ["no", "yes", 1, None]
BAD_NUMBERS = [math.nan, math.inf, -math.inf, "1"]
BAD_ORDERS = [0, -1, 2.0, True, MAX_ORDER + 1, 10**6, 10**18]


def _cases(kind):
    for metric, (base, flags, numbers, orders) in OPTIONS.items():
        if kind == "flag":
            yield from ((metric, name, {**base}, value) for name in flags for value in BAD_FLAGS)
        elif kind == "number":
            yield from (
                (metric, name, {**base, **needs}, value) for name, needs in numbers.items() for value in BAD_NUMBERS
            )
        else:
            yield from (
                (metric, name, {**base, **needs}, value) for name, needs in orders.items() for value in BAD_ORDERS
            )


def _function(metric):
    """``ngrameval.<metric>``, or for ``statistics:<metric>`` the protocol's statistics of that metric (which
    check the same options)."""
    if metric.startswith("statistics:"):
        return functools.partial(ngrameval.statistics, metric.split(":")[1])
    return getattr(ngrameval, metric)


def _score(metric, **options):
    return _function(metric)(PREDICTIONS, REFERENCES, **options)


@pytest.mark.parametrize("metric, name, base, value", list(_cases("flag")))
def test_flags_must_be_booleans(metric, name, base, value):
    if value is None and name == "use_effective_order":  # None: sacrebleu's default (off for corpus scores)
        assert _score(metric, **base, **{name: value}).bleu == _score(metric, **base, **{name: False}).bleu
        return
    if value is None and name in ALIASES_OF_FLAGS:  # None: not given, so the canonical option's default decides
        assert _score(metric, **base, **{name: value}).as_dict() == _score(metric, **base).as_dict()
        return
    with pytest.raises(ValueError, match=re.escape(name)):
        _score(metric, **base, **{name: value})


# The peers' flag names kept as aliases of ngrameval's (ngrameval.vocabulary.aliased): None means not given.
ALIASES_OF_FLAGS = ("use_aggregator", "case_sensitive")


@pytest.mark.parametrize("metric, name, base, value", list(_cases("number")))
def test_numbers_must_be_finite(metric, name, base, value):
    with pytest.raises(ValueError, match=re.escape(name)):
        _score(metric, **base, **{name: value})


@pytest.mark.parametrize("metric, name, base, value", list(_cases("order")))
def test_orders_are_bounded(metric, name, base, value):
    with pytest.raises(ValueError, match=re.escape(name)):
        _score(metric, **base, **{name: value})


@pytest.mark.parametrize("metric", sorted(ORDER_SPELLINGS))
@pytest.mark.parametrize("order", [MAX_ORDER + 1, 10**6, 10**10])
def test_orders_spelled_in_names_are_bounded(metric, order):
    with pytest.raises(ValueError, match=str(MAX_ORDER)):
        _score(metric, **ORDER_SPELLINGS[metric](order))


@pytest.mark.parametrize(
    "metric, name, base",
    [(m, n, {**b, **needs}) for m, (b, _, _, orders) in OPTIONS.items() for n, needs in orders.items()],
)
def test_the_largest_order_is_accepted(metric, name, base):
    result = _score(metric, **base, **{name: MAX_ORDER})
    assert result is not None


@pytest.mark.parametrize("value", [[math.nan] * 4, [math.inf] * 4, [0.25, 0.25, -0.25, 0.25]])
def test_bleu_weights_must_be_finite_and_not_negative(value):
    with pytest.raises(ValueError, match="weights"):
        ngrameval.bleu(PREDICTIONS, REFERENCES, weights=value)


@pytest.mark.parametrize("smooth", ["method4", "method7"])
def test_nltk_k_zero_is_refused_not_infinite(smooth):
    with pytest.raises(ValueError, match="k must be a finite number > 0"):
        ngrameval.bleu(["a b c d e"], [["a x c y e"]], variant="nltk", smooth=smooth, k=0)


@pytest.mark.parametrize("value", [math.nan, -1])
def test_sacrebleu_smooth_value_must_be_finite_and_not_negative(value):
    for smooth in ("floor", "add-k"):
        with pytest.raises(ValueError, match="smooth_value"):
            ngrameval.bleu(PREDICTIONS, REFERENCES, smooth=smooth, smooth_value=value)


def test_meteor15_parameters_must_be_finite():
    with pytest.raises(ValueError, match="parameters"):
        ngrameval.meteor(PREDICTIONS, REFERENCES, parameters=[math.nan, 3.0, 0.5, 0.5])


@pytest.mark.parametrize("metric", ["bleu", "nist", "gleu", "rouge", "cider"])
def test_tokens_with_whitespace_are_tokens_like_any_other(metric):
    """A token is any string (NLTK's view): tokens holding whitespace score as the same tokens renamed."""
    predictions = [["the cat", "sat", " "], ["a", "new york", "dog"]]
    references = [[["the cat", "sat", "on"], ["the", "cat", " "]], [["new york", "dog"]]]
    names = {}

    def renamed(tokens):
        return [names.setdefault(token, f"w{len(names)}") for token in tokens]

    score = getattr(ngrameval, metric)
    plain = score([renamed(p) for p in predictions], [[renamed(r) for r in group] for group in references])
    assert score(predictions, references).as_dict() == plain.as_dict()


@dataclasses.dataclass
class WhitespaceSplit:
    """An unhashable callable (a dataclass with ``__call__``)."""

    def __call__(self, line):
        return line.split()


MAIN_NUMBERS = {
    "bleu": lambda result: result.bleu,
    "statistics:bleu": lambda result: result.rows.tolist(),
    "nist": lambda result: result.nist,
    "rouge": lambda result: {name: value for name, value in result.as_dict().items() if "signature" not in name},
    "cider": lambda result: result.cider,
}


@pytest.mark.parametrize(
    "metric, option",
    [
        ("bleu", "tokenize"),
        ("statistics:bleu", "tokenize"),
        ("nist", "tokenize"),
        ("rouge", "tokenizer"),
        ("cider", "tokenize"),
    ],
)
def test_any_callable_is_a_tokenizer(metric, option):
    with_callable = _score(metric, **{option: WhitespaceSplit()})
    with_tokens = _function(metric)(
        [p.split() for p in PREDICTIONS], [[r.split() for r in refs] for refs in REFERENCES]
    )
    assert MAIN_NUMBERS[metric](with_callable) == MAIN_NUMBERS[metric](with_tokens)


def test_every_registered_metric_has_a_row_here():
    """A metric added to the registry must declare its options' kinds above (the COCO suite has none of
    its own: its parts are the rows of bleu, meteor and cider)."""
    from ngrameval.metric import metric_names

    assert set(metric_names()) - {"coco_caption"} <= set(OPTIONS)


@pytest.mark.parametrize("metric", sorted(OPTIONS))
def test_unknown_options_get_one_clear_error_everywhere(metric):
    """A misspelt option is named with the valid ones, the same way from the function, the evaluate script
    and the protocol (never Python's TypeError about keyword arguments)."""
    family_name = metric.removeprefix("statistics:")
    with pytest.raises(ValueError, match=rf"^unknown options for {family_name}: max_ordr, smoth; valid options: "):
        _score(metric, smoth=1, max_ordr=2)
    with pytest.raises(ValueError, match=rf"^unknown options for {family_name}: smoth; valid options: "):
        ngrameval.get_family(family_name).statistics(PREDICTIONS, REFERENCES, smoth=1)


@pytest.mark.parametrize("metric", sorted(set(OPTIONS) - {"statistics:bleu"}))
def test_unknown_options_through_evaluate(metric):
    import evaluate

    module = evaluate.load(ngrameval.metric_path(metric))
    with pytest.raises(ValueError, match=rf"^unknown options for {metric}: smoth; valid options: "):
        module.compute(predictions=PREDICTIONS, references=REFERENCES, smoth=1)
