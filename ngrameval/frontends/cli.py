"""The ``ngrameval`` command: score system outputs against references, as a leaderboard.

    ngrameval score -r ref.txt [ref2.txt ...] -s sysA.txt sysB.txt ... [-m bleu rouge ...] [options]
    ngrameval example                                  # BLEU and NIST on the bundled example
    ngrameval bleu -s system.txt -r ref.txt [-r ref2.txt] [--variant nltk] [--json]
    ngrameval nist -s system.txt -r ref.txt [--variant mteval]
    ngrameval export-metric bleu DIR                              # a folder to push to the Hugging Face Hub
    ngrameval export-space bleu DIR
    ngrameval export-space leaderboard DIR --board BOARD_DIR      # the Space serving a community board
    ngrameval board init DIR -r REF... -m METRIC... [--option ...] [--title ...] [--max-per-hour N]
    ngrameval board submit DIR FILE --name NAME [--team TEAM] [--client KEY]
    ngrameval board show DIR [--format text|json|csv|tsv|markdown|latex|html]
    ngrameval board remove DIR NAME / export DIR FILE.parquet / rescore DIR

``score`` is written against :mod:`ngrameval.metric` only: every registered metric and option is available by
name; files are read as sacrebleu's command line reads them. Each command imports what it needs when it runs, and
only the command given gets its arguments (their help names what their modules hold): ``ngrameval --help`` starts
without importing numpy.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ngrameval.errors import InputError

EXAMPLES = Path(__file__).parents[1] / "examples"


def _positive(text: str) -> int:
    value = int(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive number of samples, got {value}")
    return value


def _add_inputs(command: argparse.ArgumentParser, references: str, metrics: str, option: str) -> None:
    """-r, -m, --option and --ref-field, which ``score`` and ``board init`` share (with their own help)."""
    command.add_argument(
        "-r", "--references", nargs="+", action="extend", required=True, metavar="REF", help=references
    )
    command.add_argument("-m", "--metrics", nargs="+", action="extend", metavar="METRIC", help=metrics)
    command.add_argument("--option", action="append", default=[], metavar="METRIC.NAME=VALUE", help=option)
    command.add_argument("--ref-field", help="the field of .jsonl / .tsv reference files to read")


def _add_display(command: argparse.ArgumentParser, default: str | None, format_help: str, scale_help: str) -> None:
    """--format, --scale, --width and -o, which ``score`` and ``board show`` share."""
    from ngrameval.frontends.report import FORMATS

    command.add_argument("--format", choices=FORMATS, default=default, help=format_help)
    command.add_argument("--scale", type=float, default=1.0, help=scale_help)
    command.add_argument("--width", type=int, default=4, help="decimals of displayed scores (default: %(default)s)")
    command.add_argument("-o", "--output", help="write the output to this file instead of standard output")


def _add_score_arguments(command: argparse.ArgumentParser, name: str) -> None:
    from ngrameval import significance
    from ngrameval.metric import metric_names

    command.description = (
        "Score one or more systems against references with any registered metric ("
        + ", ".join(metric_names())
        + "), optionally with paired significance tests against the "
        "first system or bootstrap confidence intervals."
    )
    command.epilog = (
        "Inputs: plain text is one segment a line, split as sacrebleu's command line splits it (at \\n "
        "only, trailing whitespace stripped). A .jsonl or .tsv (with a header) file gives the field "
        "named by PATH:FIELD, or --field / --ref-field; a JSON list in a reference field is several "
        "references. '-' is standard input (plain text); .gz files are decompressed; globs are "
        "expanded. A system is shown under its file name, or NAME=PATH names it."
    )
    _add_inputs(
        command,
        "reference files, one reference each per segment (repeatable)",
        "metrics (default: bleu); one of " + ", ".join(metric_names()),
        "an option of a metric's function, the value read as JSON when it is JSON "
        "(bleu.max_order=3, rouge.use_stemmer=true, rouge.rouge_types='[\"rouge1\"]') "
        "and as a string otherwise (bleu.tokenize=none); repeatable",
    )
    command.add_argument(
        "-s",
        "--systems",
        nargs="+",
        action="extend",
        required=True,
        metavar="SYS",
        help="system output files, one row of the leaderboard each (repeatable; the first is the "
        "baseline of a paired test)",
    )
    command.add_argument("--field", help="the field of .jsonl / .tsv system files to read")
    paired = command.add_mutually_exclusive_group()
    paired.add_argument(
        "--paired-bs",
        action="store_true",
        help="paired bootstrap resampling test of every system against the first (as sacrebleu), "
        "and clusters of systems not significantly different (WMT's ranking: the paired "
        "bootstrap between every two systems)",
    )
    paired.add_argument(
        "--paired-ar",
        action="store_true",
        help="paired approximate randomization test of every system against the first (as sacrebleu)",
    )
    command.add_argument(
        "--paired-n",
        type=_positive,
        metavar="N",
        help="samples of the paired test (default: sacrebleu's, 1000 for bs and 10000 for ar)",
    )
    command.add_argument(
        "--confidence",
        action="store_true",
        help="95%% bootstrap confidence interval of each system's score (with --paired-ar: of "
        "the test's systems; --paired-bs gives intervals by itself)",
    )
    command.add_argument(
        "--confidence-n",
        type=_positive,
        default=1000,
        metavar="N",
        help="bootstrap samples of --confidence (default: %(default)s)",
    )
    command.add_argument(
        "--seed",
        type=int,
        help="random seed of the resampling (default: $SACREBLEU_SEED, else "
        f"{significance.DEFAULT_SEED}; SACREBLEU_SEED=None: unseeded)",
    )
    command.add_argument(
        "--sentence-level",
        action="store_true",
        help="print JSON lines instead of the table, one object per segment per system: {system, segment "
        "(1-based), scores}; with --format json, the JSON object with each system's 'segments' added. Each "
        "segment is scored by the metric's own sentence rule (BLEU: sacrebleu's sentence_bleu, with the "
        "effective order, or NLTK's for variant nltk)",
    )
    _add_display(
        command,
        None,
        "output format (default: text); json, csv and tsv hold the unscaled, unrounded scores",
        "multiply displayed scores (text, markdown, latex, html) by this; 100 for sacrebleu's 0-100 display",
    )
    command.add_argument("-q", "--quiet", action="store_true", help="no progress bar")


def _progress_bar(steps: int, quiet: bool) -> contextlib.AbstractContextManager[Any]:
    """tqdm's bar on a terminal (tqdm is imported for it only), unless ``quiet``; else a context of None."""
    if quiet or not sys.stderr.isatty():
        return contextlib.nullcontext()
    from tqdm import tqdm

    # No bar for runs shorter than a second; TQDM_DELAY, tqdm's own setting, changes that.
    return tqdm(
        total=steps, desc="ngrameval", unit="step", file=sys.stderr, delay=float(os.environ.get("TQDM_DELAY", "1"))
    )


