"""A community leaderboard: a folder holding a SQLite database (WAL mode) with a test set's references (never
shown), its metrics with options and signatures fixed, and every submission scored once: name, team, time, the
digest of its segments, each metric's per-segment :class:`ngrameval.metric.Statistics` rows (a later
significance test needs no rescoring), corpus scores and signatures.

    board = Board.create("board", references, {"bleu": {}, "chrf": {}, "ter": {}}, title="my task")
    board.submit(lines, "my system", team="my lab")
    standings = Board("board").standings()       # ranked, with intervals and WMT-style clusters

Each submission is one ``BEGIN IMMEDIATE`` transaction (a killed process leaves the board as it was; concurrent
submitters wait) that also counts the client's submissions of the last hour (``max_per_hour``); names and
segment digests are ``UNIQUE``. Opening a board checks the references' SHA-256, the schema version and
``quick_check``, reading a submission its statistics' digest: a board that fails is refused
(:class:`~ngrameval.errors.InputError`), never rewritten. When a newer ngrameval gives a metric another
signature, stored scores are still shown (:attr:`Leaderboard.stale`) and submissions refused until
:meth:`Board.rescore`. Rows are stored as ``.npy`` (no pickle); the rest of a ``Statistics`` is rebuilt by
scoring the first segment with the stored options.
"""

from __future__ import annotations

import hashlib
import io
import json
import math
import os
import re
import sqlite3
import sys
import time
import zlib
from collections.abc import Iterator, Mapping, Sequence
from contextlib import closing, contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from ngrameval import significance
from ngrameval.errors import InputError
from ngrameval.leaderboard.scoring import Leaderboard, SystemScores
from ngrameval.metric import Statistics, get_family

SCHEMA_VERSION = 1
DATABASE = "board.sqlite"
BUSY_TIMEOUT_MS = 120_000  # a submitter waits this long for the others' transactions
MAX_NAME = 200
# A test hook: seconds to sleep inside a submission's transaction, after a line on standard error (so that a
# test can kill the process there, deterministically).
PAUSE_VARIABLE = "NGRAMEVAL_BOARD_PAUSE_IN_TRANSACTION"

SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE reference_set (id INTEGER PRIMARY KEY CHECK (id = 1), segments INTEGER NOT NULL, data BLOB NOT NULL);
CREATE TABLE metrics (position INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, options TEXT NOT NULL,
                      outputs TEXT NOT NULL, signature TEXT NOT NULL, probe_signature TEXT NOT NULL);
CREATE TABLE submissions (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, team TEXT, client TEXT NOT NULL,
                          submitted REAL NOT NULL, digest TEXT NOT NULL UNIQUE, predictions BLOB NOT NULL);
CREATE INDEX submissions_by_client ON submissions (client, submitted);
CREATE TABLE statistics (submission INTEGER NOT NULL REFERENCES submissions (id) ON DELETE CASCADE,
                         metric TEXT NOT NULL REFERENCES metrics (name), signature TEXT NOT NULL,
                         scores TEXT NOT NULL, rows BLOB NOT NULL, rows_digest TEXT NOT NULL,
                         PRIMARY KEY (submission, metric));
"""


@dataclass(frozen=True)
class MetricSpec:
    """A board's metric: its name, options (as given at creation), output names and signature."""

    name: str
    options: dict[str, Any]
    outputs: tuple[str, ...]
    signature: str


@dataclass(frozen=True)
class Submission:
    """A stored submission: name, team, client key (``""``: anonymous), time (epoch seconds), its segments'
    SHA-256, and per metric its corpus scores (None: not finite) and signature."""

    name: str
    team: str | None
    client: str
    submitted: float
    digest: str
    scores: dict[str, dict[str, float | None]]
    signatures: dict[str, str]

    @property
    def time(self) -> str:
        """The submission time, ISO 8601 in UTC."""
        return datetime.fromtimestamp(self.submitted, UTC).isoformat(timespec="seconds")

    def summary(self, scale: float = 1.0, width: int = 4) -> str:
        """Each output's corpus score (none that is not finite), times ``scale`` with ``width`` decimals:
        ``"bleu 0.2041, ter 0.6512"``, as ``ngrameval board submit`` and the board's Space report a submission."""
        return ", ".join(
            f"{output} {score * scale:.{width}f}"
            for by_output in self.scores.values()
            for output, score in by_output.items()
            if score is not None
        )


