"""Reading a leaderboard's inputs: system outputs and references from files (plain text, JSON lines, TSV, gzip,
standard input, globs) as sacrebleu's command line reads them (:func:`split_lines`), and metric options written
``METRIC.NAME=VALUE``; shared by the command line, the board, the Spaces and :func:`ngrameval.score_dataset`.
A file's name says what it holds (:func:`table_format`).
"""

from __future__ import annotations

import glob
import gzip
import json
import os
import re
import sys
import zlib
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import IO, Any

from ngrameval.errors import InputError
from ngrameval.metric import get_family

STDIN = "-"
# A "FILE:FIELD" suffix is read only after these extensions, so that a plain file name holding a colon
# stays a file name.
TABLE_SUFFIX = re.compile(r"^(?P<path>.+\.(?:jsonl?|tsv)(?:\.gz)?):(?P<field>[^:/\\]+)$", re.IGNORECASE)


def split_lines(text: str) -> list[str]:
    """The lines of ``text`` as sacrebleu's command line reads a file: ``open(..., newline="\\n")`` ends lines at
    ``"\\n"`` only (not at a lone ``"\\r"``, U+2028, ``"\\x0b"`` ... as ``str.splitlines`` does), each line
    ``rstrip()``-ed; a final newline adds no line.

    >>> split_lines("a b \\r\\nc\\rd\\u2028e\\x0bf\\n\\nlast")
    ['a b', 'c\\rd\\u2028e\\x0bf', '', 'last']
    >>> split_lines(""), split_lines("\\n")
    ([], [''])
    """
    return [line.rstrip() for line in _raw_lines(text)]


def _raw_lines(text: str) -> list[str]:
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines


@dataclass(frozen=True)
class Source:
    """One input on the command line: a path (``-``: standard input), the field to read from a JSON lines or TSV
    file, and the name given with ``NAME=PATH``, if any."""

    path: str
    field: str | None = None
    name: str | None = None


def table_format(path: str) -> str | None:
    """What a file holds, from its name (``.gz`` allowed after the extension): ``"jsonl"`` (``.jsonl``,
    ``.json``: JSON lines), ``"tsv"`` (``.tsv``: tab-separated, with a header), or None: plain text, one segment
    a line (``.txt``, and any other name).

    >>> table_format("runs/a.jsonl.gz"), table_format("b.TSV"), table_format("c.json"), table_format("d.txt")
    ('jsonl', 'tsv', 'jsonl', None)
    """
    match = re.search(r"\.(jsonl?|tsv)(?:\.gz)?$", path, re.IGNORECASE)
    return None if match is None else "tsv" if match.group(1).lower() == "tsv" else "jsonl"


def parse_sources(specs: Sequence[str], default_field: str | None, option: str) -> list[Source]:
    """Expand the ``[NAME=]PATH[:FIELD]`` arguments of ``option`` (``-s`` or ``-r``) into sources: ``PATH`` may
    be ``-`` (standard input) or a glob (expanded here, sorted); ``:FIELD`` picks a field of a ``.jsonl`` /
    ``.tsv`` file (else ``default_field``); ``NAME=`` names a system. A spec naming an existing file is that file.

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


def system_names(sources: Sequence[Source]) -> list[str]:
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


@contextmanager
def _reading(path: str) -> Iterator[None]:
    """What goes wrong reading ``path`` as one :class:`InputError` naming it."""
    try:
        yield
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except UnicodeDecodeError as error:
        raise InputError(f"{path}: not UTF-8 text ({error})") from None
    except (OSError, EOFError, zlib.error) as error:  # a directory, no permission, a broken or truncated .gz
        raise InputError(f"{path}: {getattr(error, 'strerror', None) or error}") from None


def _opened(path: str) -> IO[str]:
    """A file (gzip-compressed: ``.gz``) opened as sacrebleu's command line opens it: UTF-8, ``newline="\\n"``."""
    opener = gzip.open if path.endswith(".gz") else open
    return opener(path, "rt", encoding="utf-8", newline="\n")


