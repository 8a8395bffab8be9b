"""Stanford CoreNLP 3.4.1's PTBTokenizer, the jar in pycocoevalcap 1.2's wheel, run as a peer (tests and benchmark).

- :func:`pycocoevalcap_tokenize`: pycocoevalcap's own ``PTBTokenizer.tokenize`` on a list of texts (one
  Java process for all of them: the texts become captions 0..n-1 of one image dict, in order).
- :func:`java_output`: what ``java -cp stanford-corenlp-3.4.1.jar edu.stanford.nlp.process.PTBTokenizer
  -preserveLines [-lowerCase] <file>`` prints for a text (the command pycocoevalcap runs, optionally
  without ``-lowerCase``), and the JVM's peak resident set when asked.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

_PEAK = re.compile(r"^VmHWM:\s+(\d+)", re.M)


class PeerMissing(RuntimeError):
    """Java or pycocoevalcap is not installed."""


def jar_path() -> Path:
    """stanford-corenlp-3.4.1.jar in the installed pycocoevalcap."""
    if shutil.which("java") is None:
        raise PeerMissing("the PTBTokenizer peer needs Java (apt-get install -y openjdk-17-jre-headless)")
    spec = importlib.util.find_spec("pycocoevalcap")
    if spec is None or not spec.submodule_search_locations:
        raise PeerMissing(
            "the PTBTokenizer peer needs pycocoevalcap (pip install pycocoevalcap==1.2; it is in the [test] extras)"
        )
    jar = Path(spec.submodule_search_locations[0]) / "tokenizer" / "stanford-corenlp-3.4.1.jar"
    if not jar.is_file():
        raise PeerMissing(f"{jar} is missing")
    return jar


def pycocoevalcap_tokenize(texts: Sequence[str]) -> list[str]:
    """pycocoevalcap 1.2's PTBTokenizer on ``texts``, in order (it runs Java in its own directory)."""
    jar_path()
    from pycocoevalcap.tokenizer.ptbtokenizer import PTBTokenizer

    tokenized = PTBTokenizer().tokenize({0: [{"caption": text} for text in texts]})
    return tokenized[0] if texts else []


def _peak_kb(pid: int) -> int | None:
    try:
        found = _PEAK.search(Path(f"/proc/{pid}/status").read_text())
    except OSError:
        return None
    return int(found.group(1)) if found else None


def java_output(text: str, lowercase: bool = True, peak: bool = False) -> tuple[str, int | None]:
    """Java's output for ``text`` (written to a file as UTF-8, as pycocoevalcap writes it) and, with
    ``peak``, the JVM's VmHWM in KiB (sampled until it exits, so possibly a little low)."""
    jar = jar_path()
    with tempfile.NamedTemporaryFile("wb", suffix=".txt", delete=False) as handle:
        handle.write(text.encode())
    try:
        command = ["java", "-cp", str(jar), "edu.stanford.nlp.process.PTBTokenizer", "-preserveLines"]
        command += ["-lowerCase"] if lowercase else []
        with open(os.devnull, "wb") as devnull, tempfile.TemporaryFile() as output:
            process = subprocess.Popen(command + [handle.name], stdout=output, stderr=devnull)
            peak_kb = None
            while process.poll() is None:
                if peak:
                    peak_kb = max(peak_kb or 0, _peak_kb(process.pid) or 0)
                time.sleep(0.005)
            if process.returncode != 0:
                raise RuntimeError(f"PTBTokenizer exited with status {process.returncode}")
            output.seek(0)
            return output.read().decode(), peak_kb
    finally:
        os.remove(handle.name)
