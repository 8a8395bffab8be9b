"""PTB tokenization: ngrameval.text.ptb against pycocoevalcap 1.2's PTBTokenizer (Stanford CoreNLP 3.4.1, Java).

    python benchmarks/bench_ptb.py [--quick] [--repeats N] [--only coco e2e wmt22] [--profile]

Both rows tokenize all texts of a section in one call, as pycocoevalcap's ``PTBTokenizer.tokenize`` does
(lowercased, its punctuation list removed), and return one CRC-32 per output string: the check
(tolerance 0) is that every text gets the same tokens.
"""

from __future__ import annotations

import json
import sys
import zlib
from collections.abc import Iterator

from common import ROOT, Corpus, Row, Section, Target, main, report_child_peak, shared

PACKAGES = ("ngrameval", "pycocoevalcap")


# --------------------------------------------------------------------------- data


def texts_corpus(description: str, texts: list[str]) -> Corpus:
    return Corpus(f"{description}: {len(texts):,} texts", ["texts"], [texts], [[""] for _ in texts])


def load_coco() -> Corpus:
    captions = json.loads(shared("data/coco-caption/captions_val2014_fakecap_results.json").read_text())
    return texts_corpus("COCO val2014 fake-caption results", [item["caption"] for item in captions])


def load_e2e(quick: bool) -> Corpus:
    sys.path.insert(0, str(ROOT))
    from tests.data import E2E_PRIMARY, e2e_outputs, e2e_references

    texts = [reference for group in e2e_references(shared)[1] for reference in group]
    systems = E2E_PRIMARY[:2] if quick else E2E_PRIMARY
    for system in systems:
        texts += e2e_outputs(shared, system)
    return texts_corpus(f"E2E NLG test set: the references and the outputs of {len(systems)} primary systems", texts)


def load_wmt22(quick: bool) -> Corpus:
    paths = sorted(shared("data/wmt22-news-systems/txt").glob("*/*.en"))
    texts = [line for path in paths for line in path.read_text(encoding="utf-8").split("\n")[:-1]]
    texts = texts[:10_000] if quick else texts
    return texts_corpus(
        f"WMT22 English lines (references and system outputs of de-en and zh-en, {len(paths)} files)", texts
    )


# --------------------------------------------------------------------------- rows (run in a fresh process)


def _checksums(lines: list[str]) -> list[int]:
    return [zlib.crc32(line.encode()) for line in lines]


def ngrameval_ptb(corpus: Corpus):
    """``ngrameval.text.ptb.ptb_tokenize`` on all texts (its one-time set-up, building and compiling the rules,
    is timed: the first call in a process does it)."""
    from ngrameval.text.ptb import ptb_tokenize

    texts = corpus.systems[0]

    def run():
        return _checksums(ptb_tokenize(texts))

    return run


def java_ptb(corpus: Corpus):
    """What pycocoevalcap 1.2's ``PTBTokenizer.tokenize`` does, step by step: the texts joined with newlines
    written to a file, ``java -cp stanford-corenlp-3.4.1.jar edu.stanford.nlp.process.PTBTokenizer
    -preserveLines -lowerCase <file>``, its output split into lines and the punctuation dropped (run by
    ``tests/ptb_java.py``, which also samples the JVM's peak memory)."""
    sys.path.insert(0, str(ROOT))
    from pycocoevalcap.tokenizer.ptbtokenizer import PUNCTUATIONS

    from tests.ptb_java import java_output

    texts = corpus.systems[0]

    def run():
        output, peak_kb = java_output("\n".join(text.replace("\n", " ") for text in texts), peak=True)
        report_child_peak(peak_kb or 0)
        lines = output.split("\n")
        return _checksums(
            [" ".join([w for w in line.rstrip().split(" ") if w not in PUNCTUATIONS]) for _, line in zip(texts, lines)]
        )

    return run


# --------------------------------------------------------------------------- sections

ENGINE = "ngrameval.text.ptb.ptb_tokenize"
JAVA = "PTBTokenizer (Java, pycocoevalcap's command)"
NOTES = [
    (
        "ngrameval: one `ptb_tokenize(texts)` call in the measuring process; its set-up (the rules' regexes "
        "built from Unicode tables and compiled, ~0.3 s) is part of the time."
    ),
    (
        "Java: Java 17, the jar in pycocoevalcap 1.2's wheel, started by the measuring process as pycocoevalcap "
        "starts it (a child process: CPU from RUSAGE_CHILDREN, peak its VmHWM sampled every 5 ms, added to the "
        "worker's), plus the Python steps around it (joining, the temporary file, splitting, punctuation)."
    ),
    "Outputs checked text by text (CRC-32 of each output string, tolerance 0).",
]


def section(key: str, title: str, load) -> Section:
    return Section(
        key,
        title,
        load,
        [
            Row(ENGINE, ngrameval_ptb),
            Row(JAVA, java_ptb, compare_to=ENGINE, tolerance=0.0, note="child process"),
        ],
        [Target(JAVA, ENGINE, "time", 1)],
        NOTES,
    )


def sections(quick: bool) -> Iterator[Section]:
    yield section("coco", "1. PTB tokenization of 1,000 COCO captions", load_coco)
    yield section("e2e", "2. PTB tokenization of E2E references and system outputs", lambda: load_e2e(quick))
    yield section("wmt22", "3. PTB tokenization of WMT22 English translations", lambda: load_wmt22(quick))


if __name__ == "__main__":
    sys.exit(main("PTB tokenizer", sections, packages=PACKAGES))
