"""The evaluate front ends (metrics/bleu, nist, rouge, cider, meteor, coco_caption): loaded offline with
``evaluate.load``, they return exactly what ngrameval returns, their documented examples run, and bad
input gets ngrameval's ValueError rather than an Arrow conversion error."""

import doctest
import inspect
import re
import sys
from pathlib import Path

import evaluate
import pytest

import ngrameval
from ngrameval.metrics.bleu import VARIANTS as BLEU_VARIANTS
from ngrameval.metrics.cider import VARIANTS as CIDER_VARIANTS
from ngrameval.metrics.meteor import VARIANTS as METEOR_VARIANTS
from ngrameval.metrics.nist import VARIANTS as NIST_VARIANTS
from ngrameval.metrics.rouge import ROUGE155_OPTIONS
from ngrameval.metrics.rouge import TOKENIZERS as ROUGE_TOKENIZERS
from ngrameval.metrics.rouge import VARIANTS as ROUGE_VARIANTS
from ngrameval.text.tokenizers import TOKENIZER_NAMES

ROOT = Path(__file__).resolve().parents[2]
LIBRARY = {
    "bleu": ngrameval.bleu,
    "nist": ngrameval.nist,
    "rouge": ngrameval.rouge,
    "cider": ngrameval.cider,
    "meteor": ngrameval.meteor,
    "coco_caption": ngrameval.coco_caption,
}
# Every evaluate script in metrics/ (the checks that apply to all of them run on each; the newer metrics'
# own shape tests are in test_evaluate_chrf_gleu.py and test_evaluate_ter.py).
SCRIPTS = sorted(path.name for path in (ROOT / "metrics").iterdir() if (path / f"{path.name}.py").is_file())
# Per metric, the options that ask for one value per prediction (to check the lengths of the lists).
PER_PREDICTION = {
    "bleu": {"sentence_level": True},
    "nist": {"sentence_level": True},
    "rouge": {"use_aggregator": False},
    "cider": {},
    "meteor": {},
    "coco_caption": {},
}
# The metrics that also take pycocoevalcap's gts/res, and those that take strings only.
COCO_SHAPED = ("cider", "meteor", "coco_caption")
STRINGS_ONLY = ("coco_caption",)
# The metrics that also take token ids (int64 sequences: test_evaluate_ids.py).
TAKES_IDS = ("bleu", "nist", "gleu", "rouge", "cider")

