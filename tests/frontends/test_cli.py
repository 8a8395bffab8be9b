"""The ``ngrameval`` command: ``score`` (every format, options, inputs as sacrebleu's command line reads them,
paired tests, segment scores, clear errors, the WMT22 BLEU the organisers published), and the older
``example``, ``bleu`` and ``nist`` commands (--json output equal to the library, exit status 2 on bad input)."""

import csv
import gzip
import io
import json
import math
import os
import random
import re
import subprocess
import sys

import pytest
from sacrebleu.metrics import BLEU, TER

import ngrameval
from ngrameval import significance
from ngrameval.frontends.cli import EXAMPLES, main
from ngrameval.leaderboard.reading import Source, read_corpus, split_lines
from ngrameval.metric import sentence_scores, statistics
from ngrameval.metrics.bleu import VARIANTS as BLEU_VARIANTS
from ngrameval.metrics.nist import VARIANTS as NIST_VARIANTS
from tests.data import WMT22, read_tsv

SYSTEM = ["The cat sat on the mat.", "A dog barks at the postman", "it is 3.5 km , not 4"]
OTHER_SYSTEM = ["The cat is on the mat.", "The dog barks at a postman.", "It is 3.5 km."]
REFERENCE_FILES = [
    ["The cat is on the mat.", "The dog barks at the postman.", "It is 3.5 km, not 4."],
    ["There is a cat on the mat.", "A dog is barking at the mailman", "it's 3.5 km"],
]
REFERENCES = [list(refs) for refs in zip(*REFERENCE_FILES)]


def _run(*args, stdin=None):
    return subprocess.run(
        [sys.executable, "-m", "ngrameval", *map(str, args)], capture_output=True, text=True, input=stdin, check=False
    )


def _write(path, lines):
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def files(tmp_path):
    """The system file and the reference files, one segment a line."""
    return _write(tmp_path / "system.txt", SYSTEM), [
        _write(tmp_path / f"ref{i}.txt", lines) for i, lines in enumerate(REFERENCE_FILES)
    ]


@pytest.fixture
def two_systems(files, tmp_path):
    """Arguments scoring system.txt (the baseline) and other.txt against both references."""
    system, references = files
    other = _write(tmp_path / "other.txt", OTHER_SYSTEM)
    return ["score", "-r", *map(str, references), "-s", str(system), str(other)]


