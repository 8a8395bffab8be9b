"""score_dataset on Ray Data (a local instance, two CPUs, no network): datasets and files of rows give
the in-memory result (ngrameval.<metric>(...)'s) to the last bit; a worker's error is the call's error;
a malformed row names its file and line; options asking for per-segment parts are refused by name."""

import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import ray

import ngrameval
from ngrameval.dataset import score_dataset
from tests.scale.common import CASES, assert_same_result, corpus, in_memory

# A local Ray instance is started for the module (tens of seconds).
pytestmark = pytest.mark.slow


# One Ray call per metric kind: row sums (BLEU, NLTK's last sentence), the two-pass metrics, a mean of
# segment scores (ROUGE), summed statistics of another rule (TER).
RAY_CASES = [
    case
    for case in CASES
    if case
    in [
        ("bleu", {"variant": "nltk", "smooth": "method4"}),
        ("nist", {"variant": "nltk"}),
        ("nist", {"variant": "mteval"}),
        ("cider", {"variant": "cider-d"}),
        ("rouge", {"variant": "rouge_score"}),
        ("ter", {}),
    ]
]


@pytest.fixture(scope="module", autouse=True)
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    yield
    ray.shutdown()


def rows(predictions, references):
    return [{"prediction": p, "references": r} for p, r in zip(predictions, references)]


@pytest.mark.parametrize("metric,options", RAY_CASES, ids=[f"{m}-{o}" for m, o in RAY_CASES])
def test_a_ray_dataset_gives_the_in_memory_result(shared, metric, options):
    predictions, references = corpus(shared, metric, options)
    dataset = ray.data.from_items(rows(predictions, references), override_num_blocks=4)
    result = score_dataset(dataset, metric, batch_size=37, **options)
    assert_same_result(result, in_memory(metric, options, predictions, references))


def write_files(directory, predictions, references):
    """The corpus in order across a JSON lines file, a Parquet file and a TSV file (one reference column each)."""
    first, second = 130, 260
    with open(directory / "part0.jsonl", "w", encoding="utf-8") as handle:
        for row in rows(predictions[:first], references[:first]):
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")
    pq.write_table(
        pa.table({"prediction": predictions[first:second], "references": references[first:second]}),
        directory / "part1.parquet",
    )
    with open(directory / "part2.tsv", "w", encoding="utf-8") as handle:
        handle.write("prediction\treferences\n")
        for prediction, group in zip(predictions[second:], references[second:]):
            handle.write(f"{prediction}\t{group[0]}\n")
    return [directory / "part0.jsonl", directory / "part1.parquet", directory / "part2.tsv"], references[:second] + [
        group[:1] for group in references[second:]
    ]


@pytest.mark.parametrize(
    "metric,options", [("bleu", {"variant": "nltk", "smooth": "method4"}), ("cider", {"variant": "cider-d"})]
)
def test_files_give_the_in_memory_result(shared, tmp_path, metric, options):
    predictions, references = corpus(shared, metric, options)
    paths, as_written = write_files(tmp_path, predictions, references)
    result = score_dataset(paths, metric, batch_size=50, **options)
    assert_same_result(result, in_memory(metric, options, predictions, as_written))


def test_a_glob_and_reference_columns(shared, tmp_path):
    predictions, references = corpus(shared, "bleu", {})
    for part, (start, stop) in enumerate([(0, 200), (200, 400)]):
        pq.write_table(
            pa.table(
                {
                    "hyp": predictions[start:stop],
                    "ref_a": [g[0] for g in references[start:stop]],
                    "ref_b": [g[1] for g in references[start:stop]],
                }
            ),
            tmp_path / f"part{part}.parquet",
        )
    result = score_dataset(str(tmp_path / "*.parquet"), "bleu", predictions="hyp", references=["ref_a", "ref_b"])
    assert_same_result(result, in_memory("bleu", {}, predictions, references))


@pytest.mark.parametrize(
    "text,message",
    [
        (
            '{"prediction": "a b", "references": ["a b"]}\n{"prediction": "a b", "references": ["a b"\n',
            r"bad\.jsonl, line 2: not JSON",
        ),
        (
            '{"prediction": "a b", "references": ["a b"]}\n{"prediction": "a b"}\n',
            r"bad\.jsonl, line 2: no field 'references'",
        ),
        (
            '{"prediction": "a b", "references": ["a b"]}\n\n{"prediction": 3, "references": ["a b"]}\n',
            r"bad\.jsonl, line 2: not JSON",
        ),
        (
            '{"prediction": "a b", "references": ["a b"]}\n{"prediction": 3, "references": ["a b"]}\n',
            r"bad\.jsonl, line 2: the prediction must be a string, got 3",
        ),
        (
            '{"prediction": "a b", "references": ["a b"]}\n{"prediction": "a", "references": []}\n',
            r"bad\.jsonl, line 2: references must be a string or a non-empty list of strings, got \[\]",
        ),
    ],
)
def test_a_malformed_row_names_its_file_and_line(tmp_path, text, message):
    path = tmp_path / "bad.jsonl"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=message):
        score_dataset(path, "bleu")


