"""Loading the shared data for the tests, and one float comparison used everywhere.

Every loader takes the ``shared`` fixture (a function: relative path -> Path, which
fails in CI when the file is missing) so that no test reads ``../shared`` by itself.
Files are read once per session (``lru_cache``) and handed out as fresh lists.
"""

from __future__ import annotations

import csv
import functools
import json
import math
import os
import re
from collections.abc import Callable, Sequence
from pathlib import Path

Shared = Callable[[str], Path]

WMT17 = "data/wmt17-en-de"
WMT17_SYSTEMS = (
    "C-3MA.4959",
    "FBK.4870",
    "KIT.4950",
    "LIUM-NMT.4900",
    "LMU-nmt-reranked.4934",
    "LMU-nmt-single.4893",
    "PROMT-Rule-based.4735",
    "RWTH-nmt-ensemble.4921",
    "SYSTRAN.4847",
    "TALP-UPC.4834",
    "online-A.0",
    "online-B.0",
    "online-F.0",
    "online-G.0",
    "uedin-nmt.4722",
    "xmu.4910",
)
WMT22 = "data/wmt22-news-systems"
WMT22_SYSTEMS = {
    "de-en": (
        "JDExploreAcademy",
        "LT22",
        "Lan-Bridge",
        "Online-A",
        "Online-B",
        "Online-G",
        "Online-W",
        "Online-Y",
        "PROMT",
    ),
    "zh-en": (
        "AISP-SJTU",
        "DLUT",
        "HuaweiTSC",
        "JDExploreAcademy",
        "Lan-Bridge",
        "LanguageX",
        "NiuTrans",
        "Online-A",
        "Online-B",
        "Online-G",
        "Online-W",
        "Online-Y",
    ),
    "en-de": (
        "JDExploreAcademy",
        "Lan-Bridge",
        "Online-A",
        "Online-B",
        "Online-G",
        "Online-W",
        "Online-Y",
        "OpenNMT",
        "PROMT",
    ),
}
WMT15 = "data/nltk-wmt15-eval-mteval13a"


# --------------------------------------------------------------------------- files


@functools.cache
def _lines(path: Path) -> tuple[str, ...]:
    # As sacrebleu's command line reads a file: UTF-8 (a leading U+FEFF stays part of the
    # first line, as in wmt17 online-A), lines split at "\n" only.
    with open(path, encoding="utf-8", newline="") as handle:
        text = handle.read()
    lines = text.split("\n")
    if text.endswith("\n"):
        lines.pop()
    return tuple(lines)


def read_lines(path: Path) -> list[str]:
    """The lines of a UTF-8 text file, without line ends."""
    return list(_lines(path))


@functools.cache
def _json(path: Path):
    return json.loads(path.read_text(encoding="utf-8"))


def load_json(shared: Shared, relative: str):
    """A shared JSON file, parsed (shared between tests: do not modify it)."""
    return _json(shared(relative))


