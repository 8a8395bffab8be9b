"""BLEU, exact to sacrebleu, NLTK, mteval-v13a.pl, tensorflow/nmt or d2l: an evaluate front end to ngrameval."""

import evaluate

import ngrameval
from ngrameval.frontends.evaluate import SACREBLEU_CITATION, ValidatedMetric, input_features, variant_choices
from ngrameval.metrics.bleu import VARIANTS as BLEU_VARIANTS

_CITATION = (
    """\
@inproceedings{papineni-etal-2002-bleu,
    title = "{B}leu: a Method for Automatic Evaluation of Machine Translation",
    author = "Papineni, Kishore  and
      Roukos, Salim  and
      Ward, Todd  and
      Zhu, Wei-Jing",
    booktitle = "Proceedings of the 40th Annual Meeting of the Association for Computational Linguistics",
    month = jul,
    year = "2002",
    address = "Philadelphia, Pennsylvania, USA",
    publisher = "Association for Computational Linguistics",
    url = "https://aclanthology.org/P02-1040",
    doi = "10.3115/1073083.1073135",
    pages = "311--318",
}
"""
    + SACREBLEU_CITATION
)

_DESCRIPTION = """\
BLEU (Papineni et al., 2002) scores predictions by their clipped n-gram precisions against one or more
references, combined as a weighted geometric mean and multiplied by a brevity penalty. The tools that
compute it disagree on tokenization, smoothing and the reference length, so this metric reproduces one
tool exactly, chosen with `variant`: "sacrebleu" (sacrebleu 2.6.0, the default), "nltk" (NLTK 3.10.4
corpus_bleu / sentence_bleu), "mteval" (mteval-v13a.pl), "nmt" (tensorflow/nmt compute_bleu, as in the
canonical `bleu` metric of evaluate) or "d2l" (Dive into Deep Learning). Scores are in [0, 1], not 0-100.
The computation is done by the `ngrameval` package, which must be installed.
"""

