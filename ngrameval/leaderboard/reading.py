"""Reading a leaderboard's inputs: system outputs and references from files (plain text, JSON lines, TSV,
gzip, standard input, globs), as sacrebleu's command line reads them (see :func:`split_lines`), and metric
options written ``METRIC.NAME=VALUE``. Shared by the command line, the community board and the Spaces.
"""
from __future__ import annotations

import glob
import gzip
import json
import os
import re
import sys
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Tuple

from ngrameval.metric import get_family

STDIN = "-"
# A "FILE:FIELD" suffix is read only after these extensions, so that a plain file name holding a colon
# stays a file name.
TABLE_SUFFIX = re.compile(r"^(?P<path>.+\.(?:jsonl|tsv)(?:\.gz)?):(?P<field>[^:/\\]+)$", re.IGNORECASE)


class InputError(ValueError):
    """A problem with the command line, the files it names or a board: the command line prints it as one line,
    exit status 2."""


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


def read_references(sources: Sequence[Source], segments: Optional[int] = None,
                    first_system: Optional[Source] = None) -> List[List[str]]:
    """Per segment, the references of every reference source (a JSON list counts as several); each source read
    once (standard input or a pipe can be one). ``segments`` (the count of ``first_system``'s segments): what
    every source must have; None: the first source's count."""
    read = [read_source(source) for source in sources]
    if segments is None:
        segments, first_system = (len(read[0]), sources[0]) if read else (0, None)
    per_segment: List[List[str]] = [[] for _ in range(segments)]
    for source, values in zip(sources, read):
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