PREDICTIONS = ["the cat sat on the mat", "a dog barks at the postman", "It is 3.5 km, not 4."]
REFERENCES = [
    ["the cat sat on a mat", "a cat sat on the mat"],
    ["the dog barks at the postman"],
    ["It is 3.5 km, not 4 km.", "it's 3.5 km"],
]
SHAPES = {
    "strings, several references": (PREDICTIONS, REFERENCES),
    "strings, one reference string": (PREDICTIONS, [refs[0] for refs in REFERENCES]),
    "token lists, lists of token lists": (
        [p.split() for p in PREDICTIONS],
        [[r.split() for r in refs] for refs in REFERENCES],
    ),
    "token lists, one token list": ([p.split() for p in PREDICTIONS], [refs[0].split() for refs in REFERENCES]),
    "tuples": (tuple(PREDICTIONS), tuple(tuple(refs) for refs in REFERENCES)),
    "strings, mixed reference shapes": (PREDICTIONS, [REFERENCES[0], REFERENCES[1][0], REFERENCES[2]]),
    "empty strings": (["", "a dog barks", "the cat"], [["", "a b"], [""], ["the cat", ""]]),
    "empty token lists": ([[], ["a", "dog", "barks"], ["the", "cat"]], [[[], ["a", "b"]], [[]], [["the", "cat"], []]]),
}
OPTIONS = [
    ("bleu", {}),
    ("bleu", {"variant": "sacrebleu", "smooth": "floor", "sentence_level": True}),
    ("bleu", {"variant": "nltk", "smooth": "method4", "sentence_level": True, "explain": True}),
    ("bleu", {"variant": "nltk", "weights": [[0.5, 0.5], [0.25] * 4], "sentence_level": True}),
    ("bleu", {"variant": "mteval", "lowercase": True, "sentence_level": True}),
    ("bleu", {"variant": "nmt", "smooth": True, "explain": True}),
    ("bleu", {"variant": "d2l", "max_order": 2, "sentence_level": True}),
    ("nist", {}),
    ("nist", {"variant": "nltk", "n": 3, "sentence_level": True, "explain": True}),
    ("nist", {"variant": "mteval", "sentence_level": True, "explain": True}),
    ("nist", {"tokenize": "13a", "lowercase": True}),
    ("rouge", {}),
    (
        "rouge",
        {
            "rouge_types": ["rouge3", "rougeW", "rougeS4", "rougeSU*"],
            "use_stemmer": True,
            "multi_ref": "pooled",
            "alpha": 0.8,
            "w": 1.5,
            "use_aggregator": False,
        },
    ),
    ("rouge", {"tokenizer": "whitespace", "remove_stopwords": True, "bootstrap": {"n_samples": 20, "seed": 1}}),
    (
        "rouge",
        {
            "variant": "rouge155",
            "rouge_types": ["rouge1", "rougeL", "rougeW", "rougeSU4"],
            "use_stemmer": True,
            "remove_stopwords": True,
            "use_aggregator": False,
        },
    ),
    ("rouge", {"variant": "rouge155", "multi_ref": "best", "limit_words": 3}),
    ("rouge", {"variant": "rouge155", "limit_bytes": 12, "use_aggregator": False}),
    ("cider", {}),
    ("cider", {"variant": "cider", "max_order": 3, "sigma": 3.0, "lowercase": True, "explain": True}),
    ("meteor", {}),
    ("meteor", {"task": "adq", "modules": ["exact", "stem"], "normalization": "lower", "explain": True}),
    ("meteor", {"variant": "nltk", "alpha": 0.8, "tokenize": "whitespace", "explain": True}),
    ("coco_caption", {}),
    ("coco_caption", {"tokenize": "none", "metrics": ["bleu", "rouge_l", "cider"]}),
]
# ROUGE-1.5.5 tokenizes the text itself: "rouge155" takes strings only (token lists are a bad case below).
COMBINATIONS = [
    pytest.param(name, options, shape, id=f"{name}-options{i}-{shape}")
    for i, (name, options) in enumerate(OPTIONS)
    for shape in SHAPES
    if not ((options.get("variant") == "rouge155" or name in STRINGS_ONLY) and "token" in shape)
]


@pytest.fixture
def load(hf_home, tmp_path):
    def load_metric(name):
        return evaluate.load(str(ROOT / "metrics" / name), cache_dir=str(tmp_path / "cache"))

    return load_metric


def _assert_plain(value, where="result"):
    """Only the types a JSON encoder or a user expects: no numpy scalars or arrays."""
    if isinstance(value, dict):
        for key, item in value.items():
            assert type(key) is str, f"{where} has a key of type {type(key).__name__}"
            _assert_plain(item, f"{where}[{key!r}]")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _assert_plain(item, f"{where}[{i}]")
    else:
        assert type(value) in (str, int, float, bool), f"{where} is {type(value).__name__}"


@pytest.mark.parametrize("name, options, shape", COMBINATIONS)
def test_compute_returns_what_ngrameval_returns(load, name, options, shape):
    predictions, references = SHAPES[shape]
    result = load(name).compute(predictions=predictions, references=references, **options)
    assert result == LIBRARY[name](predictions, references, **options).as_dict()
    _assert_plain(result)
    if options.get("sentence_level"):
        assert len(result["sentence_scores"]) == len(predictions)
    if options.get("explain"):
        assert len(result["explanation"]) == len(predictions)
    if options.get("use_aggregator") is False:
        assert {len(value) for key, value in result.items() if key != "signature"} == {len(predictions)}