def test_a_malformed_tsv_row_names_its_file_and_line(tmp_path):
    path = tmp_path / "bad.tsv"
    path.write_text("prediction\treferences\na b\ta b\na b\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"bad\.tsv, line 3: 1 tab-separated fields, the header has 2"):
        score_dataset(path, "bleu")


def test_a_worker_error_is_the_call_error(shared):
    """A bad option value is found in the workers: the call raises that ValueError, with no score."""
    predictions, references = corpus(shared, "bleu", {})
    dataset = ray.data.from_items(rows(predictions, references), override_num_blocks=4)
    with pytest.raises(ValueError, match="smooth"):
        score_dataset(dataset, "bleu", smooth="no-such-method")


def test_a_worker_error_names_the_rows_of_its_file(tmp_path):
    path = tmp_path / "rows.jsonl"
    path.write_text('{"prediction": "a b", "references": ["a b"]}\n' * 3, encoding="utf-8")
    with pytest.raises(ValueError, match=r"rows\.jsonl, lines 1-3: .*smooth"):
        score_dataset(path, "bleu", smooth="no-such-method")


@pytest.mark.parametrize(
    "arguments,message",
    [
        (([{"prediction": "a", "references": ["a"]}], "bleu"), "dataset must be a ray.data.Dataset"),
        (("missing.jsonl", "bleu"), "no file 'missing.jsonl'"),
        (("data.csv", "bleu"), "no file 'data.csv'"),
    ],
)
def test_bad_arguments_fail_at_once(arguments, message):
    with pytest.raises(ValueError, match=message):
        score_dataset(*arguments)


def test_an_unknown_format_and_metric_fail_at_once(tmp_path):
    (tmp_path / "data.csv").write_text("prediction,references\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"data\.csv: unknown format"):
        score_dataset(tmp_path / "data.csv", "bleu")
    with pytest.raises(ValueError, match="unknown metric 'nope'"):
        score_dataset(ray.data.from_items([{"prediction": "a"}]), "nope")


def test_bad_options_fail_at_once():
    dataset = ray.data.from_items([{"prediction": "a", "references": ["a"]}])
    with pytest.raises(ValueError, match="unknown options for bleu: colour"):
        score_dataset(dataset, "bleu", colour=1)
    with pytest.raises(ValueError, match="batch_size"):
        score_dataset(dataset, "bleu", batch_size=0)
    with pytest.raises(ValueError, match="num_proc is for a datasets.Dataset"):
        score_dataset(dataset, "bleu", num_proc=2)
    with pytest.raises(ValueError, match="no column 'references'"):
        score_dataset(ray.data.from_items([{"prediction": "a"}]), "bleu")


@pytest.mark.parametrize(
    "metric,options,message",
    [
        (
            "bleu",
            {"sentence_level": True},
            (
                r"^sentence_level=True: a corpus scored in shards gives the corpus-level "
                r"result of ngrameval\.bleu \(sentence_level=False\)"
            ),
        ),
        ("cider", {"explain": True}, r"^explain=True: .* \(explain=False\)"),
        ("rouge", {"use_aggregator": False}, r"^use_aggregator=False: .* \(use_aggregator=True\)"),
        ("rouge", {"bootstrap": True}, r"^bootstrap=True: .* \(bootstrap=None\)"),
        (
            "rouge",
            {"variant": "rouge155"},
            (
                r"^variant='rouge155' averages by ROUGE-1\.5\.5\.pl's bootstrap .*"
                r"aggregate='mean'; pass that"
            ),
        ),
        ("rouge", {"variant": "rouge155", "aggregate": "bootstrap"}, r"^variant='rouge155' averages by"),
    ],
)
def test_options_for_per_segment_parts_fail_at_once(metric, options, message):
    """Options asking for what no sum of statistics keeps are refused by name, before any work."""
    dataset = ray.data.from_items([{"prediction": "a", "references": ["a"]}])
    with pytest.raises(ValueError, match=message):
        score_dataset(dataset, metric, **options)


def test_options_at_the_merged_value_are_taken(shared):
    """sentence_level=False, and ROUGE-1.5.5 with aggregate='mean': the in-memory call with the same options."""
    predictions, references = corpus(shared, "rouge", {})
    dataset = ray.data.from_items(rows(predictions[:60], references[:60]), override_num_blocks=2)
    options = {"variant": "rouge155", "aggregate": "mean", "rouge_types": ["rouge1", "rougeL"]}
    assert_same_result(
        score_dataset(dataset, "rouge", batch_size=25, **options),
        ngrameval.rouge(predictions[:60], references[:60], **options),
    )
    assert_same_result(
        score_dataset(dataset, "bleu", batch_size=25, sentence_level=False, explain=False),
        ngrameval.bleu(predictions[:60], references[:60]),
    )