def run_score(args: argparse.Namespace) -> int:
    """The ``score`` command."""
    from ngrameval import significance
    from ngrameval.frontends.report import render
    from ngrameval.leaderboard.reading import parse_metric_options, parse_sources, read_corpus, system_names
    from ngrameval.leaderboard.scoring import Significance, score_leaderboard

    if args.sentence_level and (
        args.paired_bs or args.paired_ar or args.confidence or args.format not in (None, "json")
    ):
        raise InputError(
            "--sentence-level prints JSON lines of segment scores (or, with --format json, one JSON "
            "object); it takes no --paired-bs, --paired-ar, --confidence or other --format"
        )
    test = "bs" if args.paired_bs else "ar" if args.paired_ar else None
    if args.paired_n is not None and test is None:
        raise InputError("--paired-n needs --paired-bs or --paired-ar")
    options = parse_metric_options(args.option, args.metrics or ["bleu"])
    systems = parse_sources(args.systems, args.field, "-s")
    names = system_names(systems)
    if test is not None and len(systems) < 2:
        raise InputError(f"--paired-{test} compares systems with the first: give at least two systems")
    references = parse_sources(args.references, args.ref_field, "-r")
    predictions, per_segment_references = read_corpus(systems, references)
    tests = Significance(
        test,
        args.paired_n,
        args.confidence_n if args.confidence else None,
        significance.resolve_seed("env" if args.seed is None else args.seed),
    )
    with _progress_bar(len(options) * (len(systems) + 1), args.quiet) as progress:
        board = score_leaderboard(names, predictions, per_segment_references, options, tests, progress)
    sentences = "json-sentences" if args.format == "json" else "sentences"
    output_format = sentences if args.sentence_level else args.format or "text"
    _write_output(render(board, output_format, args.scale, args.width), args.output)
    return 0