@pytest.mark.parametrize(
    "name, shape",
    [
        (name, shape)
        for name in LIBRARY
        for shape in [
            "strings, several references",
            "strings, one reference string",
            "token lists, lists of token lists",
        ]
        if not (name in STRINGS_ONLY and "token" in shape)
    ],
)
def test_add_batch_in_two_batches_equals_the_whole_corpus(load, name, shape):
    """add_batch goes through evaluate's own feature matching: each documented shape must match one."""
    predictions, references = SHAPES[shape]
    metric = load(name)
    metric.add_batch(predictions=predictions[:1], references=references[:1])
    metric.add_batch(predictions=predictions[1:], references=references[1:])
    assert (
        metric.compute(**PER_PREDICTION[name])
        == LIBRARY[name](predictions, references, **PER_PREDICTION[name]).as_dict()
    )


def _run_examples(text, name, monkeypatch):
    """Run the >>> examples of ``text`` with the repository root as working directory."""
    monkeypatch.chdir(ROOT)
    test = doctest.DocTestParser().get_doctest(text, {"evaluate": evaluate}, name, name, 0)
    report = []
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    runner.run(test, out=report.append)
    assert runner.failures == 0, "".join(report)
    return runner.tries


@pytest.mark.parametrize("name", SCRIPTS)
def test_documented_examples_run(load, name, monkeypatch):
    """The Examples of the script's _KWARGS_DESCRIPTION, as doctests."""
    module = sys.modules[type(load(name)).__module__]
    assert _run_examples(module._KWARGS_DESCRIPTION, f"metrics/{name}/{name}.py", monkeypatch) >= 5


@pytest.mark.parametrize("card", ["README.md", "README.zh.md", "README.ja.md"])
@pytest.mark.parametrize("name", SCRIPTS)
def test_metric_card_examples_run(hf_home, name, card, monkeypatch):
    """The English card and its Simplified Chinese and Japanese translations (which add examples on
    Chinese and Japanese text; tests/frontends/test_card_translations.py checks they keep the English ones)."""
    text = (ROOT / "metrics" / name / card).read_text(encoding="utf-8")
    assert _run_examples(text, f"metrics/{name}/{card}", monkeypatch) >= 8


