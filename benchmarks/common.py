"""Shared machinery of the benchmarks: data, a synthetic corpus, isolated measurements, score checks, reports.

A benchmark script declares *sections* (one task on one data set) made of *rows*
(one tool doing that task). A row is a factory ``factory(corpus, **options)``
that does the untimed preparation (imports, converting the inputs to the shape
the tool wants) and returns a zero-argument ``run`` whose result -- (nested)
lists, tuples or dicts of scores, compared in order -- is checked against the
ngrameval row it is compared with.

Every measurement runs in a fresh ``python -c`` process, one per repetition, so
that no cache survives from one repetition to the next (ngrameval's reference
cache, sacrebleu's ``lru_cache`` on its 13a tokenizer): caches only help within
one run, as they would for a user scoring 16 systems in one process. Per
process we record wall time (``time.perf_counter``), CPU time of all threads
(``time.process_time``, plus the CPU time of any child processes) and the peak
resident set size (``VmHWM``, see :func:`peak_rss_kb`; a row whose tool runs as
a child process adds that process's peak with :func:`report_child_peak`).
Imports and input preparation are not timed, and the process idles for
``SETTLE_SECONDS`` before the task (numpy's OpenBLAS threads spin for a while
after import). The best time over the repetitions is reported. Peak memory is
reported absolute and as the difference to a *baseline* process that imported
the same modules and prepared the same inputs but did not run the task.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import pickle
import platform
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

BENCHMARKS = Path(__file__).resolve().parent
ROOT = BENCHMARKS.parent
TOLERANCE = 1e-9
SEED = 20171121
# The variables that set how many threads the thread pools of OpenBLAS (numpy's products), OpenMP, MKL and rayon
# (the Rust peers) start with.
THREAD_VARIABLES = ("RAYON_NUM_THREADS", "OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def hold_to_one_thread() -> None:
    """Every tool at one thread, the peers' count (a benchmark compares tools at the same thread count): the
    measuring processes, started after this, inherit the variables."""
    for variable in THREAD_VARIABLES:
        os.environ[variable] = "1"


SETTLE_SECONDS = 0.5
PACKAGES = ("ngrameval", "sacrebleu", "nltk", "bleuscore", "fast-bleu", "numpy")


# --------------------------------------------------------------------------- data

sys.path.insert(0, str(ROOT))  # the tests' loaders of the shared data
from tests.data import WMT17_SYSTEMS, as_streams, whitespace_tokens, wmt17_reference, wmt17_system  # noqa: E402


def shared_dir() -> Path:
    """``$NGRAMEVAL_SHARED``, or ``../shared`` next to the repository."""
    return Path(os.environ.get("NGRAMEVAL_SHARED") or ROOT.parent / "shared")


def shared(relative: str) -> Path:
    """What the tests' ``shared`` fixture does, for scripts: a path under the shared directory, which must exist."""
    path = shared_dir() / relative
    if not path.exists():
        raise SystemExit(f"{path} is missing: set NGRAMEVAL_SHARED to the shared/ directory")
    return path


@dataclass
class Corpus:
    """Systems scored against the same references: ``references[i]`` lists the references of line i."""

    description: str
    names: list[str]
    systems: list[list[str]]
    references: list[list[str]]

    def streams(self) -> list[list[str]]:
        """The references as sacrebleu wants them: one list of lines per reference."""
        return as_streams(self.references)

    def token_lists(self):
        """``(systems, references)`` split on whitespace, for tools that take token lists."""
        return (
            [whitespace_tokens(system, [])[0] for system in self.systems],
            whitespace_tokens([], self.references)[1],
        )

    def map_text(self, function: Callable[[str], str], description: str) -> Corpus:
        return Corpus(
            description,
            self.names,
            [[function(line) for line in system] for system in self.systems],
            [[function(reference) for reference in group] for group in self.references],
        )


def load_wmt17(systems: int | None = None, lines: int | None = None) -> Corpus:
    """WMT17 newstest2017 en-de (online-A's byte-order mark kept, as submitted): the first ``systems``
    system outputs, their first ``lines`` lines."""
    names = WMT17_SYSTEMS[:systems]
    reference = wmt17_reference(shared)[:lines]
    return Corpus(
        f"WMT17 en-de, {len(names)} systems x {len(reference)} lines, 1 reference",
        [name.rsplit(".", 1)[0] for name in names],
        [wmt17_system(shared, name)[:lines] for name in names],
        [[line] for line in reference],
    )


