"""An nginx of the run's own in front of several uvicorn instances, as several hosts are run
behind one proxy (docs/deploy.md, "Several hosts"): a round-robin upstream, the event streams
unbuffered with long read timeouts as deploy/nginx.conf proxies them, and each answer saying
which instance served it (``X-Upstream``). Its configuration, logs and pid file live in a
temporary directory (``nginx -c <file> -p <dir>``); the system's nginx is never touched.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

import httpx

from benchmarks.serving import Server, ServingError, free_port

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
UPSTREAM_HEADER = "X-Upstream"
"""The answer header naming the instance (``127.0.0.1:<port>``) that served it."""

CONFIG = """# written by benchmarks/nginx.py for one run
{user}worker_processes 1;
pid {root}/nginx.pid;
daemon off;
events {{ worker_connections 8192; }}
http {{
    access_log off;
    client_body_temp_path {root}/body;
    proxy_temp_path {root}/proxy;
    fastcgi_temp_path {root}/fastcgi;
    uwsgi_temp_path {root}/uwsgi;
    scgi_temp_path {root}/scgi;
    upstream sheetkeeper {{
{servers}
        keepalive 16;
    }}
    server {{
        listen 127.0.0.1:{port};
        add_header {header} $upstream_addr always;
        # Both locations inherit these (neither sets a proxy_set_header of its own).
        proxy_http_version 1.1;
        proxy_set_header Connection "";
        proxy_set_header Host $host;
        proxy_set_header X-Forwarded-For $remote_addr;
        proxy_set_header X-Forwarded-Proto $scheme;
        location / {{
            proxy_pass http://sheetkeeper;
        }}
        # The event streams, as deploy/nginx.conf proxies them: unbuffered, long-lived.
        location ~ ^/campaigns/\\d+/events/$ {{
            proxy_pass http://sheetkeeper;
            proxy_buffering off;
            proxy_read_timeout 1h;
        }}
    }}
}}
"""


class Proxy:
    """nginx on 127.0.0.1:``port`` in front of ``servers``; :meth:`stop` ends it."""

    def __init__(self, servers: list[Server], root: Path) -> None:
        """Write the configuration into ``root`` (created) and start nginx; wait until it
        answers ``GET /login/`` through an instance. Raises ServingError when it does not
        start or answer within 15 s."""
        if not Path(NGINX).exists():
            raise ServingError("nginx is not installed (apt-get install nginx)")
        root.mkdir(parents=True, exist_ok=True)
        self.port, self.root = free_port(), root
        # As root, nginx's workers would run as nobody, who cannot read a private directory.
        user = "user root;\n" if os.geteuid() == 0 else ""
        (root / "nginx.conf").write_text(CONFIG.format(
            user=user, root=root, port=self.port, header=UPSTREAM_HEADER,
            servers="\n".join(f"        server 127.0.0.1:{s.port};" for s in servers)))
        self.process = subprocess.Popen(
            [NGINX, "-p", str(root), "-c", str(root / "nginx.conf"), "-e",
             str(root / "error.log")], stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
            start_new_session=True)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise ServingError(f"nginx exited ({self.process.returncode}):\n{self.log()}")
            try:
                if httpx.get(f"{self.url}/login/", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        self.stop()
        raise ServingError(f"nginx on port {self.port} did not answer:\n{self.log()}")

    @property
    def url(self) -> str:
        """``http://127.0.0.1:<port>``."""
        return f"http://127.0.0.1:{self.port}"

    def log(self) -> str:
        """nginx's error log so far."""
        path = self.root / "error.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def stop(self) -> None:
        """Stop nginx (SIGTERM: a fast shutdown), killing it after 10 s."""
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