def read_lines(path: str) -> list[str]:
    """The lines of a file or of standard input as :func:`split_lines` cuts a text; an :class:`InputError` for a
    file that is missing, unreadable or not UTF-8. ``readlines`` and ``map`` make and strip the lines in C, with
    no copy of the whole text (17 WMT17 files: 20 ms, against 27 ms streamed line by line).

    >>> import tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "lines.txt")
    >>> with open(path, "wb") as handle:
    ...     _ = handle.write("a\\rb \\r\\n\\u2028c\\n\\nd".encode())
    >>> read_lines(path) == split_lines("a\\rb \\r\\n\\u2028c\\n\\nd") == ["a\\rb", "\\u2028c", "", "d"]
    True
    """
    with _reading(path):
        if path == STDIN:
            return split_lines(sys.stdin.buffer.read().decode("utf-8"))
        with _opened(path) as handle:
            return list(map(str.rstrip, handle.readlines()))


def raw_lines(path: str) -> Iterator[str]:
    """The lines of a file or of standard input, streamed, cut as :func:`split_lines` cuts them but not stripped;
    errors as :func:`read_lines`'s."""
    with _reading(path):
        if path == STDIN:
            yield from _raw_lines(sys.stdin.buffer.read().decode("utf-8"))
            return
        with _opened(path) as handle:
            yield from (line[:-1] if line.endswith("\n") else line for line in handle)


def table_rows(path: str, fields: Sequence[str]) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, field -> value) of each row of a JSON lines or TSV file, streamed: a JSON lines row is an
    object, its values as they are; a TSV file's first line names its columns, each row's cells ``rstrip()``-ed. A
    malformed row, or one without ``fields``, is an :class:`InputError` naming the file and the line.

    >>> import tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "rows.tsv")
    >>> with open(path, "w", encoding="utf-8") as handle:
    ...     _ = handle.write("hyp\\tref\\nthe cat \\ta cat\\r\\n")
    >>> list(table_rows(path, ["ref", "hyp"]))
    [(2, {'ref': 'a cat', 'hyp': 'the cat'})]
    """
    kind = table_format(path)
    if kind is None:
        raise InputError(
            f"{path} is plain text, one segment a line, with no fields; rows with fields are read "
            f"from .jsonl and .tsv files"
        )
    if kind == "jsonl":
        for number, line in enumerate(raw_lines(path), 1):
            try:
                record = json.loads(line)
            except json.JSONDecodeError as error:
                raise InputError(f"{path}, line {number}: not JSON ({error})") from None
            if not isinstance(record, dict):
                raise InputError(f"{path}, line {number}: a row must be a JSON object, got {line[:80]}")
            missing = [name for name in fields if name not in record]
            if missing:
                raise InputError(
                    f"{path}, line {number}: no field {', '.join(map(repr, missing))} (has: {', '.join(record)})"
                )
            yield number, {name: record[name] for name in fields}
        return
    header: list[str] | None = None
    for number, line in enumerate(raw_lines(path), 1):
        cells = [cell.rstrip() for cell in line.split("\t")]
        if header is None:
            header = cells
            missing = [name for name in fields if name not in header]
            if missing:
                raise InputError(
                    f"{path}, line 1: no column {', '.join(map(repr, missing))} in the header ({', '.join(header)})"
                )
            columns = [header.index(name) for name in fields]
        elif len(cells) != len(header):
            raise InputError(f"{path}, line {number}: {len(cells)} tab-separated fields, the header has {len(header)}")
        else:
            yield number, {name: cells[column] for name, column in zip(fields, columns)}


def read_source(source: Source) -> list[Any]:
    """One value per segment: the lines of a text file, or the field of each JSON line / TSV row (a JSON value
    may be a list: several references of a segment)."""
    kind = table_format(source.path)
    if kind is None:
        if source.field is not None:
            raise InputError(
                f"{source.path} is plain text (one segment a line) and has no field "
                f"{source.field!r}; fields are read from .jsonl and .tsv files"
            )
        return read_lines(source.path)
    if source.field is None:
        raise InputError(
            f"{source.path} is {kind.upper()}: name the field to read as "
            f"{source.path}:FIELD (or with --field / --ref-field)"
        )
    return [row[source.field] for _, row in table_rows(source.path, [source.field])]


def read_predictions(source: Source) -> list[str]:
    """A system's segments: strings, at least one."""
    values = read_source(source)
    if not values:
        raise InputError(f"system {source.path} is empty")
    for number, value in enumerate(values, 1):
        if not isinstance(value, str):
            raise InputError(
                f"{source.path}, segment {number}: a system output must be a string, got {type(value).__name__}"
            )
    return values


