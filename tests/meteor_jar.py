"""The METEOR 1.5 jar run as a peer, the way pycocoevalcap 1.2 runs it (tests and benchmark).

:class:`MeteorJar` starts ``java -jar -Xmx2G meteor-1.5.jar - - -stdio -l en <options>`` in
pycocoevalcap's ``meteor`` directory (so the jar finds ``data/paraphrase-en.gz``), sends one
``SCORE ||| ref1 ||| ... ||| hyp`` line per segment and reads its stats line, then one ``EVAL``
line and reads a score per segment and the corpus score. Like pycocoevalcap it writes a line
and reads the answer before writing the next: the jar makes a new reader for every line, so
lines sent ahead would be lost.

:func:`java_stems` and :func:`java_normalize` run the jar's own ``Stemmer`` and ``Normalizer``
main classes on words and lines.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

from ngrameval.metrics.meteor15 import resources

_PEAK = re.compile(r"^VmHWM:\s+(\d+)", re.M)


class PeerMissing(RuntimeError):
    """Java or the jar is not installed."""


def jar_path() -> Path:
    if shutil.which("java") is None:
        raise PeerMissing("the METEOR jar peer needs Java (apt-get install -y openjdk-17-jre-headless)")
    try:
        return resources.find_jar()
    except ValueError as missing:
        raise PeerMissing(str(missing)) from None


def pycocoevalcap_hypothesis(text: str) -> str:
    """What pycocoevalcap's ``Meteor._stat`` sends of a hypothesis: ``|||`` removed, double spaces halved once."""
    return text.replace("|||", "").replace("  ", " ")


def segment_line(hypothesis: str, references: Sequence[str]) -> str:
    """pycocoevalcap's SCORE line for one segment."""
    return " ||| ".join(("SCORE", " ||| ".join(references), pycocoevalcap_hypothesis(hypothesis)))


class MeteorJar:
    """One running jar (``options``: the jar's options after ``-stdio -l en``, e.g. ``["-norm"]``)."""

    def __init__(self, options: Sequence[str] = ("-norm",)):
        jar = jar_path()
        self.options = list(options)
        self.process = subprocess.Popen(
            ["java", "-jar", "-Xmx2G", jar.name, "-", "-", "-stdio", "-l", "en", *self.options],
            cwd=jar.parent,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )

    def _ask(self, line: str, answers: int = 1) -> list[str]:
        if "\n" in line or "\r" in line:
            raise ValueError("a stdio line cannot hold a line break")
        self.process.stdin.write(line.encode("utf-8") + b"\n")
        self.process.stdin.flush()
        out = [self.process.stdout.readline().decode("utf-8").strip() for _ in range(answers)]
        if any(not text for text in out):
            raise RuntimeError(f"the METEOR jar stopped: {self.process.stderr.read().decode(errors='replace')}")
        return out

    def stats(self, hypothesis: str, references: Sequence[str]) -> str:
        """The stats line of one segment (its best reference's)."""
        return self._ask(segment_line(hypothesis, references))[0]

    def evaluate(self, stats_lines: Sequence[str]) -> tuple[list[float], float]:
        """(segment scores, corpus score) for stats lines, as pycocoevalcap's ``compute_score`` reads them."""
        answers = self._ask("EVAL ||| " + " ||| ".join(stats_lines), len(stats_lines) + 1)
        scores = [float(a) for a in answers]
        return scores[:-1], scores[-1]

    def score(self, hypotheses: Sequence[str], references: Sequence[Sequence[str]]):
        """(stats lines, segment scores, corpus score) of a corpus."""
        lines = [self.stats(h, refs) for h, refs in zip(hypotheses, references)]
        segments, corpus = self.evaluate(lines)
        return lines, segments, corpus

    def peak_kb(self) -> int | None:
        """The jar process's peak resident set (VmHWM) so far, in KiB (Linux)."""
        try:
            found = _PEAK.search(Path(f"/proc/{self.process.pid}/status").read_text())
        except OSError:
            return None
        return int(found.group(1)) if found else None

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.stdin.close()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        for stream in (self.process.stdout, self.process.stderr):
            stream.close()


class _LinePeer:
    """A main class of the jar that answers each stdin line with one stdout line. It makes a new reader
    (in the platform charset: forced to UTF-8 here) for every line, so one line is sent at a time."""

    def __init__(self, *arguments: str):
        self.process = subprocess.Popen(
            ["java", "-Dfile.encoding=UTF-8", "-cp", str(jar_path()), *arguments],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )

    def ask(self, line: str) -> str:
        self.process.stdin.write(line.encode("utf-8") + b"\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline()
        if not answer:
            raise RuntimeError(f"the jar stopped: {self.process.stderr.read().decode(errors='replace')}")
        return answer.decode("utf-8").rstrip("\n")

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait()
        self.process.stdout.close()
        self.process.stderr.close()


def java_stems(words: Sequence[str], per_line: int = 2000) -> list[str]:
    """The jar's Snowball English stem of each word, from its ``Stemmer`` main class (which leaves
    words made of digits, commas, periods and hyphens as they are). Words must not hold the
    StringTokenizer delimiters."""
    peer = _LinePeer("Stemmer", "en")
    try:
        stems: list[str] = []
        for at in range(0, len(words), per_line):
            chunk = words[at : at + per_line]
            stems += peer.ask(" ".join(chunk)).split(" ") if chunk else []
    finally:
        peer.close()
    if len(stems) != len(words):
        raise RuntimeError(f"the stemmer peer returned {len(stems)} stems for {len(words)} words")
    return stems


def java_normalize(lines: Sequence[str], keep_punctuation: bool = True) -> list[str]:
    """The jar's ``Normalizer.normalizeLine`` (English) of each line, from the class's main method."""
    peer = _LinePeer("edu.cmu.meteor.util.Normalizer", "en", "true" if keep_punctuation else "false")
    try:
        return [peer.ask(line) for line in lines]
    finally:
        peer.close()
