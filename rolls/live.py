"""What the live lines of the rolls' regions share (table.live, characters.live): which
announcement is a new top-level roll, the one change that adds an item to a list of rolls."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from django.apps import apps

if TYPE_CHECKING:
    from rolls.models import Roll


def new_roll(event: str, subject: object) -> Roll | None:
    """The Roll an announcement (``core.live.drawing``'s ``event`` and ``subject``) has just
    stored, when it is a top-level roll (``rollMade``, no parent); None for anything else: a
    follow-up changes a line already shown, and an announcement that names no roll (an
    import) leaves the pages to ask."""
    # The model from the registry: the modules that call this are imported by their apps'
    # AppConfig, before models are.
    roll_model = apps.get_model("rolls", "Roll")
    if event != "rollMade" or not isinstance(subject, roll_model) or subject.parent_id is not None:
        return None
    return cast("Roll", subject)
