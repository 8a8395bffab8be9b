"""The leaderboard Space serving a community board (``app.py --board DIR``): the ranked table and its HTML report, a
submission form, and a page per submission (``?submission=NAME``). The references never leave the board: no
handler reads them, and the report is made from standings, which hold none."""

from __future__ import annotations

import dataclasses
import html
import os
import tempfile
import threading
import urllib.parse
from pathlib import Path
from typing import Any

import gradio as gr
import pandas as pd

from ngrameval import errors
from ngrameval.frontends import report
from ngrameval.leaderboard.board import Board, Submission
from ngrameval.leaderboard.reading import Source, read_predictions
from ngrameval.leaderboard.scoring import Leaderboard, SystemScores
from ngrameval.ui import i18n, page
from ngrameval.ui.i18n import t
from ngrameval.ui.leaderboard import DEFAULT_MAX_MB, Budget, text_files
from ngrameval.ui.page import InputError

SAMPLES = 1000  # the standings' bootstrap resamples (ngrameval board show's)
REPORT_SYSTEMS = 20  # the report holds the best ones: it compares every two of them
SCALE, WIDTH = 100.0, 2  # scores as the upload-and-score page shows them by default (x 100)
SUBMIT_CONCURRENCY = 4  # submissions scored at once (the board's transactions take turns)
QUEUE_SIZE = 64
HUB_VARIABLE = "SPACE_ID"  # set by the Hub in a Space: requests come through its proxy


def client_key(request: gr.Request | None, behind_proxy: bool = False) -> str:
    """The key the board's rate limit counts: the request's address ("" without one). ``behind_proxy`` (on the Hub)
    it is the first of ``X-Forwarded-For``, which the Hub's proxy sets; elsewhere a client could send any.

    >>> class Request:
    ...     headers = {"x-forwarded-for": "203.0.113.7, 10.16.3.80"}
    ...     class client:
    ...         host = "10.16.3.80"
    >>> client_key(Request), client_key(Request, behind_proxy=True), client_key(None)
    ('10.16.3.80', '203.0.113.7', '')
    """
    forwarded = (getattr(request, "headers", None) or {}).get("x-forwarded-for", "")
    if behind_proxy and forwarded.split(",")[0].strip():
        return forwarded.split(",")[0].strip()
    client = getattr(request, "client", None)
    return getattr(client, "host", None) or ""


