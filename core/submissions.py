"""A form sent twice takes effect once (docs/security.md, "Double submits").

Every rendering of a form that must not act twice (the roll dialogs, the session award grid)
carries a fresh random token in a hidden input (``{% submission_token %}``,
core/templatetags/submissions.py). The view passes it to :func:`submit_once` with the change
to make: the first request with that token makes the change and stores the token beside it
in the same transaction; any later request with the same token (a double click, a browser
resending the form) makes nothing and gets the first one's result to show. A form without a
token (an older page, a script) acts every time.

A token is kept for ``core.housekeeping.SUBMISSIONS_KEPT`` (a day), as long as a copy of its
form may come; the worker deletes older ones (``core.housekeeping.prune``, queued from here
at most hourly), so the table holds about a day of guarded submits.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, TypeVar

from django.db import DatabaseError, transaction

from core import housekeeping
from core.models import FormSubmission

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django.http import HttpRequest

FIELD = "submission"
"""The hidden input's name."""

_TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")

T = TypeVar("T")


class BadToken(ValueError):
    """A posted token that no page of ours wrote; the message names the field."""


def new_token() -> str:
    """A fresh token for one rendering of a form: 24 random bytes, URL-safe (32 characters)."""
    return secrets.token_urlsafe(24)


def posted_token(request: HttpRequest) -> str | None:
    """The token the form carried, or None when it carried none.

    Raises BadToken for a value that is not one of ours (wrong length or characters), so a
    tampered form is told so rather than silently acting twice.
    """
    raw = request.POST.get(FIELD)
    if not raw:
        return None
    if not _TOKEN.fullmatch(raw):
        raise BadToken(f"The form's {FIELD!r} token is not one this site wrote; reload the "
                       "page and try again.")
    return raw


@dataclass(frozen=True)
class Submitted(Generic[T]):
    """What :func:`submit_once` did: ``result`` is what ``act`` returned when this request made
    the change, None when an earlier request with the same token had; ``result_id`` is the
    id of the change's result either way (the roll's, the session's)."""

    result: T | None
    result_id: int

    @property
    def replayed(self) -> bool:
        """True when an earlier copy of the form made the change and this one made nothing."""
        return self.result is None


def submit_once(
    *, user: User, form: str, token: str | None, act: Callable[[], T],
    result_id: Callable[[T], int],
) -> Submitted[T]:
    """Run ``act`` once per ``(user, form, token)``.

    Args:
        user: who submits (tokens of different users never meet).
        form: which form ("roll", "session-award"), at most 32 characters.
        token: from :func:`posted_token`; None runs ``act`` unguarded.
        act: the change; it runs inside this function's transaction, so the token is stored
            with it or not at all.
        result_id: the id of what ``act`` returned, as a later request will need it.

    Returns a :class:`Submitted`. Raises whatever ``act`` raises (a RuleError: nothing is
    written), unless a request with the same token committed meanwhile: then the change
    was made once, by that request, and its result is returned instead.
    """
    if token is None:
        result = act()
        return Submitted(result, result_id(result))
    done = _done(user, form, token)
    if done is not None:
        return Submitted(None, done)
    try:
        with transaction.atomic():
            result = act()
            FormSubmission.objects.create(user=user, form=form, token=token,
                                          result_id=result_id(result))
    except (DatabaseError, ValueError):
        # Two copies at once: the other committed first, and this one either failed on the
        # unique token or on the change itself (a request already answered, awards given
        # since the page was opened). Its transaction is rolled back; if the other's token is
        # there, that is the answer. (RuleError is a ValueError.)
        done = _done(user, form, token)
        if done is None:
            raise
        return Submitted(None, done)
    # Where tokens are added, old ones are pruned: queued for the worker, not run here.
    housekeeping.prune_when_due()
    return Submitted(result, result_id(result))


def _done(user: User, form: str, token: str) -> int | None:
    return (FormSubmission.objects.filter(user=user, form=form, token=token)
            .values_list("result_id", flat=True).first())
