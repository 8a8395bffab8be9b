"""The leaderboard Space: the ``ngrameval score`` command behind a page. Uploaded references and systems' outputs
are read as the command reads them, scored by :func:`~ngrameval.leaderboard.scoring.score_leaderboard` (intervals,
paired tests against a baseline) and shown with :mod:`ngrameval.frontends.report`; nothing here scores."""

from __future__ import annotations

import argparse
import gzip
import html
import os
import re
import sys
import tempfile
import zipfile
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import gradio as gr
import pandas as pd

from ngrameval import errors
from ngrameval.frontends import report
from ngrameval.frontends.hub import BOARD_FOLDER, copy_board
from ngrameval.leaderboard.board import DATABASE
from ngrameval.leaderboard.reading import Source, parse_metric_options, read_corpus
from ngrameval.leaderboard.scoring import Leaderboard, Significance, score_leaderboard
from ngrameval.metric import metric_names
from ngrameval.significance import DEFAULT_SAMPLES, DEFAULT_SEED
from ngrameval.ui import i18n, page
from ngrameval.ui.i18n import t
from ngrameval.ui.page import InputError

MAX_SYSTEMS = 20
MAX_SEGMENTS = 5_000  # per system: every system is scored under every metric, with resampling
MAX_BYTES = page.MAX_BYTES  # all uploads together, zip members uncompressed
MAX_SAMPLES = 10_000  # bootstrap / randomization samples (sacrebleu's randomization default)
TESTS = {"none": None, "paired bootstrap": "bs", "approximate randomization": "ar"}
DEFAULT_METRICS = ["bleu", "chrf"]
STATE_SECONDS = 3600  # a session's scored leaderboard is dropped after an hour
BOARD_VARIABLE = "NGRAMEVAL_BOARD"
MAX_MB_VARIABLE = "NGRAMEVAL_BOARD_MAX_MB"
DEFAULT_MAX_MB = 20  # a submitted file, unpacked


CHUNK = 1 << 20
SKIPPED_MEMBER = re.compile(r"(^|/)(__MACOSX/|\.)")  # not texts: macOS's folders in an archive, hidden files


@dataclass
class Budget:
    """What the uploads may hold together, in bytes, unpacked: taken as they are written, so none unpacks past it.

    >>> budget = Budget(2**20)
    >>> budget.take(2**19, "a.txt"); budget.used
    524288
    >>> budget.take(2**20, "b.gz")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ngrameval.ui.page.InputError: b.gz: the uploads come to more than 1 MB (.gz and .zip files unpacked), the limit
    """

    limit: int
    used: int = 0

    def take(self, size: int, name: str) -> None:
        self.used += size
        if self.used > self.limit:
            raise InputError("lb.error.too_large", name=name, limit=self.limit / 2**20)


def _text_file(stream: IO[bytes], name: str, target: Path, budget: Budget) -> Path:
    """A file's text in ``target`` (a ``.gz`` decompressed), each chunk taken from ``budget`` before it is written."""
    packed = name.lower().endswith(".gz")
    path = target / (name[:-3] if packed else name)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        with gzip.GzipFile(fileobj=stream) if packed else stream as source, open(path, "wb") as output:
            while chunk := source.read(CHUNK):
                budget.take(len(chunk), name)
                output.write(chunk)
    except (OSError, EOFError, zlib.error):
        if not packed:
            raise
        raise InputError("lb.error.not_gzip", name=name) from None
    return path


