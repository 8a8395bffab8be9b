"""A file's name means one thing everywhere (#25): the command line and ngrameval.score_dataset read files through
ngrameval.leaderboard.reading. A .txt file is plain text, one segment a line (a tab in it is part of the segment);
rows with columns are .tsv (with a header) or .jsonl; score_dataset refuses a .txt, which holds no columns, at
once, where it used to read it as a TSV."""

import gzip
import json

import pytest

import ngrameval
from ngrameval import InputError
from ngrameval.frontends.cli import main
from ngrameval.leaderboard.reading import Source, read_source, table_format, table_rows

PREDICTIONS = ["the cat\tsat on the mat ", "a dog barks\r", "it rains"]
REFERENCES = ["the cat sat on the mat", "a dog barks loudly", "it is raining"]


def _corpus_score(capsys, arguments):
    assert main(["score", *arguments, "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)["systems"][0]["scores"]["bleu"]["score"]


def test_a_txt_file_is_one_segment_a_line_even_with_tabs(tmp_path, capsys):
    system, reference = tmp_path / "system.txt", tmp_path / "reference.txt"
    system.write_text("".join(line + "\n" for line in PREDICTIONS), encoding="utf-8")
    reference.write_text("".join(line + "\n" for line in REFERENCES), encoding="utf-8")
    segments = [line.rstrip() for line in PREDICTIONS]
    assert read_source(Source(str(system))) == segments
    assert (
        _corpus_score(capsys, ["-r", str(reference), "-s", str(system)])
        == ngrameval.bleu(segments, [[r] for r in REFERENCES]).bleu
    )
    with pytest.raises(InputError, match="is plain text .* and has no field 'prediction'"):
        read_source(Source(str(system), "prediction"))


def test_score_dataset_refuses_a_txt_file_at_once(tmp_path):
    path = tmp_path / "rows.txt"
    path.write_text("prediction\treferences\nthe cat\tthe cat\n", encoding="utf-8")
    with pytest.raises(
        InputError,
        match=r"rows\.txt: unknown format \(a \.txt file is plain text, one segment a "
        r"line, with no columns\); files of rows must end in \.parquet, \.jsonl",
    ):
        ngrameval.score_dataset(path, "bleu")
    with pytest.raises(InputError, match="is plain text, one segment a line, with no fields"):
        list(table_rows(str(path), ["prediction"]))


def test_names_mean_the_same_formats_everywhere():
    assert [
        table_format(name) for name in ("a.txt", "a.txt.gz", "a.tsv", "a.TSV.gz", "a.jsonl", "a.json.gz", "a.en", "-")
    ] == [None, None, "tsv", "tsv", "jsonl", "jsonl", None, None]


def _write_tsv(path):
    # CRLF line ends and trailing spaces: every reader strips them the same way.
    text = "prediction\treferences\r\n" + "".join(
        f"{p.replace(chr(9), ' ')} \t{r}\r\n" for p, r in zip(PREDICTIONS, REFERENCES)
    )
    path.write_bytes(gzip.compress(text.encode("utf-8")) if path.suffix == ".gz" else text.encode("utf-8"))
    return path


@pytest.mark.parametrize("name", ["rows.tsv", "rows.tsv.gz"])
def test_the_command_line_reads_a_tsv_as_its_rows(tmp_path, capsys, name):
    path = _write_tsv(tmp_path / name)
    rows = [row for _, row in table_rows(str(path), ["prediction", "references"])]
    predictions = [row["prediction"] for row in rows]
    assert predictions == [p.replace("\t", " ").rstrip() for p in PREDICTIONS]
    assert (
        _corpus_score(capsys, ["-r", f"{path}:references", "-s", f"{path}:prediction"])
        == ngrameval.bleu(predictions, [[row["references"]] for row in rows]).bleu
    )


@pytest.mark.slow
def test_score_dataset_reads_a_tsv_as_the_command_line_does(tmp_path, capsys):
    """(slow: starts Ray) The same rows, the same score, to the last bit."""
    import ray

    path = _write_tsv(tmp_path / "rows.tsv")
    expected = _corpus_score(capsys, ["-r", f"{path}:references", "-s", f"{path}:prediction"])
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False, configure_logging=False)
    try:
        assert ngrameval.score_dataset(path, "bleu").bleu == expected
    finally:
        ray.shutdown()
