"""The ``ngrameval`` command: score system outputs against references, as a leaderboard.

    ngrameval score -r ref.txt [ref2.txt ...] -s sysA.txt sysB.txt ... [-m bleu rouge ...] [options]
    ngrameval example                                  # BLEU and NIST on the bundled example
    ngrameval bleu -s system.txt -r ref.txt [-r ref2.txt] [--variant nltk] [--json]
    ngrameval nist -s system.txt -r ref.txt [--variant mteval]
    ngrameval export-metric bleu DIR [--wheel ngrameval-...whl]   # a folder to push to the Hugging Face Hub
    ngrameval export-space bleu DIR [--wheel ngrameval-...whl]

``score`` is written against :mod:`ngrameval.metric` only: every registered metric, with every
option of its public function, is available by name. Files are read as sacrebleu's command line
reads them (see :func:`split_lines`).
"""
from __future__ import annotations

import argparse
import glob
import gzip
import json
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np
from tqdm import tqdm

from ngrameval import significance
from ngrameval.frontends import hub
from ngrameval.frontends.report import FORMATS, Column, Leaderboard, SystemScores, column_key, render
from ngrameval.metric import Statistics, get_family, metric_names
from ngrameval.metrics.bleu import VARIANTS as BLEU_VARIANTS, bleu
from ngrameval.metrics.nist import VARIANTS as NIST_VARIANTS, nist
from ngrameval.text.tokenizers import TOKENIZER_NAMES

EXAMPLES = Path(__file__).parents[1] / "examples"
STDIN = "-"
# A "FILE:FIELD" suffix is read only after these extensions, so that a plain file name holding a colon
# stays a file name.
TABLE_SUFFIX = re.compile(r"^(?P<path>.+\.(?:jsonl|tsv)(?:\.gz)?):(?P<field>[^:/\\]+)$", re.IGNORECASE)


class InputError(ValueError):
    """A problem with the command line or the files it names: printed as one line, exit status 2."""


# --------------------------------------------------------------------------- reading files

def split_lines(text: str) -> List[str]:
    """The lines of ``text`` as sacrebleu's command line reads a file: ``open(..., newline="\\n")``
    ends lines at ``"\\n"`` only, and each line is ``rstrip()``-ed (which removes a ``"\\r"`` before
    the ``"\\n"``, and any other trailing whitespace). A ``"\\r"`` inside a line, U+2028, U+0085,
    ``"\\x0b"``, ``"\\x1c"`` ... do not end a line, unlike ``str.splitlines``. A final newline does
    not add a line.

    >>> split_lines("a b \\r\\nc\\rd\\u2028e\\x0bf\\n\\nlast")
    ['a b', 'c\\rd\\u2028e\\x0bf', '', 'last']
    >>> split_lines(""), split_lines("\\n")
    ([], [''])
    """
    return [line.rstrip() for line in _raw_lines(text)]


def _raw_lines(text: str) -> List[str]:
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines


@dataclass(frozen=True)
class Source:
    """One input on the command line: a path (``-``: standard input), the field to read when the file
    is JSON lines or TSV, and the name given with ``NAME=PATH``, if any."""

    path: str
    field: Optional[str] = None
    name: Optional[str] = None

    @property
    def table_format(self) -> Optional[str]:
        """``"jsonl"`` or ``"tsv"`` (from the extension, ``.gz`` allowed), None for plain text."""
        match = re.search(r"\.(jsonl|tsv)(?:\.gz)?$", self.path, re.IGNORECASE)
        return match.group(1).lower() if match else None


