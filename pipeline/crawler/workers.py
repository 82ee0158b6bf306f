"""Extraction in worker processes: off the event loop, bounded in time and memory, and killable.

``Workers(count, memory_mb)`` runs ``pipeline.extract.extract`` in up to ``count`` child processes
(``python -m pipeline.crawler.workers``), each started when first needed and kept for the next document.
``await workers.extract(body, content_type, url, limits)`` hands one document to an idle worker and answers its
``Extraction``, or raises what ``extract`` raises there (``UnsupportedType``; ``Unreadable`` for any other
failure, a RecursionError or an assertion inside pypdf included), or ``ExtractionKilled``.

Why processes, not threads: parsing is CPU work, and on the event loop's thread it stalls every host (a 9 MB page
held the loop for 44 s); a thread cannot be stopped; and some work never looks at the clock that ``Limits.seconds``
sets (libxml2 parsing, pypdf reading a content stream of tens of megabytes). So each document also has a hard
limit: a worker still busy ``kill_after(limits)`` seconds after it got the document is killed (SIGKILL) and a
new one takes its place when needed; the document is an error (``ExtractionKilled``). A worker's address space
is capped at ``memory_mb`` (``RLIMIT_AS``): a document that needs more is a ``MemoryError`` there, the worker is
retired, and the crawl's own memory never sees it.

The protocol, on each worker's stdin and stdout: frames of an 8-byte big-endian length and a ``marshal`` of
plain values (both ends are this module, over a private pipe; marshal is several times faster than pickle
for these tuples and cannot build arbitrary objects). The parent sends ``(body, content_type, url, limits as a
tuple)``; the worker answers ``("ok", extraction as a tuple)``, ``("skip", message)`` (``UnsupportedType``) or
``("error", message, retire)``. Its first frame, ``("ready", pid)``, comes after its imports, so start-up is
not counted against a document. In a worker, stray writes to stdout go to stderr, and after start-up stderr and
logging are silenced (pypdf logs a warning for every oddity of a file); it ignores SIGINT (Ctrl-C is the
parent's to handle) and ends when its stdin closes, so a crawl killed with SIGKILL leaves no worker behind.

Cost per document: a marshal each way and a pipe round trip (two context switches): ~0.15-0.2 ms of CPU
per page on the 2-core VM, measured by ``benchmarks/extract_workers_bench.py`` (docs/perf.md, Crawl).
"""

from __future__ import annotations

import asyncio
import contextlib
import marshal
import os
import struct
import sys
from pathlib import Path
from typing import Any, BinaryIO

from ..extract import Document, Extraction, Limits, Unreadable, UnsupportedType

_HEADER = struct.Struct(">Q")
_ROOT = Path(__file__).resolve().parent.parent.parent  # the folder that holds the ``pipeline`` package


def _to_wire(extraction: Extraction) -> tuple[Any, ...]:
    """Plain values only: marshal refuses a str subclass (lxml hands some back), so text is made ``str``."""
    documents = [
        (
            d.kind,
            str(d.title),
            str(d.text),
            list(map(str, d.headings)),
            list(map(str, d.code_blocks)),
            d.metadata,
            d.url,
        )
        for d in extraction.documents
    ]
    links = list(map(str, extraction.links))
    return (documents, links, extraction.follow, extraction.paging, extraction.links_dropped)


def _from_wire(wire: tuple[Any, ...]) -> Extraction:
    documents, links, follow, paging, links_dropped = wire
    return Extraction([Document(*d) for d in documents], links, follow, paging, links_dropped)


class ExtractionKilled(Unreadable):
    """The worker did not answer in time (it was killed) or died (a crash, the memory cap)."""


def kill_after(limits: Limits) -> float:
    """Seconds a worker may hold a document before it is killed: the time budget, plus half of it (≥ 1 s) for
    the work that cannot look at the clock to end on its own."""
    seconds = limits.seconds if limits.seconds is not None else 60.0
    return seconds + max(1.0, seconds / 2)


class _Worker:
    def __init__(self, process: asyncio.subprocess.Process):
        self.process = process

    @classmethod
    async def start(cls, memory_mb: int) -> _Worker:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(_ROOT), os.environ.get("PYTHONPATH")]))}
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "pipeline.crawler.workers",
            str(memory_mb),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            env=env,
        )
        worker = cls(process)
        try:
            kind, _ = await asyncio.wait_for(worker._receive(), timeout=120)
        except (asyncio.IncompleteReadError, TimeoutError, EOFError, ValueError, TypeError) as exc:
            await worker.kill()
            raise ExtractionKilled(f"the extraction worker did not start ({exc.__class__.__name__})") from None
        if kind != "ready":
            await worker.kill()
            raise ExtractionKilled("the extraction worker did not start")
        return worker

    async def _receive(self) -> Any:
        assert self.process.stdout is not None
        (size,) = _HEADER.unpack(await self.process.stdout.readexactly(_HEADER.size))
        return marshal.loads(await self.process.stdout.readexactly(size))

    async def run(self, body: bytes, content_type: str | None, url: str, limits: Limits) -> Any:
        assert self.process.stdin is not None
        wire_limits = (limits.max_chars, limits.max_pdf_pages, limits.max_links, limits.seconds)
        payload = marshal.dumps((body, content_type, url, wire_limits))
        self.process.stdin.write(_HEADER.pack(len(payload)) + payload)
        await self.process.stdin.drain()
        return await self._receive()

    async def kill(self) -> None:
        if self.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.process.kill()
        await self.process.wait()

    async def close(self) -> None:
        """Ends a worker between documents: its stdin closes and it leaves; killed if it does not."""
        if self.process.stdin is not None and not self.process.stdin.is_closing():
            self.process.stdin.close()
        try:
            await asyncio.wait_for(self.process.wait(), timeout=2)
        except TimeoutError:
            await self.kill()