def text_files(uploads: Sequence[Path], folder: Path, budget: Budget, max_files: int = MAX_SYSTEMS) -> list[Path]:
    """The text files of ``uploads`` (at most ``max_files``), as ``ngrameval score`` reads files: any file as it is,
    a ``.gz`` decompressed, a ``.zip``'s members by name (hidden ones left out) extracted into ``folder``; every
    byte, unpacked, taken from ``budget`` before it is written.

    >>> import gzip, io, tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> with zipfile.ZipFile(folder / "runs.zip", "w") as archive:
    ...     archive.writestr("runs/b.en", "x\\n"); archive.writestr("runs/a.txt.gz", gzip.compress(b"y\\n"))
    ...     archive.writestr("__MACOSX/runs/._b.en", "")
    >>> [path.name for path in text_files([folder / "runs.zip"], folder / "out", Budget(100))]
    ['a.txt', 'b.en']
    >>> text_files([folder / "runs.zip"], folder / "out", Budget(3))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ngrameval.ui.page.InputError: b.en: the uploads come to more than ... MB (.gz and .zip files unpacked), the limit
    """
    found: list[Path] = []
    for number, upload in enumerate(uploads):
        target = folder / str(number)  # a folder per upload: names never clash, never a path they choose
        if upload.suffix.lower() != ".zip":
            if upload.suffix.lower() == ".gz":
                with open(upload, "rb") as stream:
                    found.append(_text_file(stream, upload.name, target, budget))
            else:
                budget.take(upload.stat().st_size, upload.name)
                found.append(upload)
            continue
        try:
            archive = zipfile.ZipFile(upload)
        except zipfile.BadZipFile:
            raise InputError("lb.error.not_zip", name=upload.name) from None
        with archive:
            members = [m for m in archive.infolist() if not m.is_dir() and not SKIPPED_MEMBER.search(m.filename)]
            members.sort(key=lambda member: member.filename)
            if not members:
                raise InputError("lb.error.zip_empty", name=upload.name)
            if len(found) + len(members) > max_files:
                raise InputError("lb.error.too_many_files", count=len(found) + len(members), limit=max_files)
            for index, member in enumerate(members):
                try:
                    with archive.open(member) as stream:
                        name = member.filename.rsplit("/", 1)[-1]
                        found.append(_text_file(stream, name, target / str(index), budget))
                except (zipfile.BadZipFile, RuntimeError, zlib.error, EOFError):  # damaged, encrypted
                    raise InputError("lb.error.not_zip", name=upload.name) from None
    if len(found) > max_files:
        raise InputError("lb.error.too_many_files", count=len(found), limit=max_files)
    return found


def system_names(paths: Sequence[Path]) -> list[str]:
    """The systems' names: their files' names, less ``.txt``; equal names get their number in the upload order.

    >>> system_names([Path("a/kit.txt"), Path("b/fbk.txt")])
    ['kit', 'fbk']
    >>> system_names([Path("a/out.txt"), Path("b/out.txt")])
    ['out (1)', 'out (2)']
    """
    names = [
        path.name[:-4] if path.name.lower().endswith(".txt") and len(path.name) > 4 else path.name for path in paths
    ]
    if len(set(names)) < len(names):
        names = [f"{name} ({number})" for number, name in enumerate(names, 1)]
    return names


def read_leaderboard_input(
    reference_uploads: Sequence[Any] | None, system_uploads: Sequence[Any] | None, folder: Path
) -> tuple[list[str], list[list[str]], list[list[str]]]:
    """(system names, per system its predictions, per segment its references) from the uploads (:func:`text_files`,
    all within MAX_BYTES unpacked)."""
    references = [Path(file) for file in reference_uploads or []]
    uploads = [Path(file) for file in system_uploads or []]
    if not references:
        raise InputError("lb.error.no_references")
    if not uploads:
        raise InputError("lb.error.no_systems")
    budget = Budget(MAX_BYTES)
    reference_files = text_files(references, folder / "references", budget)
    systems = text_files(uploads, folder / "systems", budget)
    names = system_names(systems)
    predictions, refs = read_corpus(
        [Source(str(path), None, name) for path, name in zip(systems, names)], [Source(str(p)) for p in reference_files]
    )
    if len(refs) > MAX_SEGMENTS:
        raise InputError("lb.error.too_many_segments", count=len(refs), limit=MAX_SEGMENTS)
    return names, predictions, refs


