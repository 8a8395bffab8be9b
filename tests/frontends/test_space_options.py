"""The Spaces ask the metrics by the common option names (#25 item 4): what each page passes to ``compute()`` --
the options of its controls' defaults and of every example, its detail and sentence options -- names no peer alias
(``tokenizer``, ``case_sensitive``, ``n``, ``use_aggregator``); the controls keep the peers' names users see."""

import pytest

from conftest import require
from ngrameval.frontends.hub import SPACE_NAMES

# The peers' names the metrics accept beside the common ones (ngrameval/vocabulary.py).
ALIASES = {"tokenizer", "case_sensitive", "n", "use_aggregator"}


@pytest.fixture(scope="module", params=[name for name in SPACE_NAMES if name != "leaderboard"])
def space_and_controls(request):
    """(the Space's MetricSpace, its controls by name), built in a page that is never served."""
    gr = require("gradio")
    from ngrameval.ui import space

    described = space(request.param)
    with gr.Blocks():
        controls = described.controls()
    return described, controls


def test_compute_options_use_the_common_names(space_and_controls):
    described, controls = space_and_controls
    defaults = {name: control.value for name, control in controls.items()}
    for preset in [{}, *(example.options for example in described.examples)]:
        options = described.options(**{**defaults, **preset})
        details = described.detail_options(options) if callable(described.detail_options) else described.detail_options
        for asked in (options, details, described.sentence_options or {}):
            assert not ALIASES & set(asked), (described.name, preset, asked)
