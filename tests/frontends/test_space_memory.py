"""The BLEU Space's resident memory stays flat under load (ngrameval issue #24, item 13): spaces/bleu/app.py in its
own process, 4 concurrent gradio_client clients, each request from a new session and of 2,000 WMT17 segments.

The memory a server may hold grows until every session gradio keeps (page.SESSIONS) is in use: each holds that
request's inputs, outputs and state. From there on it must stay flat. It did not: every one of gradio's worker
threads that scored a request kept that request's freed arrays in its own malloc arena (see
ngrameval.ui.page.on_worker), and 32 sessions of about 4.5 MB each filled only after the first 30 requests. On
the code before the fix the server grew by about 100 MB over these requests' last 16.
"""
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from conftest import require
from test_space_load import _resident_mb, bleu_server  # noqa: F401 - the server, started for this module too
from tests.data import WMT17_SYSTEMS, wmt17_reference, wmt17_system

CLIENTS = 4
SEGMENTS = 2000
LATER = 16                  # requests after every session slot is used, over which memory must stay flat
MARGIN_MB = 50              # the "flat": less growth than this over the later requests


@pytest.fixture(scope="module")
def large_requests(shared):
    """Per WMT17 system, (predictions, reference) text of a slice of SEGMENTS segments, as a visitor pastes them."""
    reference = wmt17_reference(shared)
    requests = []
    for k, system in enumerate(WMT17_SYSTEMS):
        start = (k * 131) % (len(reference) - SEGMENTS)
        requests.append(("\n".join(wmt17_system(shared, system)[start:start + SEGMENTS]),
                         "\n".join(reference[start:start + SEGMENTS])))
    return requests


@pytest.mark.slow
def test_memory_is_flat_once_the_sessions_are_in_use(bleu_server, large_requests):  # noqa: F811
    url, process = bleu_server
    client_module = require("gradio_client")
    page = require("ngrameval.ui.page")
    warm_up = page.SESSIONS     # from here on, each new session replaces the least recently used one
    local = threading.local()
    lock = threading.Lock()
    memory, scores = [], []

    def request(number):
        client = getattr(local, "client", None) or client_module.Client(url, verbose=False)
        local.client = client
        client.reset_session()
        predictions, reference = large_requests[number % len(large_requests)]
        answer = client.predict(predictions=predictions, references_1=reference, api_name="/score")[0]
        with lock:
            memory.append(_resident_mb(process.pid))
            scores.append(answer.get("bleu"))

    with ThreadPoolExecutor(CLIENTS) as pool:
        list(pool.map(request, range(warm_up + LATER)))
    assert all(isinstance(score, float) and 0 < score < 1 for score in scores), scores   # every request was scored
    growth = max(memory[warm_up:]) - memory[warm_up - 1]
    print(f"\nBLEU Space, {len(memory)} requests of {SEGMENTS} segments from {CLIENTS} clients: {memory[0]:.0f} MB "
          f"after the first, {memory[warm_up - 1]:.0f} MB after {warm_up} (page.SESSIONS), then at most "
          f"{max(memory[warm_up:]):.0f} MB; {memory[-1]:.0f} MB at the end")
    assert growth < MARGIN_MB, f"memory grew by {growth:.0f} MB over the last {LATER} requests: {memory}"