def _significance(test: str, samples: Any, confidence: bool, seed: Any) -> Significance:
    chosen = page.pick(test, TESTS, "Test")
    samples = page.optional_number(samples, "Samples")
    if samples is not None and (samples != int(samples) or not 1 <= samples <= MAX_SAMPLES):
        raise InputError("lb.error.samples", limit=MAX_SAMPLES, value=samples)
    seed = page.optional_number(seed, "Seed")
    if seed is not None and (seed != int(seed) or seed < 0):
        raise InputError("lb.error.seed", value=seed)
    samples = None if samples is None else int(samples)
    # Intervals without a test: the bootstrap's default samples unless given.
    confidence_samples = (samples or (None if chosen else DEFAULT_SAMPLES["bs"])) if confidence else None
    return Significance(
        chosen, samples if chosen else None, confidence_samples, DEFAULT_SEED if seed is None else int(seed)
    )


def score(
    reference_uploads,
    system_uploads,
    metrics,
    options_text,
    baseline,
    test,
    samples,
    confidence,
    seed,
    scale_100,
    request: gr.Request | None = None,
):
    """The submit handler: status, table, charts, pair choices, the pair view, the report file, the state."""
    language = i18n.language_of(request)
    try:
        if not metrics:
            raise InputError("lb.error.no_metric")
        options = parse_metric_options([line for line in (options_text or "").splitlines() if line.strip()], metrics)
        tests = _significance(test, samples, confidence, seed)
        with tempfile.TemporaryDirectory(prefix="ngrameval-leaderboard-") as unpacked:
            names, predictions, references = read_leaderboard_input(reference_uploads, system_uploads, Path(unpacked))
        if tests.test is not None and len(names) < 2:
            raise InputError("lb.error.pair")
        if baseline and baseline not in names:
            raise InputError("lb.error.baseline", name=baseline, names=", ".join(names))
        # The paired tests' baseline first
        order = sorted(range(len(names)), key=lambda index: names[index] != baseline)
        names, predictions = [names[index] for index in order], [predictions[index] for index in order]
        board = score_leaderboard(names, predictions, references, options, tests)
    except errors.InputError as error:  # the page's, or the reader's and the metrics' own (English)
        message = error.in_language(language) if isinstance(error, InputError) else str(error)
        return (page.status_html(message, True, language), None, "", gr.update(choices=[], value=None), "", None, None)
    scale, width = (100.0, 2) if scale_100 else (1.0, 4)
    # Gradio copies the file into its cache (emptied by the Blocks' delete_cache) after this returns.
    report_file = Path(tempfile.mkdtemp(prefix="ngrameval-leaderboard-")) / "leaderboard.html"
    report_file.write_text(report.to_html(board, scale, width), encoding="utf-8")
    pairs = pair_choices(board)
    segments = f"{len(references):,}"
    status = i18n.text("lb.scored", language, systems=len(names), segments=segments, column=board.columns[0].key)
    return (
        page.status_html(status),
        table(board, scale, width),
        charts(board, scale, width, language),
        gr.update(choices=pairs, value=pairs[0] if pairs else None),
        pair_view((board, scale, width), pairs[0] if pairs else None),
        str(report_file),
        (board, scale, width),
    )


def table(board: Leaderboard, scale: float, width: int) -> pd.DataFrame:
    """The ranked table, as the text report shows it."""
    rows = [
        [rank, board.label(system), *(board.cell(system, column.key, scale, width) for column in board.columns)]
        for rank, system in enumerate(board.ranked(), 1)
    ]
    return pd.DataFrame(rows, columns=["rank", "system", *(column.key for column in board.columns)])


def charts(board: Leaderboard, scale: float, width: int, language: str = i18n.DEFAULT_LANGUAGE) -> str:
    """The report's interval charts, segment-score distributions, legend and signatures."""
    bars, boxes = report.charts(board, scale, width, "h4")
    return (
        f'<style>{report.CHART_CSS}</style><div id="legend">{report.legend_html(board)}</div>'
        f'<h3>{html.escape(i18n.text("lb.bars", language))}</h3><div id="bars">{bars}</div>'
        f'<h3>{html.escape(i18n.text("lb.distributions", language))}</h3><div id="distributions">{boxes}</div>'
    )


