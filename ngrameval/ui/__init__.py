"""The Gradio pages of the ngrameval Spaces (the ``spaces`` extra): ``ngrameval.ui.<name>`` describes one page,
:mod:`ngrameval.ui.page` builds it. A Space's ``app.py`` is ``demo = serve("bleu", __name__)``."""

from __future__ import annotations

import importlib
from typing import Any

from ngrameval.errors import InputError
from ngrameval.frontends.hub import SPACE_NAMES


def space(name: str) -> Any:
    """What Space ``name`` (one of :data:`SPACE_NAMES`) shows: a :class:`~ngrameval.ui.page.MetricSpace`, or the
    leaderboard's page; either has ``build()`` and ``warm_up``."""
    if name not in SPACE_NAMES:
        raise InputError(f"unknown Space {name!r}; valid Spaces: {', '.join(SPACE_NAMES)}")
    return importlib.import_module(f"ngrameval.ui.{name}").SPACE


def serve(name: str, caller: str = "__main__", **launch_options: Any) -> Any:
    """The ``gradio.Blocks`` page of Space ``name``; when ``caller`` is ``"__main__"`` (an app.py run as a program)
    its warm-up runs and the page is served (``launch_options`` go to ``demo.launch``)."""
    from ngrameval.ui import page

    described = space(name)
    configure = getattr(described, "configured", None)
    if configure is not None:  # the leaderboard: a board's page when it is given one
        described = configure(caller == "__main__")
    demo = described.build()
    if caller == "__main__":
        if described.warm_up is not None:
            described.warm_up()
        page.launch(demo, **{**getattr(described, "launch_options", {}), **launch_options})
    return demo
