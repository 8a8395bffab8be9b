"""TER, exact to sacrebleu 2.6.0's TER (Tercom's shift search): an evaluate front end to ngrameval."""

import evaluate

from ngrameval.frontends.evaluate import SACREBLEU_CITATION, ValidatedMetric, input_features
from ngrameval.metrics.ter import ter

_CITATION = (
    """\
@inproceedings{snover-etal-2006-study,
    title = "A Study of Translation Edit Rate with Targeted Human Annotation",
    author = "Snover, Matthew  and
      Dorr, Bonnie  and
      Schwartz, Rich  and
      Micciulla, Linnea  and
      Makhoul, John",
    booktitle = "Proceedings of the 7th Conference of the Association for Machine Translation in the Americas: Technical Papers",
    month = aug # " 8-12",
    year = "2006",
    address = "Cambridge, Massachusetts, USA",
    publisher = "Association for Machine Translation in the Americas",
    url = "https://aclanthology.org/2006.amta-papers.25",
    pages = "223--231",
}
"""
    + SACREBLEU_CITATION
)

_DESCRIPTION = """\
TER (Translation Edit Rate; Snover et al., 2006) counts the edits that turn a prediction into a reference
-- word insertions, deletions and substitutions, and shifts of word blocks, one edit each -- per reference
word; lower is better. This metric reproduces sacrebleu 2.6.0's TER exactly (its Tercom tokenizer, its
greedy shift search with Tercom's limits, its beam-limited edit distance, several references: the fewest
edits and the average reference length), as HF evaluate's canonical `ter` runs it, but as a fraction
(sacrebleu's score / 100), which exceeds 1 when there are more edits than reference words. The computation
is done by the `ngrameval` package, which must be installed.
"""

_KWARGS_DESCRIPTION = """
Computes corpus TER (and optionally per-segment TER) of predictions against references.

Args:
    predictions (`list` of `str`): the outputs to score, one string per segment.
    references (`list`): one entry per prediction: a string or a list of strings (any number, at least one;
        the counts may differ between predictions).
    normalized (`bool`): sacrebleu's Tercom normalization: split punctuation, unescape &quot; &amp; &lt; &gt;,
        join hyphenated line breaks. Default False.
    no_punct (`bool`): delete the punctuation . , ? : ; ! " ( ) (and CJK punctuation with asian_support).
        Default False.
    asian_support (`bool`): with normalized, split CJK characters one by one; with no_punct, delete CJK and
        full-width punctuation. Default False.
    lowercase (`bool`): lowercase predictions and references (sacrebleu's Tercom does unless case_sensitive).
        Default True.
    case_sensitive (`bool`): sacrebleu's name of not lowercase (None: use lowercase).
    ignore_punct (`bool`): HF evaluate's name of no_punct (None: use no_punct).
    support_zh_ja_chars (`bool`): HF evaluate's name of asian_support (None: use asian_support).
    sentence_level (`bool`): also return `sentence_scores`. Default False.
    explain (`bool`): also return `explanation`, the shifts and word edits of every prediction. Default False.
    confidence (`bool` or `dict`): bootstrap confidence intervals (True: 1000 samples, 95%, or a dict of
        n_samples, confidence and seed). Default False.

Returns:
    ter (`float`): corpus TER: summed edits / summed average reference lengths (1 when there are edits but
        no reference words, 0 when there are neither); sacrebleu's score / 100.
    num_edits (`int`): the edits of every prediction against its best reference, summed.
    ref_length (`float`): the average reference lengths, summed.
    signature (`str`): sacrebleu's TER signature.
    sentence_scores (`list` of `float`): with sentence_level=True, sacrebleu's sentence_score / 100 per prediction.
    explanation (`list` of `dict`): with explain=True, per prediction: prediction_tokens, reference_tokens,
        best_reference (index), num_edits, reference_length, shifts (words, from: position before the
        shift, to: position after it), shifted_tokens and edits of the shifted tokens: op ("substitution",
        "insertion", "deletion"), prediction_position and prediction_word (not for insertions),
        reference_position and reference_word (not for deletions).
    confidence (`dict`): with confidence, the bootstrap interval of `ter` (score, mean, low, high).

Examples:

    Several references per prediction (the fewest edits, the average length):
        >>> ter = evaluate.load("metrics/ter")
        >>> predictions = ["does this sentence match??", "what about this sentence?"]
        >>> references = [["does this sentence match", "does this sentence match!?!"],
        ...               ["wHaT aBoUt ThIs SeNtEnCe?", "wHaT aBoUt ThIs SeNtEnCe?"]]
        >>> results = ter.compute(predictions=predictions, references=references, case_sensitive=True)
        >>> print(results["ter"], results["num_edits"], results["ref_length"])
        0.625 5 8.0
        >>> print(results["signature"])
        nrefs:2|case:mixed|tok:tercom|norm:no|punct:yes|asian:no|version:2.6.0

    HF evaluate's option names, and per-segment scores:
        >>> results = ter.compute(predictions=predictions, references=references, ignore_punct=True,
        ...                       sentence_level=True)
        >>> print(results["ter"], results["sentence_scores"])
        0.0 [0.0, 0.0]

    A shift counts as one edit:
        >>> results = ter.compute(predictions=["mat the cat sat on the"], references=["the cat sat on the mat"],
        ...                       explain=True)
        >>> print(results["num_edits"], results["explanation"][0]["shifts"])
        1 [{'words': ['mat'], 'from': 0, 'to': 5}]
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class Ter(ValidatedMetric, evaluate.Metric):
    """TER computed by ngrameval.ter."""

    score = staticmethod(ter)

    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=input_features(tokens=False),
            codebase_urls=["https://github.com/mjpost/sacrebleu", "https://github.com/jhclark/tercom"],
            reference_urls=["https://aclanthology.org/2006.amta-papers.25", "https://aclanthology.org/W18-6319"],
        )