class Workers:
    """Up to ``count`` extraction workers, for one crawl (one event loop); ``aclose()`` ends them."""

    def __init__(self, count: int, memory_mb: int):
        self.count = max(1, count)
        self.memory_mb = memory_mb
        self.idle: list[_Worker] = []
        self.busy: set[_Worker] = set()
        self._slots: asyncio.Semaphore | None = None
        self.started = 0  # workers started so far (a killed one is replaced by a new start)

    async def extract(self, body: bytes, content_type: str | None, url: str, limits: Limits) -> Extraction:
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.count)
        async with self._slots:
            worker = self.idle.pop() if self.idle else await self._start()
            self.busy.add(worker)
            keep = False
            try:
                async with asyncio.timeout(kill_after(limits)):
                    answer = await worker.run(body, content_type, url, limits)
                keep = not (answer[0] == "error" and answer[2])
            except TimeoutError:
                raise ExtractionKilled(
                    f"extraction did not finish within {kill_after(limits):g} s: the worker was stopped"
                ) from None
            except (asyncio.IncompleteReadError, ConnectionError, EOFError, ValueError, TypeError):
                with contextlib.suppress(TimeoutError):  # its pipe closed: let it be reaped, to say how it ended
                    await asyncio.wait_for(worker.process.wait(), timeout=1)
                code = worker.process.returncode
                raise ExtractionKilled(f"the extraction worker died ({_exit_reason(code)})") from None
            finally:
                self.busy.discard(worker)
                if keep:
                    self.idle.append(worker)
                else:
                    await worker.kill()
        if answer[0] == "ok":
            return _from_wire(answer[1])
        if answer[0] == "skip":
            raise UnsupportedType(answer[1])
        raise Unreadable(answer[1])

    async def _start(self) -> _Worker:
        self.started += 1
        return await _Worker.start(self.memory_mb)

    async def aclose(self) -> None:
        idle, self.idle = self.idle, []
        for worker in idle:
            await worker.close()
        for worker in list(self.busy):  # a run that ends with documents in flight (a cap, an error, Ctrl-C)
            await worker.kill()


def _exit_reason(code: int | None) -> str:
    if code is None:
        return "its pipe broke"
    if code < 0:
        return f"signal {-code}"
    return f"exit status {code}"


# -- the worker's side ---------------------------------------------------------------------------------------


def _read_frame(stream: BinaryIO) -> bytes | None:
    header = stream.read(_HEADER.size)
    if len(header) < _HEADER.size:
        return None
    (size,) = _HEADER.unpack(header)
    payload = stream.read(size)
    return payload if len(payload) == size else None


def _write_frame(stream: BinaryIO, message: Any) -> None:
    try:
        payload = marshal.dumps(message)
    except ValueError as exc:  # a value marshal does not take (a str subclass a library handed back)
        payload = marshal.dumps(("error", f"extraction result could not be sent ({exc})", False))
    stream.write(_HEADER.pack(len(payload)) + payload)
    stream.flush()


def _answer(job: tuple[bytes, str | None, str, tuple[Any, ...]]) -> tuple[Any, ...]:
    from ..extract import extract

    body, content_type, url, limits = job
    try:
        return ("ok", _to_wire(extract(body, content_type, url, Limits(*limits))))
    except UnsupportedType as exc:
        return ("skip", str(exc))
    except Unreadable as exc:
        return ("error", str(exc), False)
    except RecursionError:
        return ("error", "nested too deeply to read (RecursionError)", False)
    except MemoryError:
        return ("error", "needs more memory than an extraction may use (MemoryError)", True)
    except Exception as exc:  # any failure to read one document is that document's error
        return ("error", f"extraction failed ({exc.__class__.__name__}: {exc})", False)


def main(memory_mb: int) -> None:
    import logging
    import resource
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    inbox = sys.stdin.buffer
    outbox = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # a library that prints writes to stderr, never into the protocol
    from .. import extract  # noqa: F401 (lxml loaded before the first document; pypdf with the first PDF)

    if memory_mb > 0:
        limit = memory_mb * 1024 * 1024
        with contextlib.suppress(ValueError, OSError):  # a lower hard limit already set stays
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    logging.disable(logging.CRITICAL)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 2)
    os.dup2(devnull, 1)
    _write_frame(outbox, ("ready", os.getpid()))
    while (frame := _read_frame(inbox)) is not None:
        answer = _answer(marshal.loads(frame))
        _write_frame(outbox, answer)
        if answer[0] == "error" and answer[2]:
            return  # retired (the parent kills it too)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
