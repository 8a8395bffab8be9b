"""Per-sentence BLEU and ROUGE-N/L of token-id tensors, counted in torch on the tensors' device.

In RL fine-tuning (GRPO with TRL and the like) the rewards are sentence scores of sampled completions, token-id
tensors on the accelerator. :func:`torch_sentence_bleu` and :func:`torch_sentence_rouge` score them there, with
the semantics of :func:`ngrameval.bleu` (``sentence_level=True``) and :func:`ngrameval.rouge`
(``use_aggregator=False``) on the same ids written as decimal tokens.

- The statistics (lengths, clipped n-gram matches, ROUGE hits, LCS lengths) are counted on the device. An
  n-gram's int64 key is the compact id of its (n-1)-gram prefix (which includes the sentence) times the
  vocabulary size plus its last token: one ``torch.unique`` and one ``bincount`` per order for the whole batch.
  The LCS is a dynamic program row by row (a cumulative max) over all pairs at once. Memory is linear in the
  tokens: a batch of more than :data:`CHUNK_TOKENS` tokens is counted a chunk of sentences at a time.
- The scoring rules are the numpy path's own (:meth:`~ngrameval.metrics.bleu.BleuFamily.segment_scores`,
  :func:`ngrameval.metrics.rouge.score_statistics`), applied on the host to those few integers per sentence, so
  float64 scores are the numpy path's bit for bit (one device synchronization per call). ``dtype=torch.float32``
  rounds them (within 6e-8: all scores are in [0, 1]).

Token ids are non-negative integers; ``pad_id`` marks padding wherever it is (right or left padding alike).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ngrameval.engine.inputs import check_choice, strict_options
from ngrameval.errors import InputError
from ngrameval.metric import Statistics
from ngrameval.metrics.bleu import FAMILY as BLEU
from ngrameval.metrics.bleu import chosen_reference_lengths, resolve_options, statistics_rows
from ngrameval.metrics.rouge import OverlapCounts, score_statistics
from ngrameval.metrics.rouge_common import parse_rouge_types

if TYPE_CHECKING:  # torch is imported when a function is called, never by ``import ngrameval``
    import torch

# Tokens counted at once: some 100 bytes of working memory a token, whatever the batch (a chunk holds one
# sentence at least); a chunk's n-gram keys stay below its token count squared (no int64 overflow).
CHUNK_TOKENS = 1 << 20
# What fills the padded rows of the LCS: the two sides' fillers differ, so they never match.
_CANDIDATE_FILL, _REFERENCE_FILL = -1, -2


@dataclass
class IdBatch:
    """Candidates and references without padding, flat (the references candidate by candidate, slot by slot; a
    slot without a reference has length 0 and ``present`` False); ``*_host``: numpy copies, for chunks and rules."""

    candidate_tokens: torch.Tensor  # (Tc,) int64
    candidate_len: torch.Tensor  # (B,) int64
    reference_tokens: torch.Tensor  # (Tr,) int64
    reference_len: torch.Tensor  # (B, R) int64
    present: torch.Tensor  # (B, R) bool
    candidate_len_host: np.ndarray
    reference_len_host: np.ndarray
    present_host: np.ndarray

    @property
    def size(self) -> int:
        return len(self.candidate_len_host)

    @property
    def slots(self) -> int:
        return self.reference_len_host.shape[1]

    def chunks(self) -> Iterator[tuple[int, int]]:
        """Ranges of sentences (start, stop) of at most :data:`CHUNK_TOKENS` tokens each (or one sentence)."""
        ends = np.cumsum(self.candidate_len_host + self.reference_len_host.sum(axis=1))
        start = 0
        while start < self.size:
            before = int(ends[start - 1]) if start else 0
            stop = max(int(np.searchsorted(ends, before + CHUNK_TOKENS, side="right")), start + 1)
            yield start, stop
            start = stop


def _check_ids(torch: Any, name: str, value: Any, dims: Sequence[int], shape: str) -> torch.Tensor:
    if not isinstance(value, torch.Tensor):
        raise InputError(f"{name} must be {shape} (a tensor of token ids), got {type(value).__name__}")
    if value.dtype.is_floating_point or value.dtype.is_complex or value.dtype == torch.bool:
        raise InputError(f"{name} must hold integer token ids, got dtype {value.dtype}")
    if value.dim() not in dims:
        raise InputError(f"{name} must be {shape}, got a {value.dim()}-D tensor of shape {tuple(value.shape)}")
    return value


def _check_device(name: str, value: torch.Tensor, device: torch.device) -> None:
    if value.device != device:
        raise InputError(f"{name} is on {value.device} but the candidates are on {device}: move both to one device")


def _tokens(torch: Any, tensor: torch.Tensor, pad_id: int | None) -> torch.Tensor:
    """Which entries are tokens (not padding)."""
    return tensor != pad_id if pad_id is not None else tensor.new_ones(tensor.shape, dtype=torch.bool)


def _flat(
    torch: Any, rows: list[torch.Tensor], pad_id: int | None, device: torch.device
) -> tuple[torch.Tensor, torch.Tensor]:
    """1-D tensors (at least one) without their padding, concatenated, and their lengths."""
    kept = [row[_tokens(torch, row, pad_id)] for row in rows]
    return torch.cat(kept).to(torch.int64), torch.tensor([len(row) for row in kept], dtype=torch.int64, device=device)


def _candidates(torch: Any, candidates: Any, pad_id: int | None):
    """(tokens, lengths, device) of the candidates."""
    if isinstance(candidates, (list, tuple)):
        if not candidates:
            raise InputError("candidates is empty: nothing to score")
        rows = [_check_ids(torch, f"candidates[{i}]", row, (1,), "a 1-D tensor") for i, row in enumerate(candidates)]
        device = rows[0].device
        for i, row in enumerate(rows):
            _check_device(f"candidates[{i}]", row, device)
        return (*_flat(torch, rows, pad_id, device), device)
    _check_ids(torch, "candidates", candidates, (2,), "a 2-D (batch, length) tensor or a list of 1-D tensors")
    if len(candidates) == 0:
        raise InputError("candidates is empty: nothing to score")
    mask = _tokens(torch, candidates, pad_id)
    return candidates[mask].to(torch.int64), mask.sum(dim=1), candidates.device


def _references(torch: Any, references: Any, pad_id: int | None, size: int, device: torch.device):
    """(tokens, lengths (B, R), present (B, R)) of the references."""
    shape = "a (batch, length) or (batch, references, length) tensor, or a list with the references of each candidate"
    if isinstance(references, (list, tuple)):
        if len(references) != size:
            raise InputError(f"references has {len(references)} entries for {size} candidates")
        groups = []
        for i, group in enumerate(references):
            group = [group] if isinstance(group, torch.Tensor) else group
            if not isinstance(group, (list, tuple)) or not group:
                raise InputError(
                    f"references[{i}] must be a 1-D tensor or a non-empty list of 1-D tensors, got "
                    f"{'an empty list' if isinstance(group, (list, tuple)) else type(group).__name__}"
                )
            for r, reference in enumerate(group):
                _check_ids(torch, f"references[{i}][{r}]", reference, (1,), "a 1-D tensor")
                _check_device(f"references[{i}][{r}]", reference, device)
            groups.append(group)
        slots = max(map(len, groups))
        filled = np.arange(slots) < np.array([len(group) for group in groups])[:, None]  # the slots holding one
        tokens, given = _flat(torch, [reference for group in groups for reference in group], pad_id, device)
        lengths = torch.zeros(size, slots, dtype=torch.int64, device=device)
        lengths[torch.as_tensor(filled, device=device)] = given
        return tokens, lengths, torch.as_tensor(filled, device=device)
    _check_ids(torch, "references", references, (2, 3), shape)
    _check_device("references", references, device)
    if len(references) != size:
        raise InputError(f"references has {len(references)} rows for {size} candidates")
    if references.dim() == 2:
        references = references[:, None, :]
    mask = _tokens(torch, references, pad_id)
    lengths = mask.sum(dim=2)
    present = lengths > 0
    # A candidate whose references are all padding has one empty reference (as bleu() with ""),
    # which a tensor cannot tell from none.
    present[:, 0] |= ~present.any(dim=1)
    return references[mask].to(torch.int64), lengths, present


def id_batch(candidates: Any, references: Any, pad_id: int | None = None) -> IdBatch:
    """Checked candidates and references as an :class:`IdBatch` (see :func:`torch_sentence_bleu` for the shapes).

    >>> import torch
    >>> references = torch.tensor([[[4, 5, 6], [0, 0, 0]], [[6, 7, 0], [8, 0, 0]]])
    >>> batch = id_batch(torch.tensor([[4, 5, 0], [6, 0, 0]]), references, pad_id=0)
    >>> batch.candidate_tokens.tolist(), batch.reference_len.tolist(), batch.present.tolist()
    ([4, 5, 6], [[3, 0], [2, 1]], [[True, False], [True, True]])
    """
    import torch

    if pad_id is not None and (isinstance(pad_id, bool) or not isinstance(pad_id, int)):
        raise InputError(f"pad_id must be an integer token id or None, got {pad_id!r}")
    candidate_tokens, candidate_len, device = _candidates(torch, candidates, pad_id)
    reference_tokens, reference_len, present = _references(torch, references, pad_id, len(candidate_len), device)
    for name, tokens in (("candidates", candidate_tokens), ("references", reference_tokens)):
        if len(tokens) and int(tokens.min()) < 0:
            raise InputError(
                f"{name} hold a negative token id ({int(tokens.min())}); token ids are non-negative "
                "(pass pad_id if that value marks padding)"
            )
    hosts = [tensor.cpu().numpy() for tensor in (candidate_len, reference_len, present)]
    return IdBatch(candidate_tokens, candidate_len, reference_tokens, reference_len, present, *hosts)


def ngram_counts(batch: IdBatch, start: int, stop: int, max_order: int) -> Iterator[tuple[torch.Tensor, torch.Tensor]]:
    """For the sentences ``start:stop``, order by order: each distinct (sentence, n-gram) as (sentence - start
    (U,), counts (R + 1, U)): its count in each reference slot, then (last row) in the candidate.

    >>> import torch
    >>> batch = id_batch(torch.tensor([[4, 4, 5]]), torch.tensor([[4, 5, 5]]))
    >>> [(sentence.tolist(), counts.tolist()) for sentence, counts in ngram_counts(batch, 0, 1, 2)]
    [([0, 0], [[1, 2], [2, 1]]), ([0, 0, 0], [[0, 1, 1], [1, 1, 0]])]
    """
    import torch

    device = batch.candidate_tokens.device
    slots, sentences = batch.slots, stop - start
    candidate_bounds = np.r_[0, np.cumsum(batch.candidate_len_host)]
    reference_bounds = np.r_[0, np.cumsum(batch.reference_len_host.reshape(-1))]
    tokens = torch.cat(
        [
            batch.candidate_tokens[candidate_bounds[start] : candidate_bounds[stop]],
            batch.reference_tokens[reference_bounds[start * slots] : reference_bounds[stop * slots]],
        ]
    )
    lengths = torch.cat([batch.candidate_len[start:stop], batch.reference_len[start:stop].reshape(-1)])
    chunk = torch.arange(sentences, device=device)
    # Per segment (each candidate, then each reference slot): its sentence and its row of the counts.
    segment_sentence = torch.cat([chunk, chunk.repeat_interleave(slots)])
    segment_row = torch.cat(
        [torch.full((sentences,), slots, device=device), torch.arange(slots, device=device).repeat(sentences)]
    )
    position_segment = torch.repeat_interleave(
        torch.arange(len(lengths), device=device), lengths, output_size=len(tokens)
    )
    room = torch.cumsum(lengths, 0)[position_segment] - torch.arange(len(tokens), device=device)
    vocabulary, token_id = torch.unique(tokens, return_inverse=True)
    width = max(len(vocabulary), 1)
    position_row = segment_row[position_segment]
    # The compact id of each position's (n-1)-gram; for n = 1 the sentence, so that every key holds it.
    prefix = segment_sentence[position_segment]
    prefix_sentence = chunk
    for n in range(1, max_order + 1):
        starts = torch.nonzero(room >= n).squeeze(1)
        keys = prefix[starts] * width + token_id[starts + (n - 1)]
        distinct, inverse = torch.unique(keys, return_inverse=True)
        count = len(distinct)
        counts = torch.bincount(position_row[starts] * count + inverse, minlength=(slots + 1) * count)
        prefix_sentence = prefix_sentence[distinct // width]
        yield prefix_sentence, counts.view(slots + 1, count)
        prefix[starts] = inverse


def bleu_rows_of_ids(batch: IdBatch, max_order: int) -> np.ndarray:
    """Per-sentence BLEU statistics rows (:func:`ngrameval.metrics.bleu.statistics_rows`, on the host): matches
    clipped by the largest count in any reference, the closest reference length.

    >>> import torch
    >>> bleu_rows_of_ids(id_batch(torch.tensor([[4, 4, 5]]), torch.tensor([[4, 5, 5, 6]])), 2)[0, :4].tolist()
    [3.0, 4.0, 2.0, 1.0]
    """
    import torch

    matches = torch.zeros(max_order, batch.size, dtype=torch.int64, device=batch.candidate_tokens.device)
    for start, stop in batch.chunks():
        for n, (sentence, counts) in enumerate(ngram_counts(batch, start, stop, max_order)):
            matches[n].index_add_(0, sentence + start, torch.minimum(counts[-1], counts[:-1].amax(dim=0)))
    hyp_len = batch.candidate_len_host
    present = batch.present_host
    ref_len = chosen_reference_lengths(
        batch.reference_len_host[present], np.nonzero(present)[0], present.sum(axis=1), hyp_len, "closest"
    )
    return statistics_rows(hyp_len, ref_len, matches.T.cpu().numpy())


def _float_dtype(torch: Any, dtype: Any) -> torch.dtype:
    if dtype is None:
        return torch.float64
    if not isinstance(dtype, torch.dtype) or not dtype.is_floating_point:
        raise InputError(f"dtype must be a floating torch dtype (torch.float64, torch.float32, ...), got {dtype!r}")
    return dtype


@strict_options
def torch_sentence_bleu(
    candidates: Any,
    references: Any,
    *,
    pad_id: int | None = None,
    variant: str = "sacrebleu",
    max_order: int | None = None,
    weights: Any = None,
    smooth: Any = "default",
    smooth_value: float | None = None,
    epsilon: float | None = None,
    alpha: float | None = None,
    k: float | None = None,
    use_effective_order: bool | None = None,
    auto_reweigh: bool = False,
    dtype: torch.dtype | None = None,
) -> torch.Tensor:
    """One BLEU score in [0, 1] per candidate, a (B,) tensor on the candidates' device ((B, W) for W weight
    sets): ``ngrameval.bleu(..., sentence_level=True).sentence_scores`` for the same ids written as tokens, with
    the options of ``variant`` "sacrebleu" (``sacrebleu.sentence_bleu``) or "nltk" (NLTK's ``sentence_bleu``).
    The brevity penalty uses the closest reference length (the shorter on ties).

    ``candidates``: a (B, L) integer tensor, or a list of B 1-D tensors. ``references``: (B, L') for one
    reference each, (B, R, L') for up to R each (an all-padding reference is absent; a candidate whose
    references are all padding has one empty reference), or a list of B 1-D tensors or lists of them (each a
    reference, even an empty one). ``pad_id`` (None: no padding) is taken out wherever it is. ``dtype``: of the
    scores, float64 by default.

    >>> import torch
    >>> candidates = torch.tensor([[5, 6, 7, 8, 0], [1, 2, 0, 0, 0]])
    >>> references = torch.tensor([[5, 6, 7, 8, 0], [3, 4, 0, 0, 0]])
    >>> torch_sentence_bleu(candidates, references, pad_id=0).tolist()
    [1.0, 0.0]
    """
    options = {
        name: value for name, value in locals().items() if name not in ("candidates", "references", "pad_id", "dtype")
    }
    import torch

    check_choice("variant", variant, ("sacrebleu", "nltk"))
    resolved = resolve_options(**options)
    out_dtype = _float_dtype(torch, dtype)
    batch = id_batch(candidates, references, pad_id)
    rows = bleu_rows_of_ids(batch, resolved.statistics_order)
    scores = BLEU.segment_scores(Statistics(BLEU.name, rows, (), "", {"options": resolved}))
    return torch.as_tensor(
        scores if resolved.several_weights else scores[:, 0], dtype=out_dtype, device=batch.candidate_tokens.device
    )


def _padded(torch: Any, tokens: torch.Tensor, lengths: torch.Tensor, host: np.ndarray, fill: int) -> torch.Tensor:
    """Consecutive sequences as the rows of a tensor as wide as the longest (``host``: their lengths on the host,
    read without a device synchronization), ``fill`` after their ends."""
    width = int(host.max())
    rows = torch.repeat_interleave(torch.arange(len(lengths), device=tokens.device), lengths, output_size=len(tokens))
    columns = torch.arange(len(tokens), device=tokens.device) - (torch.cumsum(lengths, 0) - lengths)[rows]
    padded = torch.full((len(lengths), width), fill, dtype=torch.int64, device=tokens.device)
    padded[rows, columns] = tokens
    return padded


def lcs_lengths_of_ids(batch: IdBatch) -> torch.Tensor:
    """(B, R) int64: the LCS length of each candidate with each of its references (0 for absent ones), all pairs
    at once: row i is cummax_j(max(L[i-1][j], L[i-1][j-1] + match(i, j))), along the side with fewer positions.

    >>> import torch
    >>> lcs_lengths_of_ids(id_batch(torch.tensor([[1, 2, 3, 4]]), torch.tensor([[2, 4, 3, 4]]))).tolist()
    [[3]]
    """
    import torch

    device = batch.candidate_tokens.device
    candidates = _padded(torch, batch.candidate_tokens, batch.candidate_len, batch.candidate_len_host, _CANDIDATE_FILL)
    references = _padded(
        torch, batch.reference_tokens, batch.reference_len.reshape(-1), batch.reference_len_host, _REFERENCE_FILL
    )
    pairs = torch.nonzero(batch.present.reshape(-1)).squeeze(1)
    rows, columns = candidates[pairs // batch.slots], references[pairs]
    if rows.shape[1] > columns.shape[1]:
        rows, columns = columns, rows
    table = torch.zeros(len(pairs), columns.shape[1] + 1, dtype=torch.int32, device=device)
    best = torch.empty(len(pairs), columns.shape[1], dtype=torch.int32, device=device)
    where = torch.empty(len(pairs), columns.shape[1], dtype=torch.int64, device=device)
    for i in range(rows.shape[1]):
        step = torch.maximum(table[:, 1:], table[:, :-1] + (rows[:, i, None] == columns))
        torch.cummax(step, dim=1, out=(best, where))
        table[:, 1:] = best
    lengths = torch.zeros(batch.size * batch.slots, dtype=torch.int64, device=device)
    lengths[pairs] = table[:, -1].to(torch.int64)
    return lengths.view(batch.size, batch.slots)


@strict_options
def torch_sentence_rouge(
    candidates: Any,
    references: Any,
    *,
    pad_id: int | None = None,
    rouge_types: Any = ("rouge1", "rouge2", "rougeL"),
    dtype: torch.dtype | None = None,
) -> dict[str, torch.Tensor]:
    """ROUGE-N (any N) and ROUGE-L per candidate: rouge type -> (B, 3) tensor of precision, recall and F-measure
    on the candidates' device, as ``ngrameval.rouge(..., use_aggregator=False)`` and rouge-score's ``score_multi``
    give them for the ids written as decimal tokens (several references: the best F per type, the first on ties).
    Inputs, ``pad_id`` and ``dtype`` as in :func:`torch_sentence_bleu`.

    >>> import torch
    >>> scores = torch_sentence_rouge(torch.tensor([[5, 6, 7]]), torch.tensor([[5, 6, 8, 7]]),
    ...                               rouge_types=["rouge1", "rougeL"])
    >>> scores["rouge1"].tolist() == scores["rougeL"].tolist() == [[1.0, 0.75, 1.5 / 1.75]]
    True
    """
    import torch

    types = parse_rouge_types(rouge_types)
    unsupported = [t.name for t in types if t.kind not in ("n", "L")]
    if unsupported:
        raise InputError(
            f"rouge types {unsupported} are not available on token ids; use rougeN (N = 1, 2, ...) and rougeL"
        )
    out_dtype = _float_dtype(torch, dtype)
    batch = id_batch(candidates, references, pad_id)
    orders = sorted({t.size for t in types if t.kind == "n" and t.size is not None})  # (a rougeN type has its n)
    hits = {
        n: torch.zeros(batch.size, batch.slots, dtype=torch.int64, device=batch.candidate_tokens.device) for n in orders
    }
    for start, stop in batch.chunks() if orders else ():
        for n, (sentence, counts) in enumerate(ngram_counts(batch, start, stop, orders[-1]), 1):
            if n in hits:
                hits[n].index_add_(0, sentence + start, torch.minimum(counts[:-1], counts[-1]).T)
    if any(t.kind == "L" for t in types):
        hits[0] = lcs_lengths_of_ids(batch)  # (key 0: no n-gram order is 0)
    # Per type: its hits, and the candidates' and references' n-grams (rougeL: tokens, size 1; rougeN: n >= 1).
    hit = np.stack([hits[t.size or 0].cpu().numpy() for t in types]).astype(np.float64)
    sizes = np.array([t.size or 1 for t in types], np.float64)[:, None, None]
    prediction_total = np.maximum(batch.candidate_len_host[None, :, None] - sizes + 1, 0).repeat(batch.slots, 2)
    reference_total = np.maximum(batch.reference_len_host[None] - sizes + 1, 0)
    scores = score_statistics(OverlapCounts(types, hit, prediction_total, reference_total, batch.present_host))
    return {
        t.name: torch.as_tensor(scores[i], dtype=out_dtype, device=batch.candidate_tokens.device)
        for i, t in enumerate(types)
    }
