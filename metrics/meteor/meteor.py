"""METEOR, exact to METEOR 1.5 (the jar pycocoevalcap runs) or to NLTK's meteor_score, without Java and
without downloads: an evaluate front end to ngrameval."""

import evaluate

import ngrameval
from ngrameval.frontends.evaluate import CocoShapedMetric, input_features, variant_choices
from ngrameval.metrics.meteor import VARIANTS as METEOR_VARIANTS

_CITATION = """\
@inproceedings{denkowski-lavie-2014-meteor,
    author = {Denkowski, Michael and Lavie, Alon},
    title = {Meteor Universal: Language Specific Translation Evaluation for Any Target Language},
    booktitle = {Proceedings of the Ninth Workshop on Statistical Machine Translation},
    year = {2014},
    address = {Baltimore, Maryland, USA},
    publisher = {Association for Computational Linguistics},
    pages = {376--380},
    url = {https://aclanthology.org/W14-3348},
}
@inproceedings{banerjee-lavie-2005-meteor,
    author = {Banerjee, Satanjeev and Lavie, Alon},
    title = {{METEOR}: An Automatic Metric for {MT} Evaluation with Improved Correlation with Human Judgments},
    booktitle = {Proceedings of the ACL Workshop on Intrinsic and Extrinsic Evaluation Measures for Machine
                 Translation and/or Summarization},
    year = {2005},
    address = {Ann Arbor, Michigan},
    publisher = {Association for Computational Linguistics},
    pages = {65--72},
    url = {https://aclanthology.org/W05-0909},
}
"""

_DESCRIPTION = """\
METEOR (Banerjee and Lavie, 2005; METEOR 1.5: Denkowski and Lavie, 2014) aligns the words of a prediction
with a reference -- exact words first, then words with the same stem, then WordNet synonyms, then (METEOR
1.5) paraphrases -- and scores the alignment by a recall-weighted harmonic mean of precision and recall,
lowered by a fragmentation penalty when the matches fall into many chunks. Two implementations are in use
and they differ, so `variant` picks the one to reproduce exactly: "meteor15" (the default: meteor-1.5.jar as
pycocoevalcap runs it for captioning papers, with its paraphrase table and function-word weighting) or
"nltk" (NLTK 3.10.4's meteor_score, what Hugging Face's canonical `meteor` metric runs). Both run in
Python here, offline: METEOR 1.5's data is read from the installed pycocoevalcap package, and NLTK's
WordNet 3.0 from the system's WordNet files (Debian: apt-get install wordnet-base). The computation is done
by the `ngrameval` package, which must be installed.
"""

