"""The COCO caption evaluation suite (BLEU-1..4, METEOR, ROUGE-L, CIDEr-D), exact to pycocoevalcap 1.2
without Java: an evaluate front end to ngrameval."""

import evaluate

import ngrameval
from ngrameval.frontends.evaluate import CocoShapedMetric, input_features

_CITATION = """\
@article{chen-2015-microsoft,
    author = {Chen, Xinlei and Fang, Hao and Lin, Tsung-Yi and Vedantam, Ramakrishna and Gupta, Saurabh
              and Doll{\\'a}r, Piotr and Zitnick, C. Lawrence},
    title = {Microsoft {COCO} Captions: Data Collection and Evaluation Server},
    journal = {arXiv preprint arXiv:1504.00325},
    year = {2015},
    url = {https://arxiv.org/abs/1504.00325},
}
"""

_DESCRIPTION = """\
The metrics that captioning and data-to-text papers report from the COCO caption evaluation code
(pycocoevalcap): BLEU-1 to BLEU-4, METEOR 1.5, ROUGE-L and CIDEr-D, each computed after Stanford's PTB
tokenization (lowercased, punctuation removed), with pycocoevalcap's own rules: BLEU's closest reference
length and tiny epsilons instead of smoothing, ROUGE-L's beta 1.2 with the best precision and best recall
over the references, CIDEr-D's document frequencies from the evaluated references. Here everything runs in
Python (no Java): the tokenizer, METEOR 1.5 and the scorers reproduce pycocoevalcap's numbers. SPICE is
not included: it needs Stanford CoreNLP models that no package registry ships. The computation is done by
the `ngrameval` package, which must be installed.
"""

_KWARGS_DESCRIPTION = """
Computes the COCO caption metrics, for the corpus and per item.

Args:
    predictions (`list` of `str`): one caption per item.
    references (`list`): per prediction, a reference caption or a list of them (at least one).
    gts (`dict`): instead of predictions/references, pycocoevalcap's shapes: image id -> reference captions
        (strings or {"caption": ...} dicts).
    res (`dict` or `list`): with gts: image id -> one-caption list, or a COCO results list of
        {"image_id", "caption"} dicts; the same image ids as gts, one result per image. The result then has
        `image_ids`, the order of `per_item`.
    tokenize (`str`): "ptb" (default: pycocoevalcap's PTB tokenization) or "none" (the texts are used as
        they are, as nlg-eval does).
    metrics (`list` of `str`): any of "bleu", "meteor", "rouge_l", "cider". Default all four.
    meteor_options (`dict`): options for METEOR 1.5 (see metrics/meteor), e.g. {"paraphrase_table": path}.
    sentence_level (`bool`): also return `per_item`. Default True.
    confidence (`bool` or `dict`): also return `confidence`, bootstrap intervals of every score the
        same way for every ngrameval metric (sacrebleu's resampling: seed 12345 or $SACREBLEU_SEED); a dict
        sets n_samples (1000), confidence (0.95) and seed. Default False.

Returns:
    Bleu_1 (`float`): BLEU-1 of the corpus, as pycocoevalcap computes it (only the metrics asked for appear).
    Bleu_2 (`float`): BLEU-2.
    Bleu_3 (`float`): BLEU-3.
    Bleu_4 (`float`): BLEU-4.
    METEOR (`float`): METEOR 1.5.
    ROUGE_L (`float`): ROUGE-L (beta 1.2).
    CIDEr (`float`): CIDEr-D.
    per_item (`dict` of `list` of `float`): the same names, one score per item.
    image_ids (`list`): with gts/res, the image ids in the order of `per_item`.
    meteor_note (`str`): with METEOR, a note when a METEOR module was unavailable (the paraphrase table).
    confidence (`dict`, with confidence=...): per score name, {"score", "mean", "low", "high"}.

Examples:

    pycocoevalcap's toy case (its values: Bleu_1 0.909, ROUGE_L 0.733, CIDEr 2.313):
        >>> coco = evaluate.load("metrics/coco_caption")
        >>> results = coco.compute(gts={1: ["A man riding a horse on a beach.", "A person rides a horse."],
        ...                             2: ["Two dogs play in the grass.", "Dogs playing on a lawn."]},
        ...                        res={1: ["A man rides a horse."], 2: ["Two dogs are playing in grass."]},
        ...                        metrics=["bleu", "rouge_l", "cider"])
        >>> print({name: round(results[name], 3) for name in ("Bleu_1", "ROUGE_L", "CIDEr")})
        {'Bleu_1': 0.909, 'ROUGE_L': 0.733, 'CIDEr': 2.313}
        >>> results["image_ids"], [round(s, 3) for s in results["per_item"]["ROUGE_L"]]
        ([1, 2], [0.8, 0.667])

    All four metrics, METEOR 1.5 included (pycocoevalcap prints METEOR 0.4873609047158131 here):
        >>> results = coco.compute(predictions=["A man rides a horse.", "Two dogs are playing in grass."],
        ...                        references=[["A man riding a horse on a beach.", "A person rides a horse."],
        ...                                    ["Two dogs play in the grass.", "Dogs playing on a lawn."]])
        >>> print(round(results["METEOR"], 10), sorted(results["per_item"]))
        0.4873609047 ['Bleu_1', 'Bleu_2', 'Bleu_3', 'Bleu_4', 'CIDEr', 'METEOR', 'ROUGE_L']
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class CocoCaption(CocoShapedMetric, evaluate.Metric):
    """The COCO caption suite computed by ngrameval.coco_caption."""

    score = staticmethod(ngrameval.coco_caption)

    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=input_features(tokens=False),
            codebase_urls=["https://github.com/salaniz/pycocoevalcap", "https://github.com/tylin/coco-caption"],
            reference_urls=["https://arxiv.org/abs/1504.00325"],
        )