def _json(capsys, argv):
    assert main(argv + ["--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


# --------------------------------------------------------------------------- score: output formats


def test_json_is_one_object_with_every_system_in_order_and_the_library_scores(capsys, two_systems):
    data = _json(capsys, two_systems + ["-m", "bleu", "rouge", "nist"])
    assert data["baseline"] is None
    assert [system["name"] for system in data["systems"]] == ["system.txt", "other.txt"]
    for system, predictions in zip(data["systems"], (SYSTEM, OTHER_SYSTEM)):
        assert list(system["scores"]) == [
            "bleu",
            "rouge.rouge1",
            "rouge.rouge2",
            "rouge.rougeL",
            "rouge.rougeLsum",
            "nist",
        ]
        for entry in system["scores"].values():
            assert set(entry) == {"score", "signature", "mean", "ci", "p_value"}
            assert entry["mean"] is entry["ci"] is entry["p_value"] is None
        assert system["scores"]["bleu"]["score"] == ngrameval.bleu(predictions, REFERENCES).bleu
        assert system["scores"]["bleu"]["signature"] == ngrameval.bleu(predictions, REFERENCES).signature
        assert system["scores"]["nist"]["score"] == ngrameval.nist(predictions, REFERENCES).nist
        rouge = ngrameval.rouge(predictions, REFERENCES).as_dict()
        for output in ("rouge1", "rouge2", "rougeL", "rougeLsum"):
            assert system["scores"][f"rouge.{output}"]["score"] == pytest.approx(rouge[output], abs=1e-12)


def test_text_markdown_latex_show_every_system_and_signature(capsys, two_systems):
    for output_format, row in (
        ("text", r"^other\.txt\s+0\.\d{4}$"),
        ("markdown", r"^\| other\.txt \| 0\.\d{4} \|$"),
        ("latex", r"^other\.txt & 0\.\d{4} \\\\$"),
    ):
        assert main(two_systems + ["--format", output_format]) == 0
        out = capsys.readouterr().out
        assert re.search(row, out, re.MULTILINE), (output_format, out)
        assert "system.txt" in out and ngrameval.bleu(SYSTEM, REFERENCES).signature in out
    assert main(two_systems + ["--format", "latex"]) == 0
    assert "\\begin{tabular}{lr}" in capsys.readouterr().out


def test_scale_and_width_change_the_display_only(capsys, two_systems):
    assert main(two_systems + ["--scale", "100", "--width", "1"]) == 0
    expected = f"{100 * ngrameval.bleu(OTHER_SYSTEM, REFERENCES).bleu:.1f}"
    assert re.search(rf"^other\.txt\s+{re.escape(expected)}$", capsys.readouterr().out, re.MULTILINE)
    assert (
        _json(capsys, two_systems + ["--scale", "100"])["systems"][1]["scores"]["bleu"]["score"]
        == ngrameval.bleu(OTHER_SYSTEM, REFERENCES).bleu
    )


@pytest.mark.parametrize("output_format, delimiter", [("csv", ","), ("tsv", "\t")])
def test_csv_and_tsv_hold_one_row_per_system(capsys, two_systems, output_format, delimiter):
    assert main(two_systems + ["--format", output_format, "--confidence", "--confidence-n", "50"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out), delimiter=delimiter))
    assert [row["system"] for row in rows] == ["system.txt", "other.txt"]
    assert float(rows[1]["bleu"]) == ngrameval.bleu(OTHER_SYSTEM, REFERENCES).bleu
    assert float(rows[1]["bleu.ci_low"]) <= float(rows[1]["bleu.mean"]) <= float(rows[1]["bleu.ci_high"])
    assert rows[1]["bleu.p_value"] == ""


def test_output_file(tmp_path, two_systems, capsys):
    target = tmp_path / "board.md"
    assert main(two_systems + ["--format", "markdown", "-o", str(target)]) == 0
    assert capsys.readouterr().out == ""
    assert target.read_text(encoding="utf-8").startswith("| System | bleu |")


def test_sentence_level_is_one_json_line_per_segment_per_system(capsys, two_systems):
    assert main(two_systems + ["-m", "bleu", "cider", "--sentence-level"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["system"], r["segment"]) for r in records] == [
        (name, i) for name in ("system.txt", "other.txt") for i in (1, 2, 3)
    ]
    for name, predictions in (("system.txt", SYSTEM), ("other.txt", OTHER_SYSTEM)):
        for metric in ("bleu", "cider"):
            expected, _ = sentence_scores(metric, predictions, REFERENCES)
            assert [r["scores"][metric] for r in records if r["system"] == name] == expected[:, 0].tolist()
    # A BLEU segment score is sacrebleu's sentence_bleu (the effective order), on its 0-100 scale.
    sacrebleu_scores = [
        BLEU(effective_order=True).sentence_score(hypothesis, references).score
        for hypothesis, references in zip(OTHER_SYSTEM, REFERENCES)
    ]
    assert [100 * r["scores"]["bleu"] for r in records if r["system"] == "other.txt"] == pytest.approx(
        sacrebleu_scores, rel=1e-12
    )


# --------------------------------------------------------------------------- score: options and tests


@pytest.mark.parametrize(
    "option, metric, keyword",
    [
        ("bleu.tokenize=none", "bleu", {"tokenize": "none"}),
        ("bleu.max_order=3", "bleu", {"max_order": 3}),
        ("bleu.variant=nltk", "bleu", {"variant": "nltk"}),
        ("rouge.use_stemmer=true", "rouge", {"use_stemmer": True}),
        ('rouge.rouge_types=["rouge1","rougeL"]', "rouge", {"rouge_types": ["rouge1", "rougeL"]}),
    ],
)
def test_metric_options_are_json_or_strings(capsys, two_systems, option, metric, keyword):
    scores = _json(capsys, two_systems + ["-m", metric, "--option", option])["systems"][0]["scores"]
    result = getattr(ngrameval, metric)(SYSTEM, REFERENCES, **keyword).as_dict()
    expected = (
        {metric: result[metric]}
        if metric == "bleu"
        else {f"rouge.{t}": result[t] for t in keyword.get("rouge_types", ["rouge1", "rouge2", "rougeL", "rougeLsum"])}
    )
    assert {key: entry["score"] for key, entry in scores.items()} == pytest.approx(expected, abs=1e-12)
    assert all(entry["signature"] == result["signature"] for entry in scores.values())


@pytest.mark.parametrize("test, flag", [("bs", "--paired-bs"), ("ar", "--paired-ar")])
def test_paired_tests_equal_the_significance_module(capsys, two_systems, test, flag):
    data = _json(capsys, two_systems + ["-m", "bleu", "rouge", flag, "--paired-n", "200", "--seed", "7"])
    assert data["baseline"] == "system.txt"
    for metric in ("bleu", "rouge"):
        stats = [statistics(metric, predictions, REFERENCES) for predictions in (SYSTEM, OTHER_SYSTEM)]
        expected = significance.paired_test(stats[0], stats[1:], test=test, n_samples=200, seed=7)
        for system, results in zip(data["systems"], expected):
            for output, result in results.items():
                entry = system["scores"][metric if metric == "bleu" else f"rouge.{output}"]
                assert (entry["score"], entry["mean"], entry["p_value"]) == (result.score, result.mean, result.p_value)
                assert entry["ci"] == (list(result.ci) if result.ci else None)
                assert entry["signature"] == significance.with_suffix(
                    stats[0].signature, significance.signature_suffix(test, 200, 7)
                )
    assert data["systems"][0]["scores"]["bleu"]["p_value"] is None
    assert 0 < data["systems"][1]["scores"]["bleu"]["p_value"] <= 1


def test_paired_test_marks_systems_not_significantly_different_from_the_baseline(capsys, two_systems):
    assert main(two_systems + ["--paired-bs", "--paired-n", "100"]) == 0
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if "other.txt" in line)
    assert row.split()[:2] == ["1", "other.txt"]  # one cluster: not significantly different from the baseline
    assert row.endswith("\u2020")  # 3 segments: not significant
    assert "system.txt (baseline)" in out and "not significantly different from the baseline" in out


