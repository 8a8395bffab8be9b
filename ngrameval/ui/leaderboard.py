"""The leaderboard Space: upload references and several systems' outputs, pick metrics and options, get the
ranked table with confidence intervals or paired tests against a baseline, the HTML report's charts, and the
segments where two systems differ most.

It is the ``ngrameval score`` command behind a page: the files are read as the command reads them
(:func:`ngrameval.leaderboard.reading.read_corpus`), scored by
:func:`~ngrameval.leaderboard.scoring.score_leaderboard` and shown with :mod:`ngrameval.frontends.report`;
nothing here scores.

Run: python spaces/leaderboard/app.py  (http://127.0.0.1:7860; GRADIO_SERVER_PORT picks another port)
"""
from __future__ import annotations

import html
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, List, Optional, Sequence, Tuple

import gradio as gr
import pandas as pd
from tqdm import tqdm

from ngrameval.frontends import report
from ngrameval.leaderboard.reading import Source, parse_metric_options, read_corpus
from ngrameval.leaderboard.scoring import Leaderboard, Significance, score_leaderboard
from ngrameval.metric import metric_names
from ngrameval.significance import DEFAULT_SAMPLES, DEFAULT_SEED
from ngrameval.ui import i18n, page
from ngrameval.ui.i18n import t
from ngrameval.ui.page import InputError

MAX_SYSTEMS = 20
MAX_SEGMENTS = 5_000          # per system: every system is scored under every metric, with resampling
MAX_BYTES = page.MAX_BYTES    # all uploads together, zip members uncompressed
MAX_SAMPLES = 10_000          # bootstrap / randomization samples (sacrebleu's randomization default)
TESTS = {"none": None, "paired bootstrap": "bs", "approximate randomization": "ar"}
DEFAULT_METRICS = ["bleu", "chrf"]
STATE_SECONDS = 3600          # a session's scored leaderboard is dropped after an hour


@dataclass
class Scored:
    """What a session keeps after scoring: the leaderboard (for the pair view) and how it is displayed."""

    board: Leaderboard
    scale: float
    width: int


def _paths(files: Optional[Sequence[Any]]) -> List[Path]:
    return [Path(file) for file in files or []]


