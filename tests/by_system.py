"""Which URLs can answer differently by rule system, and which system asks each of the rest.

A test that crosses every URL with every registered system (the authorization matrix in
tests/security, the fuzz in tests/fuzz) pays for each crossing. A URL whose view hands the
request to the campaign's system (its creation form, sheet, pool form, odds, result or roll
template, follow-ups, actions, XP prices and awards, dashboard panel, export schema) can
answer differently by system: a privacy slip or a crash in one system's code shows only in
that system's campaign, so it is asked in every one. That is every URL but those
:data:`SHARED` names: a shared URL runs the same code whatever the system, so it is asked in
one system's campaign, the systems taken in turn over the shared URLs
(:func:`system_in_turn`), so each system's data goes through some shared view. A new URL is
asked in every system's campaign until someone reads its view and lists it here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

SHARED: frozenset[str] = frozenset({
    # The live stream: the matrix reads its status and headers, never its hour-long body;
    # the fuzz leaves it out (tests/fuzz/plan.py's EXCLUDED).
    "campaigns:campaign-events",
    # Seats and the invite link: memberships and the campaign's token, no system code.
    "campaigns:campaign-invite-renew", "campaigns:campaign-invite-revoke",
    "campaigns:membership-remove", "campaigns:campaign-handover", "campaigns:campaign-leave",
    "campaigns:campaign-join", "campaigns:membership-seat",
    # The campaign's life: its archive date, its deletion after its name is typed.
    "campaigns:campaign-archive", "campaigns:campaign-restore", "campaigns:campaign-delete",
    # The list of sessions and the form for a new one (the session's page draws rolls and
    # the system's awards: not shared).
    "table:session-list",
    # A character's words and life: name, concept, backstory, notes, the GM's notes, its
    # status, owner and deletion (characters.services, which asks no system).
    "characters:character-edit", "characters:character-gm-notes",
    "characters:character-retire", "characters:character-restore",
    "characters:character-delete", "characters:character-move",
    # The GM's NPCs by their seat: copies of a sheet as it stands (its JSON, untouched), what
    # the players see of one, its archive (characters.npcs, which asks no system). Making
    # one (the system's stat block) and the list (its track lines) are not shared.
    "characters:npc-copy", "characters:npc-shown", "characters:npc-archive",
    # Django's password reset link, about an account and no campaign.
    "password_reset_confirm",
    # A roll by its id: the GM is redirected to the roll's page (its code), no system code.
    "rolls:roll-by-number",
    # The group's chat: the campaign's webhook, its switches and status (chat.views; the
    # posts, which read the system's roll header, are sent by the worker, not the page).
    "chat:campaign-chat", "chat:campaign-chat-test", "chat:campaign-chat-delete",
    # The table's and a character's history: the log's rows as stored (their texts and facts
    # were written in the system's words when the change was made), filtered by who may read
    # them; no system code runs (history.log_views). The between-sessions and luck pages ask
    # the system (its facts, its rolls' odds): not shared.
    "history:campaign-history", "history:character-history",
})
"""URL names (``app:name``) whose views run the same code whatever the campaign's system."""


def by_system(name: str) -> bool:
    """Whether the URL named ``name`` (``app:name``) can answer differently by system: any URL
    not in :data:`SHARED` (its view, or one it may become, hands the request to the system)."""
    return name not in SHARED


def system_in_turn(name: str, shared: Iterable[str], systems: Sequence[str]) -> str:
    """The system whose campaign asks the shared URL ``name``: with ``shared`` sorted (every
    shared URL name of the caller's kind, ``name`` among them), the n-th takes the n-th of
    ``systems``, round the list. Raises ValueError when ``name`` is not in ``shared``."""
    return systems[sorted(set(shared)).index(name) % len(systems)]