def test_paired_test_marks_say_better_or_worse_by_each_metrics_direction(capsys, tmp_path):
    """sacrebleu's star says only "significantly different"; ngrameval adds ▲ (better than the baseline) or ▼
    (worse) by each metric's direction: a system with fewer TER edits than the baseline is better, though its
    TER is lower. Which system has fewer edits and the higher BLEU is sacrebleu's word, computed here."""
    rng = random.Random(24)
    words = "the a cat dog sat on mat barks at night it rains we go home now".split()
    references = [" ".join(rng.choice(words) for _ in range(12)) for _ in range(40)]
    systems = {
        "baseline.txt": [" ".join(line.split()[:-3]) for line in references],  # a few words missing
        "close.txt": references,  # no edits
        "far.txt": [" ".join(rng.choice(words) for _ in range(12)) for _ in references],  # many edits
    }
    reference = _write(tmp_path / "ref.txt", references)
    arguments = ["score", "-r", str(reference), "-s", *(str(_write(tmp_path / n, t)) for n, t in systems.items())]
    arguments += ["-m", "bleu", "ter", "--paired-bs", "--paired-n", "200", "--scale", "100"]
    data = _json(capsys, arguments)
    assert main(arguments) == 0
    text = capsys.readouterr().out
    peers = {"bleu": BLEU(), "ter": TER()}
    theirs = {
        name: {key: peer.corpus_score(lines, [references]).score for key, peer in peers.items()}
        for name, lines in systems.items()
    }
    assert theirs["close.txt"]["ter"] < theirs["baseline.txt"]["ter"] < theirs["far.txt"]["ter"]
    assert theirs["close.txt"]["bleu"] > theirs["baseline.txt"]["bleu"] > theirs["far.txt"]["bleu"]
    expected = {"close.txt": "\u25b2", "far.txt": "\u25bc"}  # better, worse: both metrics agree
    for system in data["systems"][1:]:
        row = next(line for line in text.splitlines() if line.split()[1:2] == [system["name"]])
        cells = dict(zip(["bleu", "ter"], re.split(r"\s{2,}", row.strip())[-2:]))
        for key in ("bleu", "ter"):
            assert system["scores"][key]["p_value"] <= 0.05
            # sacrebleu's text and star kept as they are, the direction's mark after them.
            assert re.search(r"\(p = \d\.\d{4}\)\*(.)$", cells[key]).group(1) == expected[system["name"]], cells
    assert "\u25b2: significantly better than the baseline, \u25bc: significantly worse than the baseline" in text
    assert "better is higher, or lower for ter" in text
    assert main([*arguments, "--format", "latex"]) == 0  # LaTeX's own triangles, no package needed
    latex = capsys.readouterr().out
    assert "*$^\\bigtriangleup$ & " in latex and "*$^\\bigtriangledown$ \\\\" in latex


