"""The chrF Space: `python app.py` serves it on http://127.0.0.1:7860 (the page: ngrameval.ui.chrf)."""

from ngrameval.ui import serve

demo = serve("chrf", __name__)