def _write_output(text: str, path: str | None) -> None:
    """``text`` to the file ``path`` (an :class:`InputError` if it cannot be written), or to standard output."""
    if path is None:
        sys.stdout.write(text)
        return
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as error:
        raise InputError(f"-o {path}: {error.strerror or error}") from None


def _one_system(system: Path, references: list[Path]) -> tuple[list[str], list[list[str]]]:
    """One system's predictions and the references of each segment, read as ``score`` reads files."""
    from ngrameval.leaderboard.reading import Source, read_corpus

    predictions, per_segment = read_corpus([Source(str(system))], [Source(str(path)) for path in references])
    return predictions[0], per_segment


def run_example(args: argparse.Namespace) -> int:
    """The ``example`` command: BLEU and NIST variants on Papineni et al.'s example."""
    from ngrameval.metrics.bleu import VARIANTS as BLEU_VARIANTS
    from ngrameval.metrics.bleu import bleu
    from ngrameval.metrics.nist import VARIANTS as NIST_VARIANTS
    from ngrameval.metrics.nist import nist

    predictions, references = _one_system(EXAMPLES / "hypotheses.txt", sorted(EXAMPLES.glob("references.*.txt")))
    print("Papineni et al. (2002), example 1: two candidates, three references each\n")
    for metric, variants in ((bleu, BLEU_VARIANTS), (nist, NIST_VARIANTS)):
        for variant in variants:
            result = metric(predictions, references, variant=variant, sentence_level=True)
            corpus = getattr(result, metric.__name__)
            print(
                f"{metric.__name__.upper()} ({variant:9s}) corpus {corpus:.4f}  per sentence "
                f"{', '.join(f'{s:.4f}' for s in result.sentence_scores)}"
            )
    return 0


def _add_single_metric_arguments(command: argparse.ArgumentParser, name: str) -> None:
    from ngrameval.text.tokenizers import TOKENIZER_NAMES

    variants = importlib.import_module(f"ngrameval.metrics.{name}").VARIANTS
    command.add_argument("-s", "--system", type=Path, required=True, help="system output, one segment a line")
    command.add_argument(
        "-r",
        "--reference",
        type=Path,
        action="append",
        required=True,
        help="reference file, one segment a line (repeat for several references)",
    )
    command.add_argument("--variant", choices=variants, default=variants[0])
    command.add_argument("--tokenize", choices=TOKENIZER_NAMES, default="default")
    command.add_argument("--lowercase", action="store_true")
    command.add_argument("--json", action="store_true", help="print the whole result as JSON")
    if name == "bleu":
        command.add_argument("--max-order", type=int, default=None)
        command.add_argument("--smooth", default="default")
    else:
        command.add_argument("-n", type=int, default=5)


