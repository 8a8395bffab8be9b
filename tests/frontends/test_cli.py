"""The ``ngrameval`` command: the bundled example, --json output equal to the library, and a clear
exit status 2 when the files do not line up."""
import json
import re
import subprocess
import sys

import pytest

import ngrameval
from ngrameval.cli import EXAMPLES, main, read_corpus

SYSTEM = ["The cat sat on the mat.", "A dog barks at the postman", "it is 3.5 km , not 4"]
REFERENCE_FILES = [
    ["The cat is on the mat.", "The dog barks at the postman.", "It is 3.5 km, not 4."],
    ["There is a cat on the mat.", "A dog is barking at the mailman", "it's 3.5 km"],
]


def _run(*args):
    return subprocess.run([sys.executable, "-m", "ngrameval.cli", *map(str, args)], capture_output=True,
                          text=True, check=False)


@pytest.fixture
def files(tmp_path):
    """The system file and the reference files, one segment a line."""
    def write(name, lines):
        path = tmp_path / name
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        return path
    return write("system.txt", SYSTEM), [write(f"ref{i}.txt", lines) for i, lines in enumerate(REFERENCE_FILES)]


def test_example_prints_bleu_and_nist_of_the_bundled_example():
    completed = _run("example")
    assert completed.returncode == 0, completed.stderr
    scores = re.findall(r"^(BLEU|NIST) \((\w+)\s*\) corpus (\d+\.\d{4})", completed.stdout, flags=re.MULTILINE)
    assert {metric for metric, _, _ in scores} == {"BLEU", "NIST"}
    predictions, references = read_corpus(EXAMPLES / "hypotheses.txt", sorted(EXAMPLES.glob("references.*.txt")))
    for metric, variant, printed in scores:
        result = getattr(ngrameval, metric.lower())(predictions, references, variant=variant).as_dict()
        assert printed == f"{result[metric.lower()]:.4f}", (metric, variant)


@pytest.mark.parametrize("arguments, options", [
    ([], {}),
    (["--variant", "nltk", "--smooth", "method1", "--max-order", "3"], {"variant": "nltk", "smooth": "method1",
                                                                        "max_order": 3}),
    (["--variant", "nmt", "--smooth", "true"], {"variant": "nmt", "smooth": True}),
    (["--variant", "mteval", "--lowercase"], {"variant": "mteval", "lowercase": True}),
    (["--tokenize", "intl"], {"tokenize": "intl"}),
])
def test_bleu_json_equals_the_library(files, capsys, arguments, options):
    system, references = files
    argv = ["bleu", "-s", str(system)] + [a for path in references for a in ("-r", str(path))] + arguments
    assert main(argv + ["--json"]) == 0
    expected = ngrameval.bleu(SYSTEM, [list(refs) for refs in zip(*REFERENCE_FILES)], **options).as_dict()
    assert json.loads(capsys.readouterr().out) == json.loads(json.dumps(expected))


@pytest.mark.parametrize("arguments, options", [([], {}), (["--variant", "mteval", "-n", "4"],
                                                           {"variant": "mteval", "n": 4})])
def test_nist_json_equals_the_library(files, capsys, arguments, options):
    system, (first, second) = files
    assert main(["nist", "-s", str(system), "-r", str(first), "-r", str(second), "--json"] + arguments) == 0
    expected = ngrameval.nist(SYSTEM, [list(refs) for refs in zip(*REFERENCE_FILES)], **options).as_dict()
    assert json.loads(capsys.readouterr().out) == json.loads(json.dumps(expected))


def test_bleu_text_output_shows_the_score_and_signature(files, capsys):
    system, references = files
    assert main(["bleu", "-s", str(system), "-r", str(references[0])]) == 0
    result = ngrameval.bleu(SYSTEM, REFERENCE_FILES[0])
    assert capsys.readouterr().out.splitlines()[0] == f"BLEU = {result.bleu:.4f}  ({result.signature})"


def test_length_mismatch_exits_with_status_2_and_names_the_files(files, tmp_path):
    system, _ = files
    short = tmp_path / "short.txt"
    short.write_text("one line only\n", encoding="utf-8")
    completed = _run("bleu", "-s", system, "-r", short)
    assert completed.returncode == 2
    assert f"{short} has 1 lines but {system} has {len(SYSTEM)}" in completed.stderr
    assert completed.stdout == ""


def test_bad_option_value_exits_with_status_2(files, capsys):
    system, references = files
    assert main(["bleu", "-s", str(system), "-r", str(references[0]), "--smooth", "bogus"]) == 2
    assert "unknown smooth for variant 'sacrebleu' 'bogus'" in capsys.readouterr().err
