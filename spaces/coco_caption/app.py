"""The COCO caption Space: `python app.py` serves it on http://127.0.0.1:7860 (the page: ngrameval.ui.coco_caption)."""

from ngrameval.ui import serve

demo = serve("coco_caption", __name__)
