"""The TER Space: `python app.py` serves it on http://127.0.0.1:7860 (the page: ngrameval.ui.ter)."""

from ngrameval.ui import serve

demo = serve("ter", __name__)