def parse_sources(specs: Sequence[str], default_field: Optional[str], option: str) -> List[Source]:
    """Expand the ``[NAME=]PATH[:FIELD]`` arguments of ``option`` (``-s`` or ``-r``) into sources.

    ``PATH`` may be ``-`` (standard input) or a glob (expanded here, sorted, so that quoting it works
    too); ``:FIELD`` picks a field of a ``.jsonl`` / ``.tsv`` file (else ``default_field``); ``NAME=``
    names a system. A spec naming an existing file is always that file.

    >>> parse_sources(["baseline=out/a.jsonl:hyp", "-"], None, "-s")
    [Source(path='out/a.jsonl', field='hyp', name='baseline'), Source(path='-', field=None, name=None)]
    """
    sources = []
    for spec in specs:
        name, path = None, spec
        prefix, equals, rest = spec.partition("=")
        if equals and not os.path.exists(spec) and prefix and not re.search(r"[/\\]", prefix):
            name, path = prefix, rest
        field = default_field
        suffix = TABLE_SUFFIX.match(path)
        if suffix and not os.path.exists(path):
            path, field = suffix.group("path"), suffix.group("field")
        paths = [path]
        if path != STDIN and not os.path.exists(path) and glob.has_magic(path):
            paths = sorted(glob.glob(path))
            if not paths:
                raise InputError(f"{option} {spec}: no file matches {path}")
            if name is not None and len(paths) > 1:
                raise InputError(f"{option} {spec}: {name}= names one system but {path} matches {len(paths)} files")
        sources += [Source(expanded, field, name) for expanded in paths]
    return sources


def system_names(sources: Sequence[Source]) -> List[str]:
    """The names systems are shown under: ``NAME=`` if given, else the file name (and ``:FIELD`` of a
    table file); the paths as given when two file names are equal.

    >>> system_names([Source("a/out.txt"), Source("b/x.jsonl", "hyp"), Source("-"), Source("c.txt", None, "base")])
    ['out.txt', 'x.jsonl:hyp', 'stdin', 'base']
    >>> system_names([Source("a/out.txt"), Source("b/out.txt")])
    ['a/out.txt', 'b/out.txt']
    """
    def name(source: Source, path: str) -> str:
        if source.name is not None:
            return source.name
        return ("stdin" if source.path == STDIN else path) + (f":{source.field}" if source.field else "")

    names = [name(source, os.path.basename(source.path)) for source in sources]
    if len(set(names)) < len(names):
        names = [name(source, source.path) for source in sources]
    duplicates = sorted({name for name in names if names.count(name) > 1})
    if duplicates:
        raise InputError(f"system {duplicates[0]!r} is given twice; name systems apart with NAME=PATH")
    return names


def read_text(path: str) -> str:
    """The UTF-8 text of a file (gzip-compressed when its name ends in ``.gz``) or of standard input."""
    try:
        if path == STDIN:
            data = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as handle:
                data = handle.read()
            if path.endswith(".gz"):
                data = gzip.decompress(data)
        return data.decode("utf-8")
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except UnicodeDecodeError as error:
        raise InputError(f"{path}: not UTF-8 text ({error})") from None
    except OSError as error:   # a directory, no permission, a broken .gz
        raise InputError(f"{path}: {error.strerror or error}") from None


def read_source(source: Source) -> List[Any]:
    """One value per segment: the lines of a text file, or the field of each JSON line / TSV row
    (a JSON value may be a list: several references of a segment)."""
    text = read_text(source.path)
    table_format = source.table_format
    if table_format is None:
        if source.field is not None:
            raise InputError(f"{source.path} is plain text (one segment a line) and has no field "
                             f"{source.field!r}; fields are read from .jsonl and .tsv files")
        return split_lines(text)
    if source.field is None:
        raise InputError(f"{source.path} is {table_format.upper()}: name the field to read as "
                         f"{source.path}:FIELD (or with --field / --ref-field)")
    if table_format == "jsonl":
        return [_json_field(line, number, source) for number, line in enumerate(split_lines(text), 1)]
    header, *rows = [[cell.rstrip() for cell in line.split("\t")] for line in _raw_lines(text)] or [[]]
    if source.field not in header:
        raise InputError(f"{source.path}: no column {source.field!r} in its header ({', '.join(header)})")
    column = header.index(source.field)
    for number, row in enumerate(rows, 2):
        if len(row) <= column:
            raise InputError(f"{source.path}, line {number}: {len(row)} fields, no {source.field!r}")
    return [row[column] for row in rows]


def _json_field(line: str, number: int, source: Source) -> Any:
    try:
        record = json.loads(line)
    except json.JSONDecodeError as error:
        raise InputError(f"{source.path}, line {number}: not JSON ({error})") from None
    if not isinstance(record, dict) or source.field not in record:
        fields = ", ".join(record) if isinstance(record, dict) else type(record).__name__
        raise InputError(f"{source.path}, line {number}: no field {source.field!r} (has: {fields})")
    return record[source.field]