def test_confidence_intervals_and_seed_default(capsys, two_systems, monkeypatch):
    monkeypatch.delenv("SACREBLEU_SEED", raising=False)
    entry = _json(capsys, two_systems + ["--confidence", "--confidence-n", "100"])["systems"][1]["scores"]["bleu"]
    expected = significance.confidence_interval(statistics("bleu", OTHER_SYSTEM, REFERENCES), 100, seed=12345)["bleu"]
    assert (entry["mean"], entry["ci"]) == (expected.mean, list(expected.ci))
    assert "|bs:100|seed:12345|case:" in entry["signature"]  # where sacrebleu writes them
    monkeypatch.setenv("SACREBLEU_SEED", "3")
    assert (
        "|seed:3|"
        in _json(capsys, two_systems + ["--confidence", "--confidence-n", "100"])["systems"][1]["scores"]["bleu"][
            "signature"
        ]
    )


# --------------------------------------------------------------------------- score: inputs


def test_files_split_as_sacrebleus_command_line_splits_them(tmp_path):
    """Lines end at \\n only (a \\r\\n loses its \\r to rstrip); \\r, U+2028, U+0085, \\x0b, \\x1c inside a
    line do not end it: the same segments and the same BLEU as the sacrebleu command line."""
    system = "the cat\rsat on the mat \r\na dog\u2028barks at\x0bthe postman\nit is\x1c3.5 km\u0085 not 4\t \n"
    reference = "the cat sat\ron the mat\r\na dog barks\u2028at the postman\nit is 3.5\x1ckm\u0085not 4\n"
    (tmp_path / "sys.txt").write_bytes(system.encode("utf-8"))
    (tmp_path / "ref.txt").write_bytes(reference.encode("utf-8"))
    assert len(system.splitlines()) != 3 and len(split_lines(system)) == 3
    sacrebleu = [sys.executable, "-m", "sacrebleu", str(tmp_path / "ref.txt"), "-i", str(tmp_path / "sys.txt"), "-b"]
    per_segment = subprocess.run(sacrebleu + ["--sentence-level"], capture_output=True, text=True, check=True)
    corpus = subprocess.run(sacrebleu + ["-w", "6"], capture_output=True, text=True, check=True)
    ours = _run("score", "-r", tmp_path / "ref.txt", "-s", tmp_path / "sys.txt", "--scale", "100", "--width", "6")
    assert ours.returncode == 0, ours.stderr
    segments = _run("score", "-r", tmp_path / "ref.txt", "-s", tmp_path / "sys.txt", "--sentence-level")
    assert len(segments.stdout.splitlines()) == len(per_segment.stdout.splitlines()) == 3
    assert ours.stdout.splitlines()[2].split()[-1] == corpus.stdout.strip()


def test_standard_input_gzip_and_globs(tmp_path, files, capsys, monkeypatch):
    system, references = files
    compressed = tmp_path / "ref0.txt.gz"
    compressed.write_bytes(gzip.compress(references[0].read_bytes()))
    (tmp_path / "runs").mkdir()
    for name in ("b.txt", "a.txt"):
        _write(tmp_path / "runs" / name, SYSTEM)
    expected = ngrameval.bleu(SYSTEM, REFERENCES).bleu
    data = _json(
        capsys, ["score", "-r", str(compressed), str(tmp_path / "ref[1].txt"), "-s", str(tmp_path / "runs" / "*.txt")]
    )
    assert [(s["name"], s["scores"]["bleu"]["score"]) for s in data["systems"]] == [
        ("a.txt", expected),
        ("b.txt", expected),
    ]
    completed = _run("score", "-r", *references, "-s", "-", "--format", "json", stdin="\n".join(SYSTEM) + "\n")
    assert completed.returncode == 0, completed.stderr
    from_stdin = json.loads(completed.stdout)["systems"][0]
    assert (from_stdin["name"], from_stdin["scores"]["bleu"]["score"]) == ("stdin", expected)


def test_repeated_options_add_systems_and_references(capsys, files, tmp_path):
    system, (first, second) = files
    other = _write(tmp_path / "other.txt", OTHER_SYSTEM)
    data = _json(capsys, ["score", "-r", str(first), "-s", str(system), "-r", str(second), "-s", f"mine={other}"])
    assert [s["name"] for s in data["systems"]] == ["system.txt", "mine"]
    assert data["systems"][1]["scores"]["bleu"]["score"] == ngrameval.bleu(OTHER_SYSTEM, REFERENCES).bleu


