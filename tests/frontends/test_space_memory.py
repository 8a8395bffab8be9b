"""The BLEU Space's resident memory stays flat under load (ngrameval issue #24, item 13): spaces/bleu/app.py in its
own process, 4 concurrent gradio_client clients, each request from a new session and of 2,000 WMT17 segments.

The memory a server holds grows until every session gradio keeps (page.SESSIONS, 16) is in use: each holds that
request's inputs, outputs and state. From there on it must stay flat. It did not: every one of gradio's worker
threads that scored a request kept that request's freed arrays in its own malloc arena (see
ngrameval.ui.page.on_worker), and 32 sessions of about 4.5 MB each filled only after the first 30 requests; the
server grew by about 100 MB over the last 16 of these 32 requests.
"""

import pytest
from test_space_load import bleu_server, drive  # noqa: F401 - the server, started for this module too

from tests.data import WMT17_SYSTEMS, wmt17_reference, wmt17_system

CLIENTS = 4
SEGMENTS = 2000
WARM_UP = 16  # requests after which memory must be flat (page.SESSIONS sessions are in use by then)
LATER = 16  # requests over which it must stay flat
MARGIN_MB = 50  # the "flat": less growth than this over the later requests


@pytest.fixture(scope="module")
def large_requests(shared):
    """Per WMT17 system, (predictions, reference) text of a slice of SEGMENTS segments, as a visitor pastes them."""
    reference = wmt17_reference(shared)
    requests = []
    for k, system in enumerate(WMT17_SYSTEMS):
        start = (k * 131) % (len(reference) - SEGMENTS)
        requests.append(
            (
                "\n".join(wmt17_system(shared, system)[start : start + SEGMENTS]),
                "\n".join(reference[start : start + SEGMENTS]),
            )
        )
    return requests


@pytest.mark.slow
def test_memory_is_flat_after_a_warm_up(bleu_server, large_requests):  # noqa: F811
    url, process = bleu_server

    def ask(client, number):
        predictions, reference = large_requests[number % len(large_requests)]
        return client.predict(predictions=predictions, references_1=reference, api_name="/score")[0].get("bleu")

    memory, scores = drive(url, process, WARM_UP + LATER, CLIENTS, ask)
    assert all(isinstance(score, float) and 0 < score < 1 for score in scores), scores  # every request was scored
    growth = max(memory[WARM_UP:]) - memory[WARM_UP - 1]
    print(
        f"\nBLEU Space, {len(memory)} requests of {SEGMENTS} segments from {CLIENTS} clients: {memory[0]:.0f} MB "
        f"after the first, {memory[WARM_UP - 1]:.0f} MB after {WARM_UP}, then at most {max(memory[WARM_UP:]):.0f} MB; "
        f"{memory[-1]:.0f} MB at the end"
    )
    assert growth < MARGIN_MB, f"memory grew by {growth:.0f} MB over the last {LATER} requests: {memory}"
