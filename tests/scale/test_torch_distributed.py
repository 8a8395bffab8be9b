"""score_across_ranks with two real gloo processes on CPU (torch.multiprocessing.spawn, a file store:
no network): every rank gets the single-process result of both ranks' rows (ngrameval.<metric>(...)'s), to
the last bit; a rank with bad input makes both ranks raise its error."""

import json

import pytest
import torch.distributed as dist
import torch.multiprocessing as mp

from ngrameval.distributed import score_across_ranks
from tests.scale.common import assert_same_result, corpus, in_memory

WORLD = 2
SPLIT = 170  # rank 0 takes the first 170 rows, rank 1 the rest
TORCH_CASES = [
    ("bleu", {"variant": "nltk", "smooth": "method4"}),
    ("nist", {"variant": "nltk"}),
    ("cider", {"variant": "cider-d"}),
    ("chrf", {"word_order": 2}),
    ("rouge", {"variant": "rouge_score"}),
]


def rank_main(rank, store, out, cases):
    dist.init_process_group("gloo", init_method=f"file://{store}", rank=rank, world_size=WORLD)
    results = []
    try:
        for metric, options, predictions, references, bad_rank in cases:
            mine = slice(0, SPLIT) if rank == 0 else slice(SPLIT, None)
            hyps, refs = predictions[mine], references[mine]
            if rank == bad_rank:
                refs = refs[:-1]  # one reference group short
            try:
                result = score_across_ranks(metric, hyps, refs, **options)
                results.append({"class": type(result).__name__, "fields": result.as_dict()})
            except ValueError as error:
                results.append({"error": str(error)})
    finally:
        dist.destroy_process_group()
    with open(f"{out}.{rank}", "w", encoding="utf-8") as handle:
        json.dump(results, handle)


@pytest.fixture(scope="module")
def per_rank(shared, tmp_path_factory):
    """Each rank's results for TORCH_CASES, then for NIST with bad input on rank 1 (one spawn: starting
    processes that import torch is most of the time)."""
    cases = [(metric, options, *corpus(shared, metric, options), -1) for metric, options in TORCH_CASES]
    cases.append(("nist", {"variant": "nltk"}, *corpus(shared, "nist", {}), 1))
    directory = tmp_path_factory.mktemp("ranks")
    mp.spawn(rank_main, args=(str(directory / "store"), str(directory / "out"), cases), nprocs=WORLD)
    return [json.loads((directory / f"out.{rank}").read_text(encoding="utf-8")) for rank in range(WORLD)]


@pytest.mark.parametrize("case", range(len(TORCH_CASES)), ids=[f"{m}-{o}" for m, o in TORCH_CASES])
def test_two_gloo_ranks_give_the_single_process_score(shared, per_rank, case):
    metric, options = TORCH_CASES[case]
    predictions, references = corpus(shared, metric, options)
    expected = in_memory(metric, options, predictions, references)
    # JSON keeps floats to the last bit (repr); the expected fields go through it too (tuples become lists).
    fields = json.loads(json.dumps(expected.as_dict()))
    for rank in range(WORLD):
        assert per_rank[rank][case] == {"class": type(expected).__name__, "fields": fields}, rank


def test_a_rank_with_bad_input_fails_every_rank(per_rank):
    for rank in range(WORLD):
        assert per_rank[rank][len(TORCH_CASES)]["error"].startswith("rank 1: ")


def test_without_a_process_group_this_process_is_scored(shared):
    predictions, references = corpus(shared, "bleu", {})
    assert_same_result(
        score_across_ranks("bleu", predictions, references), in_memory("bleu", {}, predictions, references)
    )
    with pytest.raises(ValueError, match="torch.distributed is not initialized"):
        score_across_ranks("bleu", predictions, references, group=object())


def test_options_for_per_segment_parts_fail_at_once(shared):
    predictions, references = corpus(shared, "nist", {})
    with pytest.raises(
        ValueError,
        match=r"^sentence_level=True: a corpus scored in shards gives the corpus-level "
        r"result of ngrameval\.nist",
    ):
        score_across_ranks("nist", predictions, references, sentence_level=True)
    with pytest.raises(ValueError, match="unknown options for nist: colour"):
        score_across_ranks("nist", predictions, references, colour=1)