def segments_digest(predictions: Sequence[str]) -> str:
    """The SHA-256 of a submission's segments (one line each, UTF-8), as ``ngrameval score`` reads them.

    >>> segments_digest(["a", "b"]) == hashlib.sha256("a\\nb\\n".encode()).hexdigest()
    True
    """
    return hashlib.sha256("".join(line + "\n" for line in predictions).encode("utf-8")).hexdigest()


class Board:
    """A community leaderboard in ``folder`` (``folder/board.sqlite``): :meth:`create` one, or open one with
    ``Board(folder)``. Every method opens its own connection (a Board may be shared by threads and processes).

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp()) / "board"
    >>> references = [["the cat sat on the mat"], ["a dog barks"], ["it rains"]]
    >>> board = Board.create(folder, references, {"bleu": {}}, title="demo")
    >>> board.submit(["the cat sat on a mat", "a dog barks", "it rains today"], "mine", team="lab").name
    'mine'
    >>> board.submit(["the cat", "a dog", "rain"], "theirs").scores["bleu"]["bleu"] < 1
    True
    >>> standings = Board(folder).standings()
    >>> [system.name for system in standings.systems], sorted(sum(standings.clusters["bleu"], []))
    (['mine', 'theirs'], ['mine', 'theirs'])
    """

    def __init__(self, folder: str | Path) -> None:
        """Open the board in ``folder``: an error if there is none, or it is unreadable, damaged or of another schema.

        >>> Board("no/such/board")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ngrameval.errors.InputError: no/such/board is not a board: ... create one with ngrameval board init
        """
        self.folder = Path(folder)
        self.path = self.folder / DATABASE
        if not self.path.is_file():
            raise InputError(f"{self.folder} is not a board: no {DATABASE} in it; create one with ngrameval board init")
        with self._connect() as connection:
            problems = [row[0] for row in connection.execute("PRAGMA quick_check").fetchall()]
            if problems != ["ok"]:
                raise InputError(
                    f"{self.path}: the board's database is corrupt ({'; '.join(problems[:3])}); nothing was written"
                )
            meta = dict(connection.execute("SELECT key, value FROM meta").fetchall())
            self.title: str = meta["title"]
            self.created: float = float(meta["created"])
            self.references_digest: str = meta["references_digest"]
            self.max_per_hour: int | None = int(meta["max_per_hour"]) if meta["max_per_hour"] else None
            self.segments: int = connection.execute("SELECT segments FROM reference_set").fetchone()[0]
        self._references()  # checks their digest

    @classmethod
    def create(
        cls,
        folder: str | Path,
        references: Sequence[Sequence[str]],
        metrics: Mapping[str, Mapping[str, Any]],
        title: str = "",
        max_per_hour: int | None = None,
    ) -> Board:
        """A new board in ``folder`` (refused if it holds one): ``references`` per segment (strings), ``metrics``
        name -> options (JSON values), fixed; ``max_per_hour``: submissions per client key an hour (None: no limit).

        >>> import tempfile
        >>> Board.create(tempfile.mkdtemp(), [["a b"]], {"bleu": {"tokenise": "none"}})  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ngrameval.errors.InputError: unknown options for bleu: tokenise; valid options: ...
        """
        references = _checked_references(references)
        if not isinstance(metrics, Mapping) or not metrics:
            raise InputError("a board needs at least one metric, e.g. {'bleu': {}}")
        if not isinstance(title, str):
            raise InputError(f"title must be a string, got {type(title).__name__}")
        if max_per_hour is not None and (
            isinstance(max_per_hour, bool) or not isinstance(max_per_hour, int) or max_per_hour < 1
        ):
            raise InputError(f"max_per_hour must be a positive integer or None, got {max_per_hour!r}")
        folder = Path(folder)
        exists = f"{folder} already holds a board ({DATABASE}); nothing was overwritten"
        if (folder / DATABASE).exists():
            raise InputError(exists)
        specs = [_new_metric(name, options, references) for name, options in metrics.items()]
        data = _json(references)
        folder.mkdir(parents=True, exist_ok=True)
        # Built under a temporary name, then linked into place: never overwritten, never seen half made.
        temporary = folder / f".{DATABASE}.{os.getpid()}.tmp"
        temporary.unlink(missing_ok=True)
        try:
            with closing(sqlite3.connect(temporary, isolation_level=None)) as connection:
                connection.executescript(SCHEMA)
                connection.execute("BEGIN")
                meta = {
                    "schema_version": str(SCHEMA_VERSION),
                    "title": title,
                    "created": repr(time.time()),
                    "references_digest": hashlib.sha256(data).hexdigest(),
                    "max_per_hour": "" if max_per_hour is None else str(max_per_hour),
                }
                connection.executemany("INSERT INTO meta VALUES (?, ?)", meta.items())
                connection.execute("INSERT INTO reference_set VALUES (1, ?, ?)", (len(references), zlib.compress(data)))
                connection.executemany(
                    "INSERT INTO metrics VALUES (?, ?, ?, ?, ?, ?)",
                    [
                        (position, spec.name, json.dumps(spec.options), json.dumps(spec.outputs), spec.signature, probe)
                        for position, (spec, probe) in enumerate(specs)
                    ],
                )
                connection.execute("COMMIT")
                connection.execute("PRAGMA journal_mode=WAL")
            try:
                os.link(temporary, folder / DATABASE)
            except FileExistsError:
                raise InputError(exists) from None
        finally:
            temporary.unlink(missing_ok=True)
        return cls(folder)

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        """A connection (autocommit), the database checked; SQLite's errors as InputError."""
        uri = self.path.resolve().as_uri() + "?mode=rw"  # never create a database where a board was expected
        try:
            connection = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000)
        except sqlite3.Error as error:
            raise InputError(f"{self.path}: cannot open the board's database ({error})") from None
        try:
            connection.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            connection.execute("PRAGMA foreign_keys=ON")
            version = connection.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
            if version is None or version[0] != str(SCHEMA_VERSION):
                raise InputError(
                    f"{self.path} is a board of schema version {version[0] if version else 'unknown'}, "
                    f"but this ngrameval reads version {SCHEMA_VERSION}; use the ngrameval that made it"
                )
            if connection.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                connection.execute("PRAGMA journal_mode=WAL")
            yield connection
        except sqlite3.OperationalError as error:
            if "locked" in str(error) or "busy" in str(error):
                raise InputError(
                    f"{self.path}: the board stayed busy for {BUSY_TIMEOUT_MS // 1000} s ({error}); try again"
                ) from None
            raise InputError(
                f"{self.path}: the board's database is unreadable ({error}); nothing was written"
            ) from None
        except sqlite3.DatabaseError as error:
            raise InputError(f"{self.path}: the board's database is corrupt ({error}); nothing was written") from None
        finally:
            connection.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """A connection in a transaction: committed at the end, rolled back on any error."""
        with self._connect() as connection:
            connection.execute("BEGIN IMMEDIATE")
            try:
                yield connection
                connection.execute("COMMIT")
            except BaseException:
                connection.execute("ROLLBACK")
                raise

    def metrics(self) -> list[MetricSpec]:
        """The board's metrics, in the order given at creation (the first one's first output ranks).

        >>> import tempfile
        >>> board = Board.create(Path(tempfile.mkdtemp()) / "b", [["the cat sat"], ["a dog"]], {"chrf": {}})
        >>> [(spec.name, spec.options, spec.outputs) for spec in board.metrics()]
        [('chrf', {}, ('chrf',))]
        """
        with self._connect() as connection:
            rows = connection.execute("SELECT name, options, outputs, signature FROM metrics ORDER BY position")
            return [
                MetricSpec(name, json.loads(options), tuple(json.loads(outputs)), signature)
                for name, options, outputs, signature in rows.fetchall()
            ]

    def submissions(self) -> list[Submission]:
        """Every stored submission, oldest first.

        >>> import tempfile
        >>> board = Board.create(Path(tempfile.mkdtemp()) / "b", [["the cat sat"], ["a dog"]], {"chrf": {}})
        >>> _ = board.submit(["the cat sat", "a dog"], "exact", team="lab")
        >>> [(submission.name, submission.team, submission.scores) for submission in board.submissions()]
        [('exact', 'lab', {'chrf': {'chrf': 1.0}})]
        """
        with self._connect() as connection:
            rows = connection.execute(
                "SELECT s.name, s.team, s.client, s.submitted, s.digest, t.metric, t.signature, t.scores FROM "
                "submissions s LEFT JOIN statistics t ON t.submission = s.id ORDER BY s.submitted, s.id, t.rowid"
            ).fetchall()
        submissions: dict[str, Submission] = {}
        for name, team, client, submitted, digest, metric, signature, scores in rows:
            submission = submissions.setdefault(name, Submission(name, team, client, submitted, digest, {}, {}))
            if metric is not None:
                submission.scores[metric], submission.signatures[metric] = json.loads(scores), signature
        return list(submissions.values())

    def predictions(self, name: str) -> list[str]:
        """The segments submission ``name`` was scored on.

        >>> import tempfile
        >>> board = Board.create(Path(tempfile.mkdtemp()) / "b", [["the cat sat"], ["a dog"]], {"chrf": {}})
        >>> _ = board.submit(["the cat", "a dog"], "mine")
        >>> board.predictions("mine")
        ['the cat', 'a dog']
        """
        with self._connect() as connection:
            row = connection.execute("SELECT predictions FROM submissions WHERE name = ?", (name,)).fetchone()
        if row is None:
            raise InputError(f"no submission named {name!r} on the board")
        return _decode(row[0], f"the segments of {name!r}")

    def statistics(self, name: str) -> dict[str, Statistics]:
        """Metric name -> the stored statistics of submission ``name`` (for any significance test, no rescoring).

        >>> import tempfile
        >>> board = Board.create(Path(tempfile.mkdtemp()) / "b", [["the cat sat"], ["a dog"]], {"chrf": {}})
        >>> _ = board.submit(["the cat", "a dog"], "mine")
        >>> from ngrameval import statistics
        >>> kept = board.statistics("mine")["chrf"]
        >>> bool((kept.rows == statistics("chrf", ["the cat", "a dog"], [["the cat sat"], ["a dog"]]).rows).all())
        True
        """
        stored = self._stored_statistics([name])
        if name not in stored:
            raise InputError(f"no submission named {name!r} on the board")
        return stored[name]

    def segment_scores(self, name: str) -> np.ndarray:
        """(segments, score columns): the sentence scores of submission ``name`` in :meth:`standings`' columns.

        >>> import tempfile
        >>> board = Board.create(Path(tempfile.mkdtemp()) / "b", [["the cat sat"], ["a dog"]], {"nist": {}})
        >>> _ = board.submit(["the cat", "a dog"], "mine")
        >>> from ngrameval.metric import sentence_scores
        >>> scores, _ = sentence_scores("nist", ["the cat", "a dog"], [["the cat sat"], ["a dog"]])
        >>> bool((board.segment_scores("mine") == scores).all())
        True
        """
        return self._segment_scores(self.statistics(name), self.predictions(name))

    def _segment_scores(self, stored: Mapping[str, Statistics], predictions: list[str]) -> np.ndarray:
        references, metrics = self._references(), [spec.name for spec in self.metrics()]
        return np.hstack([get_family(m).sentence_scores(stored[m], predictions, references) for m in metrics])

    def _references(self) -> list[list[str]]:
        """The references, their digest checked. The only way to them: nothing the board returns holds them."""
        with self._connect() as connection:
            (compressed,) = connection.execute("SELECT data FROM reference_set").fetchone()
        try:
            data = zlib.decompress(compressed)
        except zlib.error as error:
            raise InputError(f"{self.path}: the stored references are corrupt ({error}); nothing was written") from None
        if hashlib.sha256(data).hexdigest() != self.references_digest:
            raise InputError(
                f"{self.path}: the stored references do not match their digest "
                f"{self.references_digest[:12]}...; the board was altered or damaged, nothing was written"
            )
        return json.loads(data.decode("utf-8"))

    def _stored_statistics(self, names: Sequence[str] | None = None) -> dict[str, dict[str, Statistics]]:
        """Submission name -> metric -> statistics (all, oldest first, or ``names``'), digests checked."""
        specs = {spec.name: spec for spec in self.metrics()}
        contexts = {name: self._probe(name, spec.options).context for name, spec in specs.items()}
        query = (
            "SELECT s.name, t.metric, t.signature, t.rows, t.rows_digest FROM statistics t "
            "JOIN submissions s ON s.id = t.submission"
        )
        query += " ORDER BY s.submitted, s.id" if names is None else f" WHERE s.name IN ({','.join('?' * len(names))})"
        with self._connect() as connection:
            rows = connection.execute(query, list(names or [])).fetchall()
        stored: dict[str, dict[str, Statistics]] = {}
        for name, metric, signature, blob, digest in rows:
            if hashlib.sha256(blob).hexdigest() != digest:
                raise InputError(
                    f"{self.path}: the stored statistics of {name!r} ({metric}) do not match their "
                    "digest; the board was altered or damaged, nothing was written"
                )
            array = np.load(io.BytesIO(blob), allow_pickle=False).astype(np.float64)
            stats = Statistics(metric, array, specs[metric].outputs, signature, contexts[metric])
            stored.setdefault(name, {})[metric] = stats
        return stored

    def _probe(self, metric: str, options: Mapping[str, Any]) -> Statistics:
        """The statistics of the board's first segment (its first reference as the prediction)."""
        first = self._references()[:1]
        return get_family(metric).statistics([first[0][0]], first, **options)

    def submit(
        self, predictions: Sequence[str], name: str, team: str | None = None, client: str | None = None
    ) -> Submission:
        """Score ``predictions`` (a string per segment) and store them as submission ``name`` of ``team``, in one
        transaction; ``client``: the rate limit's key (default: the team; ``""``: anonymous). Refused: a wrong
        number of segments, a name or segments on the board, ``max_per_hour`` reached, stale signatures.

        >>> import tempfile
        >>> board = Board.create(Path(tempfile.mkdtemp()) / "b", [["the cat sat"], ["a dog"]], {"chrf": {}})
        >>> board.submit(["the cat"], "short")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ngrameval.errors.InputError: the submission has 1 lines but the board's references have 2
        """
        name, team = _checked_name(name, "name"), None if team is None else _checked_name(team, "team")
        client = (team or "") if client is None else client
        if not isinstance(client, str):
            raise InputError(f"client must be a string, got {type(client).__name__}")
        if isinstance(predictions, (str, bytes)) or not isinstance(predictions, Sequence):
            raise InputError(f"a submission is a list of strings, one per segment, got {type(predictions).__name__}")
        if len(predictions) != self.segments:
            raise InputError(
                f"the submission has {len(predictions)} lines but the board's references have {self.segments}"
            )
        for number, line in enumerate(predictions, 1):
            if not isinstance(line, str):
                raise InputError(f"the submission's segment {number} must be a string, got {type(line).__name__}")
        predictions = list(predictions)
        digest = segments_digest(predictions)
        with self._connect() as connection:
            self._refuse_duplicate(connection, name, digest)
        references = self._references()
        scored = {}
        for spec in self.metrics():
            stats = scored[spec.name] = get_family(spec.name).statistics(predictions, references, **spec.options)
            if stats.signature != spec.signature:
                raise InputError(
                    f"the board's {spec.name} signature is {spec.signature}, but this ngrameval gives "
                    f"{stats.signature}: rescore the board first (ngrameval board rescore {self.folder})"
                )
        submitted = time.time()
        with self._transaction() as connection:
            self._refuse_duplicate(connection, name, digest)
            if self.max_per_hour is not None:  # the rate limit, counted inside the transaction
                (recent,) = connection.execute(
                    "SELECT COUNT(*) FROM submissions WHERE client = ? AND submitted > ?", (client, submitted - 3600)
                ).fetchone()
                if recent >= self.max_per_hour:
                    who = f"client {client!r}" if client else "anonymous clients"
                    raise InputError(
                        f"{who} made {recent} submissions in the last hour; the board takes at most "
                        f"{self.max_per_hour} an hour; try again later"
                    )
            stored_signatures = dict(connection.execute("SELECT name, signature FROM metrics").fetchall())
            if any(stored_signatures[metric] != stats.signature for metric, stats in scored.items()):
                raise InputError("the board was rescored while this submission was scored; submit it again")
            cursor = connection.execute(
                "INSERT INTO submissions (name, team, client, submitted, digest, predictions) VALUES (?, ?, ?, ?, ?, ?)",
                (name, team, client, submitted, digest, zlib.compress(_json(predictions))),
            )
            if os.environ.get(PAUSE_VARIABLE):
                print("ngrameval board: inside the submission's transaction", file=sys.stderr, flush=True)
                time.sleep(float(os.environ[PAUSE_VARIABLE]))
            connection.executemany(
                "INSERT INTO statistics VALUES (?, ?, ?, ?, ?, ?)",
                [(cursor.lastrowid, metric, *_statistics_record(stats)) for metric, stats in scored.items()],
            )
        scores = {metric: _corpus_scores(stats) for metric, stats in scored.items()}
        signatures = {metric: stats.signature for metric, stats in scored.items()}
        return Submission(name, team, client, submitted, digest, scores, signatures)

    def _refuse_duplicate(self, connection: sqlite3.Connection, name: str, digest: str) -> None:
        found = connection.execute(
            "SELECT name FROM submissions WHERE name = ? OR digest = ?", (name, digest)
        ).fetchone()
        if found is not None:
            if found[0] == name:
                raise InputError(f"the board already has a submission named {name!r}; choose another name")
            raise InputError(f"the board already has these segments, as {found[0]!r}: a file is submitted once")

    def remove(self, name: str) -> None:
        """Delete submission ``name`` and its statistics (one transaction).

        >>> import tempfile
        >>> board = Board.create(Path(tempfile.mkdtemp()) / "b", [["the cat sat"], ["a dog"]], {"chrf": {}})
        >>> _ = board.submit(["the cat", "a dog"], "mine")
        >>> board.remove("mine"); board.submissions()
        []
        """
        with self._transaction() as connection:
            removed = connection.execute("DELETE FROM submissions WHERE name = ?", (name,)).rowcount
        if not removed:
            raise InputError(f"no submission named {name!r} on the board")

    def stale(self) -> dict[str, tuple[str, str]]:
        """Metric -> (the board's signature, this ngrameval's) for each metric whose signature this ngrameval
        gives differently (compared on the first segment); empty when every score is current.

        >>> import tempfile
        >>> board = Board.create(Path(tempfile.mkdtemp()) / "b", [["the cat sat"], ["a dog"]], {"chrf": {}})
        >>> board.stale()
        {}
        """
        with self._connect() as connection:
            rows = connection.execute("SELECT name, options, signature, probe_signature FROM metrics").fetchall()
        return {
            metric: (signature, probe)
            for metric, options, signature, probe_signature in rows
            if (probe := self._probe(metric, json.loads(options)).signature) != probe_signature
        }

    def rescore(self) -> int:
        """Rescore every submission under each :meth:`stale` metric, in one transaction; how many (0: none stale).

        >>> import tempfile
        >>> board = Board.create(Path(tempfile.mkdtemp()) / "b", [["the cat sat"], ["a dog"]], {"chrf": {}})
        >>> board.rescore()    # the signatures this ngrameval gives are the board's
        0
        """
        stale = self.stale()
        if not stale:
            return 0
        references = self._references()
        specs = {spec.name: spec for spec in self.metrics() if spec.name in stale}
        with self._connect() as connection:
            stored = connection.execute("SELECT id, digest, predictions FROM submissions").fetchall()
        rescored = []
        for key, digest, blob in stored:
            segments = _decode(blob, "a submission's segments")
            for metric, spec in specs.items():
                stats = get_family(metric).statistics(segments, references, **spec.options)
                rescored.append((*_statistics_record(stats), key, metric, digest))
        new = {metric: _new_metric(metric, spec.options, references) for metric, spec in specs.items()}
        with self._transaction() as connection:
            connection.executemany(
                "UPDATE statistics SET signature = ?, scores = ?, rows = ?, rows_digest = ? "
                "WHERE submission = ? AND metric = ? AND submission IN (SELECT id FROM submissions WHERE digest = ?)",
                rescored,
            )
            connection.executemany(
                "UPDATE metrics SET signature = ?, probe_signature = ?, outputs = ? WHERE name = ?",
                [(spec.signature, probe, json.dumps(spec.outputs), metric) for metric, (spec, probe) in new.items()],
            )
        return len(stored)

    def standings(
        self,
        n_samples: int = 1000,
        seed: significance.Seed = significance.DEFAULT_SEED,
        level: float = 0.05,
        details: bool = False,
    ) -> Leaderboard:
        """Every submission, best first by the first column, with corpus scores, 95% bootstrap intervals
        (``n_samples`` from ``seed``) and per column the :func:`~ngrameval.leaderboard.scoring.clusters` at
        ``level``; with ``details``, also each system's segment scores and segments (never the references).

        >>> import tempfile
        >>> board = Board.create(Path(tempfile.mkdtemp()) / "b", [["the cat sat"], ["a dog"]], {"chrf": {}})
        >>> for name, lines in (("weak", ["a cat", "dog"]), ("strong", ["the cat sat", "a dog"])):
        ...     _ = board.submit(lines, name)
        >>> standings = board.standings(n_samples=100)
        >>> [system.name for system in standings.systems], standings.references is None
        (['strong', 'weak'], True)
        """
        stored = self._stored_statistics()
        systems = [SystemScores(name, {}, np.empty((self.segments, 0)), []) for name in stored]
        standings = Leaderboard([], systems, None, significance_level=level, stale=self.stale())
        suffix = significance.signature_suffix(None, n_samples, significance.resolve_seed(seed))
        for spec in self.metrics():
            stats = [stored[system.name][spec.name] for system in systems]
            intervals, p_values = significance.pairwise_bootstrap(stats, n_samples, seed=seed) if stats else ([], {})
            signature = significance.with_suffix(spec.signature, suffix)
            standings.add_metric(spec.name, spec.outputs, signature, intervals, p_values)
        by_name = {system.name: system for system in systems}
        standings.systems = [by_name[name] for name in standings.cluster_numbers()]  # best first
        if details:
            for system in standings.systems:
                system.predictions = self.predictions(system.name)
                system.segment_scores = self._segment_scores(stored[system.name], system.predictions)
        return standings

    def export(
        self, path: str | Path, n_samples: int = 1000, seed: significance.Seed = significance.DEFAULT_SEED
    ) -> Path:
        """Write the standings to a Parquet file: a row per submission, best first, with its rank, cluster, name,
        team, time, digest and per score column the score, interval bounds and signature.

        >>> import tempfile
        >>> board = Board.create(Path(tempfile.mkdtemp()) / "b", [["the cat sat"], ["a dog"]], {"chrf": {}})
        >>> _ = board.submit(["the cat", "a dog"], "mine")
        >>> import pyarrow.parquet
        >>> pyarrow.parquet.read_table(board.export(board.folder / "results.parquet")).column_names[:4]
        ['rank', 'cluster', 'name', 'team']
        """
        import pyarrow as pa
        import pyarrow.parquet as pq

        path = Path(path)
        if path.suffix != ".parquet":
            raise InputError(f"{path}: the export is a Parquet file; name it FILE.parquet")
        standings = self.standings(n_samples, seed)
        heads = {submission.name: submission for submission in self.submissions()}
        cluster_of = standings.cluster_numbers()
        fields = {"rank": pa.int64(), "cluster": pa.int64()}
        fields |= dict.fromkeys(("name", "team", "submitted", "digest"), pa.string())
        parts = {"": pa.float64(), ".ci_low": pa.float64(), ".ci_high": pa.float64(), ".signature": pa.string()}
        fields |= {column.key + part: kind for column in standings.columns for part, kind in parts.items()}
        rows = []
        for rank, system in enumerate(standings.systems, 1):
            head = heads[system.name]
            values = [rank, cluster_of[system.name], head.name, head.team, head.time, head.digest]
            for column in standings.columns:
                result = system.results[column.key]
                assert result.ci is not None  # standings() bootstraps every score
                values += [result.score, *result.ci, column.signature]
            rows.append(dict(zip(fields, values)))
        path.parent.mkdir(parents=True, exist_ok=True)
        pq.write_table(pa.Table.from_pylist(rows, schema=pa.schema(fields)), path)
        return path