def pretokenize_13a(corpus: Corpus) -> Corpus:
    """The corpus tokenized once with sacrebleu's 13a tokenizer, tokens joined by single spaces.

    Whitespace-token benchmarks use it so that every tool sees the same tokens
    (a 13a pass over 13a output changes nothing, which the score checks confirm).
    """
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

    tokenizer = Tokenizer13a()
    return corpus.map_text(
        lambda line: " ".join(tokenizer(line).split()), corpus.description + ", 13a-tokenized beforehand"
    )


def synthetic_corpus(pairs: int, references: int = 4, seed: int = SEED) -> Corpus:
    """``pairs`` predictions with ``references`` references each, built deterministically from WMT17.

    Each line starts from a random real sentence (the 13a-tokenized WMT17
    reference and system outputs); the prediction and each reference are
    independent perturbations of it: tokens replaced by a random corpus token
    (drawn by frequency), adjacent tokens swapped, tokens dropped (never the
    first, so no line is empty).
    """
    import numpy as np

    wmt = pretokenize_13a(load_wmt17())
    pool = [
        tokens
        for tokens in (line.split() for text in [[g[0] for g in wmt.references]] + wmt.systems for line in text)
        if tokens
    ]
    vocabulary: dict[str, int] = {}
    ids = np.fromiter((vocabulary.setdefault(token, len(vocabulary)) for tokens in pool for token in tokens), np.int64)
    words = np.array(list(vocabulary), dtype=object)
    pool_len = np.fromiter(map(len, pool), np.int64, len(pool))
    pool_start = np.cumsum(pool_len) - pool_len
    rng = np.random.default_rng(seed)
    base = rng.integers(len(pool), size=pairs)
    length = pool_len[base]
    sentence = np.repeat(np.arange(pairs), length)
    offset = np.arange(len(sentence)) - (np.cumsum(length) - length)[sentence]
    source = ids[pool_start[base][sentence] + offset]
    first, last = offset == 0, offset == length[sentence] - 1

    def perturb(drop: float, replace: float, swap: float) -> list[str]:
        tokens = source.copy()
        replaced = rng.random(len(tokens)) < replace
        tokens[replaced] = ids[rng.integers(len(ids), size=int(replaced.sum()))]
        swapped = (rng.random(len(tokens)) < swap) & ~last
        at = np.flatnonzero(swapped & ~np.r_[False, swapped[:-1]])
        tokens[at], tokens[at + 1] = tokens[at + 1], tokens[at].copy()
        keep = (rng.random(len(tokens)) >= drop) | first
        kept = words[tokens[keep]].tolist()
        bounds = np.r_[0, np.cumsum(np.bincount(sentence[keep], minlength=pairs))].tolist()
        return [" ".join(kept[a:b]) for a, b in zip(bounds[:-1], bounds[1:])]

    predictions = perturb(drop=0.08, replace=0.12, swap=0.05)
    groups = list(zip(*(perturb(drop=0.05, replace=0.08, swap=0.03) for _ in range(references))))
    return Corpus(
        f"synthetic (seed {seed}): {pairs} predictions x {references} references from WMT17 sentences",
        ["synthetic"],
        [predictions],
        [list(group) for group in groups],
    )


# --------------------------------------------------------------------------- declarations


@dataclass(frozen=True)
class Row:
    """One tool doing a section's task. ``compare_to`` names the ngrameval row this peer is timed and
    score-checked against (``None`` for an ngrameval row)."""

    label: str
    factory: Callable[..., Callable[[], Any]]
    options: dict[str, Any] = field(default_factory=dict)
    compare_to: str | None = None
    note: str = ""
    tolerance: float = TOLERANCE


@dataclass(frozen=True)
class Target:
    """``peer``'s cost divided by ``engine``'s must reach ``at_least``; ``measure`` is ``time`` (checked
    on CPU and on wall time) or ``peak`` (peak memory above the baseline)."""

    peer: str
    engine: str
    measure: str
    at_least: float


@dataclass
class Section:
    """A task: its rows, run on the corpus ``load()`` returns (built only when the section runs)."""

    key: str
    title: str
    load: Callable[[], Corpus]
    rows: Sequence[Row]
    targets: Sequence[Target] = ()
    notes: Sequence[str] = ()
    calls: int = 0  # calls of the task per timed run: when set, the report gives each row's time per call


# --------------------------------------------------------------------------- the measuring process