def run_single_metric(args: argparse.Namespace) -> int:
    """The ``bleu`` and ``nist`` commands: one system, the library's whole result."""
    from ngrameval.metrics.bleu import bleu
    from ngrameval.metrics.nist import nist

    predictions, references = _one_system(args.system, args.reference)
    shared = {"variant": args.variant, "tokenize": args.tokenize, "lowercase": args.lowercase}
    if args.command == "bleu":
        smooth = args.smooth
        if args.variant == "nmt" and smooth != "default":
            smooth = smooth.lower() in ("true", "1", "yes", "add-one")
        result = bleu(predictions, references, **shared, max_order=args.max_order, smooth=smooth)
    else:  # nist's -n is NLTK's name of max_order
        result = nist(predictions, references, **shared, max_order=args.n)
    data = result.as_dict()
    if args.json:
        print(json.dumps(data, indent=1, ensure_ascii=False))
        return 0
    print(f"{args.command.upper()} = {data[args.command]:.4f}  ({data['signature']})")
    for key, value in data.items():
        if key not in (args.command, "signature"):
            print(f"  {key}: {value}")
    return 0


def _add_export_arguments(command: argparse.ArgumentParser, name: str) -> None:
    command.add_argument("name", help="the metric or Space, e.g. bleu")
    command.add_argument("folder", help="where to write (a new or empty folder)")
    command.add_argument("--force", action="store_true", help="write into a folder that is not empty")
    if name == "export-space":
        command.add_argument(
            "--board",
            metavar="DIR",
            help="the leaderboard only: copy the community board in DIR into the folder's "
            "board/, which the Space serves (it holds the references: keep the Space "
            "private)",
        )


def run_export(args: argparse.Namespace) -> int:
    """``ngrameval export-metric NAME DIR`` / ``export-space NAME DIR``: prints the files written."""
    from ngrameval.frontends import hub

    export = getattr(hub, args.command.replace("-", "_"))
    board = {"board": args.board} if args.command == "export-space" else {}
    for path in export(args.name, args.folder, force=args.force, **board):
        print(path)
    if board.get("board"):
        print(
            f"ngrameval: {args.folder}/{hub.BOARD_FOLDER} holds the board's references: the files of a public "
            "Space are public, so push it as a private Space (see its README)",
            file=sys.stderr,
        )
    return 0


def _add_board_arguments(board: argparse.ArgumentParser, name: str) -> None:
    board.description = (
        "A community leaderboard (ngrameval.leaderboard.board): the references are stored and "
        "never shown, the metrics' options fixed at init; each submission is scored once, in one "
        "transaction, and kept with its per-segment statistics."
    )
    actions = board.add_subparsers(dest="action", required=True)
    init, submit, show, remove, export, rescore = (
        actions.add_parser(action, help=summary)
        for action, summary in (
            ("init", "create a board in a new folder"),
            ("submit", "score a system's output file and store it"),
            ("show", "the ranked table with intervals and clusters"),
            ("remove", "delete a submission"),
            ("export", "the standings as a Parquet file (datasets.load_dataset reads it)"),
            ("rescore", "rescore every submission whose metric signature this ngrameval gives differently"),
        )
    )
    init.add_argument("folder", help="the board's folder (created; refused if it holds a board)")
    for action in (submit, show, remove, export, rescore):
        action.add_argument("folder")
    _add_inputs(
        init,
        "reference files, one reference each per segment ([PATH][:FIELD] as score reads them)",
        "metrics (default: bleu); the first one's first output ranks",
        "an option of a metric, as for score; fixed for the board's life (repeatable)",
    )
    init.add_argument("--title", default="", help="the board's title")
    init.add_argument(
        "--max-per-hour",
        type=_positive,
        metavar="N",
        help="submissions one client (--client, else --team) may make in an hour (default: no limit)",
    )
    submit.add_argument("file", help="the system's output, one segment a line (PATH[:FIELD] as score reads it)")
    submit.add_argument("--name", required=True, help="the submission's name, unique on the board")
    submit.add_argument("--team", help="the submitting team")
    submit.add_argument("--client", help="the key the rate limit counts (default: the team)")
    submit.add_argument("--field", help="the field of a .jsonl / .tsv file to read")
    _add_display(
        show,
        "text",
        "output format (default: text); json has score's shape plus the clusters",
        "multiply displayed scores by this (100: 0-100)",
    )
    remove.add_argument("name")
    export.add_argument("file", help="FILE.parquet")