def _checked_references(references: Any) -> list[list[str]]:
    if isinstance(references, (str, bytes)) or not isinstance(references, Sequence) or not references:
        raise InputError("references must be a non-empty list with, per segment, a list of reference strings")
    for number, segment in enumerate(references, 1):
        if (
            isinstance(segment, str)
            or not isinstance(segment, Sequence)
            or not segment
            or not all(isinstance(reference, str) for reference in segment)
        ):
            raise InputError(
                f"references, segment {number}: a non-empty list of strings is needed, got "
                f"{json.dumps(segment, default=repr)[:80]}"
            )
    return [list(segment) for segment in references]


def _checked_name(value: Any, what: str) -> str:
    if (
        not isinstance(value, str)
        or not 0 < len(value.strip()) == len(value) <= MAX_NAME
        or re.search("[\n\r\t\0]", value)
    ):
        raise InputError(
            f"a submission's {what} must be 1 to {MAX_NAME} characters, with no tab, line break or "
            f"surrounding space, got {value!r}"
        )
    return value


def _new_metric(name: str, options: Any, references: list[list[str]]) -> tuple[MetricSpec, str]:
    """A metric's spec for a new board, and the signature of its probe (see :meth:`Board._probe`)."""
    family = get_family(name)
    if not isinstance(options, Mapping):
        raise InputError(f"the options of {name} must be a mapping of option names to values, got {options!r}")
    options = dict(options)
    family.check_options(options)
    try:
        stored = json.loads(json.dumps(options))
    except (TypeError, ValueError):
        raise InputError(
            f"the options of {name} must be JSON values (strings, numbers, lists ...), as "
            f"ngrameval score --option takes them, got {options!r}"
        ) from None
    if stored != options:
        raise InputError(
            f"the options of {name} must read back as given from JSON (lists, not tuples), got {options!r}"
        )
    # The references scored against themselves: the signature and outputs the whole corpus gives.
    corpus = family.statistics([segment[0] for segment in references], references, **options)
    probe = family.statistics([references[0][0]], references[:1], **options)
    try:
        same = bool(probe.context == corpus.context)
    except (ValueError, TypeError):  # a context holding arrays (a suite's parts)
        same = False
    if not same:
        raise InputError(
            f"{name} keeps corpus-wide constants with its statistics, which a board cannot rebuild "
            "from its first segment; it cannot be a board's metric"
        )
    return MetricSpec(name, options, tuple(corpus.outputs), corpus.signature), probe.signature


