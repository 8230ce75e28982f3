"""Rate limits per client address: sign-ups, password-reset requests and joins by invite link
(docs/security.md).

Counts live in Django's cache through django-ratelimit (``get_usage``): Redis when
``REDIS_URL`` is set, so every server process shares them, else the process's own memory
(one process, local use). A refused request is answered 429 with a page that says what was
limited and when to try again, and a ``Retry-After`` header.

Only what goes through counts: a sign-up form with a typo is not a sign-up, so the count is
taken (``spend``) when the form is valid, just before the account is made; a page is only
peeked at (``peek``) so that someone over the limit is told before filling the form in.
When the cache cannot be reached (Redis restarting) the limits let requests through with a
warning in the log: a stopped cache must not stop sign-ups.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import redis.exceptions
from django.conf import settings
from django.shortcuts import render
from django_ratelimit.core import get_usage  # type: ignore[import-untyped]  # django-ratelimit ships no type hints

if TYPE_CHECKING:
    from django.http import HttpRequest, HttpResponse

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Limit:
    """One limit: its cache ``group``, the setting that holds its rate (``"10/h"``), and
    ``what`` it counts, in the words of the 429 page ("sign-ups")."""

    group: str
    setting: str
    what: str

    @property
    def rate(self) -> str:
        """The limit as configured now, e.g. ``"10/h"`` (read from settings each time, so a
        test's override applies)."""
        return str(getattr(settings, self.setting))


SIGNUP = Limit("signup", "SIGNUP_RATE", "sign-ups")
INVITE_JOIN = Limit("invite-join", "INVITE_JOIN_RATE", "joins by invite link")
PASSWORD_RESET = Limit("password-reset", "PASSWORD_RESET_RATE", "password-reset requests")
ADDRESS = Limit("address", "ADDRESS_RATE", "addresses given on the account page")


def _usage(request: HttpRequest, limit: Limit, *, spend: bool) -> dict[str, int] | None:
    try:
        usage: dict[str, int] | None = get_usage(request, group=limit.group, key="ip",
                                                 rate=limit.rate, increment=spend)
        return usage
    except (redis.exceptions.RedisError, OSError) as exc:
        logger.warning("rate limit %s not checked, the cache is unreachable: %s",
                       limit.group, exc)
        return None


def peek(request: HttpRequest, limit: Limit) -> int | None:
    """Whether the next ``limit`` action from this address would be refused, without
    counting anything. Returns the seconds to wait, or None when it may go ahead."""
    usage = _usage(request, limit, spend=False)
    if usage is None or usage["count"] < usage["limit"]:
        return None
    return max(1, usage["time_left"])


def spend(request: HttpRequest, limit: Limit) -> int | None:
    """Count one ``limit`` action from this address (atomically, in the cache). Returns the
    seconds to wait when it goes over the limit (the action must not happen), else None."""
    usage = _usage(request, limit, spend=True)
    if usage is None or not usage["should_limit"]:
        return None
    return max(1, usage["time_left"])


def refused(request: HttpRequest, limit: Limit, wait: int) -> HttpResponse:
    """The 429 page for ``limit``: what was limited, how many are allowed and for how long,
    and when to try again; ``Retry-After`` says the same in seconds."""
    count, _, period = limit.rate.partition("/")
    minutes = math.ceil(wait / 60)
    response = render(request, "core/too_many.html", {
        "what": limit.what, "allowed": count, "period": _period_words(period),
        "minutes": minutes,
    }, status=429)
    response["Retry-After"] = str(wait)
    return response


_UNITS = {"s": "second", "m": "minute", "h": "hour", "d": "day"}


def _period_words(period: str) -> str:
    """``"h"`` -> "hour", ``"10m"`` -> "10 minutes" (the forms settings accepts)."""
    number, unit = period[:-1], _UNITS[period[-1]]
    return f"{number} {unit}s" if number and number != "1" else unit
