"""torch_sentence_bleu / torch_sentence_rouge on token-id tensors against the peers run here on the same ids:
NLTK's ``sentence_bleu`` on id lists, sacrebleu's ``sentence_bleu`` (``BLEU.sentence_score``) on the ids
joined by spaces (``tokenize="none"``), rouge-score's ``score`` / ``score_multi`` on the ids as decimal strings, and
ngrameval's numpy path (``bleu(..., sentence_level=True)``, ``rouge(..., use_aggregator=False)``) on the ids
as pre-tokenized decimal tokens. The ``TestCuda`` class runs the comparisons on a GPU when there is one.
"""

import subprocess
import sys
import warnings

import numpy as np
import pytest
import torch
from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu
from rouge_score import rouge_scorer
from sacrebleu.metrics import BLEU

import ngrameval
from ngrameval.training import torch_path
from ngrameval.training.torch_path import torch_sentence_bleu, torch_sentence_rouge
from tests.search import cases

TOLERANCE = 1e-12
FLOAT32_BOUND = 6e-8  # the module's documented bound: the float64 score rounded to float32
PAD = 0
SACREBLEU_OPTIONS = [
    dict(smooth="exp"),
    dict(smooth="none"),
    dict(smooth="floor"),
    dict(smooth="floor", smooth_value=0.3),
    dict(smooth="add-k"),
    dict(smooth="add-k", smooth_value=2),
    dict(smooth="exp", max_order=2),
    dict(smooth="none", use_effective_order=False),
    dict(smooth="exp", max_order=6),
]
NLTK_OPTIONS = [dict(smooth=f"method{i}") for i in range(8)] + [
    dict(smooth="method1", epsilon=0.3),
    dict(smooth="method4", k=3.0),
    dict(smooth="method7", k=2.0, max_order=3),
    dict(smooth="method6", alpha=2.0),
    dict(smooth="method0", weights=(0.5, 0.3, 0.2)),
    dict(smooth="method2", weights=(0.25, 0.25, 0.25, 0.25), auto_reweigh=True),
    dict(smooth="method1", weights=[(0.5, 0.5), (0.25, 0.25, 0.25, 0.25)]),
]
ROUGE_TYPES = ["rouge1", "rouge2", "rouge3", "rougeL"]


# --------------------------------------------------------------------------- data


def random_batch(rng, size, vocabulary, max_len, slots, device="cpu"):
    """Padded (B, L) candidates and (B, R, L') references (pad 0, ids 1..vocabulary), references often
    noisy copies of the candidate, some of them all padding; empty candidates too."""
    lengths = rng.integers(0, max_len + 1, size)
    candidates = np.zeros((size, max_len), np.int64)
    references = np.zeros((size, slots, max_len + 2), np.int64)
    for i, length in enumerate(lengths):
        candidates[i, :length] = rng.integers(1, vocabulary + 1, length)
        for r in range(slots):
            if r and rng.random() < 0.3:
                continue  # an absent reference
            ref_len = max(0, length + int(rng.integers(-2, 3)))
            copied = np.resize(candidates[i, : max(length, 1)], ref_len) if length else np.zeros(ref_len, np.int64)
            fresh = rng.integers(1, vocabulary + 1, ref_len)
            references[i, r, :ref_len] = np.where((rng.random(ref_len) < 0.3) | (copied == 0), fresh, copied)
    return torch.as_tensor(candidates, device=device), torch.as_tensor(references, device=device)


def tokens(row):
    return [str(x) for x in row.tolist() if x != PAD]


def reference_groups(references):
    """Per candidate, its references as token lists: slots of padding are absent, unless all are."""
    groups = []
    for slots in references.cpu():
        group = [tokens(reference) for reference in slots if (reference != PAD).any()]
        groups.append(group or [[]])
    return groups


def numpy_bleu(candidates, references, **options):
    hypotheses = [tokens(row) for row in candidates.cpu()]
    return np.array(
        ngrameval.bleu(hypotheses, reference_groups(references), sentence_level=True, **options).sentence_scores
    )


def nltk_options(options):
    smoothing = SmoothingFunction(**{name: options[name] for name in ("epsilon", "alpha", "k") if name in options})
    order = options.get("max_order", 4)
    return dict(
        weights=options.get("weights", (1 / order,) * order),
        auto_reweigh=options.get("auto_reweigh", False),
        smoothing_function=getattr(smoothing, options["smooth"]),
    )