_WORKER = "import sys; sys.path.insert(0, sys.argv[1]); import common; common.worker(sys.argv[2])"
_CHILD_PEAKS_KB: list[int] = []


def report_child_peak(kb: int) -> None:
    """For a row whose tool runs as a child process: that process's peak resident set in KiB (its own
    ``VmHWM``, which the worker's does not include). The worker adds the largest reported to its own peak
    -- an upper bound of what the two held at once."""
    _CHILD_PEAKS_KB.append(int(kb))


def worker(spec_path: str) -> None:
    """Runs inside the fresh process: prepare, then (unless ``baseline``) time the task once."""
    spec = json.loads(Path(spec_path).read_text())
    module_spec = importlib.util.spec_from_file_location("benchmark_under_test", spec["script"])
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    with open(spec["corpus"], "rb") as handle:
        corpus = pickle.load(handle)
    run = getattr(module, spec["factory"])(corpus, **spec["options"])
    # OpenBLAS (numpy) starts worker threads at import that spin for ~0.1 s of CPU before they sleep;
    # let them settle so that an import's side effect is not timed as part of the task.
    time.sleep(SETTLE_SECONDS)
    output: dict[str, Any] = {}
    if spec["mode"] == "run":
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        wall, cpu = time.perf_counter(), time.process_time()
        result = run()
        cpu = time.process_time() - cpu
        output["wall"] = time.perf_counter() - wall
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        output["children_cpu"] = after.ru_utime + after.ru_stime - children.ru_utime - children.ru_stime
        output["cpu"] = cpu + output["children_cpu"]
        # Each tool is timed up to its own kind of result: the peers' Python objects, ngrameval's numpy
        # arrays. Arrays become lists here, after the timing, for the report and the comparison.
        output["result"] = result.tolist() if hasattr(result, "tolist") else result
    elif spec["mode"] == "profile":
        import cProfile
        import io
        import pstats

        profiler = cProfile.Profile()
        profiler.runcall(run)
        text = io.StringIO()
        stats = pstats.Stats(profiler, stream=text).strip_dirs()
        stats.sort_stats("tottime").print_stats(18)
        stats.sort_stats("cumulative").print_stats(25)
        output["profile"] = text.getvalue()
    output["children_peak_kb"] = max(_CHILD_PEAKS_KB, default=0)
    output["peak_kb"] = peak_rss_kb() + output["children_peak_kb"]
    Path(spec["output"]).write_text(json.dumps(output, default=float))


def peak_rss_kb() -> int:
    """Peak resident set size of this process in KiB: ``VmHWM`` of /proc/self/status where it exists.

    ``getrusage(RUSAGE_SELF).ru_maxrss`` is kept across ``execve``: a child started by a parent that
    once held 200 MB reports at least 200 MB. ``VmHWM`` belongs to the new address space only.
    """
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux, bytes on macOS


def _spawn(row: Row, corpus_path: Path, mode: str, scratch: Path) -> dict[str, Any]:
    import inspect

    spec_path, output_path = scratch / "spec.json", scratch / "output.json"
    output_path.unlink(missing_ok=True)
    spec_path.write_text(
        json.dumps(
            {
                "script": inspect.getfile(row.factory),
                "factory": row.factory.__name__,
                "options": row.options,
                "corpus": str(corpus_path),
                "mode": mode,
                "output": str(output_path),
            }
        )
    )
    done = subprocess.run(
        [sys.executable, "-c", _WORKER, str(BENCHMARKS), str(spec_path)], capture_output=True, text=True
    )
    if done.returncode != 0:
        raise RuntimeError(f"{row.label} ({mode}) failed:\n{done.stderr}")
    return json.loads(output_path.read_text())


def measure(row: Row, corpus_path: Path, repeats: int, scratch: Path) -> dict[str, Any]:
    """Best wall and CPU time over ``repeats`` fresh processes, their largest peak RSS, and the baseline."""
    runs = [_spawn(row, corpus_path, "run", scratch) for _ in range(repeats)]
    baseline_mb = _spawn(row, corpus_path, "baseline", scratch)["peak_kb"] / 1024
    peak_mb = max(run["peak_kb"] for run in runs) / 1024
    return {
        "wall_s": min(run["wall"] for run in runs),
        "cpu_s": min(run["cpu"] for run in runs),
        "children_cpu_s": max(run["children_cpu"] for run in runs),
        "children_peak_mb": max(run["children_peak_kb"] for run in runs) / 1024,
        "peak_mb": peak_mb - baseline_mb,
        "peak_abs_mb": peak_mb,
        "baseline_mb": baseline_mb,
        "repeats": repeats,
        "result": runs[0]["result"],
    }


