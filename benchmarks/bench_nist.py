"""NIST: ngrameval against NLTK's ``corpus_nist`` on WMT17 (whitespace tokens), plus the mteval variant.

    python benchmarks/bench_nist.py [--quick] [--repeats N] [--only nist-1000x4 ...] [--profile]

Both tools get the same token lists (the WMT17 lines 13a-tokenized beforehand,
split on whitespace); every row returns one corpus NIST score per system.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator

from common import Corpus, Row, Section, Target, load_wmt17, main, pretokenize_13a

ENGINE = "ngrameval.nist variant=nltk"
ORDER = 5


def ngrameval_nist(corpus: Corpus, variant: str):
    """``ngrameval.nist`` once per system, on token lists."""
    import ngrameval

    systems, references = corpus.token_lists()
    return lambda: [ngrameval.nist(system, references, variant=variant, n=ORDER).nist for system in systems]


def nltk_corpus_nist(corpus: Corpus):
    """NLTK 3.10.4 ``corpus_nist`` once per system."""
    from nltk.translate.nist_score import corpus_nist

    systems, references = corpus.token_lists()
    return lambda: [corpus_nist(references, system, n=ORDER) for system in systems]


def nist_section(key: str, systems: int, lines: int) -> Section:
    return Section(
        key,
        f"NIST (n={ORDER}), first {lines} lines of {systems} systems",
        lambda: pretokenize_13a(load_wmt17(systems=systems, lines=lines)),
        [
            Row(ENGINE, ngrameval_nist, {"variant": "nltk"}),
            Row("nltk corpus_nist", nltk_corpus_nist, compare_to=ENGINE),
            Row("ngrameval.nist variant=mteval", ngrameval_nist, {"variant": "mteval"}),
        ],
        [Target("nltk corpus_nist", ENGINE, "time", 20)],
        [
            (
                "ngrameval.nist variant=mteval is timed alone: no mteval-v13a.pl runs here, and its scores differ "
                "from NLTK's where a bigram starts with the word 0 (the Perl quirk ngrameval keeps)."
            )
        ],
    )


def sections(quick: bool) -> Iterator[Section]:
    if quick:
        yield nist_section("nist-300x2", systems=2, lines=300)
        return
    yield nist_section("nist-1000x4", systems=4, lines=1000)
    yield nist_section("nist-3004x16", systems=16, lines=3004)


if __name__ == "__main__":
    sys.exit(main("NIST", sections))
