"""Bad input is an InputError (a ValueError), which the command line and the Spaces show as one line (exit status
2); any other exception is a bug and is shown as one: the traceback, exit status 1 (#25). The NumPy ValueError
NLTK's method5 raised was printed as if the input were bad."""

import pytest

import ngrameval
from ngrameval import InputError
from ngrameval.frontends.cli import main
from ngrameval.metric import get_family, metric_names, statistics
from ngrameval.metrics.bleu import BleuFamily

PREDICTIONS = ["the cat sat on the mat", "a dog barks"]
REFERENCES = [["the cat sat on a mat"], ["a dog barks loudly"]]


@pytest.mark.parametrize("metric", metric_names())
def test_every_familys_checks_raise_input_errors(metric):
    with pytest.raises(InputError, match="unknown options"):
        statistics(metric, PREDICTIONS, REFERENCES, no_such_option=1)
    with pytest.raises(InputError):
        statistics(metric, PREDICTIONS, REFERENCES[:1])
    with pytest.raises(InputError):
        getattr(ngrameval, metric)(PREDICTIONS, REFERENCES[:1])
    if "variant" in get_family(metric).with_defaults({}):
        with pytest.raises(InputError, match="bogus"):
            statistics(metric, PREDICTIONS, REFERENCES, variant="bogus")
    assert issubclass(InputError, ValueError)


@pytest.fixture
def arguments(tmp_path):
    system, reference = tmp_path / "system.txt", tmp_path / "reference.txt"
    system.write_text("".join(line + "\n" for line in PREDICTIONS), encoding="utf-8")
    reference.write_text("".join(group[0] + "\n" for group in REFERENCES), encoding="utf-8")
    return ["score", "-r", str(reference), "-s", str(system), "--sentence-level"]


def test_bad_input_is_one_line_and_status_2(arguments, capsys):
    assert main(arguments + ["--option", "bleu.smooth=method9", "--option", "bleu.variant=nltk"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("ngrameval: unknown smooth for variant 'nltk'") and captured.err.count("\n") == 1


@pytest.mark.parametrize(
    "error",
    [
        ValueError("all the input array dimensions except for the concatenation axis must match exactly"),
        IndexError("index 4 is out of bounds"),
        OSError("disk on fire"),
    ],
)
def test_any_other_exception_is_a_bug_with_its_traceback_and_status_1(arguments, capsys, monkeypatch, error):
    def broken(self, stats):
        raise error

    monkeypatch.setattr(BleuFamily, "segment_scores", broken)
    assert main(arguments) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("Traceback (most recent call last):")
    assert f"{type(error).__name__}: {error}" in captured.err and "in broken" in captured.err
    assert captured.err.rstrip().endswith(
        "this is a bug in ngrameval, not a problem with the input: please report it with the traceback above"
    )


def test_an_input_error_raised_deep_inside_is_still_one_line(arguments, capsys, monkeypatch):
    def refused(self, stats):
        raise InputError("refused by the family")

    monkeypatch.setattr(BleuFamily, "segment_scores", refused)
    assert main(arguments) == 2
    assert capsys.readouterr().err == "ngrameval: refused by the family\n"


def test_an_unwritable_output_file_is_bad_input(arguments, capsys, tmp_path):
    assert main(arguments + ["-o", str(tmp_path / "no" / "such" / "folder" / "out.jsonl")]) == 2
    assert capsys.readouterr().err.startswith(f"ngrameval: -o {tmp_path}/no/such/folder/out.jsonl: ")


@pytest.mark.slow
def test_the_leaderboard_space_shows_input_errors_and_lets_bugs_through(tmp_path, monkeypatch):
    """(slow: imports Gradio) The Space's handler shows an InputError as its status line; a bug (a ValueError
    that is not one) is not turned into a message about the input: it reaches Gradio, which logs it."""
    from ngrameval.ui import leaderboard

    (tmp_path / "r.txt").write_text("x\ny\n")
    (tmp_path / "a.txt").write_text("x\ny\n")

    def call():
        return leaderboard.score(
            [tmp_path / "r.txt"], [tmp_path / "a.txt"], ["bleu"], "", None, "none", None, False, None, True
        )

    def fails(error):
        def score_leaderboard(*args, **kwargs):
            raise error

        return score_leaderboard

    monkeypatch.setattr(leaderboard, "score_leaderboard", fails(InputError("refused by the family")))
    assert "refused by the family" in call()[0]
    monkeypatch.setattr(leaderboard, "score_leaderboard", fails(ValueError("all the input array dimensions")))
    with pytest.raises(ValueError, match="all the input array dimensions"):
        call()
