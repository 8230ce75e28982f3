"""A logout ends the person's open streams (docs/security.md, "Regions down the stream").

A live page's stream reads its viewer once, when it opens, and draws the page's regions for
them (core.regions.draw_heard): after a logout, nothing more may be drawn for a page left
open in any browser.
"""

from __future__ import annotations

from typing import Any

from django.apps import apps
from django.contrib.auth.signals import user_logged_out

from core.live import announce_seat_closed


def close_streams_at_logout(sender: object, request: object, user: Any, **kwargs: object) -> None:
    """A receiver of Django's ``user_logged_out``: end every open stream of the person who
    logged out, in every campaign they sit at (:func:`core.live.announce_seat_closed`: each
    sends ``liveClosed`` and the page stops reconnecting). ``user`` is None when the session
    had none."""
    if user is None:
        return
    seats = apps.get_model("campaigns", "Membership").objects.filter(user=user)
    for campaign_id in seats.values_list("campaign_id", flat=True):
        announce_seat_closed(campaign_id, user.pk)


def connect() -> None:
    """Listen to ``user_logged_out`` (campaigns.apps)."""
    user_logged_out.connect(close_streams_at_logout,
                            dispatch_uid="campaigns.logout.close_streams_at_logout")