def _check_total_size(paths: Sequence[Path]) -> None:
    size = sum(path.stat().st_size for path in paths)
    if size > MAX_BYTES:
        raise InputError("lb.error.too_large", size=size / 2**20, limit=MAX_BYTES // 2**20)


def system_files(uploads: Sequence[Path], folder: Path) -> List[Path]:
    """The system files: the uploaded ``.txt`` files and the ``.txt`` members of uploaded ``.zip`` files
    (extracted into ``folder``, their sizes checked before extraction), in the order given, zip members by name.

    >>> import io, tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> with zipfile.ZipFile(folder / "runs.zip", "w") as archive:
    ...     archive.writestr("runs/b.txt", "x\\n"); archive.writestr("runs/a.txt", "y\\n"); archive.writestr("notes.md", "")
    >>> [path.name for path in system_files([folder / "runs.zip"], folder / "out")]
    ['a.txt', 'b.txt']
    """
    found: List[Path] = []
    for upload in uploads:
        if upload.suffix.lower() != ".zip":
            found.append(upload)
            continue
        try:
            archive = zipfile.ZipFile(upload)
        except zipfile.BadZipFile:
            raise InputError("lb.error.not_zip", name=upload.name) from None
        with archive:
            members = sorted((m for m in archive.infolist() if not m.is_dir() and m.filename.lower().endswith(".txt")),
                             key=lambda m: m.filename)
            if not members:
                raise InputError("lb.error.zip_empty", name=upload.name)
            if len(members) > MAX_SYSTEMS:
                raise InputError("lb.error.too_many_systems", count=len(members), limit=MAX_SYSTEMS)
            unpacked = sum(member.file_size for member in members)
            if unpacked > MAX_BYTES:
                raise InputError("lb.error.zip_too_large", name=upload.name, size=unpacked / 2**20,
                                 limit=MAX_BYTES // 2**20)
            for number, member in enumerate(members):
                # Each member in a folder of its own, named as in the archive (never a path it chooses).
                target = folder / upload.stem / str(number) / Path(member.filename).name
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(archive.read(member))
                found.append(target)
    return found


def named_sources(paths: Sequence[Path]) -> List[Source]:
    """The systems' files, each named after its file without the extension; equal names get their number in the
    upload order.

    >>> [source.name for source in named_sources([Path("a/kit.txt"), Path("b/fbk.txt")])]
    ['kit', 'fbk']
    >>> [source.name for source in named_sources([Path("a/out.txt"), Path("b/out.txt")])]
    ['out (1)', 'out (2)']
    """
    names = [path.stem for path in paths]
    if len(set(names)) < len(names):
        names = [f"{name} ({number})" for number, name in enumerate(names, 1)]
    return [Source(str(path), None, name) for path, name in zip(paths, names)]


def read_leaderboard_input(reference_uploads: Optional[Sequence[Any]], system_uploads: Optional[Sequence[Any]],
                           folder: Path) -> Tuple[List[str], List[List[str]], List[List[str]]]:
    """(system names, per system its predictions, per segment its references) from the uploads."""
    references = _paths(reference_uploads)
    if not references:
        raise InputError("lb.error.no_references")
    uploads = _paths(system_uploads)
    if not uploads:
        raise InputError("lb.error.no_systems")
    _check_total_size(references + uploads)
    systems = system_files(uploads, folder)
    if len(systems) > MAX_SYSTEMS:
        raise InputError("lb.error.too_many_systems", count=len(systems), limit=MAX_SYSTEMS)
    for path in references + systems:
        if path.suffix.lower() != ".txt":
            raise InputError("lb.error.not_txt", name=path.name)
    system_sources = named_sources(systems)
    names = [source.name for source in system_sources]
    predictions, refs = read_corpus(system_sources, [Source(str(path)) for path in references])
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
    seed = DEFAULT_SEED if seed is None else int(seed)
    if chosen is not None:
        return Significance(test=chosen, test_samples=samples, seed=seed,
                            confidence_samples=samples if confidence else None)
    return Significance(confidence_samples=(samples or DEFAULT_SAMPLES["bs"]) if confidence else None, seed=seed)


def order_systems(names: List[str], predictions: List[List[str]], baseline: Optional[str]):
    """The systems with the baseline first (the paired tests' baseline is the first system)."""
    if not baseline:
        return names, predictions
    if baseline not in names:
        raise InputError("lb.error.baseline", name=baseline, names=", ".join(names))
    first = names.index(baseline)
    order = [first] + [index for index in range(len(names)) if index != first]
    return [names[i] for i in order], [predictions[i] for i in order]


def score(reference_uploads, system_uploads, metrics, options_text, baseline, test, samples, confidence, seed,
          scale_100, request: Optional[gr.Request] = None):
    """The submit handler: status, table, charts, pair choices, the pair view, the report file, the state
    (messages in the request's language)."""
    language = i18n.language_of(request)
    try:
        if not metrics:
            raise InputError("lb.error.no_metric")
        options = parse_metric_options([line for line in (options_text or "").splitlines() if line.strip()],
                                       list(metrics))
        tests = _significance(test, samples, confidence, seed)
        with tempfile.TemporaryDirectory(prefix="ngrameval-leaderboard-") as unpacked:
            names, predictions, references = read_leaderboard_input(reference_uploads, system_uploads,
                                                                    Path(unpacked))
        if tests.test is not None and len(names) < 2:
            raise InputError("lb.error.pair")
        names, predictions = order_systems(names, predictions, baseline)
        board = score_leaderboard(names, predictions, references, {m: options.get(m, {}) for m in metrics}, tests,
                                  tqdm(disable=True))
    except ValueError as error:     # the page's InputError, or the command line's and the metrics' own errors
        message = error.in_language(language) if isinstance(error, InputError) else str(error)
        return (page.status_html(message, True, language), None, "", gr.update(choices=[], value=None), "", None,
                None)
    scale, width = (100.0, 2) if scale_100 else (1.0, 4)
    scored = Scored(board, scale, width)
    # Gradio copies the file into its cache (emptied by the Blocks' delete_cache) after this returns.
    report_file = Path(tempfile.mkdtemp(prefix="ngrameval-leaderboard-")) / "leaderboard.html"
    report_file.write_text(report.to_html(board, scale, width), encoding="utf-8")
    pairs = pair_choices(board)
    status = page.status_html(i18n.text("lb.scored", language, systems=len(names), segments=f"{len(references):,}",
                                        column=board.columns[0].key))
    return (status, table(scored), charts(scored, language), gr.update(choices=pairs, value=pairs[0] if pairs else None),
            pair_view(scored, pairs[0] if pairs else None), str(report_file), scored)


def table(scored: Scored) -> pd.DataFrame:
    """The ranked table, as the text report shows it."""
    board = scored.board
    rows = [[rank, board.label(system), *(board.cell(system, column.key, scored.scale, scored.width)
                                          for column in board.columns)]
            for rank, system in enumerate(board.ranked(), 1)]
    return pd.DataFrame(rows, columns=["rank", "system", *(column.key for column in board.columns)])


def charts(scored: Scored, language: str = i18n.DEFAULT_LANGUAGE) -> str:
    """The report's bar charts (with interval whiskers), segment-score distributions, legend and signatures."""
    board, scale, width = scored.board, scored.scale, scored.width
    legend = "".join(f"<p>{html.escape(line)}</p>" for line in board.legend())
    signatures = "".join(f"<li><b>{html.escape(c.key)}</b>: <code>{html.escape(c.signature)}</code></li>"
                         for c in board.columns)
    bars = "".join(f"<h4>{html.escape(c.key)}</h4>{report.bar_chart(board, c, scale, width)}"
                   for c in board.columns)
    boxes = "".join(f"<h4>{html.escape(c.key)}</h4>{report.box_plot(board, i, scale, width)}"
                    for i, c in enumerate(board.columns))
    return (f'<style>{report.CHART_CSS}</style><div id="legend">{legend}<ul>{signatures}</ul></div>'
            f'<h3>{html.escape(i18n.text("lb.bars", language))}</h3><div id="bars">{bars}</div>'
            f'<h3>{html.escape(i18n.text("lb.distributions", language))}</h3><div id="distributions">{boxes}</div>')


def pair_choices(board: Leaderboard) -> List[str]:
    """``"A vs B"`` for every pair of ranked systems, the report's default pair first."""
    ranked = board.ranked()
    if len(ranked) < 2:
        return []
    shown = tuple(sorted(report.default_pair(board)))
    pairs = sorted(((i, j) for i in range(len(ranked)) for j in range(i + 1, len(ranked))), key=lambda p: p != shown)
    return [f"{ranked[i].name} vs {ranked[j].name}" for i, j in pairs]


def pair_view(scored: Optional[Scored], choice: Optional[str]) -> str:
    """The segments where the chosen pair differs most, both predictions highlighted."""
    if scored is None or not choice:
        return ""
    names = [system.name for system in scored.board.ranked()]
    pairs = {f"{names[i]} vs {names[j]}": (i, j) for i in range(len(names)) for j in range(i + 1, len(names))}
    if choice not in pairs:
        return ""
    first, second = pairs[choice]
    return f"<style>{report.CHART_CSS}</style>" + report.pair_section(scored.board, first, second, scored.scale, scored.width, True)


def baseline_choices(system_uploads) -> Any:
    """The baseline dropdown lists the uploaded systems (zip members by name); the first is the default."""
    try:
        with tempfile.TemporaryDirectory(prefix="ngrameval-leaderboard-") as folder:
            names = [source.name for source in named_sources(system_files(_paths(system_uploads), Path(folder)))]
    except (InputError, ValueError):
        names = []
    return gr.update(choices=names, value=names[0] if names else None)


class LeaderboardSpace:
    """The page; ``build()`` as a :class:`~ngrameval.ui.page.MetricSpace` builds its own."""

    name = "leaderboard"
    warm_up = None

    def build(self) -> gr.Blocks:
        with i18n.TranslatedBlocks(title="ngrameval leaderboard", analytics_enabled=False,
                                   delete_cache=(STATE_SECONDS, STATE_SECONDS)) as demo:
            with gr.Row(equal_height=False):
                gr.Markdown(t("lb.header"))
                language = i18n.language_switch()
            gr.Markdown(t("lb.intro"))
            with gr.Row():
                references = gr.File(label=t("lb.references"), file_count="multiple", file_types=[".txt"],
                                     elem_id="references")
                systems = gr.File(label=t("lb.systems"), file_count="multiple", file_types=[".txt", ".zip"],
                                  elem_id="systems")
            with gr.Row():
                metrics = gr.CheckboxGroup(metric_names(), value=DEFAULT_METRICS, label=t("lb.metrics"),
                                           elem_id="metrics")
                # Custom values: an API client names the baseline without the page's upload event.
                baseline = gr.Dropdown([], label=t("lb.baseline"), allow_custom_value=True, elem_id="baseline")
            with gr.Row():
                test = gr.Radio(list(TESTS), value="paired bootstrap", label=t("lb.test"), elem_id="test")
                confidence = gr.Checkbox(False, label=t("lb.confidence"), elem_id="confidence")
                samples = gr.Number(DEFAULT_SAMPLES["bs"], precision=0, elem_id="samples",
                                    label=t("lb.samples", bootstrap=f"{DEFAULT_SAMPLES['bs']:,}",
                                            randomization=f"{DEFAULT_SAMPLES['ar']:,}", limit=f"{MAX_SAMPLES:,}"))
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
            submit.click(score, [references, systems, metrics, options, baseline, test, samples, confidence, seed,
                                 scale_100],
                         [status, ranked, chart_view, pair, pair_html, report_file, state], api_name="rank")
            pair.change(pair_view, [state, pair], pair_html, api_visibility="private")
            demo.load(None, None, language, js=i18n.INITIAL_JS)
            language.change(None, language, None, js=i18n.SWITCH_JS)
        demo.queue(default_concurrency_limit=1, max_size=16)
        return demo


SPACE = LeaderboardSpace()