def pair_choices(board: Leaderboard) -> list[str]:
    """``"A vs B"`` for every pair of ranked systems, the report's default pair first."""
    ranked = board.ranked()
    return [f"{ranked[i].name} vs {ranked[j].name}" for i, j in report.pairs(board)]


def pair_view(scored: tuple[Leaderboard, float, int] | None, choice: str | None) -> str:
    """The segments where the chosen pair (of the session's leaderboard, scale and width) differs most, both
    predictions highlighted."""
    if scored is None or choice not in (pairs := dict(zip(pair_choices(scored[0]), report.pairs(scored[0])))):
        return ""
    return f"<style>{report.CHART_CSS}</style>{report.pair_section(scored[0], *pairs[choice], *scored[1:], True)}"


def baseline_choices(system_uploads) -> Any:
    """The baseline dropdown lists the uploaded systems (zip members by name); the first is the default."""
    try:
        with tempfile.TemporaryDirectory(prefix="ngrameval-leaderboard-") as folder:
            names = system_names(
                text_files([Path(file) for file in system_uploads or []], Path(folder), Budget(MAX_BYTES))
            )
    except errors.InputError:
        names = []
    return gr.update(choices=names, value=names[0] if names else None)


@dataclass(frozen=True)
class BoardSettings:
    """A board's folder (None: no board, the upload-and-score page) and a submitted file's size limit (MB)."""

    folder: Path | None
    max_mb: float


def _megabytes(text: str) -> float:
    value = float(text)
    if not value > 0 or value != value or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a positive number of megabytes, got {text}")
    return value


def board_settings(arguments: Sequence[str], environ: Mapping[str, str], program: Path | None) -> BoardSettings:
    """The board the Space serves: ``--board DIR`` among the app's ``arguments``, else ``$NGRAMEVAL_BOARD``, else a
    ``board/`` folder holding a board beside the ``program``; and the submissions' size limit, ``--max-mb`` or
    ``$NGRAMEVAL_BOARD_MAX_MB`` (default 20). A board beside the program is first copied to a chosen folder that has
    none (a Hub Space's persistent storage at its first start), where it then lives across restarts.

    >>> board_settings(["--board", "my-board", "--max-mb", "5"], {}, None)
    BoardSettings(folder=PosixPath('my-board'), max_mb=5.0)
    >>> board_settings([], {"NGRAMEVAL_BOARD": "b"}, None).folder, board_settings([], {}, None).folder
    (PosixPath('b'), None)
    """
    parser = argparse.ArgumentParser(prog="app.py", description="the leaderboard Space")
    parser.add_argument(
        "--board",
        default=environ.get(BOARD_VARIABLE),
        help=f"serve the community board in this folder (ngrameval board init DIR); default: "
        f"${BOARD_VARIABLE}, else a board/ folder beside app.py",
    )
    parser.add_argument(
        "--max-mb",
        type=_megabytes,
        default=environ.get(MAX_MB_VARIABLE, str(DEFAULT_MAX_MB)),
        help=f"the size limit of a submitted file, unpacked (default: ${MAX_MB_VARIABLE}, else {DEFAULT_MAX_MB})",
    )
    parsed = parser.parse_args(list(arguments))
    bundled = program.parent / BOARD_FOLDER if program is not None else None
    if bundled is not None and not (bundled / DATABASE).is_file():
        bundled = None
    if parsed.board is None:
        return BoardSettings(bundled, parsed.max_mb)
    chosen = Path(parsed.board)
    if bundled is not None and not (chosen / DATABASE).exists() and chosen.resolve() != bundled.resolve():
        copy_board(bundled, chosen)
    return BoardSettings(chosen, parsed.max_mb)