def _json(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def _decode(blob: bytes, what: str) -> Any:
    try:
        return json.loads(zlib.decompress(blob).decode("utf-8"))
    except (zlib.error, ValueError) as error:
        raise InputError(f"{what} are corrupt in the board's database ({error})") from None


def _corpus_scores(stats: Statistics) -> dict[str, float | None]:
    """Each output's corpus score, None where it is not finite (JSON has no NaN)."""
    scores = get_family(stats.metric).corpus_scores(stats)
    return {output: (score if math.isfinite(score) else None) for output, score in scores.items()}


def _statistics_record(stats: Statistics) -> tuple[str, str, bytes, str]:
    """(signature, corpus scores as JSON, rows as .npy bytes, their SHA-256). Counts are stored in the smallest
    integer type that holds them: the standings read a quarter of the bytes."""
    rows = np.ascontiguousarray(stats.rows, np.float64)
    for integer in (np.int16, np.int32):
        limits = np.iinfo(integer)
        if np.all((rows >= limits.min) & (rows <= limits.max) & (rows == np.floor(rows))):  # (NaN: never)
            rows = rows.astype(integer)
            break
    buffer = io.BytesIO()
    np.save(buffer, rows, allow_pickle=False)
    blob = buffer.getvalue()
    return stats.signature, json.dumps(_corpus_scores(stats)), blob, hashlib.sha256(blob).hexdigest()
