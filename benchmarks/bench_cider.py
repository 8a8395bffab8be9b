"""CIDEr-D: ngrameval against pycocoevalcap 1.2's ``Cider`` (pure Python).

    python benchmarks/bench_cider.py [--quick] [--repeats N] [--only e2e-8 synthetic-5k] [--profile]

Both tools get the same whitespace-separated texts; every row returns the corpus CIDEr-D and the
score of every item.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator

from common import Corpus, Row, Section, Target, main, shared, synthetic_corpus

PACKAGES = ("ngrameval", "numpy", "pycocoevalcap")
ENGINE = "ngrameval.cider"


def load_e2e(systems: int) -> Corpus:
    """The first ``systems`` E2E primary systems as one corpus, each item with all its references (as the
    issue measured pycocoevalcap: 8 systems, 5,040 items, 37,544 references)."""
    from tests.data import E2E_PRIMARY, e2e_outputs, e2e_references

    _, references = e2e_references(shared)
    names = E2E_PRIMARY[:systems]
    predictions = [line for name in names for line in e2e_outputs(shared, name)]
    return Corpus(
        f"E2E NLG test set, {systems} primary systems ({', '.join(names)}) as one corpus: "
        f"{len(predictions)} items, {sum(map(len, references)) * systems} references (1 to 45 per item)",
        ["+".join(names)],
        [predictions],
        references * systems,
    )


def ngrameval_cider(corpus: Corpus):
    import ngrameval

    (predictions,) = corpus.systems
    references = corpus.references

    def run():
        result = ngrameval.cider(predictions, references)
        return [result.cider, result.scores]

    return run


def pycocoevalcap_cider(corpus: Corpus):
    from pycocoevalcap.cider.cider import Cider

    (predictions,) = corpus.systems
    gts = {i: list(refs) for i, refs in enumerate(corpus.references)}
    res = {i: [p] for i, p in enumerate(predictions)}

    def run():
        score, scores = Cider().compute_score(gts, res)
        return [float(score), scores.tolist()]

    return run


def cider_section(key: str, title: str, load, notes=()) -> Section:
    return Section(
        key,
        title,
        load,
        [
            Row(ENGINE, ngrameval_cider),
            Row("pycocoevalcap Cider", pycocoevalcap_cider, compare_to=ENGINE),
        ],
        [Target("pycocoevalcap Cider", ENGINE, "time", 10)],
        notes,
    )


def sections(quick: bool) -> Iterator[Section]:
    if quick:
        yield cider_section("e2e-1", "CIDEr-D, E2E, one system", lambda: load_e2e(1))
        return
    yield cider_section(
        "e2e-8",
        "CIDEr-D, E2E, 8 systems as one corpus",
        lambda: load_e2e(8),
        [
            (
                "The 8 systems share the test set's references: ngrameval tokenizes each distinct text and counts "
                "the references of each distinct reference group once; pycocoevalcap does it per item."
            )
        ],
    )
    yield cider_section(
        "synthetic-5k",
        "CIDEr-D, 5,000 items x 5 references, every text distinct",
        lambda: synthetic_corpus(5000, 5),
        ["No text repeats here, so nothing is shared between items: the layout alone."],
    )


if __name__ == "__main__":
    sys.exit(main("CIDEr", sections, packages=PACKAGES))