_KWARGS_DESCRIPTION = """
Computes corpus BLEU (and optionally per-sentence BLEU) of predictions against references.

Args:
    predictions (`list` of `str`, or `list` of `list` of `str`): the outputs to score, one string per
        segment, or one token list per segment (already tokenized; `tokenize` is then not applied).
    references (`list`): one entry per prediction: a string or a list of strings (any number, at least
        one) for string predictions; a token list or a list of token lists for token-list predictions.
        Token ids are accepted too (RL fine-tuning, decoding): per prediction a list of ints, a 1-D integer
        numpy array or torch tensor, or the batch as a 2-D array or tensor; references the same, or several
        per prediction (a list of id lists, a 2-D array, or a 3-D batch (N, R, L)). They are counted as they
        are, never decoded: the score is that of the ids written as decimal-string token lists; the
        signature says tok:ids; `tokenize` does nothing and `lowercase=True` is refused.
    pad_id (`int`): with token ids, the padding id: every position holding it is dropped (left, right or
        inside). A ValueError with text.
    variant (`str`): the tool to reproduce and its defaults: <variants>.
    max_order (`int`): highest n-gram order, a positive integer. Defaults to the length of the longest
        weight set when `weights` is given, else 4.
    weights (`list` of `float`, or `list` of such lists): non-negative weights of the log-precisions,
        one per order. Defaults to 1/max_order each ("d2l": 1/2**n). Except with "nltk", each set must
        have exactly max_order entries ("nltk" allows fewer; missing orders get weight 0). Several sets
        give one score per set (`bleu` and each entry of `sentence_scores` become lists).
    smooth: the smoothing, valid values depend on `variant`:
        "sacrebleu": "exp" (default), "none" (or None), "floor", "add-k";
        "nltk": "method0" (default, also None) to "method7" (NLTK's SmoothingFunction methods);
        "mteval": "exp" only (mteval-v13a.pl's 1/2**k smoothing);
        "nmt": False (default, also None or "none") or True (add one to matches and totals of every order);
        "d2l": None only.
    smooth_value (`float`): "sacrebleu" only: the value of "floor" (default `epsilon`, else 0.1) or of
        "add-k" (default `k`, else 1).
    epsilon (`float`): NLTK method1's epsilon (default 0.1); default smooth_value of sacrebleu's "floor".
    alpha (`float`): NLTK method6's alpha (default 5).
    k (`float`): NLTK method4/method7's k (default 5); default smooth_value of sacrebleu's "add-k".
    use_effective_order (`bool`): "sacrebleu" only (True with another variant is a ValueError): leave
        out the orders without hypothesis n-grams. Default None: off for the corpus score, on for
        `sentence_scores`, as in sacrebleu's corpus_bleu and sentence_bleu.
    auto_reweigh (`bool`): "nltk" only (ignored by the others): NLTK's auto_reweigh; when the prediction
        length c (of the corpus; of the sentence for sentence scores) is below 4 and the weights are
        (0.25, 0.25, 0.25, 0.25), use weight 1/c for the first c orders. Default False.
    brevity_penalty (`str`): the reference length r of the brevity penalty: "closest" (the reference
        length closest to the hypothesis length, the shorter on ties; default except for "nmt"),
        "shortest" (default for "nmt") or "average".
    tokenize (`str` or callable): "none" (split on whitespace; default for "nltk"), "space" (split on
        single spaces, as d2l; default for "d2l"), "13a" (default for "sacrebleu"), "hf-13a" (the canonical
        bleu metric's 13a, which does not strip the line first; default for "nmt"), "mteval-v13a" (13a with
        mteval-v13a.pl's ASCII-only lowercasing; default for "mteval"), "intl", "zh", "char", "ja-mecab" (sacrebleu's tokenizers;
        "ja-mecab" needs ngrameval's `ja` extra: mecab-python3 and ipadic), or a function from a string to a list
        of tokens (or to a string, then split on whitespace).
    lowercase (`bool`): lowercase predictions and references first. Default False (mteval-v13a.pl
        lowercases unless it is run with -c: pass lowercase=True to reproduce it).
    sentence_level (`bool`): also return `sentence_scores` and `sentence_signature`. Default False.
    explain (`bool`): also return `explanation`, the matched n-grams of every prediction. Default False.
    threads (`int`): corpora of more than 4096 predictions are matched in blocks of 4096 segments; this many
        threads match blocks at once. The scores do not change. Default 1.
    confidence (`bool` or `dict`): also return `confidence`, bootstrap intervals of every score the
        same way for every ngrameval metric (sacrebleu's resampling: seed 12345 or $SACREBLEU_SEED); a dict
        sets n_samples (1000), confidence (0.95) and seed. Default False.

Returns:
    bleu (`float`, or `list` of `float` with several weight sets): corpus BLEU, in [0, 1] (NLTK's
        method5 and method7 can exceed 1, as they do in NLTK).
    precisions (`list` of `float`): per order, the (smoothed) n-gram precision the variant uses.
    counts (`list` of `int`): per order, the clipped n-gram matches summed over the corpus.
    totals (`list` of `int`): per order, the prediction n-grams summed over the corpus.
    brevity_penalty (`float`): in [0, 1]; 0 when the predictions are empty (and the references are not).
    length_ratio (`float`): translation_length / reference_length (0 when reference_length is 0).
    translation_length (`int`): tokens in the predictions.
    reference_length (`int`, or `float` with brevity_penalty="average"): the summed reference length r.
    signature (`str`): the options used; for "sacrebleu" in sacrebleu's own signature format.
    sentence_scores (`list` of `float`, or `list` of `list` with several weight sets): with
        sentence_level=True, one score per prediction, as the tool's sentence-level function computes it.
    sentence_signature (`str`): with sentence_level=True, the signature of the sentence scores.
    explanation (`list` of `dict`): with explain=True, per prediction: prediction_tokens,
        reference_tokens, reference_length and orders; each order has n, matches, total and ngrams,
        each n-gram its text ("ngram"), count, clipped count and positions in the prediction.
    confidence (`dict`, with confidence=...): per score name, {"score", "mean", "low", "high"}.

Examples:

    Several references per prediction (sacrebleu's corpus_bleu):
        >>> bleu = evaluate.load("metrics/bleu")
        >>> predictions = ["hello there general kenobi", "foo bar foobar"]
        >>> references = [["hello there general kenobi", "hello there !"], ["foo bar foobar"]]
        >>> results = bleu.compute(predictions=predictions, references=references)
        >>> print(results["bleu"], results["counts"], results["totals"])
        1.0 [7, 5, 3, 1] [7, 5, 3, 1]
        >>> print(results["signature"])
        nrefs:var|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0

    NLTK's corpus_bleu and sentence_bleu, on the example of NLTK's own documentation (which prints
    0.5920... for the corpus and 0.4118... for the first sentence against its first reference):
        >>> hyp1 = "It is a guide to action which ensures that the military always obeys the commands of the party"
        >>> ref1a = "It is a guide to action that ensures that the military will forever heed Party commands"
        >>> ref1b = "It is the guiding principle which guarantees the military forces always being under the command of the Party"
        >>> ref1c = "It is the practical guide for the army always to heed the directions of the party"
        >>> hyp2 = "he read the book because he was interested in world history"
        >>> ref2a = "he was interested in world history because he read the book"
        >>> results = bleu.compute(predictions=[hyp1, hyp2], references=[[ref1a, ref1b, ref1c], [ref2a]], variant="nltk")
        >>> print(str(results["bleu"])[:6])
        0.5920
        >>> results = bleu.compute(predictions=[hyp1], references=[ref1a], variant="nltk", smooth="method1")
        >>> print(str(results["bleu"])[:6])
        0.4118

    Token lists, as tensorflow/nmt (the canonical `bleu` metric) with add-one smoothing; nmt's
    compute_bleu gives 0.5401725898595141 here:
        >>> results = bleu.compute(predictions=[hyp1.split()], references=[[ref1a.split(), ref1b.split(), ref1c.split()]],
        ...                        variant="nmt", smooth=True)
        >>> print(round(results["bleu"], 6), results["reference_length"])
        0.540173 16

    Token ids, a right-padded batch (pads dropped):
        >>> results = bleu.compute(predictions=[[5, 6, 7, 8, 0, 0]], references=[[[5, 6, 7, 8]]], variant="nltk",
        ...                        pad_id=0)
        >>> print(results["bleu"], results["signature"].split("|")[3])
        1.0 tok:ids

    Which n-grams matched:
        >>> results = bleu.compute(predictions=["a b a"], references=["a b c"], max_order=2, explain=True)
        >>> print(results["explanation"][0]["orders"][0]["ngrams"])
        [{'ngram': 'a', 'count': 2, 'clipped': 1, 'positions': [0, 2]}, {'ngram': 'b', 'count': 1, 'clipped': 1, 'positions': [1]}]
""".replace("<variants>", variant_choices(BLEU_VARIANTS))


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class Bleu(ValidatedMetric, evaluate.Metric):
    """BLEU computed by ngrameval.bleu."""

    score = staticmethod(ngrameval.bleu)

    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=input_features(ids=True),
            codebase_urls=[
                "https://github.com/mjpost/sacrebleu",
                "https://github.com/nltk/nltk",
                "https://github.com/tensorflow/nmt/blob/master/nmt/scripts/bleu.py",
            ],
            reference_urls=["https://aclanthology.org/P02-1040", "https://aclanthology.org/W18-6319"],
        )