class BoardPage:
    """The handlers of a board's page; the standings (their bootstrap is costly) are computed once per state of the
    board and shared by every visitor.

    >>> folder = Path(tempfile.mkdtemp()) / "board"
    >>> _ = Board.create(folder, [["the cat sat on the mat"], ["a dog barks"]], {"bleu": {}})
    >>> upload = Path(tempfile.mkdtemp()) / "generaltest2022.de-en.hyp.Online-A.en"
    >>> _ = upload.write_text("the cat sat on a mat\\na dog barks\\n")
    >>> handlers = BoardPage(folder)
    >>> status, stored, _ = handlers.submit(str(upload), "mine", "lab")
    >>> import sacrebleu      # the score is sacrebleu's corpus BLEU of the file
    >>> peer = sacrebleu.corpus_bleu(["the cat sat on a mat", "a dog barks"], [["the cat sat on the mat", "a dog barks"]])
    >>> stored["name"], abs(stored["scores"]["bleu"]["bleu"] * 100 - peer.score) < 1e-9
    ('mine', True)
    >>> handlers.submit(str(upload), "again", "")[1]["error"]
    "the board already has these segments, as 'mine': a file is submitted once"
    """

    def __init__(self, folder: Path, max_mb: float = DEFAULT_MAX_MB, behind_proxy: bool = False):
        self.board, self.max_mb, self.behind_proxy = Board(folder), max_mb, behind_proxy
        self._lock = threading.Lock()
        self._cached: tuple[Any, Leaderboard] | None = None

    def standings(self) -> tuple[Leaderboard, dict[str, Submission]]:
        """The standings (cached while the submissions stay the same) and the submissions by name."""
        heads = self.board.submissions()
        state = tuple((head.name, head.digest, tuple(sorted(head.signatures.items()))) for head in heads)
        with self._lock:
            if self._cached is None or self._cached[0] != state:
                self._cached = (state, self.board.standings(n_samples=SAMPLES))
            standings = self._cached[1]
        return standings, {head.name: head for head in heads}

    def table(self, request: gr.Request | None = None):
        """Status, the ranked table, the legend and signatures, the submissions' names (for the dropdown)."""
        language = i18n.language_of(request)
        standings, heads = self.standings()
        cluster_of = standings.cluster_numbers()
        rows = [
            [
                rank,
                cluster_of.get(system.name),
                system.name,
                heads[system.name].team or "",
                *(standings.cell(system, column.key, SCALE, WIDTH) for column in standings.columns),
            ]
            for rank, system in enumerate(standings.systems, 1)
            if system.name in heads
        ]
        frame = pd.DataFrame(
            rows, columns=["rank", "cluster", "system", "team", *(column.key for column in standings.columns)]
        )
        shown = dict(count=len(rows), segments=f"{self.board.segments:,}", column=standings.columns[0].key)
        status = i18n.text("board.shown", language, **shown) if rows else i18n.text("board.empty", language)
        if standings.stale:
            status += " " + i18n.text("board.stale", language, metrics=", ".join(standings.stale))
        legend = f'<div id="legend">{report.legend_html(standings)}</div>'
        return page.status_html(status), frame, legend, [system.name for system in standings.systems]

    def submission_html(self, name: str | None, request: gr.Request | None = None) -> str:
        """A submission's page: its facts, scores (with intervals and signatures), and segment-score distributions."""
        language = i18n.language_of(request)
        if not name:
            return ""
        standings, heads = self.standings()
        system = next((system for system in standings.systems if system.name == name), None)
        if system is None or name not in heads:
            return page.status_html(
                i18n.text("board.error.no_submission", language, name=name), True, language, "board.not_shown"
            )
        head = heads[name]
        scores = self.board.segment_scores(name)
        alone = Leaderboard(standings.columns, [SystemScores(name, system.results, scores, [])], None)
        facts = {
            "rank": f"{standings.systems.index(system) + 1} / {len(standings.systems)}",
            "cluster": str(standings.cluster_numbers().get(name)),
            "team": head.team or "",
            "time": head.time,
            "digest": head.digest,
        }
        rows = "".join(
            f"<tr><th>{html.escape(i18n.text(f'board.{fact}', language))}</th><td>{html.escape(value)}</td></tr>"
            for fact, value in facts.items()
        )
        scored = "".join(
            f"<tr><td>{html.escape(column.key)}</td>"
            f'<td class="num">{html.escape(standings.cell(system, column.key, SCALE, WIDTH))}</td>'
            f"<td><code>{html.escape(column.signature)}</code></td></tr>"
            for column in standings.columns
        )
        boxes = "".join(
            f"<h4>{html.escape(column.key)}</h4>{report.box_plot(alone, index, SCALE, WIDTH)}"
            for index, column in enumerate(standings.columns)
        )
        return (
            f'<style>{report.CHART_CSS}</style><div id="submission-page"><h3>{html.escape(name)}</h3>'
            f'<table class="facts">{rows}</table>'
            f'<table class="scores"><thead><tr><th>{html.escape(i18n.text("board.score", language))}</th>'
            f"<th></th><th>{html.escape(i18n.text('board.signature', language))}</th></tr></thead>"
            f"<tbody>{scored}</tbody></table>"
            f"<h4>{html.escape(i18n.text('lb.distributions', language))}</h4>{boxes}</div>"
        )

    def report_file(self, request: gr.Request | None = None) -> tuple[str, str]:
        """A status line, and the HTML report of the best REPORT_SYSTEMS submissions (never the references) written
        to a new file."""
        standings, _ = self.standings()
        best = [system.name for system in standings.systems[:REPORT_SYSTEMS]]
        clusters = {
            key: [kept for kept in ([name for name in group if name in best] for group in groups) if kept]
            for key, groups in (standings.clusters or {}).items()
        }
        detailed = [
            SystemScores(
                system.name, system.results, self.board.segment_scores(system.name), self.board.predictions(system.name)
            )
            for system in standings.systems[:REPORT_SYSTEMS]
        ]
        shown = dataclasses.replace(standings, systems=detailed, clusters=clusters)
        path = Path(tempfile.mkdtemp(prefix="ngrameval-board-")) / "leaderboard.html"
        path.write_text(report.to_html(shown, SCALE, WIDTH), encoding="utf-8")
        count = len(standings.systems)
        note = i18n.text("board.report_made", i18n.language_of(request), count=min(count, REPORT_SYSTEMS), total=count)
        return page.status_html(note), str(path)

    def read_submission(self, upload: Any) -> list[str]:
        """The segments of an uploaded file (one line per segment of the board), as ``ngrameval score`` reads it."""
        if not upload:
            raise InputError("board.error.no_file")
        with tempfile.TemporaryDirectory(prefix="ngrameval-board-") as folder:
            files = text_files([Path(upload)], Path(folder), Budget(int(self.max_mb * 2**20)), max_files=1)
            name = files[0].name
            predictions = read_predictions(Source(str(files[0])))
        if len(predictions) != self.board.segments:
            raise InputError("board.error.lines", file=name, lines=len(predictions), segments=self.board.segments)
        return predictions

    def submit(self, upload: Any, name: Any, team: Any, request: gr.Request | None = None):
        """The submit handler: status, the stored submission (or the error), the submission dropdown (it picked)."""
        language = i18n.language_of(request)
        try:
            name = (name or "").strip()
            if not name:
                raise InputError("board.error.no_name")
            predictions = self.read_submission(upload)
            team = (team or "").strip() or None
            stored = self.board.submit(predictions, name, team=team, client=client_key(request, self.behind_proxy))
        except errors.InputError as error:  # the page's, the board's and the reader's own (English)
            message = error.in_language(language) if isinstance(error, InputError) else str(error)
            return page.status_html(message, True, language, "board.refused"), {"error": message}, gr.update()
        answer = {key: getattr(stored, key) for key in ("name", "team", "time", "digest", "scores", "signatures")}
        status = i18n.text("board.stored", language, name=stored.name, scores=stored.summary(SCALE, WIDTH))
        link = (
            f'<p><a href="?submission={urllib.parse.quote(stored.name)}" target="_self" id="submission-link">'
            f"{html.escape(i18n.text('board.link', language, name=stored.name))}</a></p>"
        )
        return page.status_html(status) + link, answer, gr.update(choices=[stored.name], value=stored.name)