class LeaderboardSpace:
    """The page (``build()``, as a :class:`~ngrameval.ui.page.MetricSpace`)."""

    name = "leaderboard"
    warm_up = None

    def configured(self, as_program: bool) -> Any:
        """This page, or the page of the board the Space is given (:func:`board_settings`)."""
        main_file = getattr(sys.modules.get("__main__"), "__file__", None)
        program = Path(main_file) if as_program and main_file else None
        try:
            settings = board_settings(sys.argv[1:] if as_program else [], os.environ, program)
            if settings.folder is None:
                return self
            from ngrameval.ui.board import BoardSpace

            return BoardSpace(settings.folder, settings.max_mb)
        except errors.InputError as error:  # no board there, a damaged one: one line, not a traceback
            if as_program:
                sys.exit(f"app.py: {error}")
            raise

    def build(self) -> gr.Blocks:
        with i18n.TranslatedBlocks(
            title="ngrameval leaderboard", analytics_enabled=False, delete_cache=(STATE_SECONDS, STATE_SECONDS)
        ) as demo:
            with gr.Row(equal_height=False):
                gr.Markdown(t("lb.header"))
                language = i18n.language_switch()
            gr.Markdown(t("lb.intro"))
            with gr.Row():
                references, systems = (
                    gr.File(label=t(f"lb.{name}"), file_count="multiple", file_types=None, elem_id=name)
                    for name in ("references", "systems")
                )
            with gr.Row():
                metrics = gr.CheckboxGroup(
                    metric_names(), value=DEFAULT_METRICS, label=t("lb.metrics"), elem_id="metrics"
                )
                # Custom values: an API client names the baseline without the page's upload event.
                baseline = gr.Dropdown([], label=t("lb.baseline"), allow_custom_value=True, elem_id="baseline")
            with gr.Row():
                test = gr.Radio(list(TESTS), value="paired bootstrap", label=t("lb.test"), elem_id="test")
                confidence = gr.Checkbox(False, label=t("lb.confidence"), elem_id="confidence")
                bootstrap, randomization = (f"{DEFAULT_SAMPLES[kind]:,}" for kind in ("bs", "ar"))
                label = t("lb.samples", bootstrap=bootstrap, randomization=randomization, limit=f"{MAX_SAMPLES:,}")
                samples = gr.Number(DEFAULT_SAMPLES["bs"], precision=0, elem_id="samples", label=label)
                seed = gr.Number(DEFAULT_SEED, label=t("lb.seed"), elem_id="seed")
                scale_100 = gr.Checkbox(True, label=t("lb.scale"), elem_id="scale")
            options = gr.Textbox(label=t("lb.options"), info=t("lb.options_info"), lines=2, elem_id="options")
            submit = gr.Button(t("lb.submit"), variant="primary", elem_id="submit")
            status = gr.HTML(elem_id="status")
            ranked = gr.Dataframe(label=t("lb.board"), interactive=False, elem_id="leaderboard")
            chart_view = gr.HTML(elem_id="charts")
            pair = gr.Dropdown([], label=t("lb.pair"), elem_id="pair")
            pair_html = gr.HTML(elem_id="pair-view")
            report_file = gr.File(label=t("lb.report"), elem_id="report")
            state = gr.State(time_to_live=STATE_SECONDS)
            systems.change(baseline_choices, systems, baseline, api_visibility="private")
            submit.click(
                score,
                [references, systems, metrics, options, baseline, test, samples, confidence, seed, scale_100],
                [status, ranked, chart_view, pair, pair_html, report_file, state],
                api_name="rank",
            )
            pair.change(pair_view, [state, pair], pair_html, api_visibility="private")
            demo.load(None, None, language, js=i18n.INITIAL_JS)
            language.change(None, language, None, js=i18n.SWITCH_JS)
        demo.queue(default_concurrency_limit=1, max_size=16)
        return demo


SPACE = LeaderboardSpace()