BAD_INPUTS = {
    "length mismatch": (["a b", "c"], [["a b"]], {}, r"differ in length: 2 predictions, 1 references"),
    "empty lists": ([], [], {}, "empty"),
    "predictions a string": ("a b", ["a b"], {}, "predictions must be a list"),
    "references missing": (["a b"], None, {}, "references must be a list"),
    "None prediction": (["a b", None], ["a b", "c"], {}, r"predictions\[1\] is None"),
    "None reference": (["a b"], [None], {}, r"references\[0\] is None"),
    "None among references": (["a b"], [["a b", None]], {}, r"references\[0\]\[1\] is None"),
    "int prediction": ([7], ["a b"], {}, r"predictions\[0\] is int"),
    "int reference": (["a b"], [["a b", 7]], {}, r"references\[0\]\[1\] is int"),
    "int token": ([["a", 7]], [["a", "b"]], {}, r"predictions\[0\] contains a token of type int"),
    "references one level too deep": (["a b"], [[["a", "b"]]], {}, r"references\[0\]\[0\] is list"),
    "token references two levels too deep": (
        [["a", "b"]],
        [[[["a", "b"]]]],
        {},
        r"references\[0\]\[0\] contains a token of type list",
    ),
    "token references too shallow": ([["a", "b"]], ["a b"], {}, r"references\[0\] must be a token list"),
    "empty reference list": (["a b", "c"], [["a b"], []], {}, r"references\[1\] is an empty list"),
    "empty token reference list": ([["a"]], [[]], {}, r"references\[0\] is an empty list"),
}
# Bad options, on the input ["a b"], ["a b"].
BAD_OPTIONS = {
    "bleu": {
        "unknown tokenize": ({"tokenize": "moses"}, "unknown tokenize 'moses'"),
        "unknown variant": ({"variant": "bleurt"}, "unknown variant 'bleurt'"),
        "unknown smooth": ({"smooth": "method3"}, "unknown smooth for variant 'sacrebleu' 'method3'"),
        "unknown nltk smooth": ({"variant": "nltk", "smooth": "exp"}, "unknown smooth for variant 'nltk' 'exp'"),
        "max_order 0": ({"max_order": 0}, "max_order must be an integer from 1 to 100, got 0"),
        "negative weights": ({"weights": [0.5, -0.5]}, "weights must be finite and not negative"),
        "weights of the wrong length": ({"weights": [0.5, 0.5], "max_order": 4}, "have 2 entries but max_order is 4"),
        "effective order outside sacrebleu": ({"variant": "nmt", "use_effective_order": True}, "use_effective_order"),
    },
    "nist": {
        "unknown tokenize": ({"tokenize": "moses"}, "unknown tokenize 'moses'"),
        "unknown variant": ({"variant": "sacrebleu"}, "unknown variant 'sacrebleu'"),
        "n 0": ({"n": 0}, "n must be an integer from 1 to 100, got 0"),
    },
    "cider": {
        "unknown variant": ({"variant": "ciderr"}, "unknown variant 'ciderr'"),
        "max_order 0": ({"max_order": 0}, "max_order must be an integer from 1 to 100, got 0"),
        "negative sigma": ({"sigma": -1.0}, "sigma must be a finite number > 0"),
        "missing idf table": ({"idf": "/nonexistent/df.json"}, "no file '/nonexistent/df.json'"),
        "unknown tokenize": ({"tokenize": "moses"}, "unknown tokenize 'moses'"),
    },
    "meteor": {
        "unknown variant": ({"variant": "meteor2"}, "unknown variant 'meteor2'"),
        "unknown task": ({"task": "best"}, "unknown task 'best'"),
        "unknown module": ({"modules": ["exact", "wordnet"]}, "unknown module 'wordnet'"),
        "nltk option with meteor15": ({"alpha": 0.5}, "alpha is an option of variant='nltk'"),
        "meteor15 option with nltk": ({"variant": "nltk", "task": "rank"}, "task is an option of variant='meteor15'"),
        "alpha above 1": ({"variant": "nltk", "alpha": 2.0}, "alpha must be a finite number in .0, 1."),
        "unknown nltk tokenize": ({"variant": "nltk", "tokenize": "13a"}, "unknown tokenize '13a'"),
    },
    "coco_caption": {
        "unknown metric": ({"metrics": ["bleu", "spice"]}, "unknown metric 'spice'"),
        "no metrics": ({"metrics": []}, "metrics is empty"),
        "unknown tokenize": ({"tokenize": "13a"}, "unknown tokenize '13a'"),
    },
    "rouge": {
        "unknown tokenizer": ({"tokenizer": "moses"}, "unknown tokenizer 'moses'"),
        "BLEU's tokenizer name": ({"tokenize": "13a"}, "unknown tokenizer '13a'"),
        "tokenize and its alias disagree": (
            {"tokenize": "whitespace", "tokenizer": "default"},
            "tokenizer='default' contradicts tokenize='whitespace'",
        ),
        "unknown variant": ({"variant": "pyrouge"}, "unknown variant 'pyrouge'"),
        "unknown rouge type": ({"rouge_types": ["rouge1", "rougeX"]}, "unknown rouge type 'rougeX'"),
        "rouge0": ({"rouge_types": ["rouge0"]}, "n must be a positive integer"),
        "rougeS0": ({"rouge_types": ["rougeS0"]}, "the skip distance must be a positive integer"),
        "no rouge types": ({"rouge_types": []}, "rouge_types must be a non-empty list"),
        "alpha above 1": ({"alpha": 2}, r"alpha must be a finite number in \[0, 1\], got 2"),
        "alpha NaN": ({"alpha": float("nan")}, r"alpha must be a finite number in \[0, 1\], got nan"),
        "w below 1": ({"w": 0.5}, "w must be a finite number >= 1, got 0.5"),
        "w infinite": ({"w": float("inf")}, "w must be a finite number >= 1, got inf"),
        "rouge10000000000": ({"rouge_types": ["rouge10000000000"]}, "n must be an integer from 1 to 100"),
        "remove_stopwords 'no'": ({"remove_stopwords": "no"}, "remove_stopwords must be True or False, got 'no'"),
        "unknown aggregate": ({"aggregate": "median"}, "unknown aggregate 'median'"),
        "bootstrap aggregate with rouge_score": ({"aggregate": "bootstrap"}, "needs variant='rouge155'"),
        "eval_ids of another length": ({"variant": "rouge155", "eval_ids": [1, 2]}, "eval_ids has 2 ids for 1"),
        "eval_ids with rouge_score": ({"eval_ids": [1]}, "eval_ids .* needs variant='rouge155'"),
        "seed with ROUGE-1.5.5's bootstrap": (
            {"variant": "rouge155", "bootstrap": {"seed": 1}},
            "ROUGE-1.5.5.pl seeds its i-th resample",
        ),
        "unknown multi_ref": ({"multi_ref": "average"}, "unknown multi_ref 'average'"),
        "use_stemmer not a bool": ({"use_stemmer": "yes"}, "use_stemmer must be True or False"),
        "unknown bootstrap option": ({"bootstrap": {"samples": 10}}, "unknown bootstrap options"),
        "stemmer with a callable tokenizer": (
            {"tokenizer": str.split, "use_stemmer": True},
            "use_stemmer=True works with the named tokenizers only",
        ),
        "limit_words outside rouge155": ({"limit_words": 5}, "limit_words .* needs variant='rouge155'"),
        "limit_bytes 0": ({"variant": "rouge155", "limit_bytes": 0}, "limit_bytes must be a positive integer, got 0"),
        "both limits": (
            {"variant": "rouge155", "limit_words": 5, "limit_bytes": 20},
            "give limit_words or limit_bytes, not both",
        ),
        "tokenizer with rouge155": (
            {"variant": "rouge155", "tokenizer": "whitespace"},
            "uses ROUGE-1.5.5's own tokenizer",
        ),
    },
}
BAD_CASES = (
    [
        pytest.param(name, *case, id=f"{name}: {label}")
        for label, case in BAD_INPUTS.items()
        for name in LIBRARY
        if not (name in STRINGS_ONLY and "token" in label)
    ]
    + [
        pytest.param(name, ["a b"], ["a b"], *case, id=f"{name}: {label}")
        for name, cases in BAD_OPTIONS.items()
        for label, case in cases.items()
    ]
    + [
        pytest.param(
            "rouge",
            [["a", "b"]],
            [["a", "b"]],
            {"variant": "rouge155"},
            "variant='rouge155' takes strings",
            id="rouge: token lists with rouge155",
        )
    ]
)


