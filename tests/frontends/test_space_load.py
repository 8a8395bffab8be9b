"""The BLEU Space under sustained load, served as it is deployed (spaces/bleu/app.py in its own process, on a
free port of 127.0.0.1) and driven by several concurrent gradio_client clients.

Every request comes from a new session (``Client.reset_session``: what many visitors, or API clients, do), the
case where gradio keeps per-session state: the server's resident memory must stay within a stated margin of
what it was after a warm-up, every answer must equal ngrameval's own BLEU for the slice sent, and a burst
beyond the queue's capacity must get gradio's "Queue is full" refusal at once rather than wait.
"""

import json
import os
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import test_spaces as cases

from conftest import ROOT, _free_port, require
from tests.data import WMT17_SYSTEMS, wmt17_reference, wmt17_system

# Hundreds of requests to a served Space.
pytestmark = pytest.mark.slow

CLIENTS = 8  # concurrent clients of the sustained run (fewer than the queue holds)
REQUESTS = 200  # requests of the sustained run
WARM_UP = 64  # requests after which memory must be flat (more than the sessions a page keeps)
MEMORY_MARGIN_MB = 200  # allowed growth of the server's resident memory after the warm-up
SIZES = (100, 400, 2000)  # segments per request (the leak: ~20 MB per 2000-segment request)
BURST = 28  # simultaneous requests, beyond the queue's capacity (page.QUEUE_SIZE + 1 running)
STARTUP_ATTEMPTS = 240  # half-seconds to wait for the server to answer


def _resident_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError(f"no VmRSS for process {pid}")


@pytest.fixture(scope="module")
def wmt17_slices(shared):
    """(predictions, references) slices of the WMT17 systems, of the sizes in SIZES, each with the result
    the page must answer (ngrameval's, through JSON)."""
    reference = wmt17_reference(shared)
    slices = []
    for k, system in enumerate(WMT17_SYSTEMS):
        size = SIZES[k % len(SIZES)]
        start = (k * 131) % (len(reference) - size)
        hyps = wmt17_system(shared, system)[start : start + size]
        refs = [[line] for line in reference[start : start + size]]
        slices.append((hyps, refs, cases._library(cases.SPACES["bleu"], hyps, refs)))
    return slices


@pytest.fixture(scope="module")
def bleu_server(tmp_path_factory):
    """(URL, process) of spaces/bleu/app.py run as a program, as the Hub runs it."""
    client_module = require("gradio_client")
    port = _free_port()
    log = tmp_path_factory.mktemp("bleu-server") / "server.log"
    environment = {**os.environ, "GRADIO_SERVER_NAME": "127.0.0.1", "GRADIO_SERVER_PORT": str(port)}
    with open(log, "w") as output:
        process = subprocess.Popen(
            [sys.executable, str(ROOT / "spaces" / "bleu" / "app.py")],
            env=environment,
            stdout=output,
            stderr=subprocess.STDOUT,
            cwd=tmp_path_factory.mktemp("cwd"),
        )
    url = f"http://127.0.0.1:{port}/"
    try:
        for _ in range(STARTUP_ATTEMPTS):
            if process.poll() is not None:
                pytest.fail(f"the BLEU Space exited ({process.returncode}):\n{log.read_text()}")
            try:
                client_module.Client(url, verbose=False)
                break
            except Exception:
                time.sleep(0.5)
        else:
            pytest.fail(f"the BLEU Space did not answer on {url}:\n{log.read_text()}")
        yield url, process
    finally:
        process.terminate()
        process.wait(timeout=30)


def _ask(client, hyps, refs):
    """The page's raw result for a slice, or the refusal's message."""
    queue_error = require("gradio_client.utils").QueueError
    try:
        return client.predict(
            predictions="\n".join(hyps), references_1="\n".join(r[0] for r in refs), api_name="/score"
        )[0], None
    except queue_error as error:
        return None, str(error)


def _check(answer, refusal, expected):
    if refusal is not None:
        assert "Queue is full" in refusal and "try again" in refusal, refusal
    else:
        assert json.loads(json.dumps(answer)) == expected


def drive(url, process, requests, clients, ask):
    """``requests`` requests from ``clients`` concurrent gradio_client clients, each from a new session (the state
    gradio keeps per session): ``ask(client, number)`` sends request ``number``. The server's resident memory
    after each answer, in the order they came, and ``ask``'s results; the first failure of ``ask`` is raised."""
    client_module = require("gradio_client")
    local = threading.local()
    lock = threading.Lock()
    memory, results = [], []

    def request(number):
        client = getattr(local, "client", None) or client_module.Client(url, verbose=False)
        local.client = client
        client.reset_session()
        result = ask(client, number)
        with lock:
            memory.append(_resident_mb(process.pid))
            results.append(result)

    with ThreadPoolExecutor(clients) as pool:
        list(pool.map(request, range(requests)))
    return memory, results


def test_sustained_load_answers_correctly_with_flat_memory(bleu_server, wmt17_slices):
    url, process = bleu_server

    def ask(client, number):
        hyps, refs, expected = wmt17_slices[number % len(wmt17_slices)]
        answer, refusal = _ask(client, hyps, refs)
        _check(answer, refusal, expected)
        return refusal

    memory, answered = drive(url, process, REQUESTS, CLIENTS, ask)
    refusals = [refusal for refusal in answered if refusal is not None]
    after_warm_up, peak = memory[WARM_UP - 1], max(memory[WARM_UP:])
    print(
        f"\nBLEU Space, {REQUESTS} requests from {CLIENTS} clients (a new session each; {SIZES} segments): "
        f"resident memory {memory[0]:.0f} MB after the first, {after_warm_up:.0f} MB after {WARM_UP}, "
        f"peak {peak:.0f} MB after that, {memory[-1]:.0f} MB at the end; {len(refusals)} refused"
    )
    assert peak <= after_warm_up + MEMORY_MARGIN_MB, (
        f"memory grew from {after_warm_up:.0f} MB after the warm-up to {peak:.0f} MB"
    )
    assert not refusals, f"{len(refusals)} of {REQUESTS} requests refused, with fewer clients than the queue holds"


def test_burst_beyond_capacity_is_refused_at_once(bleu_server, wmt17_slices):
    url, _ = bleu_server
    client_module = require("gradio_client")
    page = require("ngrameval.ui.page")
    assert BURST > page.QUEUE_SIZE + page.CONCURRENCY
    hyps, refs, expected = max(wmt17_slices, key=lambda item: len(item[0]))
    clients = [client_module.Client(url, verbose=False) for _ in range(BURST)]
    start = threading.Barrier(BURST)

    def request(client):
        start.wait()
        return _ask(client, hyps, refs)

    with ThreadPoolExecutor(BURST) as pool:
        answers = list(pool.map(request, clients))
    for answer, refusal in answers:
        _check(answer, refusal, expected)
    refused = sum(refusal is not None for _, refusal in answers)
    print(f"\nburst of {BURST} simultaneous requests: {BURST - refused} answered, {refused} refused")
    assert refused >= 1, "no request of the burst was refused: the queue is not bounded"
