"""The one server starter of the benchmarks: the environment, the database, ``manage.py``,
uvicorn started as production runs it (one instance or several, on ports of their own), and
the CPU its processes and PostgreSQL's and Redis's use (psutil).

Every benchmark starts its servers here; anything that goes wrong raises
:class:`ServingError` with the server's own words. The cross-process tests
(``tests/campaigns/test_live_processes.py``, ``test_live_shutdown.py``) use it too.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass
from pathlib import Path

import dj_database_url
import httpx
import psutil

BASE_DIR = Path(__file__).resolve().parent.parent

WORKERS = int(os.environ.get("WEB_CONCURRENCY") or 4)
"""uvicorn's ``--workers`` as production runs it: ``WEB_CONCURRENCY``, 4 by default, as the
systemd unit and the Procfile (tests/test_deploy_files.py keeps them in step)."""
UVICORN_FLAGS = ("--lifespan", "off", "--timeout-graceful-shutdown", "20")
"""How production runs uvicorn besides its address and workers (deploy/sheetkeeper.service,
the Procfile: tests/test_deploy_files.py checks both carry them)."""
GRACEFUL_SECONDS = float(UVICORN_FLAGS[UVICORN_FLAGS.index("--timeout-graceful-shutdown") + 1])
STOP_MARGIN = 10.0
"""Seconds a stopping server gets beyond its graceful shutdown before it is killed."""
PROXY_FLAGS = ("--proxy-headers", "--forwarded-allow-ips", "127.0.0.1")
"""Added behind a proxy on this machine (nginx), as the production unit has them."""

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


def run(command: list[str], *, timeout: float = 120, **kwargs: object) -> str:
    """Run ``command``; its stdout. Raises ServingError with its output when it fails."""
    done = subprocess.run(command, capture_output=True, text=True, timeout=timeout,
                          check=False, **kwargs)  # type: ignore[call-overload]
    if done.returncode:
        raise ServingError(f"{' '.join(command[:4])} ... failed ({done.returncode}):\n"
                           f"{done.stdout}\n{done.stderr}")
    return str(done.stdout)


def manage(env: dict[str, str], *args: str, timeout: float = 120,
           app_dir: Path = BASE_DIR) -> str:
    """Run ``manage.py *args`` of ``app_dir`` with ``env``; its stdout. Raises ServingError."""
    return run([sys.executable, "manage.py", *args], cwd=app_dir, env=env, timeout=timeout)


def fresh_database(url: str) -> None:
    """Drop and create the PostgreSQL database ``url`` names (**whatever it held is lost**).
    Raises ServingError for another engine or when it cannot."""
    import psycopg  # the product's PostgreSQL driver; only the scripts that need it load it
    from psycopg import sql

    config = dj_database_url.parse(url)
    if config["ENGINE"] != "django.db.backends.postgresql":
        raise ServingError(f"the database must be PostgreSQL (production); got {url!r}")
    try:
        with psycopg.connect(dbname="postgres", user=config["USER"] or None,
                             password=config["PASSWORD"] or None, host=config["HOST"] or None,
                             port=config["PORT"] or None, autocommit=True) as conn:
            name = sql.Identifier(config["NAME"])
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(name))
            conn.execute(sql.SQL("CREATE DATABASE {}").format(name))
    except psycopg.Error as exc:
        raise ServingError(f"could not create the database at {url}: {exc}") from exc


def server_env(database_url: str, redis_url: str | None, tmp: Path, *,
               settings: str = "sheetkeeper.settings", app_dir: Path = BASE_DIR,
               extra: dict[str, str] | None = None) -> dict[str, str]:
    """The production settings on loopback over plain http: DEBUG off, a random SECRET_KEY,
    ALLOWED_HOSTS=127.0.0.1, the HTTPS-only switches off, static files collected into
    ``tmp``; the Redis channel layer and cache at ``redis_url`` (None: in memory). This
    process's DJANGO_*, DATABASE_* and REDIS_* variables are not passed on; ``extra`` is."""
    kept = {key: value for key, value in os.environ.items()
            if not key.startswith(("DJANGO_", "DATABASE_", "REDIS_"))}
    return {
        **kept, "DJANGO_SETTINGS_MODULE": settings, "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(50), "ALLOWED_HOSTS": "127.0.0.1",
        "DATABASE_URL": database_url, **({"REDIS_URL": redis_url} if redis_url else {}),
        "SECURE_SSL_REDIRECT": "0", "SESSION_COOKIE_SECURE": "0", "CSRF_COOKIE_SECURE": "0",
        "STATIC_ROOT": str(tmp / "static"), "PYTHONPATH": str(app_dir), **(extra or {}),
    }


