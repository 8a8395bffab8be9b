"""Shared fixtures of the Spaces' browser tests (test_spaces.py, test_spaces_i18n.py, test_leaderboard_space.py):
each Space served once per session on a free port of 127.0.0.1, and one headless Chromium (Debian's, through
playwright). Needs gradio, gradio_client, playwright (Python) and a Chromium binary (/usr/bin/chromium, or
$NGRAMEVAL_CHROMIUM): when one is missing the tests fail, with what to install -- they never skip.
"""

import importlib
import importlib.util
import os
import shutil
import socket
import subprocess
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

for _name, _value in (
    ("GRADIO_ANALYTICS_ENABLED", "False"),
    ("HF_HUB_OFFLINE", "1"),
    ("HF_DATASETS_OFFLINE", "1"),
    ("HF_EVALUATE_OFFLINE", "1"),
):
    os.environ.setdefault(_name, _value)

import pytest  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
]
TIMEOUT = 20_000  # ms, for anything the page computes
INSTALL = (
    "the Spaces tests need gradio==6.31.0, gradio-client==2.7.2 and playwright==1.65.2 "
    "(pip) and Chromium (apt-get install chromium; or set NGRAMEVAL_CHROMIUM to a Chromium binary)"
)


def require(module: str):
    try:
        return importlib.import_module(module)
    except ImportError as error:
        return pytest.fail(f"{error}: {INSTALL}", pytrace=False)


@pytest.fixture(scope="session")
def ui():
    """ngrameval.ui.page, the page every app builds."""
    require("gradio")
    from ngrameval.ui import page

    return page


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


APP_STARTUP_ATTEMPTS = 240  # half-seconds to wait for an app.py run as a program to answer


def start_app(
    command: Sequence[str], cwd: Path, log: Path, environment: Mapping[str, str]
) -> tuple[str, subprocess.Popen]:
    """(URL, process): ``command`` (an app.py run as a program, as the Hub runs a Space) started in ``cwd`` on a free
    port of 127.0.0.1, its output in ``log``, once gradio_client connects to it; the test fails with the log's end
    if it exits or never answers."""
    client_module = require("gradio_client")
    port = _free_port()
    with open(log, "w") as output:
        process = subprocess.Popen(
            list(command),
            cwd=cwd,
            stdout=output,
            stderr=subprocess.STDOUT,
            env={**environment, "GRADIO_SERVER_NAME": "127.0.0.1", "GRADIO_SERVER_PORT": str(port)},
        )
    url = f"http://127.0.0.1:{port}/"
    for _ in range(APP_STARTUP_ATTEMPTS):
        if process.poll() is not None:
            pytest.fail(f"{' '.join(command)} exited ({process.returncode}):\n{log.read_text()[-4000:]}")
        try:
            client_module.Client(url, verbose=False)
            return url, process
        except Exception:
            time.sleep(0.5)
    process.kill()
    return pytest.fail(f"{' '.join(command)} did not answer on {url}:\n{log.read_text()[-4000:]}")


@pytest.fixture(scope="session")
def serve(ui):
    """serve("bleu") -> (URL, ngrameval.ui.bleu): the page spaces/bleu/app.py builds, started once and closed at the
    end, and the module describing it. A Space with a warm_up (METEOR: its first run indexes the paraphrase table)
    is warmed up first, as its app does before serving, so that the pages' timeouts do not include that
    once-per-machine work."""
    started = {}

    def start(name: str):
        if name not in started:
            spec = importlib.util.spec_from_file_location(f"ngrameval_space_{name}", ROOT / "spaces" / name / "app.py")
            app = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(app)
            description = importlib.import_module(f"ngrameval.ui.{name}")
            if description.SPACE.warm_up is not None:
                description.SPACE.warm_up()
            port = _free_port()
            app.demo.launch(
                server_name="127.0.0.1",
                server_port=port,
                prevent_thread_lock=True,
                quiet=True,
                max_file_size=ui.MAX_FILE_SIZE,
            )
            started[name] = (f"http://127.0.0.1:{port}/", description, app.demo)
        return started[name][:2]

    yield start
    for _, _, demo in started.values():
        demo.close()


@pytest.fixture(scope="session")
def browser():
    sync_api = require("playwright.sync_api")
    chromium = os.environ.get("NGRAMEVAL_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(chromium).is_file():
        pytest.fail(f"no Chromium at {chromium}: {INSTALL}", pytrace=False)
    sync_api.expect.set_options(timeout=TIMEOUT)
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    yield page
    context.close()
