"""chrF and chrF++, exact to sacrebleu 2.6.0 or to NLTK 3.10.4: an evaluate front end to ngrameval."""

import evaluate

from ngrameval.frontends.evaluate import SACREBLEU_CITATION, ValidatedMetric, input_features, variant_choices
from ngrameval.metrics.chrf import VARIANTS as CHRF_VARIANTS
from ngrameval.metrics.chrf import chrf

_CITATION = (
    """\
@inproceedings{popovic-2015-chrf,
    title = "chr{F}: character n-gram {F}-score for automatic {MT} evaluation",
    author = "Popovi{\\'c}, Maja",
    booktitle = "Proceedings of the Tenth Workshop on Statistical Machine Translation",
    year = "2015",
    address = "Lisbon, Portugal",
    publisher = "Association for Computational Linguistics",
    url = "https://aclanthology.org/W15-3049",
    doi = "10.18653/v1/W15-3049",
    pages = "392--395",
}
@inproceedings{popovic-2017-chrf,
    title = "chr{F}++: words helping character n-grams",
    author = "Popovi{\\'c}, Maja",
    booktitle = "Proceedings of the Second Conference on Machine Translation",
    year = "2017",
    address = "Copenhagen, Denmark",
    publisher = "Association for Computational Linguistics",
    url = "https://aclanthology.org/W17-4770",
    doi = "10.18653/v1/W17-4770",
    pages = "612--618",
}
"""
    + SACREBLEU_CITATION
)

_DESCRIPTION = """\
chrF (Popović, 2015) is the F-score of character n-gram precision and recall (orders 1 to 6, recall
weighted beta = 2 times as much as precision); chrF++ (Popović, 2017) adds word unigrams and bigrams
(word_order=2). Two tools disagree on how sentences and references are combined, so `variant` picks
the one to reproduce exactly: "sacrebleu" (sacrebleu 2.6.0 CHRF, corpus_chrf and sentence_chrf, which
HF evaluate's `chrf` runs, with the same option names; the default) or "nltk" (NLTK 3.10.4 corpus_chrf
and sentence_chrf: a mean of sentence scores, beta 3). Scores are in [0, 1], not sacrebleu's
percentages. The computation is done by the `ngrameval` package, which must be installed.
"""

_KWARGS_DESCRIPTION = """
Computes corpus chrF (and optionally per-segment chrF) of predictions against references.

Args:
    predictions (`list` of `str`, or `list` of `list` of `str`): one string per output segment (token
        lists are joined with spaces).
    references (`list`): per prediction, a string or a list of strings (any number, at least one, for
        "sacrebleu"; exactly one for "nltk").
    variant (`str`): <variants>.
    char_order (`int`): highest character n-gram order (NLTK's max_len). Default 6.
    word_order (`int`): highest word n-gram order, 0 to 100; 2 gives chrF++. "sacrebleu" only. Default 0.
    beta (`float`): weight of recall against precision, >= 0. Default 2 ("sacrebleu"), 3 ("nltk").
    lowercase (`bool`): lowercase everything first. "sacrebleu" only. Default False.
    whitespace (`bool`): keep whitespace in the character n-grams (NLTK: ignore_whitespace=False).
        Default False.
    eps_smoothing (`bool`): sacrebleu's eps_smoothing: average the per-order F-scores (chrF++.py, Moses)
        instead of taking F of the averaged precisions and recalls. "sacrebleu" only. Default False.
    min_char_order (`int`): lowest character n-gram order (NLTK's min_len). "nltk" only. Default 1.
    min_len, max_len, ignore_whitespace: NLTK's names for min_char_order, char_order and not whitespace,
        with NLTK's meaning. "nltk" only.
    sentence_level (`bool`): also return `sentence_scores`. Default False.
    threads (`int`): corpora of more than 2^20 reference characters are matched in blocks of about that
        many; this many threads match blocks at once. The scores do not change. Default 1.
    confidence (`bool` or `dict`): also return `confidence`, bootstrap intervals of the score, the same
        way for every ngrameval metric; a dict sets n_samples (1000), confidence (0.95) and seed.

Returns:
    chrf (`float`): corpus chrF in [0, 1].
    name (`str`): the score's name as sacrebleu prints it ("chrF2", "chrF2++").
    char_precisions, char_recalls (`list` of `float`): "sacrebleu": per character order, the corpus
        precision and recall (of the references chosen per segment).
    word_precisions, word_recalls (`list` of `float`): the same per word order, when word_order > 0.
    char_fscores (`list` of `float`): "nltk": per character order, the mean sentence F-score.
    signature (`str`): sacrebleu's signature ("sacrebleu"; plus beta when it is not 2), or the options
        and the tool reproduced ("nltk").
    sentence_scores (`list` of `float`): with sentence_level=True, sentence_chrf per prediction.
    confidence (`dict`, with confidence=...): {"chrf": {"score", "mean", "low", "high"}}.

Examples:

    sacrebleu's corpus_chrf, as a fraction:
        >>> chrf = evaluate.load("metrics/chrf")
        >>> predictions = ["The relationship between cats and dogs is not exactly friendly.",
        ...                "a good bookshop is just a genteel black hole that knows how to read."]
        >>> references = [["The relationship between dogs and cats is not exactly friendly.",
        ...                "The relation between cats and dogs isn't friendly."],
        ...               ["A good bookshop is just a genteel Black Hole that knows how to read."]]
        >>> results = chrf.compute(predictions=predictions, references=references)
        >>> print(round(results["chrf"], 6), results["name"])
        0.846421 chrF2
        >>> print(results["signature"])
        nrefs:var|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0

    chrF++ (word bigrams too), case-insensitive, with sentence scores:
        >>> results = chrf.compute(predictions=predictions, references=references, word_order=2, lowercase=True,
        ...                        sentence_level=True)
        >>> print(results["name"], [round(s, 4) for s in results["sentence_scores"]])
        chrF2++ [0.8331, 1.0]

    NLTK's corpus_chrf (one reference per prediction, beta 3):
        >>> results = chrf.compute(predictions=predictions, references=[refs[0] for refs in references],
        ...                        variant="nltk")
        >>> print(round(results["chrf"], 6), len(results["char_fscores"]))
        0.846392 6
""".replace("<variants>", variant_choices(CHRF_VARIANTS))


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class Chrf(ValidatedMetric, evaluate.Metric):
    """chrF computed by ngrameval.chrf."""

    score = staticmethod(chrf)

    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=input_features(),
            codebase_urls=[
                "https://github.com/mjpost/sacrebleu/blob/v2.6.0/sacrebleu/metrics/chrf.py",
                "https://github.com/nltk/nltk/blob/develop/nltk/translate/chrf_score.py",
            ],
            reference_urls=["https://aclanthology.org/W15-3049", "https://aclanthology.org/W17-4770"],
        )
