"""ngrameval.leaderboard.reading's checks of the counts of lines."""

import pytest

from ngrameval import InputError
from ngrameval.leaderboard.reading import Source, read_references


def test_references_of_the_wrong_count_are_named_without_a_first_system(tmp_path):
    # read_references(sources, segments) with no first_system to name (found by mypy): an InputError giving
    # both counts, where it used to be an AttributeError on None.
    path = tmp_path / "refs.txt"
    path.write_text("a b\nc d\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"refs\.txt has 2 lines but 3 were expected"):
        read_references([Source(str(path))], segments=3)
    assert read_references([Source(str(path))], segments=2) == [["a b"], ["c d"]]