def test_jsonl_and_tsv_fields(tmp_path, capsys):
    records = [
        {"id": i, "hyp": s, "other": o, "refs": list(r)}
        for i, (s, o, r) in enumerate(zip(SYSTEM, OTHER_SYSTEM, REFERENCES))
    ]
    (tmp_path / "data.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    (tmp_path / "refs.tsv").write_text(
        "first\tsecond\n" + "".join(f"{a}\t{b}\n" for a, b in REFERENCES), encoding="utf-8"
    )
    jsonl = tmp_path / "data.jsonl"
    for references in ([f"{jsonl}:refs"], [f"{tmp_path / 'refs.tsv'}:first", f"{tmp_path / 'refs.tsv'}:second"]):
        data = _json(capsys, ["score", "-r", *references, "-s", f"{jsonl}:hyp", f"{jsonl}:other"])
        assert [s["name"] for s in data["systems"]] == ["data.jsonl:hyp", "data.jsonl:other"]
        assert [s["scores"]["bleu"]["score"] for s in data["systems"]] == [
            ngrameval.bleu(SYSTEM, REFERENCES).bleu,
            ngrameval.bleu(OTHER_SYSTEM, REFERENCES).bleu,
        ]
    data = _json(
        capsys, ["score", "-r", str(tmp_path / "refs.tsv"), "--ref-field", "first", "-s", str(jsonl), "--field", "hyp"]
    )
    assert data["systems"][0]["scores"]["bleu"]["score"] == ngrameval.bleu(SYSTEM, REFERENCE_FILES[0]).bleu


def test_one_file_twice_needs_names_and_nothing_is_printed_on_stderr_off_a_terminal(files):
    system, references = files
    completed = _run(
        "score", "-r", *references, "-s", system, "-m", "bleu", "rouge", "--paired-bs", "-s", system, "--format", "json"
    )
    assert completed.returncode == 2 and "given twice" in completed.stderr  # the same file twice: ambiguous names
    completed = _run("score", "-r", *references, "-s", system, f"again={system}", "--paired-bs")
    assert completed.returncode == 0 and completed.stderr == ""


def _stderr_on_a_terminal(arguments):
    """What the command writes to standard error when that is a 100-column terminal (a pseudo-terminal)."""
    import fcntl
    import pty
    import struct
    import termios
    import threading

    master, terminal = pty.openpty()
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    chunks = []

    def read():
        try:
            while True:
                chunk = os.read(master, 4096)
                if not chunk:
                    return
                chunks.append(chunk)
        except OSError:  # the terminal closed
            return

    reader = threading.Thread(target=read)
    reader.start()
    # TQDM_DELAY=0: the bar from the start, however fast the run (it waits a second by default).
    completed = subprocess.run(
        [sys.executable, "-m", "ngrameval", *arguments],
        stderr=terminal,
        stdout=subprocess.DEVNULL,
        check=False,
        env={**os.environ, "TQDM_DELAY": "0"},
    )
    os.close(terminal)
    reader.join(10)
    os.close(master)
    assert completed.returncode == 0
    return b"".join(chunks).decode("utf-8", "replace")


@pytest.mark.slow
def test_progress_bar_on_a_terminal_for_long_runs_unless_quiet(shared):
    references = str(shared(f"{WMT22}/txt/references/generaltest2022.de-en.ref.A.en"))
    systems = str(shared(f"{WMT22}/txt/system-outputs")) + "/generaltest2022.de-en.hyp.*.en"
    arguments = [
        "score",
        "-r",
        references,
        "-s",
        systems,
        "-m",
        "bleu",
        "rouge",
        "nist",
        "--paired-bs",
        "--format",
        "json",
    ]
    assert re.search(r"ngrameval: 100%\|.*\| 30/30", _stderr_on_a_terminal(arguments))
    assert _stderr_on_a_terminal(arguments + ["--quiet"]).strip() == ""


# --------------------------------------------------------------------------- score: bad input


