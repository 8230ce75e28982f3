"""ASGI entry point (``uvicorn sheetkeeper.asgi:application``)."""

import os
import sys

import django
from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIHandler
from django.http import HttpRequest, HttpResponseBase

SWITCH_INTERVAL_S = 0.001
"""How long a thread of a server process may hold the interpreter while another waits for
it (Python's default is 0.005 s). Each request runs in a thread of its own beside the event
loop serving the open streams; a request coming back from each of its dozen database round
trips waits for the interpreter, up to the whole interval when another thread is busy.
At 200 live tables on 2 CPUs, 1 ms against 5 ms, three pairs run back to back: p95 274, 337
and 425 ms against 476, 529 and 692, a roll POST's time in its statements p95 54-66 ms
against 83-102, its CPU the same (docs/performance.md, issue 18's fourth round)."""


class OneHopASGIHandler(ASGIHandler):
    """Django's ASGI handler, with the middleware chain built synchronously and run, view
    included, as one call in the request's thread: one hop from the event loop to the
    thread and back per request.

    Django's own handler builds the chain for the event loop (``is_async=True``). With the
    project's middleware, which are all synchronous or both, that chain went into the
    request's thread at its top, back out to the event loop at the innermost middleware
    that can run there (django-axes'), and into the thread again for every ``process_view``
    (CSRF's, the archive's) and for the view: five round trips between the busy event loop
    and the thread for a sync view, each waiting for the other's turn at the interpreter
    (docs/performance.md, issue 18's fifth round). The async view (the event stream,
    campaigns.live) is run on the event loop from the chain (``async_to_sync``, as Django
    does under WSGI), and its streamed answer is sent by the event loop as before.
    """

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