@pytest.mark.parametrize("name, predictions, references, options, message", BAD_CASES)
def test_bad_input_gets_ngrameval_error(load, name, predictions, references, options, message):
    with pytest.raises(ValueError, match=message) as through_evaluate:
        load(name).compute(predictions=predictions, references=references, **options)
    with pytest.raises(ValueError) as direct:
        LIBRARY[name](predictions, references, **options)
    assert str(through_evaluate.value) == str(direct.value)


@pytest.mark.parametrize(
    "options",
    [
        {"variant": "rouge155"},
        {"variant": "rouge155", "eval_ids": [3, "b", 1]},
        {"variant": "rouge155", "bootstrap": {"n_samples": 50, "confidence": 0.9}},
        {"variant": "rouge155", "aggregate": "mean", "bootstrap": {"seed": 2}},
        {"tokenizer": "default", "use_stemmer": True},
    ],
)
def test_rouge_aggregates_through_evaluate(load, options):
    """ROUGE-1.5.5's printed averages (the rouge155 default), eval_ids, and the accent-splitting default
    tokenizer give through evaluate what ngrameval.rouge gives."""
    predictions = PREDICTIONS[:2] + ["Un café noir, très naïf."]
    references = REFERENCES[:2] + [["un café noir", "naïve coffee"]]
    through_evaluate = load("rouge").compute(predictions=predictions, references=references, **options)
    assert through_evaluate == ngrameval.rouge(predictions, references, **options).as_dict()
    _assert_plain(through_evaluate)
    if options.get("variant") == "rouge155" and "aggregate" not in options:
        assert {"rouge1_recall_low", "rouge1_recall_high"} <= set(through_evaluate)


