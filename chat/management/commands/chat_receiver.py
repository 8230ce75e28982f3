"""``manage.py chat_receiver [--port 8787] [--fail N]``: a chat channel on this machine, for
trying the group's chat without Discord or Slack (docs/history.md, "The group's chat")."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from django.core.management.base import BaseCommand, CommandParser


def _lines(body: dict[str, Any]) -> list[str]:
    """A post's words as a channel shows them: Discord's embeds or Slack's text."""
    if "embeds" in body:
        return [line for embed in body["embeds"] for line in (
            embed.get("title", ""), embed.get("description", ""), embed.get("url", ""))
            if line]
    return [str(body.get("text", ""))]


class Command(BaseCommand):
    """Serve ``http://127.0.0.1:PORT/``, answer every POST 204 (the first ``--fail`` ones
    500, to watch the retries) and print what it was sent, until Ctrl-C or ``--count``
    posts. Point a campaign's chat at
    ``http://127.0.0.1:PORT/hook`` with ``CHAT_WEBHOOKS_ALLOW_LOCAL=on make run``."""

    help = ("A local chat channel: prints each post the group's chat sends it. Run the site "
            "with CHAT_WEBHOOKS_ALLOW_LOCAL=on and connect http://127.0.0.1:PORT/hook.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--port", type=int, default=8787, help="Its port (8787).")
        parser.add_argument("--fail", type=int, default=0,
                            help="Answer the first N posts 500, as a channel that is down.")
        parser.add_argument("--json", action="store_true", help="Print each body whole.")
        parser.add_argument("--count", type=int, default=0,
                            help="Stop after N posts (0, the default: run until Ctrl-C).")

    def handle(self, *args: Any, **options: Any) -> None:
        out = self.stdout
        failures = [options["fail"]]
        whole = options["json"]
        received = [0]

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                raw = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                try:
                    body = json.loads(raw)
                except ValueError:
                    body = {"text": raw.decode(errors="replace")}
                status = 500 if failures[0] > 0 else 204
                failures[0] -= 1
                out.write(f"POST {self.path} -> {status}")
                for line in ([json.dumps(body, indent=2)] if whole else _lines(body)):
                    out.write(f"    {line}")
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()
                received[0] += 1
                if received[0] == options["count"]:
                    threading.Thread(target=server.shutdown).start()

            def log_message(self, format: str, *args: Any) -> None:
                pass

        # Loopback only: nothing off this machine can post to it.
        server = ThreadingHTTPServer(("127.0.0.1", options["port"]), Handler)
        out.write(f"Listening on http://127.0.0.1:{options['port']}/hook (Ctrl-C stops).")
        try:
            server.serve_forever(poll_interval=0.05)
        except KeyboardInterrupt:
            pass
        finally:
            server.server_close()