def read_predictions(source: Source) -> List[str]:
    """A system's segments: strings, at least one."""
    values = read_source(source)
    if not values:
        raise InputError(f"system {source.path} is empty")
    for number, value in enumerate(values, 1):
        if not isinstance(value, str):
            raise InputError(f"{source.path}, segment {number}: a system output must be a string, "
                             f"got {type(value).__name__}")
    return values


def read_references(sources: Sequence[Source], segments: int, first_system: Source) -> List[List[str]]:
    """Per segment, the references of every reference source (a JSON list counts as several)."""
    per_segment: List[List[str]] = [[] for _ in range(segments)]
    for source in sources:
        values = read_source(source)
        _check_count(source, len(values), first_system, segments)
        for number, (references, value) in enumerate(zip(per_segment, values), 1):
            items = value if isinstance(value, list) else [value]
            if not all(isinstance(item, str) for item in items):
                raise InputError(f"{source.path}, segment {number}: a reference must be a string or a list of "
                                 f"strings, got {json.dumps(value)[:80]}")
            references.extend(items)
    return per_segment


def _check_count(source: Source, count: int, first_system: Source, segments: int) -> None:
    if count != segments:
        raise InputError(f"{source.path} has {count} lines but {first_system.path} has {segments}")


def read_corpus(systems: Sequence[Source], references: Sequence[Source]) -> Tuple[List[List[str]], List[List[str]]]:
    """The predictions of every system and the references of each segment, all of one length; standard
    input is read once at most."""
    stdin_uses = [source for source in [*systems, *references] if source.path == STDIN]
    if len(stdin_uses) > 1:
        raise InputError("standard input (-) can be read only once")
    predictions = [read_predictions(source) for source in systems]
    for source, segments in zip(systems, predictions):
        _check_count(source, len(segments), systems[0], len(predictions[0]))
    return predictions, read_references(references, len(predictions[0]), systems[0])


# --------------------------------------------------------------------------- options

def parse_value(text: str) -> Any:
    """A command-line option value: JSON when it parses as JSON, else the string itself.

    >>> parse_value("3"), parse_value("true"), parse_value('["rouge1","rougeL"]'), parse_value("none")
    (3, True, ['rouge1', 'rougeL'], 'none')
    """
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def parse_metric_options(assignments: Sequence[str], metrics: Sequence[str]) -> Dict[str, Dict[str, Any]]:
    """``METRIC.NAME=VALUE`` strings -> options per metric, each checked against the metric's options.

    >>> parse_metric_options(["bleu.tokenize=none", "bleu.max_order=3"], ["bleu", "rouge"])
    {'bleu': {'tokenize': 'none', 'max_order': 3}, 'rouge': {}}
    """
    options: Dict[str, Dict[str, Any]] = {metric: {} for metric in metrics}
    for assignment in assignments:
        key, equals, value = assignment.partition("=")
        metric, dot, name = key.partition(".")
        if not (equals and dot and metric and name):
            raise InputError(f"--option {assignment!r}: write METRIC.NAME=VALUE, e.g. bleu.tokenize=none")
        get_family(metric)   # unknown metric: its own clear message
        if metric not in options:
            raise InputError(f"--option {assignment!r} is for {metric}, which is not among the metrics "
                             f"(-m {' '.join(metrics)})")
        options[metric][name] = parse_value(value)
    for metric, metric_options in options.items():
        get_family(metric).check_options(metric_options)
    return options


# --------------------------------------------------------------------------- scoring

@dataclass
class Significance:
    """What the command line asked for: a paired test against the first system (``test`` "bs" or
    "ar"), or bootstrap intervals per system (``confidence_samples``), or neither."""

    test: Optional[str] = None
    test_samples: Optional[int] = None
    confidence_samples: Optional[int] = None
    seed: Optional[int] = significance.DEFAULT_SEED

    def results(self, stats: List[Statistics]) -> Tuple[List[Dict[str, significance.SystemResult]], str]:
        """Per system, output -> result; and what the signature gains."""
        if self.test is not None:
            samples = significance.DEFAULT_SAMPLES[self.test] if self.test_samples is None else self.test_samples
            # The paired bootstrap gives intervals by itself; approximate randomization on request.
            n_ar_confidence = self.confidence_samples if self.test == "ar" and self.confidence_samples else -1
            results = significance.paired_test(stats[0], stats[1:], test=self.test, n_samples=samples,
                                               seed=self.seed, n_ar_confidence=n_ar_confidence)
            return results, significance.signature_suffix(self.test, samples, self.seed, n_ar_confidence)
        if self.confidence_samples is not None:
            results = [significance.confidence_interval(system, n_samples=self.confidence_samples, seed=self.seed)
                       for system in stats]
            return results, significance.signature_suffix(None, self.confidence_samples, self.seed)
        family = get_family(stats[0].metric)
        return [{output: significance.SystemResult(score) for output, score in family.corpus_scores(system).items()}
                for system in stats], ""