def read_references(
    sources: Sequence[Source], segments: int | None = None, first_system: Source | None = None
) -> list[list[str]]:
    """Per segment, the references of every source (a JSON list counts as several), each source read once.
    ``segments`` (the count of ``first_system``'s segments): what every source must have; None: the first's."""
    read = [read_source(source) for source in sources]
    if segments is None:
        segments, first_system = (len(read[0]), sources[0]) if read else (0, None)
    per_segment: list[list[str]] = [[] for _ in range(segments)]
    for source, values in zip(sources, read):
        _check_count(source, len(values), first_system, segments)
        for number, (references, value) in enumerate(zip(per_segment, values), 1):
            items = value if isinstance(value, list) else [value]
            if not all(isinstance(item, str) for item in items):
                raise InputError(
                    f"{source.path}, segment {number}: a reference must be a string or a list of "
                    f"strings, got {json.dumps(value)[:80]}"
                )
            references.extend(items)
    return per_segment


def _check_count(source: Source, count: int, first_system: Source | None, segments: int) -> None:
    if count != segments:
        raise InputError(
            f"{source.path} has {count} lines but "
            + (f"{first_system.path} has {segments}" if first_system is not None else f"{segments} were expected")
        )


def read_corpus(systems: Sequence[Source], references: Sequence[Source]) -> tuple[list[list[str]], list[list[str]]]:
    """The predictions of every system and the references of each segment, all of one length; standard
    input is read once at most."""
    if sum(source.path == STDIN for source in [*systems, *references]) > 1:
        raise InputError("standard input (-) can be read only once")
    predictions = [read_predictions(source) for source in systems]
    for source, segments in zip(systems, predictions):
        _check_count(source, len(segments), systems[0], len(predictions[0]))
    return predictions, read_references(references, len(predictions[0]), systems[0])


def parse_metric_options(assignments: Sequence[str], metrics: Sequence[str]) -> dict[str, dict[str, Any]]:
    """``METRIC.NAME=VALUE`` strings -> options per metric (each once, in the order given), checked against its options.

    >>> parse_metric_options(["bleu.tokenize=none", "bleu.max_order=3"], ["bleu", "rouge"])
    {'bleu': {'tokenize': 'none', 'max_order': 3}, 'rouge': {}}
    """
    options: dict[str, dict[str, Any]] = {metric: {} for metric in metrics}
    for assignment in assignments:
        key, equals, value = assignment.partition("=")
        metric, dot, name = key.partition(".")
        if not (equals and dot and metric and name):
            raise InputError(f"--option {assignment!r}: write METRIC.NAME=VALUE, e.g. bleu.tokenize=none")
        get_family(metric)  # unknown metric: its own clear message
        if metric not in options:
            raise InputError(
                f"--option {assignment!r} is for {metric}, which is not among the metrics (-m {' '.join(options)})"
            )
        try:  # JSON when it parses as JSON, else the string itself
            options[metric][name] = json.loads(value)
        except json.JSONDecodeError:
            options[metric][name] = value
    for metric, metric_options in options.items():
        get_family(metric).check_options(metric_options)
    return options
