"""When the database cannot be reached, say so: 503 with ``Retry-After``, never a 500.

The pool of PostgreSQL connections of a server process can run dry (every connection lent
out for longer than the pool's timeout: ``psycopg_pool.PoolTimeout``), and PostgreSQL itself
can refuse connections (restarting, ``too_many_connections``). Nothing is wrong with the
request then, only with the moment: :class:`DatabaseUnavailableMiddleware` answers such a
view's error with a short page and ``Retry-After``, and :func:`server_error` (the project's
``handler500``) does the same for an error raised outside a view (the session saved after
it). Nothing is kept between requests, so the next request simply asks the pool again: the
server recovers by itself as soon as connections are free.
"""

from __future__ import annotations

import logging
import sys
from typing import TYPE_CHECKING

import psycopg
from django.http import HttpResponse, HttpResponseServerError
from django.template import loader
from django.utils.deprecation import MiddlewareMixin
from psycopg_pool import PoolTimeout, TooManyRequests

if TYPE_CHECKING:
    from django.http import HttpRequest

logger = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 5
"""What ``Retry-After`` asks for: a pool waits 10 s for a free connection before giving up,
so by then one has usually come back."""

# PostgreSQL's SQLSTATEs for "cannot connect now": class 08 (connection exception),
# 53300 too_many_connections, 57P01-57P03 (the server is shutting down or starting up).
_UNAVAILABLE_STATES = ("08", "53300", "57P01", "57P02", "57P03")


def database_unavailable(exc: BaseException | None) -> bool:
    """Whether ``exc`` (or what caused it) says the database is out of reach for now: a
    pool with no free connection, or a connection refused or lost. A failed query on a
    working connection (a constraint, a deadlock, bad SQL) is not."""
    seen = 0
    while exc is not None and seen < 10:
        if isinstance(exc, (PoolTimeout, TooManyRequests)):
            return True
        if isinstance(exc, psycopg.OperationalError):
            # No SQLSTATE at all: the connection itself failed (refused, reset, timed out).
            state = exc.sqlstate
            if state is None or state.startswith(_UNAVAILABLE_STATES):
                return True
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return False


def unavailable_response() -> HttpResponse:
    """The 503 page, rendered without the request: it must not touch the database (no user,
    no session, no messages) to say that the database is away."""
    body = loader.render_to_string("503.html", {"retry_after": RETRY_AFTER_SECONDS})
    response = HttpResponse(body, status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


class DatabaseUnavailableMiddleware(MiddlewareMixin):
    """Answer 503 + ``Retry-After`` when a view fails because the database is out of reach
    (see the module docstring); any other error goes on to Django's handling. Sync and async
    alike (MiddlewareMixin), so the live streams stay async."""

    def process_exception(self, request: HttpRequest, exception: Exception
                          ) -> HttpResponse | None:
        """The 503 page for an exception that means the database is out of reach; None (let
        Django handle it) for any other."""
        if not database_unavailable(exception):
            return None
        logger.warning("503 for %s %s: the database is out of reach (%s)",
                       request.method, request.path, exception)
        return unavailable_response()


def server_error(request: HttpRequest) -> HttpResponse:
    """The project's ``handler500``: 503 for a database out of reach when the error happened
    outside a view, else the usual 500 page."""
    if database_unavailable(sys.exc_info()[1]):
        return unavailable_response()
    return HttpResponseServerError(loader.render_to_string("500.html"))