@pytest.mark.parametrize(
    "name, variants",
    [
        ("bleu", BLEU_VARIANTS),
        ("nist", NIST_VARIANTS),
        ("rouge", ROUGE_VARIANTS),
        ("cider", CIDER_VARIANTS),
        ("meteor", METEOR_VARIANTS),
    ],
)
def test_unknown_variant_lists_the_valid_ones(load, name, variants):
    with pytest.raises(ValueError) as error:
        load(name).compute(predictions=["a b"], references=["a b"], variant="bogus")
    assert all(repr(variant) in str(error.value) for variant in variants), str(error.value)


@pytest.mark.parametrize(
    "name, option, valid",
    [
        ("bleu", "tokenize", TOKENIZER_NAMES),
        ("nist", "tokenize", TOKENIZER_NAMES),
        ("rouge", "tokenizer", ROUGE_TOKENIZERS),
    ],
)
def test_unknown_tokenizer_lists_the_valid_ones(load, name, option, valid):
    with pytest.raises(ValueError) as error:
        load(name).compute(predictions=["a b"], references=["a b"], **{option: "bogus"})
    assert all(tokenizer in str(error.value) for tokenizer in valid), str(error.value)


@pytest.mark.parametrize(
    "variant, valid",
    [("sacrebleu", ["'none'", "'floor'", "'add-k'", "'exp'"]), ("nltk", [f"'method{i}'" for i in range(8)])],
)
def test_unknown_smooth_lists_the_valid_ones(load, variant, valid):
    with pytest.raises(ValueError, match=re.escape(f"unknown smooth for variant {variant!r}")) as error:
        load("bleu").compute(predictions=["a b"], references=["a b"], variant=variant, smooth="bogus")
    assert all(name in str(error.value) for name in valid), str(error.value)


@pytest.mark.parametrize("name", SCRIPTS)
def test_compute_with_nothing_to_score_says_so(load, name):
    metric = load(name)
    with pytest.raises(
        ValueError,
        match=re.escape(
            f"nothing to score: {name}'s compute got no predictions and references, and none were added before"
        ),
    ):
        metric.compute()
    metric.add_batch(predictions=PREDICTIONS, references=REFERENCES)
    assert metric.compute() == LIBRARY.get(name, getattr(ngrameval, name))(PREDICTIONS, REFERENCES).as_dict()


@pytest.mark.parametrize("name", LIBRARY)
def test_metric_still_works_after_a_bad_call(load, name):
    metric = load(name)
    bad_option = {"metrics": ["bogus"]} if name == "coco_caption" else {"variant": "bogus"}
    with pytest.raises(ValueError, match="unknown (variant|metric)"):
        metric.compute(predictions=PREDICTIONS, references=REFERENCES, **bad_option)
    with pytest.raises(ValueError, match="differ in length"):
        metric.compute(predictions=PREDICTIONS, references=REFERENCES[:1])
    assert (
        metric.compute(predictions=PREDICTIONS, references=REFERENCES)
        == LIBRARY[name](PREDICTIONS, REFERENCES).as_dict()
    )


