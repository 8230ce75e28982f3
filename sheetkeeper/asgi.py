"""ASGI entry point (``uvicorn sheetkeeper.asgi:application``)."""

import os
import sys
import tempfile
from collections.abc import Awaitable, Callable, Mapping
from typing import IO, Any

import django
from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler
from django.http import HttpRequest, HttpResponseBase

Receive = Callable[[], Awaitable[Mapping[str, Any]]]
Send = Callable[[Mapping[str, Any]], Awaitable[None]]

SWITCH_INTERVAL_S = 0.001
"""How long a thread of a server process may hold the interpreter while another waits for
it, in seconds (Python's default is 0.005). Each request runs in a thread of its own beside
the event loop serving the open streams; a request coming back from each of its database
round trips waits for the interpreter, up to the whole interval when another thread is busy
(docs/decisions.md, "The GM's dashboard and the live table"; the measurements in
docs/performance.md, "Fourth round: where a request waits, and a shorter switch
interval")."""


class BodyTooLarge(Exception):
    """A request body longer than ``settings.REQUEST_BODY_MAX_BYTES``, as read."""


TOO_LARGE_PAGE = (
    "<!doctype html><html lang=\"en\"><meta charset=\"utf-8\"><title>Too large</title>"
    "<h1>That is more than this server takes</h1><p>A request may carry at most {mib} MiB "
    "(an export file is at most 10 MB). Nothing was saved; go back and choose a smaller "
    "file.</p></html>")


def declared_length(scope: dict[str, Any]) -> int | None:
    """The request's ``Content-Length`` in bytes, or None when it has none (a chunked body)
    or one that is not a whole number (Django then answers as it does for any bad request)."""
    for name, value in scope.get("headers", ()):
        if name.lower() == b"content-length":
            return int(value) if value.strip().isdigit() else None
    return None


async def refuse_too_large(send: Send) -> None:
    """Answer 413 Content Too Large, closing the connection: the body was not read (or not
    all of it), so the connection cannot carry another request."""
    mib = settings.REQUEST_BODY_MAX_BYTES // (1024 * 1024)
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"text/html; charset=utf-8"),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": TOO_LARGE_PAGE.format(mib=mib).encode()})


class OneHopASGIHandler(ASGIHandler):
    """Django's ASGI handler, with the middleware chain built synchronously and run, view
    included, as one call in the request's thread: one hop from the event loop to the
    thread and back per request.

    Django's own handler builds the chain for the event loop (``is_async=True``). With the
    project's middleware, which are all synchronous or both, that chain goes into the
    request's thread at its top, back out to the event loop at the innermost middleware
    that can run there (django-axes'), and into the thread again for every ``process_view``
    (CSRF's, the archive's) and for the view, each crossing waiting for the busy event loop
    (docs/decisions.md, "The GM's dashboard and the live table"). The async view (the event
    stream, campaigns.live) is run on the event loop from the chain (``async_to_sync``, as
    Django does under WSGI), and its streamed answer is sent by the event loop.
    """

    async def handle(self, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        """Django's handling, with a cap on the body: one whose declared length is over
        ``settings.REQUEST_BODY_MAX_BYTES`` is refused with 413 before a byte of it is read;
        one without a length (chunked) as soon as what has come passes the cap. Under nginx
        its ``client_max_body_size`` refuses first (docs/deploy.md); under uvicorn alone
        this is the only cap, as Django reads the whole body before any view can look."""
        length = declared_length(scope) if scope["type"] == "http" else None
        if length is not None and length > settings.REQUEST_BODY_MAX_BYTES:
            await refuse_too_large(send)
            return
        try:
            await super().handle(scope, receive, send)
        except BodyTooLarge:
            await refuse_too_large(send)

    async def read_body(self, receive: Receive) -> IO[bytes]:
        """Django's reading of the body into a file that moves to disk past
        ``FILE_UPLOAD_MAX_MEMORY_SIZE``, counted: once more than
        ``settings.REQUEST_BODY_MAX_BYTES`` bytes have come, the file is closed (and gone)
        and :class:`BodyTooLarge` raised. Raises RequestAborted when the client goes."""
        # Handed to the request, which closes it: no context manager here.
        body = tempfile.SpooledTemporaryFile(  # noqa: SIM115
            max_size=settings.FILE_UPLOAD_MAX_MEMORY_SIZE,
            mode="w+b")
        read = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                body.close()
                raise RequestAborted()
            chunk = message.get("body", b"")
            read += len(chunk)
            if read > settings.REQUEST_BODY_MAX_BYTES:
                body.close()
                raise BodyTooLarge(read)
            body.write(chunk)
            if not message.get("more_body", False):
                break
        body.seek(0)
        return body

    def load_middleware(self, is_async: bool = False) -> None:
        """The chain as WSGI builds it, whatever ``is_async`` Django asks for."""
        super().load_middleware(is_async=False)

    async def get_response_async(self, request: HttpRequest) -> HttpResponseBase:
        """The synchronous ``get_response`` (URL conf, chain, error logging) in the
        request's own thread (``thread_sensitive``: the request's ``ThreadSensitiveContext``,
        where its database connection lives)."""
        return await sync_to_async(self.get_response, thread_sensitive=True)(request)


sys.setswitchinterval(SWITCH_INTERVAL_S)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sheetkeeper.settings")
django.setup(set_prefix=False)
application = OneHopASGIHandler()