def nltk_scores(candidates, references, options):
    """NLTK's sentence_bleu on id lists, one sentence at a time (a list per weight set when several)."""
    groups = [[[int(x) for x in group] for group in sentence] for sentence in reference_groups(references)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # NLTK warns about zero counts
        return np.array(
            [
                sentence_bleu(group, [int(x) for x in tokens(row)], **nltk_options(options))
                for row, group in zip(candidates.cpu(), groups)
            ]
        )


def sacrebleu_scores(candidates, references, options):
    """sacrebleu's sentence_bleu (``BLEU(...).sentence_score``, which also takes the order) on the ids joined."""
    metric = BLEU(
        tokenize="none",
        smooth_method=options["smooth"],
        smooth_value=options.get("smooth_value"),
        max_ngram_order=options.get("max_order", 4),
        effective_order=options.get("use_effective_order", True),
    )
    return np.array(
        [
            metric.sentence_score(" ".join(tokens(row)), [" ".join(reference) for reference in group]).score / 100
            for row, group in zip(candidates.cpu(), reference_groups(references))
        ]
    )


def rouge_score_scores(candidates, references, types):
    """rouge-score's (types, B, 3): score for one reference, score_multi for several."""
    scorer = rouge_scorer.RougeScorer(types)
    results = []
    for row, group in zip(candidates.cpu(), reference_groups(references)):
        prediction, targets = " ".join(tokens(row)), [" ".join(reference) for reference in group]
        results.append(
            scorer.score(targets[0], prediction) if len(targets) == 1 else scorer.score_multi(targets, prediction)
        )
    return np.array([[list(result[t]) for result in results] for t in types])


def as_array(scores, types):
    return np.stack([scores[t].cpu().numpy() for t in types])


# --------------------------------------------------------------------------- comparisons (also run on CUDA)


def check_bleu_numpy(device):
    rng = np.random.default_rng(5)
    candidates, references = random_batch(rng, 24, 5, 10, 3, device)
    for variant, all_options in (("sacrebleu", SACREBLEU_OPTIONS), ("nltk", NLTK_OPTIONS)):
        for options in all_options:
            try:
                expected = numpy_bleu(candidates, references, variant=variant, **options)
            except ValueError as error:  # NLTK's method 6 needs a matching trigram
                with pytest.raises(ValueError, match=str(error)[:40]):
                    torch_sentence_bleu(candidates, references, pad_id=PAD, variant=variant, **options)
                continue
            scores = torch_sentence_bleu(candidates, references, pad_id=PAD, variant=variant, **options)
            assert scores.device.type == torch.device(device).type and scores.dtype == torch.float64
            # The numpy path's own rule on the same integer statistics: equal to the last bit.
            np.testing.assert_array_equal(scores.cpu().numpy(), expected, err_msg=str(options))


def check_rouge(device):
    rng = np.random.default_rng(6)
    candidates, references = random_batch(rng, 20, 6, 12, 3, device)
    scores = torch_sentence_rouge(candidates, references, pad_id=PAD, rouge_types=ROUGE_TYPES)
    assert all(s.device.type == torch.device(device).type and s.shape == (20, 3) for s in scores.values())
    np.testing.assert_allclose(
        as_array(scores, ROUGE_TYPES), rouge_score_scores(candidates, references, ROUGE_TYPES), rtol=0, atol=TOLERANCE
    )
    ours = ngrameval.rouge(
        [tokens(row) for row in candidates.cpu()], reference_groups(references), ROUGE_TYPES, use_aggregator=False
    )
    np.testing.assert_array_equal(as_array(scores, ROUGE_TYPES), ours.scores)


# --------------------------------------------------------------------------- tests


def test_bleu_equals_numpy_path_every_smoothing():
    check_bleu_numpy("cpu")


def test_bleu_equals_nltk_sentence_bleu():
    rng = np.random.default_rng(7)
    candidates, references = random_batch(rng, 16, 4, 9, 3)
    for options in NLTK_OPTIONS:
        if options["smooth"] == "method6":  # NLTK asserts a matching trigram: one sentence at a time
            for i in range(len(candidates)):
                try:
                    expected = nltk_scores(candidates[i : i + 1], references[i : i + 1], options)
                except (AssertionError, IndexError, ZeroDivisionError):
                    with pytest.raises(ValueError, match="method6"):
                        torch_sentence_bleu(
                            candidates[i : i + 1], references[i : i + 1], pad_id=PAD, variant="nltk", **options
                        )
                    continue
                scores = torch_sentence_bleu(
                    candidates[i : i + 1], references[i : i + 1], pad_id=PAD, variant="nltk", **options
                )
                np.testing.assert_allclose(scores.numpy(), expected, rtol=0, atol=TOLERANCE)
            continue
        scores = torch_sentence_bleu(candidates, references, pad_id=PAD, variant="nltk", **options)
        np.testing.assert_allclose(
            scores.numpy(), nltk_scores(candidates, references, options), rtol=0, atol=TOLERANCE, err_msg=str(options)
        )


def test_bleu_equals_sacrebleu_sentence_bleu():
    rng = np.random.default_rng(8)
    candidates, references = random_batch(rng, 16, 4, 9, 3)
    for options in SACREBLEU_OPTIONS:
        scores = torch_sentence_bleu(candidates, references, pad_id=PAD, **options)
        np.testing.assert_allclose(
            scores.numpy(),
            sacrebleu_scores(candidates, references, options),
            rtol=0,
            atol=TOLERANCE,
            err_msg=str(options),
        )


def test_rouge_equals_rouge_score_and_numpy_path():
    check_rouge("cpu")


def test_random_search_against_peers():
    """Seeded shapes, vocabularies, reference counts and options; each draw checked against its peer."""
    rng = np.random.default_rng(20261127)
    for draw in range(cases(12)):
        candidates, references = random_batch(
            rng, int(rng.integers(1, 9)), int(rng.integers(1, 8)), int(rng.integers(0, 14)), int(rng.integers(1, 4))
        )
        sacre = SACREBLEU_OPTIONS[draw % len(SACREBLEU_OPTIONS)]
        np.testing.assert_allclose(
            torch_sentence_bleu(candidates, references, pad_id=PAD, **sacre).numpy(),
            sacrebleu_scores(candidates, references, sacre),
            rtol=0,
            atol=TOLERANCE,
        )
        nltk = [o for o in NLTK_OPTIONS if o["smooth"] != "method6"][draw % (len(NLTK_OPTIONS) - 2)]
        np.testing.assert_allclose(
            torch_sentence_bleu(candidates, references, pad_id=PAD, variant="nltk", **nltk).numpy(),
            nltk_scores(candidates, references, nltk),
            rtol=0,
            atol=TOLERANCE,
        )
        types = ["rouge1", f"rouge{int(rng.integers(2, 5))}", "rougeL"]
        np.testing.assert_allclose(
            as_array(torch_sentence_rouge(candidates, references, pad_id=PAD, rouge_types=types), types),
            rouge_score_scores(candidates, references, types),
            rtol=0,
            atol=TOLERANCE,
        )


def test_input_forms_agree():
    """Lists of 1-D tensors, one-reference 2-D tensors, left padding and no pad_id give the padded scores."""
    rng = np.random.default_rng(9)
    candidates, references = random_batch(rng, 10, 5, 8, 2)
    expected_bleu = torch_sentence_bleu(candidates, references, pad_id=PAD)
    expected_rouge = torch_sentence_rouge(candidates, references, pad_id=PAD)
    # (a candidate whose references are all padding: one empty reference)
    as_lists = (
        [row[row != PAD] for row in candidates],
        [[r[r != PAD] for r in group if (r != PAD).any()] or [group[0][:0]] for group in references],
    )
    left = (torch.stack([torch.cat([row[row == PAD], row[row != PAD]]) for row in candidates]), references)
    for forms in (as_lists, left):
        assert torch.equal(torch_sentence_bleu(*forms, pad_id=PAD), expected_bleu)
        got = torch_sentence_rouge(*forms, pad_id=PAD)
        assert all(torch.equal(got[t], expected_rouge[t]) for t in expected_rouge)
    unpadded = torch_sentence_bleu(
        [row[row != PAD] for row in candidates], [group[0][group[0] != PAD] for group in references]
    )
    assert torch.equal(unpadded, torch_sentence_bleu(candidates, references[:, 0], pad_id=PAD))
    full = candidates[:, :3] + 1  # no padding at all: pad_id=None
    assert torch.equal(torch_sentence_bleu(full, full), torch.ones(10, dtype=torch.float64))


def test_empty_references_in_lists_count():
    """In the list form an empty tensor is a reference (as "" for sacrebleu): it can be the closest length."""
    candidates = [torch.tensor([3]), torch.tensor([1, 2]), torch.tensor([], dtype=torch.int64)]
    references = [
        [torch.tensor([3, 4]), torch.tensor([], dtype=torch.int64)],
        [torch.tensor([], dtype=torch.int64)],
        [torch.tensor([5]), torch.tensor([], dtype=torch.int64)],
    ]
    groups = [[[str(x) for x in r.tolist()] for r in group] for group in references]
    hypotheses = [[str(x) for x in c.tolist()] for c in candidates]
    for variant, smooth in (("sacrebleu", "exp"), ("nltk", "method1")):
        scores = torch_sentence_bleu(candidates, references, variant=variant, smooth=smooth)
        expected = ngrameval.bleu(hypotheses, groups, variant=variant, smooth=smooth, sentence_level=True)
        np.testing.assert_array_equal(scores.numpy(), expected.sentence_scores)
    peer = [
        BLEU(tokenize="none", effective_order=True).sentence_score(" ".join(h), [" ".join(r) for r in g]).score / 100
        for h, g in zip(hypotheses, groups)
    ]
    np.testing.assert_allclose(torch_sentence_bleu(candidates, references).numpy(), peer, rtol=0, atol=TOLERANCE)
    types = ["rouge1", "rouge2", "rougeL"]  # torch_sentence_rouge's default
    np.testing.assert_array_equal(
        as_array(torch_sentence_rouge(candidates, references), types),
        ngrameval.rouge(hypotheses, groups, types, use_aggregator=False).scores,
    )


def test_chunks_give_the_same_scores(monkeypatch):
    rng = np.random.default_rng(10)
    candidates, references = random_batch(rng, 12, 5, 10, 2)
    bleu = torch_sentence_bleu(candidates, references, pad_id=PAD)
    rouge = torch_sentence_rouge(candidates, references, pad_id=PAD)
    monkeypatch.setattr(torch_path, "CHUNK_TOKENS", 7)
    batch = torch_path.id_batch(candidates, references, PAD)
    assert len(list(batch.chunks())) > 3
    assert torch.equal(torch_sentence_bleu(candidates, references, pad_id=PAD), bleu)
    chunked = torch_sentence_rouge(candidates, references, pad_id=PAD)
    assert all(torch.equal(chunked[t], rouge[t]) for t in rouge)


def test_float32_within_documented_bound():
    rng = np.random.default_rng(11)
    candidates, references = random_batch(rng, 16, 5, 10, 2)
    for variant in ("sacrebleu", "nltk"):
        full = torch_sentence_bleu(candidates, references, pad_id=PAD, variant=variant)
        single = torch_sentence_bleu(candidates, references, pad_id=PAD, variant=variant, dtype=torch.float32)
        assert single.dtype == torch.float32
        assert (single.double() - full).abs().max() <= FLOAT32_BOUND
    full, single = (
        torch_sentence_rouge(candidates, references, pad_id=PAD, dtype=dtype) for dtype in (None, torch.float32)
    )
    assert all((single[t].double() - full[t]).abs().max() <= FLOAT32_BOUND for t in full)


def test_several_weight_sets_give_columns():
    rng = np.random.default_rng(12)
    candidates, references = random_batch(rng, 6, 4, 8, 1)
    weights = [(1.0,), (0.5, 0.5)]
    scores = torch_sentence_bleu(candidates, references, pad_id=PAD, variant="nltk", weights=weights, smooth="method1")
    assert scores.shape == (6, 2)
    for j, w in enumerate(weights):
        single = torch_sentence_bleu(candidates, references, pad_id=PAD, variant="nltk", weights=w, smooth="method1")
        assert torch.equal(scores[:, j], single)


@pytest.mark.slow  # a fresh interpreter imports ngrameval and the torch path
def test_import_does_not_import_torch():
    code = "import sys, ngrameval; ngrameval.torch_sentence_bleu; assert 'torch' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)


CANDIDATES = torch.tensor([[1, 2, 3], [4, 5, 0]])
REFERENCES = torch.tensor([[1, 2, 3], [4, 5, 6]])


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: torch_sentence_bleu(CANDIDATES.float(), REFERENCES), "candidates must hold integer token ids"),
        (lambda: torch_sentence_bleu(CANDIDATES > 0, REFERENCES), "candidates must hold integer token ids"),
        (lambda: torch_sentence_bleu(CANDIDATES[0], REFERENCES), r"candidates must be a 2-D \(batch, length\) tensor"),
        (lambda: torch_sentence_bleu(CANDIDATES.tolist(), REFERENCES), r"candidates\[0\] must be a 1-D tensor"),
        (lambda: torch_sentence_bleu([], REFERENCES), "candidates is empty"),
        (lambda: torch_sentence_bleu(CANDIDATES[:0], REFERENCES[:0]), "candidates is empty"),
        (lambda: torch_sentence_bleu(CANDIDATES, REFERENCES[:1]), "references has 1 rows for 2 candidates"),
        (lambda: torch_sentence_bleu(CANDIDATES, [REFERENCES[0]]), "references has 1 entries for 2 candidates"),
        (lambda: torch_sentence_bleu(CANDIDATES, REFERENCES[None]), "references has 1 rows for 2 candidates"),
        (lambda: torch_sentence_bleu(CANDIDATES, REFERENCES[None, None]), "got a 4-D tensor"),
        (
            lambda: torch_sentence_bleu(CANDIDATES, [REFERENCES[0], []]),
            r"references\[1\] must be a 1-D tensor or a non-empty list of 1-D tensors, got an empty list",
        ),
        (lambda: torch_sentence_bleu(CANDIDATES, [REFERENCES[0], 7]), r"references\[1\] must .*, got int"),
        (
            lambda: torch_sentence_bleu(CANDIDATES, [REFERENCES[0], [REFERENCES[1].double()]]),
            r"references\[1\]\[0\] must hold integer token ids",
        ),
        (lambda: torch_sentence_bleu(CANDIDATES, REFERENCES.to("meta")), "references is on meta but the candidates"),
        (lambda: torch_sentence_bleu(CANDIDATES - 1, REFERENCES), r"candidates hold a negative token id \(-1\)"),
        (lambda: torch_sentence_bleu(CANDIDATES, REFERENCES, pad_id=True), "pad_id must be an integer"),
        (lambda: torch_sentence_bleu(CANDIDATES, REFERENCES, pad_id=0.0), "pad_id must be an integer"),
        (lambda: torch_sentence_bleu(CANDIDATES, REFERENCES, variant="mteval"), "unknown variant 'mteval'"),
        (lambda: torch_sentence_bleu(CANDIDATES, REFERENCES, smooth="method1"), "unknown smooth for variant"),
        (lambda: torch_sentence_bleu(CANDIDATES, REFERENCES, max_order=0), "max_order"),
        (
            lambda: torch_sentence_bleu(CANDIDATES, REFERENCES, dtype=torch.int64),
            "dtype must be a floating torch dtype",
        ),
        (
            lambda: torch_sentence_bleu(CANDIDATES, REFERENCES, tokenize="13a"),
            "unknown options for torch_sentence_bleu: tokenize; valid options: pad_id,",
        ),
        (lambda: torch_sentence_rouge(CANDIDATES, REFERENCES, rouge_types=["rougeLsum"]), "not available on token ids"),
        (lambda: torch_sentence_rouge(CANDIDATES, REFERENCES, rouge_types=["rouge0"]), "rouge type 'rouge0'"),
        (lambda: torch_sentence_rouge(CANDIDATES, REFERENCES, dtype="float32"), "dtype must be a floating torch dtype"),
    ],
)
def test_bad_input_is_refused(call, message):
    with pytest.raises(ValueError, match=message):
        call()


@pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA device (CI has none; run on a GPU machine)")
class TestCuda:
    """The comparisons above with the tensors on the GPU: the scores come back on it, equal to the peers'."""

    def test_bleu_equals_numpy_path(self):
        check_bleu_numpy("cuda")

    def test_rouge_equals_rouge_score_and_numpy_path(self):
        check_rouge("cuda")

    def test_cpu_and_cuda_agree_on_a_large_batch(self):
        rng = np.random.default_rng(13)
        candidates = torch.as_tensor(np.minimum(rng.zipf(1.2, (64, 300)), 32000))
        references = torch.where(torch.rand(64, 300) < 0.2, torch.randint(1, 32000, (64, 300)), candidates)
        for function in (torch_sentence_bleu, torch_sentence_rouge):
            on_cpu, on_cuda = function(candidates, references), function(candidates.cuda(), references.cuda())
            if isinstance(on_cpu, dict):
                assert all(torch.equal(on_cpu[t], on_cuda[t].cpu()) for t in on_cpu)
            else:
                assert torch.equal(on_cpu, on_cuda.cpu())

    def test_references_on_another_device_are_refused(self):
        with pytest.raises(ValueError, match="references is on cpu but the candidates are on cuda"):
            torch_sentence_bleu(CANDIDATES.cuda(), REFERENCES)
