"""GLEU (Google BLEU), exact to NLTK 3.10.4 or to HF evaluate's google_bleu: an evaluate front end to ngrameval."""

import evaluate

from ngrameval.frontends.evaluate import ValidatedMetric, input_features, variant_choices
from ngrameval.metrics.gleu import VARIANTS as GLEU_VARIANTS
from ngrameval.metrics.gleu import gleu

_CITATION = """\
@misc{wu2016googles,
    title = {Google's Neural Machine Translation System: Bridging the Gap between Human and Machine Translation},
    author = {Yonghui Wu and Mike Schuster and Zhifeng Chen and Quoc V. Le and Mohammad Norouzi and others},
    year = {2016},
    eprint = {1609.08144},
    archivePrefix = {arXiv},
    primaryClass = {cs.CL},
}
"""

_DESCRIPTION = """\
GLEU (Wu et al., 2016) counts all n-grams of orders min_len to max_len (1 to 4) of a prediction and of a
reference together and divides the matching ones by the larger of the two counts, the minimum of
precision and recall; with several references, the one with the highest ratio counts. The corpus score
sums matches and counts over the segments before dividing. `variant` names the tool to reproduce exactly:
"nltk" (NLTK 3.10.4 corpus_gleu / sentence_gleu on whitespace tokens; the default) or "google_bleu" (HF
evaluate's `google_bleu`: corpus_gleu on its 13a tokens). The computation is done by the `ngrameval`
package, which must be installed.
"""

_KWARGS_DESCRIPTION = """
Computes corpus GLEU (and optionally per-segment GLEU) of predictions against references.

Args:
    pad_id (`int`): predictions and references may also be token ids, as `ngrameval.gleu` takes them (a list of
        ints, a 1-D integer numpy array or torch tensor per prediction, or a 2-D batch; references the same or
        several per prediction); pad_id is their padding id: every position holding it is dropped. The ids are
        counted as they are, never decoded; the signature says tok:ids.
    predictions (`list` of `str`, or `list` of `list` of `str`): one string per output segment, or one
        token list per segment (`tokenize` is not applied to token lists).
    references (`list`): per prediction, a string or a list of strings (at least one, any number), or for
        token-list predictions a token list or a list of token lists.
    variant (`str`): <variants>.
    min_len (`int`): lowest n-gram order. Default 1.
    max_len (`int`): highest n-gram order, at least min_len. Default 4.
    tokenize (`str` or callable): "none" (split on whitespace; default for "nltk"), "hf-13a" (google_bleu's
        13a; its default), any tokenizer name of ngrameval's BLEU, or a function from a string to a list of
        tokens (google_bleu's `tokenizer`).
    sentence_level (`bool`): also return `sentence_scores` (NLTK's sentence_gleu). Default False.
    confidence (`bool` or `dict`): also return `confidence`, bootstrap intervals of the score, the same
        way for every ngrameval metric; a dict sets n_samples (1000), confidence (0.95) and seed.

Returns:
    gleu (`float`): corpus GLEU in [0, 1] (0 when no segment has an n-gram).
    n_match (`int`): matched n-grams of the chosen references, summed over the segments.
    n_all (`int`): per segment max(prediction n-grams, chosen reference's n-grams), summed.
    signature (`str`): the options used and the tools reproduced.
    sentence_scores (`list` of `float`): with sentence_level=True, one score per prediction.
    confidence (`dict`, with confidence=...): {"gleu": {"score", "mean", "low", "high"}}.

Examples:

    The examples of HF evaluate's google_bleu card (it prints 0.44, 0.61, 0.53 and 0.4):
        >>> gleu = evaluate.load("metrics/gleu")
        >>> predictions = ['It is a guide to action which ensures that the rubber duck always disobeys the commands of the cat',
        ...                'he read the book because he was interested in world history']
        >>> references = [['It is the guiding principle which guarantees the rubber duck forces never being under the command of the cat',
        ...                'It is a guide to action that ensures that the rubber duck will never heed the cat commands',
        ...                'It is the practical guide for the rubber duck army never to heed the directions of the cat'],
        ...               ['he was interested in world history because he read the book']]
        >>> results = gleu.compute(predictions=predictions, references=[refs[:1] for refs in references], variant="google_bleu")
        >>> print(round(results["gleu"], 2))
        0.44
        >>> results = gleu.compute(predictions=predictions, references=references, variant="google_bleu")
        >>> print(round(results["gleu"], 2), results["n_match"], results["n_all"])
        0.61 66 108
        >>> print(round(gleu.compute(predictions=predictions, references=references, variant="google_bleu", min_len=2)["gleu"], 2))
        0.53
        >>> print(round(gleu.compute(predictions=predictions, references=references, variant="google_bleu", min_len=2, max_len=6)["gleu"], 2))
        0.4

    NLTK's sentence_gleu per prediction:
        >>> results = gleu.compute(predictions=predictions, references=references, sentence_level=True)
        >>> print([round(s, 4) for s in results["sentence_scores"]])
        [0.5143, 0.7895]
""".replace("<variants>", variant_choices(GLEU_VARIANTS))


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class Gleu(ValidatedMetric, evaluate.Metric):
    """GLEU computed by ngrameval.gleu."""

    score = staticmethod(gleu)

    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=input_features(ids=True),
            codebase_urls=[
                "https://github.com/nltk/nltk/blob/develop/nltk/translate/gleu_score.py",
                "https://github.com/huggingface/evaluate/blob/main/metrics/google_bleu/google_bleu.py",
            ],
            reference_urls=["https://arxiv.org/abs/1609.08144"],
        )