_KWARGS_DESCRIPTION = """
Computes corpus METEOR and the score of every segment.

Args:
    predictions (`list` of `str`, or `list` of `list` of `str`): one text per segment, or one token list.
    references (`list`): per prediction, a string or a list of strings (at least one), or for token-list
        predictions a token list or a list of token lists. The best reference counts.
    gts (`dict`): instead of predictions/references, pycocoevalcap's shapes: image id -> reference captions.
    res (`dict` or `list`): with gts: image id -> one-caption list, or a COCO results list of
        {"image_id", "caption"} dicts. The result then has `image_ids`, the order of `scores`.
    variant (`str`): <variants>.
    task (`str`): meteor15: the jar's parameter preset, "rank" (default: alpha 0.85, beta 0.2, gamma 0.6,
        delta 0.75, module weights 1.0 0.6 0.8 0.6), "adq", "hter", "li", "tune", "util" or "universal".
    modules (`list` of `str`): meteor15: which of "exact", "stem", "synonym", "paraphrase" run, in order.
        Default all four.
    weights (`list` of `float`): meteor15: one weight per module, each in [0, 1], instead of the task's.
    parameters (`list` of `float`): meteor15: alpha, beta, gamma, delta, instead of the task's (alpha, gamma
        and delta in [0, 1], beta >= 0; every number finite, else a ValueError naming it).
    normalization (`str`): meteor15: "norm" (default, pycocoevalcap's -norm), "norm_nopunct", "lower" or
        "none".
    beam_size (`int`): meteor15: the alignment search's beam. Default 40, the jar's.
    paraphrase_table (`str` or `bool`): meteor15: the path of a METEOR paraphrase table; default
        pycocoevalcap's paraphrase-en.gz when installed; False: none (the result's `note` says when the
        paraphrase module is off).
    cache_dir (`str`): meteor15: where the paraphrase table's index is kept (default: the user's cache).
    alpha (`float`): nltk: meteor_score's weight of precision against recall, in [0, 1]. Default 0.9.
    beta (`float`): nltk: the fragmentation penalty's exponent, finite and >= 0. Default 3.0.
    gamma (`float`): nltk: the fragmentation penalty's weight, in [0, 1]. Default 0.5.
    tokenize (`str` or callable): nltk: "nltk" (NLTK's word tokenizer on the whole line; default),
        "whitespace", or a function from a string to a list of tokens.
    wordnet (`str`): nltk: the directory of WordNet 3.0's files (default: found, e.g. /usr/share/wordnet).
    explain (`bool`): also return `explanation`. Default False.
    sentence_level (`bool`): also return `scores`, one per segment. Default True.
    confidence (`bool` or `dict`): also return `confidence`, bootstrap intervals of every score the
        same way for every ngrameval metric (sacrebleu's resampling: seed 12345 or $SACREBLEU_SEED); a dict
        sets n_samples (1000), confidence (0.95) and seed. Default False.

Returns:
    meteor (`float`): the corpus score in [0, 1]. meteor15: from the summed statistics of the segments (the
        jar's corpus score); nltk: the mean of the segment scores (Hugging Face's `meteor`).
    scores (`list` of `float`): the score of every segment, against its best reference.
    variant (`str`): the variant used.
    signature (`str`): the options used.
    precision (`float`): meteor15: the corpus precision (function-word weighted).
    recall (`float`): meteor15: the corpus recall.
    fmean (`float`): meteor15: their parameterised harmonic mean.
    penalty (`float`): meteor15: the corpus fragmentation penalty.
    note (`str`): meteor15: present when a module could not run (no paraphrase table).
    image_ids (`list`): with gts/res, the image ids in the order of `scores`.
    explanation (`list` of `dict`): with explain=True, per segment: the hypothesis and best reference words
        (after meteor15's normalization), reference_index, matches (module, positions and words on both
        sides), chunks, precision, recall, fmean, penalty, score (meteor15 also fragmentation and
        reference_scores).
    confidence (`dict`, with confidence=...): per score name, {"score", "mean", "low", "high"}.

Examples:

    METEOR 1.5 on pycocoevalcap's toy case (pycocoevalcap prints 0.4873609047158131):
        >>> meteor = evaluate.load("metrics/meteor")
        >>> results = meteor.compute(predictions=["a man rides a horse", "two dogs are playing in grass"],
        ...                          references=[["a man riding a horse on a beach", "a person rides a horse"],
        ...                                      ["two dogs play in the grass", "dogs playing on a lawn"]])
        >>> print(round(results["meteor"], 10), [round(s, 6) for s in results["scores"]])
        0.4873609047 [0.890909, 0.420053]

    NLTK's meteor_score on the example of its documentation (NLTK 3.10.4 gives 0.6944444444444445):
        >>> results = meteor.compute(
        ...     predictions=["It is a guide to action which ensures that the military always obeys the commands of the party"],
        ...     references=["It is a guide to action that ensures that the military will forever heed Party commands"],
        ...     variant="nltk", tokenize="whitespace")
        >>> results["meteor"]
        0.6944444444444445

    Which words matched, and how:
        >>> results = meteor.compute(predictions=["a man rides a horse"], references=[["a person rides a horse"]],
        ...                          explain=True)
        >>> [(m["module"], m["hypothesis_words"], m["reference_words"]) for m in results["explanation"][0]["matches"]][:2]
        [('exact', ['a'], ['a']), ('paraphrase', ['man'], ['person'])]
""".replace("<variants>", variant_choices(METEOR_VARIANTS))


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class Meteor(CocoShapedMetric, evaluate.Metric):
    """METEOR computed by ngrameval.meteor."""

    score = staticmethod(ngrameval.meteor)

    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=input_features(),
            codebase_urls=[
                "https://github.com/mjdenkowski/meteor",
                "https://github.com/nltk/nltk/blob/develop/nltk/translate/meteor_score.py",
            ],
            reference_urls=["https://aclanthology.org/W14-3348", "https://aclanthology.org/W05-0909"],
        )
