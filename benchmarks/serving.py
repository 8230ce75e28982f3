"""A real server to talk to: ``manage.py`` in a subprocess, ``daphne`` (or ``uvicorn`` with
several workers, as docs/deploy.md runs it) serving the ASGI app, and HTTP/1.1 by hand over
asyncio streams (standard library only).

Shared by the live-table benchmark (``benchmarks/live.py``), the load benchmark
(``benchmarks/http.py``) and the cross-process test
(``tests/campaigns/test_live_processes.py``). Anything that goes wrong raises
:class:`ServingError` with the server's own words; the benchmark exits with it, the test
fails with it.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent

SESSION_SETUP = """
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore

def session_for(user):
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return session.session_key
"""
"""The start of a ``manage.py shell -c`` script: ``session_for(user)`` logs a user in and
returns the session key a client sends as its ``sessionid`` cookie."""


class ServingError(RuntimeError):
    """``manage.py`` failed, or the server exited or never answered; the message carries
    their output."""


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def manage(env: dict[str, str], *args: str, timeout: float = 120) -> str:
    """Run ``manage.py *args`` with ``env``; its stdout. Raises ServingError if it fails."""
    done = subprocess.run([sys.executable, "manage.py", *args], cwd=BASE_DIR, env=env,
                          capture_output=True, text=True, timeout=timeout, check=False)
    if done.returncode:
        raise ServingError(f"manage.py {args[0]} failed ({done.returncode}):\n{done.stdout}\n"
                           f"{done.stderr}")
    return done.stdout


def start_daphne(port: int, env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    """Start ``daphne`` serving ``sheetkeeper.asgi`` on 127.0.0.1:``port``, its output in
    ``log``; wait for it with :func:`wait_until_serving`, end it with :func:`stop`."""
    with log.open("wb") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
             "sheetkeeper.asgi:application"],
            cwd=BASE_DIR, env=env, stdout=out, stderr=subprocess.STDOUT,
        )


def start_uvicorn(port: int, env: dict[str, str], log: Path, workers: int = 2
                  ) -> subprocess.Popen[bytes]:
    """Start ``uvicorn sheetkeeper.asgi:application --workers N`` on 127.0.0.1:``port`` (the
    production command of docs/deploy.md), its output in ``log``; wait for it with
    :func:`wait_until_serving` (``name="uvicorn"``), end it with :func:`stop` (SIGTERM to the
    supervisor, which stops its workers)."""
    with log.open("wb") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "sheetkeeper.asgi:application",
             "--workers", str(workers), "--host", "127.0.0.1", "--port", str(port)],
            cwd=BASE_DIR, env=env, stdout=out, stderr=subprocess.STDOUT,
        )


def wait_until_serving(port: int, process: subprocess.Popen[bytes], log: Path,
                       within: float = 15, name: str = "daphne") -> None:
    """Wait until the server answers ``GET /login/`` with 200 (``within`` seconds at most).
    Raises ServingError, with the server's log (``name`` says which server), if it exits or
    stays silent."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise ServingError(f"{name} on port {port} exited ({process.returncode}):\n"
                               f"{log.read_text()}")
        with contextlib.suppress(OSError), socket.create_connection(
            ("127.0.0.1", port), timeout=1
        ) as conn:
            conn.sendall(b"GET /login/ HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
            if conn.recv(16).split(b" ")[1:2] == [b"200"]:
                return
        time.sleep(0.1)
    raise ServingError(f"{name} on port {port} did not answer within {within:g} s:\n"
                       f"{log.read_text()}")


def stop(process: subprocess.Popen[bytes]) -> None:
    """Terminate a server, killing it if it has not exited after 10 s."""
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


async def http_request(
    port: int, method: str, path: str, headers: dict[str, str], body: bytes = b""
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter, int, dict[str, str]]:
    """Send one HTTP/1.1 request on a new connection to 127.0.0.1:``port``; the open
    connection, the status and the headers (names lower-cased). Read the body with
    :func:`body_chunks`."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{port}",
             *(f"{name}: {value}" for name, value in headers.items())]
    if method == "POST":
        lines.append(f"Content-Length: {len(body)}")
    writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body)
    await writer.drain()
    status = int((await reader.readline()).split()[1])
    head: dict[str, str] = {}
    while (line := await reader.readline()) not in (b"\r\n", b""):
        name, _, value = line.decode("latin-1").partition(":")
        head[name.strip().lower()] = value.strip()
    return reader, writer, status, head


async def body_chunks(reader: asyncio.StreamReader, head: dict[str, str]) -> AsyncIterator[bytes]:
    """The response body as it arrives: chunked, Content-Length, or until the close."""
    if head.get("transfer-encoding", "").lower() == "chunked":
        while size := int((await reader.readline()).split(b";")[0], 16):
            yield await reader.readexactly(size)
            await reader.readexactly(2)  # the CRLF after each chunk
        while await reader.readline() not in (b"\r\n", b""):  # trailers
            pass
    elif "content-length" in head:
        yield await reader.readexactly(int(head["content-length"]))
    else:
        while chunk := await reader.read(65536):
            yield chunk
