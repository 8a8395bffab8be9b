"""The GLEU Space: `python app.py` serves it on http://127.0.0.1:7860 (the page: ngrameval.ui.gleu)."""

from ngrameval.ui import serve

demo = serve("gleu", __name__)
