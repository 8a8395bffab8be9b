"""The leaderboard Space: `python app.py` serves it on http://127.0.0.1:7860 (the page: ngrameval.ui.leaderboard);
`python app.py --board DIR` (or NGRAMEVAL_BOARD=DIR, or a board/ folder beside this file) serves a community board."""

from ngrameval.ui import serve

demo = serve("leaderboard", __name__)