# --------------------------------------------------------------------------- checks and reports


def _flatten(values: Any) -> list[float]:
    if isinstance(values, dict):
        values = list(values.values())
    if isinstance(values, (list, tuple)):
        return [x for value in values for x in _flatten(value)]
    return [float(values)]


def max_difference(a: Any, b: Any) -> float:
    """Largest absolute difference between two (nested) lists, tuples or dicts of scores, in order; inf when
    their sizes differ."""
    a, b = _flatten(a), _flatten(b)
    if len(a) != len(b):
        return float("inf")
    return max((abs(x - y) for x, y in zip(a, b)), default=0.0)


def _ratio(peer: float, engine: float) -> float | None:
    return peer / engine if engine > 0 else None


def _fmt(value: float | None, digits: int = 3) -> str:
    return "n/a" if value is None else f"{value:.{digits}f}"


def run_section(
    section: Section, corpus_path: Path, repeats: int, scratch: Path, benchmark: str
) -> list[dict[str, Any]]:
    measured: dict[str, dict[str, Any]] = {}
    for row in section.rows:
        print(f"[{benchmark}/{section.key}] {row.label} ...", file=sys.stderr, flush=True)
        measured[row.label] = measure(row, corpus_path, repeats, scratch)
    records = []
    for row in section.rows:
        record = {
            "benchmark": benchmark,
            "section": section.key,
            "tool": row.label,
            "compared_to": row.compare_to,
            **measured[row.label],
        }
        result = record.pop("result")
        if row.compare_to:
            engine = measured[row.compare_to]
            record.update(
                ratio_cpu=_ratio(record["cpu_s"], engine["cpu_s"]),
                ratio_wall=_ratio(record["wall_s"], engine["wall_s"]),
                ratio_peak=_ratio(record["peak_mb"], engine["peak_mb"]),
                max_abs_diff=max_difference(result, engine["result"]),
            )
            record["tolerance"] = row.tolerance
            record["scores_agree"] = record["max_abs_diff"] <= row.tolerance
            if not record["scores_agree"]:
                print(
                    f"WARNING: {row.label} and {row.compare_to} disagree in {section.key}: "
                    f"max |difference| {record['max_abs_diff']:.3g} > {row.tolerance:g}",
                    flush=True,
                )
        record["note"] = row.note
        records.append(record)
    return records