def segment_scores(stats: Statistics) -> np.ndarray:
    """(segments, outputs): each segment scored as a corpus of one segment (for BLEU this is not
    sacrebleu's ``sentence_bleu``, which uses the effective order)."""
    return get_family(stats.metric).score_totals(stats, stats.rows, None)


def score_leaderboard(names: Sequence[str], predictions: Sequence[List[str]], references: List[List[str]],
                      options: Dict[str, Dict[str, Any]], tests: Significance, progress: tqdm) -> Leaderboard:
    """Every system under every metric: corpus scores (with intervals and p-values when asked) and
    per-segment scores.

    >>> board = score_leaderboard(["a", "b"], [["the cat sat on the mat"], ["a cat"]], [["the cat sat on the mat"]],
    ...                           {"bleu": {}}, Significance(), tqdm(disable=True))
    >>> [(system.name, round(system.results["bleu"].score, 4)) for system in board.systems]
    [('a', 1.0), ('b', 0.0)]
    """
    columns: List[Column] = []
    results: List[Dict[str, significance.SystemResult]] = [{} for _ in names]
    per_segment: List[List[np.ndarray]] = [[] for _ in names]
    for metric, metric_options in options.items():
        family = get_family(metric)
        stats = []
        for system in predictions:
            stats.append(family.statistics(system, references, **metric_options))
            progress.update()
        system_results, suffix = tests.results(stats)
        progress.update()
        several = len(stats[0].outputs) > 1
        columns += [Column(column_key(metric, output, several), metric, output,
                           significance.with_suffix(stats[0].signature, suffix))
                    for output in stats[0].outputs]
        for index, (system_stats, outputs) in enumerate(zip(stats, system_results)):
            results[index].update({column_key(metric, output, several): outputs[output]
                                   for output in system_stats.outputs})
            per_segment[index].append(segment_scores(system_stats))
    systems = [SystemScores(name, result, np.hstack(segments), list(system))
               for name, result, segments, system in zip(names, results, per_segment, predictions)]
    return Leaderboard(columns, systems, references, baseline=names[0] if tests.test else None, test=tests.test)


# --------------------------------------------------------------------------- the commands