@pytest.mark.parametrize(
    "arguments, message",
    [
        (["-s", "{dir}/missing.txt"], "missing.txt: no such file"),
        (["-s", "{dir}/empty.txt"], "system {dir}/empty.txt is empty"),
        (["-s", "{dir}/system.txt", "{dir}/short.txt"], "{dir}/short.txt has 1 lines but {dir}/system.txt has 3"),
        (["-s", "{dir}/nomatch*.txt"], "no file matches"),
        (["-s", "{dir}/latin1.txt"], "latin1.txt: not UTF-8 text"),
        (["-s", "{dir}/system.txt", "-m", "bleurt"], "unknown metric 'bleurt'; valid metrics: bleu"),
        (["-s", "{dir}/system.txt", "--option", "bleu.colour=red"], "unknown options for bleu: colour"),
        (["-s", "{dir}/system.txt", "--option", "rouge.use_stemmer=true"], "which is not among the metrics"),
        (["-s", "{dir}/system.txt", "--option", "tokenize=none"], "write METRIC.NAME=VALUE"),
        (["-s", "{dir}/system.txt", "--option", "bleu.smooth=bogus"], "unknown smooth"),
        (["-s", "{dir}/system.txt", "{dir}/other.txt", "--paired-bs", "--paired-n", "0"], "must be a positive number"),
        (["-s", "{dir}/system.txt", "--paired-ar"], "give at least two systems"),
        (["-s", "{dir}/system.txt", "--paired-n", "10"], "--paired-n needs --paired-bs or --paired-ar"),
        (["-s", "{dir}/system.txt", "--sentence-level", "--confidence"], "--sentence-level prints JSON lines"),
        (
            ["-s", "{dir}/system.txt", "--sentence-level", "--format", "csv"],
            "it takes no --paired-bs, --paired-ar, --confidence or other --format",
        ),
        (["-s", "{dir}/system.txt", "--seed", "-1"], "seed must be"),
        (["-s", "{dir}/data.jsonl"], "name the field to read"),
        (["-s", "{dir}/data.jsonl:hyp"], "line 2: not JSON"),
        (["-s", "{dir}/system.txt:hyp"], "system.txt:hyp: no such file"),
        (["-s", "{dir}/system.txt", "--format", "pdf"], "invalid choice: 'pdf'"),
    ],
)
def test_bad_input_is_one_clear_line_and_a_non_zero_status(files, tmp_path, arguments, message):
    _, references = files
    (tmp_path / "empty.txt").write_text("", encoding="utf-8")
    _write(tmp_path / "short.txt", ["one line only"])
    _write(tmp_path / "other.txt", OTHER_SYSTEM)
    (tmp_path / "latin1.txt").write_bytes("caf\u00e9\n".encode("latin-1"))
    (tmp_path / "data.jsonl").write_text('{"hyp": "a"}\nnot json\n', encoding="utf-8")
    completed = _run("score", "-r", *references, *(a.format(dir=tmp_path) for a in arguments))
    assert completed.returncode == 2
    assert message.format(dir=tmp_path) in completed.stderr
    assert "Traceback" not in completed.stderr and completed.stdout == ""


# --------------------------------------------------------------------------- WMT22 (issue part 4)


@pytest.mark.slow
def test_wmt22_de_en_bleu_equals_the_organisers_scores(shared):
    """bleu-A, bleu-B (one reference) and bleu-all (both) of every de-en system, as
    scores/automatic-scores.tsv publishes them (sacrebleu default BLEU: 13a, mixed case, exp smoothing).
    The TSV prints the floats in full (13 to 15 decimals); ngrameval's BLEU is on 0-1, and times 100 it
    differs from sacrebleu's percent arithmetic in the last bits only, so the match is to 12 decimals."""
    rows = read_tsv(shared, f"{WMT22}/scores/automatic-scores.tsv")
    published = {
        (row["system"], row["metric"]): row["score"]
        for row in rows
        if row["pair"] == "de-en" and row["metric"] in ("bleu-A", "bleu-B", "bleu-all")
    }
    references = {which: str(shared(f"{WMT22}/txt/references/generaltest2022.de-en.ref.{which}.en")) for which in "AB"}
    systems = str(shared(f"{WMT22}/txt/system-outputs")) + "/generaltest2022.de-en.hyp.*.en"
    compared = 0
    for metric, refs in (("bleu-A", ["A"]), ("bleu-B", ["B"]), ("bleu-all", ["A", "B"])):
        completed = _run("score", "-r", *(references[r] for r in refs), "-s", systems, "--format", "json")
        assert completed.returncode == 0, completed.stderr
        scores = {
            s["name"].split(".hyp.")[1][: -len(".en")]: s["scores"]["bleu"]
            for s in json.loads(completed.stdout)["systems"]
        }
        assert len(scores) == 9
        for name, entry in scores.items():
            assert entry["signature"].startswith(f"nrefs:{len(refs)}|case:mixed|eff:no|tok:13a|smooth:exp|")
            printed = published[(name, metric)]
            assert len(printed.split(".")[1]) >= 13
            assert math.isclose(100 * entry["score"], float(printed), rel_tol=0, abs_tol=1e-12), (name, metric)
            assert f"{100 * entry['score']:.12f}" == f"{float(printed):.12f}", (name, metric)
            compared += 1
    assert compared == len(published) == 27


