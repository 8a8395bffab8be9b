"""Leaderboards: the logic every front end (the command line, the Spaces) shares, below them all.

- :mod:`ngrameval.leaderboard.reading`: system outputs, references and metric options from files;
- :mod:`ngrameval.leaderboard.scoring`: many systems scored under many metrics, ranked, clustered;
- :mod:`ngrameval.leaderboard.board`: a community board, a folder whose SQLite database keeps hidden references,
  fixed metric options and every submission's statistics (``ngrameval board ...``).
"""