def _positive(text: str) -> int:
    value = int(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive number of samples, got {value}")
    return value


def _add_score_command(commands: Any) -> None:
    command = commands.add_parser(
        "score", help="score systems against references: a leaderboard (text, json, csv, tsv, markdown, latex, html)",
        description="Score one or more systems against references with any registered metric ("
                    + ", ".join(metric_names()) + "), optionally with paired significance tests against the "
                    "first system or bootstrap confidence intervals.",
        epilog="Inputs: plain text is one segment a line, split as sacrebleu's command line splits it (at \\n "
               "only, trailing whitespace stripped). A .jsonl or .tsv (with a header) file gives the field named "
               "by PATH:FIELD, or --field / --ref-field; a JSON list in a reference field is several references. "
               "'-' is standard input (plain text); .gz files are decompressed; globs are expanded. "
               "A system is shown under its file name, or NAME=PATH names it.")
    command.add_argument("-r", "--references", nargs="+", action="extend", required=True, metavar="REF",
                         help="reference files, one reference each per segment (repeatable)")
    command.add_argument("-s", "--systems", nargs="+", action="extend", required=True, metavar="SYS",
                         help="system output files, one row of the leaderboard each (repeatable; the first is the "
                              "baseline of a paired test)")
    command.add_argument("-m", "--metrics", nargs="+", action="extend", metavar="METRIC",
                         help="metrics (default: bleu); one of " + ", ".join(metric_names()))
    command.add_argument("--option", action="append", default=[], metavar="METRIC.NAME=VALUE",
                         help="an option of a metric's function, the value read as JSON when it is JSON "
                              "(bleu.max_order=3, rouge.use_stemmer=true, rouge.rouge_types='[\"rouge1\"]') "
                              "and as a string otherwise (bleu.tokenize=none); repeatable")
    command.add_argument("--field", help="the field of .jsonl / .tsv system files to read")
    command.add_argument("--ref-field", help="the field of .jsonl / .tsv reference files to read")
    paired = command.add_mutually_exclusive_group()
    paired.add_argument("--paired-bs", action="store_true",
                        help="paired bootstrap resampling test of every system against the first (as sacrebleu)")
    paired.add_argument("--paired-ar", action="store_true",
                        help="paired approximate randomization test of every system against the first (as sacrebleu)")
    command.add_argument("--paired-n", type=_positive, metavar="N",
                         help="samples of the paired test (default: sacrebleu's, 1000 for bs and 10000 for ar)")
    command.add_argument("--confidence", action="store_true",
                         help="95%% bootstrap confidence interval of each system's score (with --paired-ar: of "
                              "the test's systems; --paired-bs gives intervals by itself)")
    command.add_argument("--confidence-n", type=_positive, default=1000, metavar="N",
                         help="bootstrap samples of --confidence (default: %(default)s)")
    command.add_argument("--seed", type=int,
                         help="random seed of the resampling (default: $SACREBLEU_SEED, else "
                              f"{significance.DEFAULT_SEED}; SACREBLEU_SEED=None: unseeded)")
    command.add_argument("--sentence-level", action="store_true",
                         help="print JSON lines instead of the table, one object per segment per system: "
                              "{system, segment (1-based), scores}; each segment is scored as a corpus of one "
                              "segment (for BLEU: not sacrebleu's sentence_bleu, which uses the effective order)")
    command.add_argument("--format", choices=FORMATS,
                         help="output format (default: text); json, csv and tsv hold the unscaled, unrounded scores")
    command.add_argument("--scale", type=float, default=1.0,
                         help="multiply displayed scores (text, markdown, latex, html) by this; 100 for "
                              "sacrebleu's 0-100 display")
    command.add_argument("--width", type=int, default=4, help="decimals of displayed scores (default: %(default)s)")
    command.add_argument("-o", "--output", help="write the output to this file instead of standard output")
    command.add_argument("-q", "--quiet", action="store_true", help="no progress bar")


def run_score(args: argparse.Namespace) -> int:
    """The ``score`` command."""
    if args.sentence_level and (args.paired_bs or args.paired_ar or args.confidence or args.format):
        raise InputError("--sentence-level prints JSON lines of segment scores; it takes no --paired-bs, "
                         "--paired-ar, --confidence or --format")
    test = "bs" if args.paired_bs else "ar" if args.paired_ar else None
    if args.paired_n is not None and test is None:
        raise InputError("--paired-n needs --paired-bs or --paired-ar")
    metrics = list(dict.fromkeys(args.metrics or ["bleu"]))
    options = parse_metric_options(args.option, metrics)
    systems = parse_sources(args.systems, args.field, "-s")
    names = system_names(systems)
    if test is not None and len(systems) < 2:
        raise InputError(f"--paired-{test} compares systems with the first: give at least two systems")
    references = parse_sources(args.references, args.ref_field, "-r")
    predictions, per_segment_references = read_corpus(systems, references)
    tests = Significance(test, args.paired_n, args.confidence_n if args.confidence else None,
                         significance.resolve_seed("env" if args.seed is None else args.seed))
    steps = len(metrics) * (len(systems) + 1)
    # No bar for runs shorter than a second; TQDM_DELAY, tqdm's own setting, changes that.
    with tqdm(total=steps, desc="ngrameval", unit="step", file=sys.stderr,
              delay=float(os.environ.get("TQDM_DELAY", "1")),
              disable=args.quiet or not sys.stderr.isatty()) as progress:
        board = score_leaderboard(names, predictions, per_segment_references,
                                  options, tests, progress)
    text = render(board, "sentences" if args.sentence_level else args.format or "text", args.scale, args.width)
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


def _print_result(result: Any, as_json: bool, name: str) -> None:
    data = result.as_dict()
    if as_json:
        print(json.dumps(data, indent=1, ensure_ascii=False))
        return
    print(f"{name} = {data[name.lower()]:.4f}  ({data['signature']})")
    for key, value in data.items():
        if key not in (name.lower(), "signature"):
            print(f"  {key}: {value}")


def _single_system_corpus(args: argparse.Namespace) -> Tuple[List[str], List[List[str]]]:
    predictions, references = read_corpus([Source(str(args.system))], [Source(str(path)) for path in args.reference])
    return predictions[0], references


def run_example() -> int:
    """The ``example`` command: BLEU and NIST variants on Papineni et al.'s example."""
    predictions, references = read_corpus(
        [Source(str(EXAMPLES / "hypotheses.txt"))],
        [Source(str(path)) for path in sorted(EXAMPLES.glob("references.*.txt"))])
    print("Papineni et al. (2002), example 1: two candidates, three references each\n")
    for metric, variants in ((bleu, BLEU_VARIANTS), (nist, NIST_VARIANTS)):
        for variant in variants:
            result = metric(predictions[0], references, variant=variant, sentence_level=True)
            corpus = getattr(result, metric.__name__)
            print(f"{metric.__name__.upper()} ({variant:9s}) corpus {corpus:.4f}  per sentence "
                  f"{', '.join(f'{s:.4f}' for s in result.sentence_scores)}")
    return 0


def _add_single_metric_commands(commands: Any) -> None:
    for name, variants in (("bleu", BLEU_VARIANTS), ("nist", NIST_VARIANTS)):
        command = commands.add_parser(name, help=f"corpus {name.upper()} of one system output, all its fields")
        command.add_argument("-s", "--system", type=Path, required=True, help="system output, one segment a line")
        command.add_argument("-r", "--reference", type=Path, action="append", required=True,
                             help="reference file, one segment a line (repeat for several references)")
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
    predictions, references = _single_system_corpus(args)
    if args.command == "bleu":
        smooth = args.smooth
        if args.variant == "nmt" and smooth != "default":
            smooth = smooth.lower() in ("true", "1", "yes", "add-one")
        result = bleu(predictions, references, variant=args.variant, tokenize=args.tokenize,
                      lowercase=args.lowercase, max_order=args.max_order, smooth=smooth)
    else:
        result = nist(predictions, references, variant=args.variant, tokenize=args.tokenize,
                      lowercase=args.lowercase, n=args.n)
    _print_result(result, args.json, args.command.upper())
    return 0


EXPORTS = {"export-metric": (hub.export_metric, "a metric's evaluate script, card, page and requirements"),
           "export-space": (hub.export_space, "a Space: app.py, its card, requirements and the metric's script")}


def _add_export_commands(commands: Any) -> None:
    for name, (_, what) in EXPORTS.items():
        command = commands.add_parser(name, help=f"write {what} into a folder, ready to push to the Hugging Face Hub")
        command.add_argument("name", help="the metric or Space, e.g. bleu")
        command.add_argument("folder", help="where to write (a new or empty folder)")
        command.add_argument("--wheel", help="an ngrameval wheel to copy into the folder and name in requirements.txt "
                                             "(default: requirements.txt names ngrameval==VERSION)")
        command.add_argument("--force", action="store_true", help="write into a folder that is not empty")


def run_export(args: argparse.Namespace) -> int:
    """``ngrameval export-metric NAME DIR`` / ``export-space NAME DIR``: prints the files written."""
    export, _ = EXPORTS[args.command]
    for path in export(args.name, args.folder, wheel=args.wheel, force=args.force):
        print(path)
    return 0


def main(argv: Optional[List[str]] = None) -> int:
    """Run the command line; the exit status (2: bad input, with one line on standard error).

    >>> main(["score", "-r", "no-such-file.txt", "-s", "no-such-system.txt"])
    2
    """
    parser = argparse.ArgumentParser(prog="ngrameval", description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    _add_score_command(commands)
    commands.add_parser("example", help="score the bundled example (Papineni et al. 2002) with BLEU and NIST")
    _add_single_metric_commands(commands)
    _add_export_commands(commands)
    args = parser.parse_args(argv)
    try:
        if args.command == "score":
            return run_score(args)
        if args.command == "example":
            return run_example()
        if args.command in EXPORTS:
            return run_export(args)
        return run_single_metric(args)
    except (ValueError, OSError) as error:
        print(f"ngrameval: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