def prepare(env: dict[str, str], seed_script: str, *, app_dir: Path = BASE_DIR,
            timeout: float = 3600) -> str:
    """``migrate``, ``collectstatic`` and ``shell -c seed_script``; the script's last line."""
    manage(env, "migrate", "--noinput", "-v", "0", timeout=600, app_dir=app_dir)
    manage(env, "collectstatic", "--noinput", "-v", "0", timeout=600, app_dir=app_dir)
    return manage(env, "shell", "-v", "0", "-c", seed_script, timeout=timeout,
                  app_dir=app_dir).splitlines()[-1]


# --- uvicorn ---------------------------------------------------------------------------------


@dataclass
class Server:
    """One uvicorn instance (a supervisor and its workers) on 127.0.0.1:``port``."""

    port: int
    process: subprocess.Popen[bytes]
    log: Path
    env: dict[str, str]
    workers: int
    app_dir: Path
    flags: tuple[str, ...]

    @property
    def url(self) -> str:
        """``http://127.0.0.1:<port>``."""
        return f"http://127.0.0.1:{self.port}"

    def wait(self, within: float = 60) -> None:
        """Wait until it answers (:func:`wait_until_serving`); ServingError if it does not."""
        wait_until_serving(self.port, self.process, self.log, within, "uvicorn")

    def stop(self, within: float = GRACEFUL_SECONDS + STOP_MARGIN) -> None:
        """Stop it as systemd stops the unit (:func:`stop`)."""
        stop(self.process, within)

    def restart(self) -> None:
        """Start it again on the same port with the same settings (not waiting)."""
        self.process = _popen(self.port, self.env, self.log, self.workers, self.app_dir,
                              self.flags)

    def processes(self) -> list[psutil.Process]:
        """The supervisor and its workers now running."""
        try:
            top = psutil.Process(self.process.pid)
            return [top, *top.children(recursive=True)]
        except psutil.NoSuchProcess:
            return []


def _popen(port: int, env: dict[str, str], log: Path, workers: int, app_dir: Path,
           flags: tuple[str, ...]) -> subprocess.Popen[bytes]:
    with log.open("ab") as out:  # appended: a restart keeps the first server's lines
        return subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "sheetkeeper.asgi:application", "--host",
             "127.0.0.1", "--port", str(port), "--workers", str(workers), *flags],
            cwd=app_dir, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)


def start(env: dict[str, str], tmp: Path, *, instances: int = 1, workers: int = WORKERS,
          app_dir: Path = BASE_DIR, proxied: bool = False, within: float = 60) -> list[Server]:
    """Start ``instances`` uvicorn servers of ``app_dir`` (each on a free port, its log
    ``tmp/uvicorn-<n>.log``), as production runs it (:data:`UVICORN_FLAGS`, and
    :data:`PROXY_FLAGS` when ``proxied``), and wait until each answers. Raises ServingError
    (after stopping those started) when one does not."""
    flags = (*UVICORN_FLAGS, *(PROXY_FLAGS if proxied else ()))
    servers: list[Server] = []
    try:
        for number in range(instances):
            port, log = free_port(), tmp / f"uvicorn-{number + 1}.log"
            servers.append(Server(port, _popen(port, env, log, workers, app_dir, flags), log,
                                  env, workers, app_dir, flags))
        for server in servers:
            server.wait(within)
    except BaseException:
        for server in servers:
            server.stop(5)
        raise
    return servers


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
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"http://127.0.0.1:{port}/login/", timeout=1).status_code == 200:
                return
        time.sleep(0.1)
    raise ServingError(f"{name} on port {port} did not answer within {within:g} s:\n"
                       f"{log.read_text()}")


def stop(process: subprocess.Popen[bytes], within: float = 10) -> None:
    """SIGTERM to the server (uvicorn's supervisor stops its workers), as systemd stops the
    unit; after ``within`` seconds, SIGKILL to it and every process below it still there
    (systemd kills the unit's whole control group: killing only the supervisor would leave a
    worker that holds an event stream running, orphaned)."""
    try:
        below = psutil.Process(process.pid).children(recursive=True)
    except psutil.NoSuchProcess:
        below = []
    process.terminate()
    try:
        process.wait(timeout=within)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    for child in below:
        with contextlib.suppress(psutil.NoSuchProcess):
            child.kill()


# --- CPU seconds (psutil) ------------------------------------------------------------------


def cpu_seconds(processes: Iterable[psutil.Process]) -> float:
    """User and system CPU seconds so far of ``processes`` (those gone count 0)."""
    total = 0.0
    for process in processes:
        try:
            times = process.cpu_times()
        except psutil.Error:
            continue
        total += times.user + times.system
    return total


def postgres_processes(database: str, *, backends_only: bool = False) -> list[psutil.Process]:
    """PostgreSQL's background processes (unless ``backends_only``: they serve every database
    of the cluster) and the backends of ``database`` (a backend's title names its database:
    ``postgres: user db 127.0.0.1(port) idle``)."""
    found = []
    for process in psutil.process_iter(["name", "cmdline"]):
        name, line = process.info["name"] or "", " ".join(process.info["cmdline"] or [])
        if name == "postgres" or name.startswith("postgres:"):
            backend = "(" in line or "[local]" in line
            if (not backend and not backends_only) or (backend and f" {database} " in line):
                found.append(process)
    return found