def check_targets(section: Section, records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    by_tool = {record["tool"]: record for record in records}
    checked = []
    for target in section.targets:
        peer, engine = by_tool[target.peer], by_tool[target.engine]
        keys = {"cpu": "cpu_s", "wall": "wall_s"} if target.measure == "time" else {"peak": "peak_mb"}
        item = {
            "benchmark": peer["benchmark"],
            "section": section.key,
            "target": f"{target.peer} / {target.engine} >= {target.at_least:g} ({target.measure})",
        }
        for name, key in keys.items():
            value = _ratio(peer[key], engine[key])
            item[name] = value
            item[f"met_{name}"] = value is not None and value >= target.at_least
        checked.append(item)
    return checked


def _target_line(target: dict[str, Any]) -> str:
    parts = [
        f"{name} {_fmt(target[name], 2)}x {'met' if target[f'met_{name}'] else 'MISSED'}"
        for name in ("cpu", "wall", "peak")
        if name in target
    ]
    return f"- Target {target['target']}: " + ", ".join(parts)


def markdown(section: Section, corpus: Corpus, records: list[dict[str, Any]], targets: list[dict[str, Any]]) -> str:
    lines = [
        f"### {section.title}",
        "",
        f"Data: {corpus.description}.",
        "",
        (
            "| tool | wall s | CPU s | peak MB (Δ) | peak MB (abs) | ratio CPU | ratio wall | ratio peak | "
            "scores vs ngrameval |"
        ),
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for r in records:
        if r["compared_to"]:
            check = "equal" if r["scores_agree"] else "**MISMATCH**"
            check += f" (max Δ {r['max_abs_diff']:.1e})"
            ratios = [_fmt(r["ratio_cpu"], 2), _fmt(r["ratio_wall"], 2), _fmt(r["ratio_peak"], 2)]
        else:
            check, ratios = "(ngrameval)", ["1", "1", "1"]
        label = r["tool"] + (f" [{r['note']}]" if r["note"] else "")
        lines.append(
            f"| {label} | {_fmt(r['wall_s'])} | {_fmt(r['cpu_s'])} | {_fmt(r['peak_mb'], 1)} | "
            f"{_fmt(r['peak_abs_mb'], 1)} | " + " | ".join(ratios) + f" | {check} |"
        )
    lines.append("")
    if section.calls:
        lines.append(
            f"- Per call ({section.calls} calls a run), wall / CPU ms: "
            + "; ".join(
                f"{r['tool']} {1000 * r['wall_s'] / section.calls:.3f} / {1000 * r['cpu_s'] / section.calls:.3f}"
                for r in records
            )
        )
    lines += [f"- {note}" for note in section.notes]
    lines += [_target_line(target) for target in targets]
    return "\n".join(lines) + "\n"


def revision() -> str:
    """The commit, the ngrameval/ tree it holds, and ``+dirty`` for uncommitted changes to tracked files there."""

    def git(*args: str) -> str:
        done = subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True)
        return done.stdout.strip() if done.returncode == 0 else "unknown"

    dirty = git("status", "--porcelain", "--untracked-files=no", "--", "ngrameval")
    return (
        f"{git('rev-parse', '--short', 'HEAD')} (ngrameval tree {git('rev-parse', '--short', 'HEAD:ngrameval')}"
        f"{'+dirty' if dirty else ''})"
    )


def environment(packages: Sequence[str] = PACKAGES) -> dict[str, Any]:
    versions = {}
    for name in packages:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = None
    return {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "platform": platform.platform(),
        "packages": versions,
        "revision": revision(),
        "load_average": os.getloadavg(),
    }


def main(
    benchmark: str,
    build_sections: Callable[[bool], Iterable[Section]],
    argv: Sequence[str] | None = None,
    packages: Sequence[str] = PACKAGES,
) -> int:
    parser = argparse.ArgumentParser(description=f"{benchmark} benchmark of ngrameval against its peers")
    parser.add_argument("--quick", action="store_true", help="smaller data, fewer repetitions")
    parser.add_argument("--repeats", type=int, help="fresh processes per row (default 3, 2 with --quick)")
    parser.add_argument("--only", nargs="+", metavar="SECTION", help="run only these sections")
    parser.add_argument("--profile", action="store_true", help="also print a cProfile of every ngrameval row")
    args = parser.parse_args(argv)
    repeats = args.repeats or (2 if args.quick else 3)
    env = environment(packages)
    print(f"# {benchmark} benchmark{' (quick)' if args.quick else ''}\n")
    print(
        f"ngrameval at {env['revision']}; Python {env['python']}, {env['cpus']} CPUs, {env['platform']}; "
        + ", ".join(f"{k} {v}" for k, v in env["packages"].items())
        + f". Best of {repeats} fresh processes per row.\n"
    )
    records, targets, profiles = [], [], []
    with tempfile.TemporaryDirectory(prefix="ngrameval-bench-") as directory:
        scratch = Path(directory)
        for section in build_sections(args.quick):
            if args.only and section.key not in args.only:
                continue
            corpus = section.load()
            corpus_path = scratch / f"{section.key}.pickle"
            with open(corpus_path, "wb") as handle:
                pickle.dump(corpus, handle, protocol=pickle.HIGHEST_PROTOCOL)
            section_records = run_section(section, corpus_path, repeats, scratch, benchmark)
            section_targets = check_targets(section, section_records)
            print(markdown(section, corpus, section_records, section_targets), flush=True)
            records += section_records
            targets += section_targets
            if args.profile:
                profiles += [
                    (f"{section.key}: {row.label}", _spawn(row, corpus_path, "profile", scratch))
                    for row in section.rows
                    if row.compare_to is None
                ]
            corpus_path.unlink()
    for title, output in profiles:
        print(f"## Profile -- {title}\n\n```\n{output['profile']}```\n")
    after = {"revision": revision(), "load_average": os.getloadavg()}
    if after["revision"].split(" ", 1)[1] != env["revision"].split(" ", 1)[1]:
        print(
            f"WARNING: ngrameval changed during the run ({env['revision']} -> {after['revision']}): "
            "run the benchmark again\n"
        )
    print("## JSON\n")
    print(
        json.dumps(
            {"benchmark": benchmark, "quick": args.quick, "repeats": repeats, "environment": env, "after": after}
        )
    )
    for item in records + targets:
        print(json.dumps(item))
    return 0
