"""Opens a report in real headless Chromium and reports what a person would see.

Drives Chromium through the DevTools protocol over ``--remote-debugging-pipe`` (fd 3 in, fd 4 out,
NUL-separated JSON), so it needs nothing beyond the standard library and opens no port. Used by the tests
(console errors, chart geometry, escaping) and to make the README's screenshot::

    python -m shijie.report.browser shijie-report/report.html --screenshot docs/report.png

``find_chromium()`` returns None when no browser is installed; callers skip with that reason.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--hide-scrollbars",
    "--mute-audio",
    "--remote-debugging-pipe",
]


def find_chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


class BrowserError(RuntimeError):
    pass


@dataclass
class PageResult:
    """What happened while a page loaded: console messages by level, uncaught exceptions, failed requests."""

    console: list[tuple[str, str]] = field(default_factory=list)  # (level, text)
    exceptions: list[str] = field(default_factory=list)
    failed_requests: list[str] = field(default_factory=list)

    @property
    def errors(self) -> list[str]:
        return (
            [f"console.{lvl}: {text}" for lvl, text in self.console if lvl in ("error", "assert")]
            + [f"exception: {e}" for e in self.exceptions]
            + [f"request failed: {r}" for r in self.failed_requests]
        )


class Chromium:
    """One headless browser with one page. Use as a context manager."""

    def __init__(self, executable: str | None = None, *, width: int = 1280, height: int = 900, timeout: float = 30):
        found = executable or find_chromium()
        if not found:
            raise BrowserError("no chromium found on PATH (apt-get install chromium)")
        self.executable: str = found
        self.width, self.height, self.timeout = width, height, timeout
        self._next_id = 0
        self._buffer = b""
        self._events: list[dict] = []

    # -- process and transport --------------------------------------------------------------------------

    def __enter__(self) -> Chromium:
        self._profile = tempfile.TemporaryDirectory(prefix="shijie-chromium-")
        browser_reads, self._to_browser = os.pipe()
        self._from_browser, browser_writes = os.pipe()

        def wire_pipes() -> None:  # runs in the child: the protocol's fixed descriptors are 3 and 4
            reads, writes = os.dup(browser_reads), os.dup(browser_writes)
            os.dup2(reads, 3)
            os.dup2(writes, 4)

        self._stderr = tempfile.TemporaryFile()
        self._proc = subprocess.Popen(
            [
                self.executable,
                *FLAGS,
                f"--user-data-dir={self._profile.name}",
                f"--window-size={self.width},{self.height}",
                "about:blank",
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=self._stderr,
            preexec_fn=wire_pipes,
            close_fds=False,
        )
        os.close(browser_reads)
        os.close(browser_writes)
        try:
            target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
            self._session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
            for domain in ("Page", "Runtime", "Log", "Network"):
                self.call(f"{domain}.enable", session=self._session)
            self.call(
                "Emulation.setDeviceMetricsOverride",
                {"width": self.width, "height": self.height, "deviceScaleFactor": 1, "mobile": False},
                session=self._session,
            )
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def __exit__(self, *exc: Any) -> None:
        try:
            if self._proc.poll() is None:
                try:
                    self._send("Browser.close", {})
                    self._proc.wait(timeout=10)
                except (OSError, subprocess.TimeoutExpired):
                    self._proc.kill()
                    self._proc.wait(timeout=10)
        finally:
            for fd in (self._to_browser, self._from_browser):
                with contextlib.suppress(OSError):
                    os.close(fd)
            self._stderr.close()
            self._profile.cleanup()

    def _send(self, method: str, params: dict, session: str | None = None) -> int:
        self._next_id += 1
        message = {"id": self._next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        return self._next_id

    def _receive(self, deadline: float) -> dict:
        import select

        while b"\0" not in self._buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise BrowserError("chromium did not answer in time")
            ready, _, _ = select.select([self._from_browser], [], [], remaining)
            if not ready:
                continue
            chunk = os.read(self._from_browser, 1 << 16)
            if not chunk:
                self._stderr.seek(0)
                tail = self._stderr.read()[-2000:].decode(errors="replace")
                raise BrowserError(f"chromium exited (rc={self._proc.poll()}): {tail}")
            self._buffer += chunk
        message, _, self._buffer = self._buffer.partition(b"\0")
        return json.loads(message)

    def call(self, method: str, params: dict | None = None, *, session: str | None = None) -> dict:
        ident = self._send(method, params or {}, session)
        deadline = time.monotonic() + self.timeout
        while True:
            message = self._receive(deadline)
            if message.get("id") == ident:
                if "error" in message:
                    raise BrowserError(f"{method}: {message['error'].get('message')}")
                return message.get("result", {})
            self._events.append(message)

    def _wait_event(self, method: str) -> dict:
        deadline = time.monotonic() + self.timeout
        while True:
            for i, event in enumerate(self._events):
                if event.get("method") == method:
                    return self._events.pop(i)
            self._events.append(self._receive(deadline))

    # -- what tests and the screenshot need ---------------------------------------------------------------

    def open(self, path_or_url: str | os.PathLike, settle_s: float = 0.3) -> PageResult:
        """Loads a page, waits for its load event, and collects console output and errors."""
        url = str(path_or_url)
        if "://" not in url:
            url = Path(url).resolve().as_uri()
        self._events.clear()
        self.call("Page.navigate", {"url": url}, session=self._session)
        self._wait_event("Page.loadEventFired")
        # let late console messages (from anything that ran on load) arrive
        deadline = time.monotonic() + settle_s
        try:
            while True:
                self._events.append(self._receive(deadline))
        except BrowserError:
            pass
        return self._collect()

    def _collect(self) -> PageResult:
        result = PageResult()
        for event in self._events:
            method, params = event.get("method"), event.get("params", {})
            if method == "Runtime.consoleAPICalled":
                text = " ".join(str(a.get("value", a.get("description", ""))) for a in params.get("args", []))
                result.console.append((params.get("type", "log"), text))
            elif method == "Log.entryAdded":
                entry = params.get("entry", {})
                result.console.append((entry.get("level", "info"), entry.get("text", "")))
            elif method == "Runtime.exceptionThrown":
                details = params.get("exceptionDetails", {})
                result.exceptions.append(details.get("exception", {}).get("description") or details.get("text", ""))
            elif method == "Network.loadingFailed":
                result.failed_requests.append(params.get("errorText", ""))
        self._events.clear()
        return result

    def evaluate(self, expression: str) -> Any:
        """Runs JavaScript in the page (DevTools evaluation, which the page's CSP does not govern)."""
        answer = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True}, session=self._session)
        if "exceptionDetails" in answer:
            raise BrowserError(f"evaluate failed: {answer['exceptionDetails'].get('text')}")
        return answer.get("result", {}).get("value")

    def screenshot(self, path: str | os.PathLike, *, full_page: bool = False) -> Path:
        params: dict[str, Any] = {"format": "png"}
        if full_page:
            size = self.evaluate("[document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
            params |= {
                "captureBeyondViewport": True,
                "clip": {"x": 0, "y": 0, "width": size[0], "height": size[1], "scale": 1},
            }
        data = self.call("Page.captureScreenshot", params, session=self._session)["data"]
        path = Path(path)
        path.write_bytes(base64.b64decode(data))
        return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Open a report in headless Chromium; print errors; screenshot.")
    parser.add_argument("page")
    parser.add_argument("--screenshot", help="PNG file to write")
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--height", type=int, default=1600)
    parser.add_argument("--full-page", action="store_true")
    args = parser.parse_args(argv)
    with Chromium(width=args.width, height=args.height) as browser:
        result = browser.open(args.page)
        for line in result.errors:
            print(line, file=sys.stderr)
        if args.screenshot:
            print(browser.screenshot(args.screenshot, full_page=args.full_page))
    return 1 if result.errors else 0


if __name__ == "__main__":
    sys.exit(main())