# Per metric: the options that make the result hold every output, the keyword options the library takes
# through **kwargs, and how an output key is documented (ROUGE's keys are named after the rouge types).
FULL_RESULT = {
    "bleu": {"sentence_level": True, "explain": True},
    "nist": {"sentence_level": True, "explain": True},
    "rouge": {"bootstrap": {"n_samples": 10, "seed": 0}},
    "cider": {"explain": True},
    "meteor": {"explain": True},
    "coco_caption": {},
}
# Documented outputs a full result on PREDICTIONS lacks: image ids (gts/res input only), notes of missing data.
CONDITIONAL_OUTPUTS = {
    "cider": {"image_ids"},
    "meteor": {"image_ids", "note"},
    "coco_caption": {"image_ids", "meteor_note"},
}
KEYWORD_OPTIONS = {"rouge": ROUGE155_OPTIONS}


def _documented_key(name, key):
    """rouge1_fmeasure_low -> <type>_<measure>_<bound>, rouge1_recall -> <type>_recall; others as they are."""
    if name != "rouge" or key == "signature":
        return key
    key = re.sub(r"^rouge[^_]+", "<type>", key)
    return re.sub(r"_(precision|recall|fmeasure)_(low|mid|high)$", "_<measure>_<bound>", key)


@pytest.mark.parametrize(
    "name, citations",
    [
        ("bleu", ["Papineni", "Post, Matt"]),
        ("nist", ["Doddington"]),
        ("rouge", ["Lin, Chin-Yew"]),
        ("cider", ["Vedantam"]),
        ("meteor", ["Denkowski", "Banerjee"]),
        ("coco_caption", ["Chen, Xinlei"]),
    ],
)
def test_info_documents_every_option_and_output(load, name, citations):
    info = load(name).info
    assert isinstance(info.features, list) and len(info.features) == (
        2 if name in STRINGS_ONLY else 4 if name in TAKES_IDS else 3
    )
    assert all(author in info.citation for author in citations)
    arguments, outputs = info.inputs_description.split("Args:")[1].split("Examples:")[0].split("Returns:")
    documented = set(re.findall(r"^    (\w+)[ :]", arguments, flags=re.MULTILINE))
    parameters = inspect.signature(LIBRARY[name]).parameters.values()
    coco_inputs = {"gts", "res"} if name in COCO_SHAPED else set()
    # "confidence" is every script's (the front end computes intervals through the metric protocol).
    assert documented == (
        {p.name for p in parameters if p.kind != p.VAR_KEYWORD}
        | set(KEYWORD_OPTIONS.get(name, ()))
        | coco_inputs
        | {"confidence"}
    )
    full = LIBRARY[name](PREDICTIONS, REFERENCES, **FULL_RESULT[name]).as_dict()
    documented = set(re.findall(r"^    ([\w<>]+) \(", outputs, flags=re.MULTILINE))
    assert documented == {_documented_key(name, key) for key in full} | CONDITIONAL_OUTPUTS.get(name, set()) | {
        "confidence"
    }


GTS = {"img1": REFERENCES[0], "img2": REFERENCES[1], "img3": REFERENCES[2]}
RES = [
    {"image_id": image, "caption": caption}
    for image, caption in zip(["img3", "img1", "img2"], [PREDICTIONS[2], PREDICTIONS[0], PREDICTIONS[1]])
]


@pytest.mark.parametrize("name", COCO_SHAPED)
def test_gts_res_equal_predictions_references(load, name):
    """pycocoevalcap's shapes: items in the order of gts, whatever the order of the results list."""
    result = load(name).compute(gts=GTS, res=RES)
    assert result.pop("image_ids") == list(GTS)
    assert result == LIBRARY[name](PREDICTIONS, REFERENCES).as_dict()
    as_dicts = load(name).compute(
        gts={k: [{"caption": c} for c in v] for k, v in GTS.items()}, res={r["image_id"]: [r["caption"]] for r in RES}
    )
    assert as_dicts.pop("image_ids") == list(GTS) and as_dicts == result