def read_tsv(shared: Shared, relative: str) -> list[dict[str, str]]:
    """The rows of a tab-separated file with a header line."""
    with open(shared(relative), encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


def json_at_collection(relative: str):
    """A shared JSON file read while pytest collects (to parametrize by its cases), or None
    when it is not there; the tests themselves then read it through ``shared``, which fails
    (NGRAMEVAL_SHARED set) or skips."""
    configured = os.environ.get("NGRAMEVAL_SHARED")
    root = Path(configured) if configured else Path(__file__).resolve().parents[1].parent / "shared"
    path = root / relative
    return _json(path) if path.is_file() else None


# --------------------------------------------------------------------------- corpora


def wmt17_system(shared: Shared, system: str) -> list[str]:
    return read_lines(shared(f"{WMT17}/system-outputs/newstest2017.{system}.en-de"))


def wmt17_reference(shared: Shared) -> list[str]:
    return read_lines(shared(f"{WMT17}/references/newstest2017-ende-ref.de"))


def wmt22_system(shared: Shared, pair: str, system: str) -> list[str]:
    target = pair.split("-")[1]
    return read_lines(shared(f"{WMT22}/txt/system-outputs/generaltest2022.{pair}.hyp.{system}.{target}"))


def wmt22_references(shared: Shared, pair: str, labels: Sequence[str] = ("A", "B")) -> list[list[str]]:
    """Reference streams (sacrebleu's shape: one list of lines per reference)."""
    target = pair.split("-")[1]
    return [
        read_lines(shared(f"{WMT22}/txt/references/generaltest2022.{pair}.ref.{label}.{target}")) for label in labels
    ]


def per_segment(streams: Sequence[Sequence[str]]) -> list[list[str]]:
    """Reference streams -> one list of references per segment (ngrameval's and NLTK's shape)."""
    return [list(group) for group in zip(*streams)]


def wmt17_slice(shared: Shared, system: str, stop: int | None = None):
    """(hypotheses, references per segment) of a wmt17 system, the first ``stop`` segments."""
    return wmt17_system(shared, system)[:stop], [[r] for r in wmt17_reference(shared)[:stop]]


def wmt22_slice(shared: Shared, pair: str, system: str, stop: int | None = None):
    """(hypotheses, both references per segment) of a wmt22 system, the first ``stop`` segments."""
    return wmt22_system(shared, pair, system)[:stop], per_segment(wmt22_references(shared, pair))[:stop]


def corpus_slice(shared: Shared, spec: tuple):
    """``("wmt17", system, stop)`` or ``("wmt22", pair, system, stop)`` -> (hypotheses, references)."""
    loaders = {"wmt17": wmt17_slice, "wmt22": wmt22_slice}
    return loaders[spec[0]](shared, *spec[1:])


def as_streams(references: Sequence[Sequence[str]]) -> list[list[str]]:
    """References per segment (the same count each) -> reference streams (sacrebleu's shape)."""
    return per_segment(references)  # the same transposition, the other way round


def whitespace_tokens(hypotheses: Sequence[str], references: Sequence[Sequence[str]]):
    """NLTK's inputs: token lists, split on whitespace."""
    return [h.split() for h in hypotheses], [[r.split() for r in group] for group in references]


REALSUMM = "data/realsumm/selected_docs_for_human_eval"
# Sentences are wrapped in <t> ... </t>; some systems' files separate them by three spaces instead.
_REALSUMM_SENTENCE = re.compile(r"\s*</?t>\s*|\s{3,}")


def realsumm_summary(line: str) -> str:
    """A REALSumm line as a summary with one sentence per line (rougeLsum's input)."""
    return "\n".join(part.strip() for part in _REALSUMM_SENTENCE.split(line) if part.strip())


def realsumm(shared: Shared) -> tuple[list[str], list[str], list[str]]:
    """Every REALSumm system output (``<type>/<model>/out*.txt``, 100 documents each) with its own
    ``ref.txt`` line: (system names, predictions, references), one entry per (system, document)."""
    root = shared(f"{REALSUMM}/abs").parent
    systems, predictions, references = [], [], []
    for output in sorted(root.glob("*/*/out*.txt")):
        outputs, refs = read_lines(output), read_lines(output.parent / "ref.txt")
        assert len(outputs) == len(refs) == 100, output
        name = f"{output.parent.parent.name}/{output.parent.name}/{output.stem}"
        systems += [name] * len(outputs)
        predictions += map(realsumm_summary, outputs)
        references += map(realsumm_summary, refs)
    return systems, predictions, references


_SEGMENT = re.compile(r'<seg id="?(\d+)"?>(.*?)</seg>', re.S)
_DOCUMENT = re.compile(r'<doc\b[^>]*\bdocid="([^"]*)"[^>]*>(.*?)</doc>', re.S)


def read_sgm(shared: Shared, relative: str) -> dict[tuple[str, str], str]:
    """The segments of an mteval SGML file, keyed by (docid, seg id), text as written."""
    text = "\n".join(read_lines(shared(relative)))
    return {(docid, seg): segment for docid, body in _DOCUMENT.findall(text) for seg, segment in _SEGMENT.findall(body)}


# --------------------------------------------------------------------------- comparison


def _flatten(values, where=()):
    """[(index path, number)] of a number or of (nested) lists or dicts of numbers."""
    if isinstance(values, dict):
        return [item for key, value in values.items() for item in _flatten(value, where + (key,))]
    if isinstance(values, (list, tuple)):
        return [item for i, value in enumerate(values) for item in _flatten(value, where + (i,))]
    return [(where, values)]


def assert_close(got, expected, rel: float = 1e-9, abs_tol: float = 1e-300, what: str = "value") -> None:
    """``math.isclose`` on numbers or, element-wise, on (nested) lists or dicts of numbers (a dict
    keyed by segment index reports a subset by its indices); the message gives the first
    mismatches as (index, got, expected)."""
    got_items, expected_items = _flatten(got), _flatten(expected)
    assert [i for i, _ in got_items] == [i for i, _ in expected_items], (
        f"{what}: shapes differ ({len(got_items)} numbers got, {len(expected_items)} expected)"
    )
    bad = [
        (i, g, e)
        for (i, g), (_, e) in zip(got_items, expected_items)
        if not math.isclose(g, e, rel_tol=rel, abs_tol=abs_tol)
    ]
    assert not bad, (
        f"{what}: {len(bad)} of {len(expected_items)} differ (rel_tol={rel}); (index, got, expected): {bad[:5]}"
    )


# --------------------------------------------------------------------------- E2E NLG Challenge

E2E = "data/e2e-nlg-challenge"
# The primary systems whose files follow the test set's MR order (tnt1/tnt2 do not: SOURCE.md).
E2E_PRIMARY = (
    "adapt",
    "chen",
    "dangnt",
    "forge1",
    "forge3",
    "gong",
    "harv",
    "nle",
    "sheff1",
    "sheff2",
    "slug-alt",
    "slug",
    "tgen",
    "tr1",
    "tr2",
    "tuda",
    "zhang",
    "zhaw1",
    "zhaw2",
)


@functools.cache
def _e2e_references(path: Path) -> tuple[tuple[str, tuple[str, ...]], ...]:
    grouped: dict[str, list[str]] = {}
    with open(path, encoding="utf-8", newline="") as handle:
        for row in csv.DictReader(handle):
            grouped.setdefault(row["mr"], []).append(row["ref"])
    return tuple((mr, tuple(refs)) for mr, refs in grouped.items())


def e2e_references(shared: Shared) -> tuple[list[str], list[list[str]]]:
    """The 630 test MRs (in order of first appearance) and their references (1 to 45 each)."""
    rows = _e2e_references(shared(f"{E2E}/e2e-dataset/testset_w_refs.csv"))
    return [mr for mr, _ in rows], [list(refs) for _, refs in rows]


def e2e_outputs(shared: Shared, system: str) -> list[str]:
    """A primary system's 630 outputs, in the test set's MR order (TSV files with a header; some
    start with a byte-order mark, harv's have blank lines between rows)."""
    path = shared(f"{E2E}/e2e-eval/system_outputs/primary/{system}.tsv")
    with open(path, encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.reader(handle, delimiter="\t"))
    return [row[1] for row in rows[1:] if row]


# --------------------------------------------------------------------------- peers


class Memoized:
    """A peer object whose one-argument method ``name`` is remembered per argument: the same answers,
    computed once per distinct argument, so that a slow peer (NLTK's stemmer, its WordNet reader) runs
    faster on large inputs. Other attributes are the wrapped object's."""

    def __init__(self, wrapped, name: str) -> None:
        self._wrapped, self._name, self._answers = wrapped, name, {}
        setattr(self, name, self._remembered)

    def _remembered(self, argument):
        answer = self._answers.get(argument)
        if answer is None:
            answer = self._answers[argument] = getattr(self._wrapped, self._name)(argument)
        return answer

    def __getattr__(self, attribute):
        return getattr(self._wrapped, attribute)