class BoardSpace(BoardPage):
    """The leaderboard Space's page for the board in ``folder`` (opened, and checked, at once)."""

    name = "leaderboard"
    warm_up = None

    def __init__(self, folder: Path, max_mb: float = DEFAULT_MAX_MB, behind_proxy: bool | None = None):
        super().__init__(Path(folder), max_mb, HUB_VARIABLE in os.environ if behind_proxy is None else behind_proxy)
        self.launch_options = {"max_file_size": int(max_mb * 2**20)}  # gradio refuses larger uploads

    def load(self, request: gr.Request):
        """The table, and the submission the address names (``?submission=NAME``)."""
        status, frame, legend, names = self.table(request)
        chosen = request.query_params.get("submission") if request is not None else None
        chosen = chosen if chosen in names else None
        tab = gr.Tabs(selected="submission" if chosen else "board")
        return status, frame, legend, gr.update(choices=names, value=chosen), self.submission_html(chosen, request), tab

    def refresh(self, request: gr.Request):
        status, frame, legend, names = self.table(request)
        return status, frame, legend, gr.update(choices=names)

    def build(self) -> gr.Blocks:
        board = self.board
        with i18n.TranslatedBlocks(
            title=f"{board.title or 'ngrameval'} · leaderboard", analytics_enabled=False, delete_cache=(3600, 3600)
        ) as demo:
            with gr.Row(equal_height=False):
                gr.Markdown(t("board.header", title=board.title or "ngrameval leaderboard"))
                language = i18n.language_switch()
            metrics = ", ".join(spec.name for spec in board.metrics())
            limit, per_hour = f"{self.max_mb:g}", board.max_per_hour or "-"
            gr.Markdown(
                t("board.intro", segments=f"{board.segments:,}", metrics=metrics, limit=limit, per_hour=per_hour)
            )
            with gr.Tabs(selected="board") as tabs:
                with gr.Tab(t("board.tab_board"), id="board"):
                    status = gr.HTML(elem_id="board-status")
                    ranked = gr.Dataframe(label=t("lb.board"), interactive=False, elem_id="standings", wrap=True)
                    legend = gr.HTML(elem_id="board-legend")
                    with gr.Row():
                        refresh_button = gr.Button(t("board.refresh"), elem_id="refresh")
                        report_button = gr.Button(t("board.report"), elem_id="make-report")
                    report_status = gr.HTML(elem_id="report-status")
                    report_file = gr.File(label=t("lb.report"), elem_id="report")
                with gr.Tab(t("board.tab_submit"), id="submit"):
                    upload = gr.File(
                        label=t("board.file", limit=f"{self.max_mb:g}"), file_types=None, elem_id="submission-file"
                    )
                    with gr.Row():
                        name, team = (
                            gr.Textbox(label=t(f"board.{field}"), max_length=200, elem_id=f"submission-{field}")
                            for field in ("name", "team")
                        )
                    submit = gr.Button(t("board.submit"), variant="primary", elem_id="submit")
                    submit_status = gr.HTML(elem_id="submit-status")
                    stored = gr.JSON(label=t("board.stored_json"), elem_id="stored")
                with gr.Tab(t("board.tab_submission"), id="submission"):
                    chosen = gr.Dropdown(
                        [], label=t("board.submission"), elem_id="submission-choice", allow_custom_value=True
                    )
                    view = gr.HTML(elem_id="submission-view")
            table_outputs = [status, ranked, legend, chosen]
            demo.load(self.load, None, [*table_outputs, view, tabs], api_visibility="private")
            refresh_button.click(self.refresh, None, table_outputs, api_name="standings")
            report_button.click(self.report_file, None, [report_status, report_file], api_name="report")
            # The table is refreshed for the page (an API client asks /standings when it wants it).
            submit.click(
                self.submit,
                [upload, name, team],
                [submit_status, stored, chosen],
                api_name="submit",
                concurrency_limit=SUBMIT_CONCURRENCY,
            ).then(self.refresh, None, table_outputs, api_visibility="private")
            chosen.change(self.submission_html, chosen, view, api_name="submission")
            demo.load(None, None, language, js=i18n.INITIAL_JS)
            language.change(None, language, None, js=i18n.SWITCH_JS)
        demo.queue(default_concurrency_limit=1, max_size=QUEUE_SIZE)
        return demo