BAD_COCO = {
    "ids only on one side": (
        {"img1": ["a b"], "img2": ["c"]},
        {"img1": ["a b"], "img3": ["c"]},
        r"same image ids: 1 only in gts \(e.g. \['img2'\]\), 1 only in res \(e.g. \['img3'\]\)",
    ),
    "two results for one image": (
        {"img1": ["a b"]},
        [{"image_id": "img1", "caption": "a"}, {"image_id": "img1", "caption": "b"}],
        "image 'img1' has 2 results; COCO evaluation takes exactly one caption per image",
    ),
    "result without a caption": ({"img1": ["a b"]}, [{"image_id": "img1"}], r"res\[0\] must be a dict with"),
    "empty reference list": ({"img1": []}, {"img1": ["a"]}, r"gts\['img1'\] must be a non-empty list"),
    "caption not a string": ({"img1": ["a b", 3]}, {"img1": ["a"]}, r"gts\['img1'\]\[1\] is int"),
}


@pytest.mark.parametrize("name", COCO_SHAPED)
@pytest.mark.parametrize("case", BAD_COCO)
def test_bad_gts_res(load, name, case):
    gts, res, message = BAD_COCO[case]
    with pytest.raises(ValueError, match=message):
        load(name).compute(gts=gts, res=res)


@pytest.mark.parametrize("name", COCO_SHAPED)
def test_gts_res_and_predictions_together_are_refused(load, name):
    with pytest.raises(ValueError, match="either predictions/references or gts/res"):
        load(name).compute(predictions=PREDICTIONS, references=REFERENCES, gts=GTS, res=RES)


# --------------------------------------------------------------------------- the protocol behind every script


@pytest.mark.parametrize("name", SCRIPTS)
def test_compute_in_one_process_equals_the_stored_path(load, name):
    """compute(predictions=..., references=...) in one process skips evaluate's Arrow storage;
    add_batch and compute() keep it: both give the same result."""
    predictions, references = SHAPES["strings, several references"]
    direct = load(name).compute(predictions=predictions, references=references)
    metric = load(name)
    metric.add_batch(predictions=predictions[:2], references=references[:2])
    metric.add_batch(predictions=predictions[2:], references=references[2:])
    assert metric.compute() == direct


@pytest.mark.parametrize("name", SCRIPTS)
def test_every_script_gives_the_protocols_confidence_intervals(load, name):
    from ngrameval.metric import family_of
    from ngrameval.significance import confidence_interval

    predictions, references = SHAPES["strings, several references"]
    settings = {"n_samples": 50, "confidence": 0.9, "seed": 7}
    result = load(name).compute(predictions=predictions, references=references, confidence=settings)
    stats = family_of(getattr(ngrameval, name)).statistics(predictions, references)
    expected = confidence_interval(stats, **settings)
    assert set(result["confidence"]) == set(stats.outputs)
    for output, interval in expected.items():
        assert result["confidence"][output] == {
            "score": interval.score,
            "mean": interval.mean,
            "low": interval.ci[0],
            "high": interval.ci[1],
        }
        assert interval.ci[0] <= interval.mean <= interval.ci[1]
    if name in result:  # one output named as the metric: the interval's score is the script's score
        assert result["confidence"][name]["score"] == result[name]


@pytest.mark.parametrize(
    "confidence, message",
    [("yes", "confidence must be True, False or a dict"), ({"samples": 5}, "unknown confidence options")],
)
def test_bad_confidence_options(load, confidence, message):
    with pytest.raises(ValueError, match=message):
        load("bleu").compute(predictions=PREDICTIONS, references=REFERENCES, confidence=confidence)
