"""CIDEr-D and CIDEr, exact to pycocoevalcap 1.2 and to the original CIDEr code: an evaluate front end
to ngrameval."""

import evaluate

import ngrameval
from ngrameval.frontends.evaluate import CocoShapedMetric, input_features, variant_choices
from ngrameval.metrics.cider import VARIANTS as CIDER_VARIANTS

_CITATION = """\
@inproceedings{vedantam-2015-cider,
    author = {Vedantam, Ramakrishna and Zitnick, C. Lawrence and Parikh, Devi},
    title = {{CIDEr}: Consensus-based Image Description Evaluation},
    booktitle = {Proceedings of the IEEE Conference on Computer Vision and Pattern Recognition (CVPR)},
    year = {2015},
    pages = {4566--4575},
    url = {https://arxiv.org/abs/1411.5726},
}
"""

_DESCRIPTION = """\
CIDEr (Vedantam et al., 2015) measures how well a caption agrees with the consensus of several human
references: every text becomes a tf-idf vector of its n-grams (n = 1..4), where the idf comes from how
many items' references contain the n-gram, and a caption scores the cosine similarity with each
reference, averaged over the references and the orders, times 10. CIDEr-D, what COCO leaderboards and
pycocoevalcap report, also clips the caption's n-gram weights at the reference's and multiplies by a
Gaussian penalty on the length difference (sigma 6). `variant` picks "cider-d" (pycocoevalcap 1.2
`Cider`, the default) or "cider" (the original, without clipping or penalty). The computation is done by
the `ngrameval` package, which must be installed.
"""

_KWARGS_DESCRIPTION = """
Computes corpus CIDEr-D (or CIDEr) and the score of every item.

Args:
    pad_id (`int`): predictions and references may also be token ids, as `ngrameval.cider` takes them (a list of
        ints, a 1-D integer numpy array or torch tensor per prediction, or a 2-D batch; references the same or
        several per prediction); pad_id is their padding id: every position holding it is dropped. The ids are
        counted as they are, never decoded; the signature says tok:ids.
    predictions (`list` of `str`, or `list` of `list` of `str`): one caption per item, or one token
        list per item.
    references (`list`): per prediction, a string or a list of strings (at least one, any number), or
        for token-list predictions a token list or a list of token lists.
    gts (`dict`): instead of predictions/references, pycocoevalcap's shapes: image id -> reference captions.
    res (`dict` or `list`): with gts: image id -> one-caption list, or a COCO results list of
        {"image_id", "caption"} dicts. The result then has `image_ids`, the order of `scores`.
    variant (`str`): <variants>.
    max_order (`int`): highest n-gram order, 1 to 100. Default 4 (pycocoevalcap counts only up to 4
        whatever its n; see the card's known differences).
    sigma (`float`): the standard deviation of CIDEr-D's length penalty, finite and > 0. Default 6.0.
    idf (`str` or `ngrameval.cider.DocumentFrequency`): "corpus" (default: document frequencies of the
        references given) or a table from another reference corpus, or the path of one saved as JSON
        with `DocumentFrequency.save` (for scoring a few items against stable weights).
    tokenize (`str` or callable): "none" (default: split on whitespace, as pycocoevalcap; give it
        PTB-tokenized captions), "ptb" (pycocoevalcap's PTB tokenization, in Python), or any ngrameval
        tokenizer name or function.
    lowercase (`bool`): lowercase first. Default False.
    explain (`bool`): also return `explanation`. Default False.
    sentence_level (`bool`): also return `scores`, one per item. Default True.
    confidence (`bool` or `dict`): also return `confidence`, bootstrap intervals of every score the
        same way for every ngrameval metric (sacrebleu's resampling: seed 12345 or $SACREBLEU_SEED); a dict
        sets n_samples (1000), confidence (0.95) and seed. Default False.

Returns:
    cider (`float`): the mean of `scores`, >= 0 (10 for a caption equal to all its references when every
        n-gram is informative; no fixed upper bound).
    scores (`list` of `float`): one score per item.
    variant (`str`): the variant used.
    signature (`str`): the options used.
    image_ids (`list`): with gts/res, the image ids in the order of `scores`.
    explanation (`list` of `dict`): with explain=True, per item: score; references, each with its cosine
        similarity per order (before the penalty) and length_penalty; ngrams, the prediction's n-grams with
        tf, df (items whose references contain it), idf and weight (tf * idf).
    confidence (`dict`, with confidence=...): per score name, {"score", "mean", "low", "high"}.

Examples:

    The toy case of pycocoevalcap (its CIDEr 2.3133480225138):
        >>> cider = evaluate.load("metrics/cider")
        >>> results = cider.compute(predictions=["a man rides a horse", "two dogs are playing in grass"],
        ...                         references=[["a man riding a horse on a beach", "a person rides a horse"],
        ...                                     ["two dogs play in the grass", "dogs playing on a lawn"]])
        >>> print(round(results["cider"], 10), [round(s, 8) for s in results["scores"]])
        2.3133480225 [2.9622346, 1.66446145]

    pycocoevalcap's own input shapes, checked against pycocoevalcap itself:
        >>> from pycocoevalcap.cider.cider import Cider as PeerCider
        >>> gts = {"a": ["a cat sits", "the cat sits"], "b": ["a dog runs", "dogs run"]}
        >>> results = cider.compute(gts=gts, res=[{"image_id": "b", "caption": "a dog runs"},
        ...                                       {"image_id": "a", "caption": "a cat"}])
        >>> peer, peer_scores = PeerCider().compute_score(gts, {"a": ["a cat"], "b": ["a dog runs"]})
        >>> results["image_ids"], bool(abs(results["cider"] - peer) < 1e-12), bool(max(abs(results["scores"] - peer_scores)) < 1e-12)
        (['a', 'b'], True, True)

    One item alone scores 0 with the corpus's own idf (every n-gram occurs in all its references):
        >>> cider.compute(predictions=["a cat"], references=[["a cat"]])["cider"]
        0.0

    The original CIDEr, and the weights behind a score:
        >>> results = cider.compute(predictions=["a cat", "a dog"], references=[["a cat"], ["the dog"]],
        ...                         variant="cider", explain=True)
        >>> print([(g["ngram"], g["df"], round(g["idf"], 4)) for g in results["explanation"][0]["ngrams"]])
        [('a', 1, 0.6931), ('cat', 1, 0.6931), ('a cat', 1, 0.6931)]
""".replace("<variants>", variant_choices(CIDER_VARIANTS))


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class Cider(CocoShapedMetric, evaluate.Metric):
    """CIDEr computed by ngrameval.cider."""

    score = staticmethod(ngrameval.cider)

    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=input_features(ids=True),
            codebase_urls=[
                "https://github.com/salaniz/pycocoevalcap/tree/master/cider",
                "https://github.com/vrama91/cider",
            ],
            reference_urls=["https://arxiv.org/abs/1411.5726"],
        )
