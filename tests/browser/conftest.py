"""Fixtures of the browser tests: Debian's Chromium driven by Playwright for Python,
the web app served in a thread on loopback, and a folder for screenshots.

The tests are skipped, saying why, when Chromium (``/usr/bin/chromium``, or
``LEXIKO_CHROMIUM``) or Playwright is missing. Playwright never downloads a browser
here: it is given Chromium's path.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("LEXIKO_CHROMIUM", "/usr/bin/chromium")
ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = Path(os.environ.get("LEXIKO_TEST_ARTIFACTS", ROOT / "test-artifacts")) / "browser"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "browser: drives Chromium through Playwright (needs /usr/bin/chromium)")


def _why_not() -> str | None:
    if not (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)):
        return f"Chromium is not installed at {CHROMIUM} (Debian: apt-get install chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright for Python is not installed (pip install playwright; no browser download needed)"
    return None


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium through Playwright's sync API, for one test module: the API runs an event
    loop in this thread while it lives, and the rest of the suite (``asyncio.run`` in
    the web tests) needs the thread without one once the browser tests are done."""
    why = _why_not()
    if why:
        pytest.skip(why)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-dev-shm-usage"]
        )
        yield b
        b.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    if ARTIFACTS.exists():
        shutil.rmtree(ARTIFACTS, ignore_errors=True)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