# --------------------------------------------------------------------------- example, bleu, nist


def test_example_prints_bleu_and_nist_of_the_bundled_example():
    completed = _run("example")
    assert completed.returncode == 0, completed.stderr
    scores = re.findall(r"^(BLEU|NIST) \((\w+)\s*\) corpus (\d+\.\d{4})", completed.stdout, flags=re.MULTILINE)
    # Every variant of each, as the README says.
    assert [(metric, variant) for metric, variant, _ in scores] == [("BLEU", variant) for variant in BLEU_VARIANTS] + [
        ("NIST", variant) for variant in NIST_VARIANTS
    ]
    predictions, references = read_corpus(
        [Source(str(EXAMPLES / "hypotheses.txt"))],
        [Source(str(path)) for path in sorted(EXAMPLES.glob("references.*.txt"))],
    )
    for metric, variant, printed in scores:
        result = getattr(ngrameval, metric.lower())(predictions[0], references, variant=variant).as_dict()
        assert printed == f"{result[metric.lower()]:.4f}", (metric, variant)


@pytest.mark.parametrize(
    "arguments, options",
    [
        ([], {}),
        (
            ["--variant", "nltk", "--smooth", "method1", "--max-order", "3"],
            {"variant": "nltk", "smooth": "method1", "max_order": 3},
        ),
        (["--variant", "nmt", "--smooth", "true"], {"variant": "nmt", "smooth": True}),
        (["--variant", "mteval", "--lowercase"], {"variant": "mteval", "lowercase": True}),
        (["--tokenize", "intl"], {"tokenize": "intl"}),
    ],
)
def test_bleu_json_equals_the_library(files, capsys, arguments, options):
    system, references = files
    argv = ["bleu", "-s", str(system)] + [a for path in references for a in ("-r", str(path))] + arguments
    assert main(argv + ["--json"]) == 0
    expected = ngrameval.bleu(SYSTEM, REFERENCES, **options).as_dict()
    assert json.loads(capsys.readouterr().out) == json.loads(json.dumps(expected))


@pytest.mark.parametrize(
    "arguments, options", [([], {}), (["--variant", "mteval", "-n", "4"], {"variant": "mteval", "n": 4})]
)
def test_nist_json_equals_the_library(files, capsys, arguments, options):
    system, (first, second) = files
    assert main(["nist", "-s", str(system), "-r", str(first), "-r", str(second), "--json"] + arguments) == 0
    expected = ngrameval.nist(SYSTEM, REFERENCES, **options).as_dict()
    assert json.loads(capsys.readouterr().out) == json.loads(json.dumps(expected))


def test_bleu_text_output_shows_the_score_and_signature(files, capsys):
    system, references = files
    assert main(["bleu", "-s", str(system), "-r", str(references[0])]) == 0
    result = ngrameval.bleu(SYSTEM, REFERENCE_FILES[0])
    assert capsys.readouterr().out.splitlines()[0] == f"BLEU = {result.bleu:.4f}  ({result.signature})"


def test_length_mismatch_exits_with_status_2_and_names_the_files(files, tmp_path):
    system, _ = files
    short = _write(tmp_path / "short.txt", ["one line only"])
    completed = _run("bleu", "-s", system, "-r", short)
    assert completed.returncode == 2
    assert f"{short} has 1 lines but {system} has {len(SYSTEM)}" in completed.stderr
    assert completed.stdout == ""


def test_bad_option_value_exits_with_status_2(files, capsys):
    system, references = files
    assert main(["bleu", "-s", str(system), "-r", str(references[0]), "--smooth", "bogus"]) == 2
    assert "unknown smooth for variant 'sacrebleu' 'bogus'" in capsys.readouterr().err
