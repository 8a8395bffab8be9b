"""NIST, exact to NLTK or to mteval-v13a.pl: an evaluate front end to ngrameval."""

import evaluate

import ngrameval
from ngrameval.frontends.evaluate import ValidatedMetric, input_features, variant_choices
from ngrameval.metrics.nist import VARIANTS as NIST_VARIANTS

_CITATION = """\
@inproceedings{doddington-2002-automatic,
    author = {Doddington, George},
    title = {Automatic Evaluation of Machine Translation Quality Using N-gram Co-Occurrence Statistics},
    booktitle = {Proceedings of the Second International Conference on Human Language Technology Research},
    series = {HLT '02},
    year = {2002},
    address = {San Diego, California},
    publisher = {Morgan Kaufmann Publishers Inc.},
    pages = {138--145},
    url = {https://dl.acm.org/doi/10.5555/1289189.1289273},
}
"""

_DESCRIPTION = """\
NIST (Doddington, 2002) is a BLEU-like n-gram co-occurrence score in which every matched n-gram counts by
its information weight, log2(count(w1..wn-1) / count(w1..wn)) over the references, so that rare n-grams
count more than frequent ones; the per-order averages are added up (not multiplied) and scaled by a
length penalty that is 0.5 when the output is 2/3 of the reference length. Two tools disagree on how
several references are used, so `variant` picks the one to reproduce exactly: "nltk" (NLTK 3.10.4
corpus_nist / sentence_nist, the default) or "mteval" (mteval-v13a.pl). The computation is done by the
`ngrameval` package, which must be installed.
"""

_KWARGS_DESCRIPTION = """
Computes corpus NIST (and optionally per-sentence NIST) of predictions against references.

Args:
    pad_id (`int`): predictions and references may also be token ids, as `ngrameval.nist` takes them (a list of
        ints, a 1-D integer numpy array or torch tensor per prediction, or a 2-D batch; references the same or
        several per prediction); pad_id is their padding id: every position holding it is dropped. The ids are
        counted as they are, never decoded; the signature says tok:ids.
    predictions (`list` of `str`, or `list` of `list` of `str`): one string per output segment, or one
        token list per segment; `tokenize` is not applied to token lists.
    references (`list`): per prediction, a string or a list of strings (at least one, any number), or
        for token-list predictions a token list or a list of token lists.
    variant (`str`): <variants>.
    max_order (`int`): highest n-gram order, a positive integer. Default 5.
    n (`int`): NLTK's name of max_order (None: use max_order).
    tokenize (`str` or callable): "none" (split on whitespace; default for "nltk"), "mteval-v13a"
        (default for "mteval"; 13a with mteval-v13a.pl's ASCII-only lowercasing), "13a", "intl", "zh",
        "char", "ja-mecab" (sacrebleu's tokenizers; "ja-mecab" needs ngrameval's `ja` extra: mecab-python3 and
        ipadic), or a function from a string to a list of tokens (or to a string, then split on whitespace).
    lowercase (`bool`): lowercase predictions and references first. Default False (mteval-v13a.pl
        lowercases unless it is run with -c: pass lowercase=True to reproduce it without -c).
    sentence_level (`bool`): also return `sentence_scores`. Default False.
    explain (`bool`): also return `explanation`, the matched n-grams of every prediction. Default False.
    confidence (`bool` or `dict`): also return `confidence`, bootstrap intervals of every score the
        same way for every ngrameval metric (sacrebleu's resampling: seed 12345 or $SACREBLEU_SEED); a dict
        sets n_samples (1000), confidence (0.95) and seed. Default False.

Returns:
    nist (`float`): corpus NIST, >= 0 (no fixed upper bound): the last entry of `cumulative`.
    individual (`list` of `float`): per order, the information-weighted precision times the length penalty.
    cumulative (`list` of `float`): per order, the sum of `individual` up to that order.
    length_penalty (`float`): in [0, 1]; 1 when the predictions are at least as long as the references,
        0 when they are empty.
    matched_information (`list` of `float`): per order, the information of the matched n-grams, summed.
    totals (`list` of `int`): per order, the prediction n-grams summed over the corpus.
    translation_length (`int`): tokens in the predictions.
    reference_length (`float`): the reference length of the length penalty ("mteval": the per-segment
        average reference length, summed; "nltk": the lengths of the references chosen per order,
        summed and averaged over the orders).
    signature (`str`): the options used.
    sentence_scores (`list` of `float`): with sentence_level=True, one score per prediction, as NLTK's
        sentence_nist or mteval-v13a.pl's segment scores compute it.
    explanation (`list` of `dict`): with explain=True, per prediction: prediction_tokens,
        reference_tokens, reference_length and orders; each order has n, matches, total and ngrams,
        each n-gram its text ("ngram"), count, clipped count, positions and information "weight";
        with "nltk" each order also has reference_information, the information matched against each
        reference alone (NLTK uses the reference with the best precision).
    confidence (`dict`, with confidence=...): per score name, {"score", "mean", "low", "high"}.

Examples:

    Several references per prediction, NLTK's corpus_nist and sentence_nist:
        >>> nist = evaluate.load("metrics/nist")
        >>> hypotheses = ["It is a guide to action which ensures that the military always obeys the commands of the party",
        ...               "It is to insure the troops forever hearing the activity guidebook that party direct"]
        >>> three = ["It is a guide to action that ensures that the military will forever heed Party commands",
        ...          "It is the guiding principle which guarantees the military forces always being under the command of the Party",
        ...          "It is the practical guide for the army always to heed the directions of the party"]
        >>> results = nist.compute(predictions=hypotheses, references=[three, three], sentence_level=True)
        >>> print([round(s, 4) for s in results["sentence_scores"]])
        [3.371, 1.4619]

    mteval-v13a.pl -c prints 5.03792016875168 for the first hypothesis scored alone:
        >>> results = nist.compute(predictions=hypotheses[:1], references=[three], variant="mteval")
        >>> print(round(results["nist"], 10))
        5.0379201688

    Information weights: each word occurs once among the 3 reference words, so log2(3/1):
        >>> results = nist.compute(predictions=[["a", "b", "a"]], references=[["a", "b", "c"]], n=2, explain=True)
        >>> print([(g["ngram"], g["clipped"], round(g["weight"], 4)) for g in results["explanation"][0]["orders"][0]["ngrams"]])
        [('a', 1, 1.585), ('b', 1, 1.585)]
""".replace("<variants>", variant_choices(NIST_VARIANTS))


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class Nist(ValidatedMetric, evaluate.Metric):
    """NIST computed by ngrameval.nist."""

    score = staticmethod(ngrameval.nist)

    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=input_features(ids=True),
            codebase_urls=[
                "https://github.com/nltk/nltk/blob/develop/nltk/translate/nist_score.py",
                "https://github.com/moses-smt/mosesdecoder/blob/master/scripts/generic/mteval-v13a.pl",
            ],
            reference_urls=["https://dl.acm.org/doi/10.5555/1289189.1289273"],
        )