def redis_processes() -> list[psutil.Process]:
    """Every redis-server process."""
    return [process for process in psutil.process_iter(["name"])
            if process.info["name"] == "redis-server"]


def cpu_snapshot(servers: list[Server], database: str, redis_pid: int | None = None
                 ) -> dict[str, float]:
    """CPU seconds so far: the uvicorn servers (supervisors and workers), PostgreSQL (its
    background processes and ``database``'s backends), redis-server (the one ``redis_pid``
    names, else every one), this process (``generator``), and the machine's busy total
    (``machine``: all but idle and iowait)."""
    machine = psutil.cpu_times()
    return {
        "server": cpu_seconds(p for server in servers for p in server.processes()),
        "postgres": cpu_seconds(postgres_processes(database)),
        "redis": cpu_seconds([psutil.Process(redis_pid)] if redis_pid else redis_processes()),
        "generator": cpu_seconds([psutil.Process()]),
        "machine": sum(machine) - machine.idle - getattr(machine, "iowait", 0.0),
    }


def cpu_delta(before: dict[str, float], after: dict[str, float]) -> dict[str, float]:
    """CPU seconds between two snapshots; ``other`` is the machine's rest."""
    delta = {key: after[key] - before[key] for key in before}
    delta["other"] = max(0.0, delta.pop("machine") - sum(delta.values()))
    return delta


def machine() -> str:
    """One line: CPUs, their model, the load average, Python."""
    model = ""
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        model = next((line.split(":", 1)[1].strip() for line in cpuinfo.read_text()
                      .splitlines() if line.startswith("model name")), "")
    load = " / ".join(f"{value:.2f}" for value in os.getloadavg())
    return (f"{os.cpu_count()} CPUs ({model or sys.platform}), load average {load}; "
            f"Python {sys.version.split()[0]}, httpx {httpx.__version__}")


# --- a Redis of the run's own -------------------------------------------------------------


class RedisServer:
    """A redis-server of the run's own on a free port, its dump and log in ``root``
    (``benchmarks.faults`` stops it; ``benchmarks.tables --instances`` counts only its
    own work in it)."""

    def __init__(self, root: Path) -> None:
        if shutil.which("redis-server") is None:
            raise ServingError("redis-server is not installed (apt-get install redis-server)")
        self.root = root
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """The server's database 0: ``redis://127.0.0.1:<port>/0``."""
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        """Start it (loading the dump a stop saved, as a packaged Redis does) and wait for
        PING. Raises ServingError when it does not answer within 15 s."""
        import redis

        self.root.mkdir(exist_ok=True)
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1",
             "--dir", str(self.root), "--logfile", str(self.root / "redis.log"),
             "--daemonize", "no"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            with contextlib.suppress(redis.RedisError):
                if redis.Redis(port=self.port, socket_timeout=1).ping():
                    return
            time.sleep(0.1)
        raise ServingError(f"redis-server on port {self.port} did not answer")

    def stop(self) -> None:
        """SIGTERM (it saves its dump first), as ``systemctl stop`` does."""
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            self.process = None

    def group_entries(self) -> int:
        """Members of every channel-layer group set (channels_redis: ``<prefix>:group:<name>``
        sorted sets)."""
        import redis

        client = redis.Redis(port=self.port, socket_timeout=5)
        return sum(int(client.zcard(key)) for key in client.scan_iter(match="*:group:*")
                   if client.type(key) == b"zset")

    @staticmethod
    def version() -> str:
        """What ``redis-server --version`` says, before its build details."""
        return run(["redis-server", "--version"]).split(" sha=")[0].strip()


# --- for the cross-process tests only ----------------------------------------------------------
# tests/campaigns/test_live_processes.py still speaks HTTP/1.1 by hand to daphne; no benchmark
# does. These go once that test uses httpx and start().


def start_daphne(port: int, env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    """Start ``daphne`` serving ``sheetkeeper.asgi`` on 127.0.0.1:``port``, its output in
    ``log``; wait for it with :func:`wait_until_serving`, end it with :func:`stop`."""
    with log.open("wb") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
             "sheetkeeper.asgi:application"],
            cwd=BASE_DIR, env=env, stdout=out, stderr=subprocess.STDOUT)


async def http_request(port: int, method: str, path: str, headers: dict[str, str],
                       body: bytes = b""
                       ) -> tuple[asyncio.StreamReader, asyncio.StreamWriter, int, dict[str, str]]:
    """Send one HTTP/1.1 request on a new connection to 127.0.0.1:``port``; the open
    connection, the status and the headers (names lower-cased)."""
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