def run_board(args: argparse.Namespace) -> int:
    """The ``board`` commands."""
    from ngrameval.frontends.report import render
    from ngrameval.leaderboard.board import Board
    from ngrameval.leaderboard.reading import parse_metric_options, parse_sources, read_predictions, read_references

    if args.action == "init":
        options = parse_metric_options(args.option, args.metrics or ["bleu"])
        references = read_references(parse_sources(args.references, args.ref_field, "-r"))
        board = Board.create(args.folder, references, options, title=args.title, max_per_hour=args.max_per_hour)
        print(f"{board.folder}: a board of {board.segments} segments scored with {', '.join(options)}")
        return 0
    board = Board(args.folder)
    if args.action == "submit":
        sources = parse_sources([args.file], args.field, "FILE")
        if len(sources) != 1:
            raise InputError(f"FILE {args.file} names {len(sources)} files; submit one at a time")
        submission = board.submit(read_predictions(sources[0]), args.name, team=args.team, client=args.client)
        print(f"{submission.name}: stored ({submission.summary()})")
    elif args.action == "show":
        standings = board.standings(details=args.format == "html")
        _write_output(render(standings, args.format, args.scale, args.width), args.output)
    elif args.action == "remove":
        board.remove(args.name)
        print(f"{args.name}: removed")
    elif args.action == "export":
        print(board.export(args.file))
    else:
        print(f"{board.rescore()} submissions rescored")
    return 0


# Each command: its line in ``ngrameval --help``, what adds its arguments given the command's name (and imports
# what their help names), and what runs it.
COMMANDS: dict[
    str, tuple[str, Callable[[argparse.ArgumentParser, str], None] | None, Callable[[argparse.Namespace], int]]
] = {
    "score": (
        "score systems against references: a leaderboard (text, json, csv, tsv, markdown, latex, html)",
        _add_score_arguments,
        run_score,
    ),
    "example": ("score the bundled example (Papineni et al. 2002) with BLEU and NIST", None, run_example),
    **{
        name: (
            f"corpus {name.upper()} of one system output, all its fields",
            _add_single_metric_arguments,
            run_single_metric,
        )
        for name in ("bleu", "nist")
    },
    **{
        name: (f"write {what} into a folder, ready to push to the Hugging Face Hub", _add_export_arguments, run_export)
        # (each runs the function of ngrameval.frontends.hub named as the command)
        for name, what in (
            ("export-metric", "a metric's evaluate script, card, page, requirements and a copy of ngrameval"),
            ("export-space", "a Space: app.py, its card, requirements, a copy of ngrameval and the metric's script"),
        )
    },
    "board": (
        (
            "a community leaderboard: a folder whose database keeps hidden references, fixed metric options and "
            "every submission"
        ),
        _add_board_arguments,
        run_board,
    ),
}


def main(argv: list[str] | None = None) -> int:
    """Run the command line; the exit status: 2 for bad input (an :class:`~ngrameval.errors.InputError`: one line
    on standard error), 1 for any other exception (a bug in ngrameval: its traceback on standard error).

    >>> main(["score", "-r", "no-such-file.txt", "-s", "no-such-system.txt"])
    2
    """
    arguments = sys.argv[1:] if argv is None else argv
    given = next((argument for argument in arguments if not argument.startswith("-")), None)
    parser = argparse.ArgumentParser(prog="ngrameval", description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    for name, (summary, add_arguments, _) in COMMANDS.items():
        command = commands.add_parser(name, help=summary)
        if name == given and add_arguments is not None:
            add_arguments(command, name)
    args = parser.parse_args(arguments)
    try:
        return COMMANDS[args.command][2](args)
    except InputError as error:
        print(f"ngrameval: {error}", file=sys.stderr)
        return 2
    except Exception:  # every other kind is a bug: shown as one, with what it needs to be reported
        import traceback  # (only here: its import is ~3 ms of every command's start-up)

        traceback.print_exc()
        print(
            "ngrameval: this is a bug in ngrameval, not a problem with the input: please report it with the "
            "traceback above",
            file=sys.stderr,
        )
        return 1


if __name__ == "__main__":
    sys.exit(main())
