"""Which URLs can answer differently by rule system, and which system asks each of the rest.

A test that crosses every URL with every registered system (the authorization matrix in
tests/security, the fuzz in tests/fuzz) pays for each crossing. A URL whose view hands the
request to the campaign's system (its creation form, sheet, pool form, odds, result template,
follow-ups, actions, XP prices, dashboard panel, export schema) can answer differently by
system: a privacy slip or a crash in one system's code shows only in that system's campaign,
so it is asked in every one. A shared URL inside a campaign (a session, a membership, the
campaign's settings, a character's name and notes) runs the same code whatever the system: it
is asked in one system's campaign, the systems taken in turn over the shared URLs
(:func:`system_in_turn`), so each system's data goes through some shared view.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rulesets import registry

BY_SYSTEM: frozenset[str] = frozenset({
    # the system's creation form, sheet, actions and XP page (its prices, its undo checks)
    "characters:character-create", "characters:character-detail",
    "characters:character-action", "characters:character-xp", "characters:character-xp-spend",
    "characters:character-xp-undo",
    # the system's pool form, odds, result template, follow-ups, quick-roll text, request
    "rolls:roll-create", "rolls:roll-odds", "rolls:roll-detail", "rolls:roll-act",
    "rolls:npc-roll-create", "rolls:requested-roll-create",
    # the dashboard's system panel and the system's campaign actions
    "table:campaign-detail", "table:campaign-system-action",
    # the system's part of an export file, an import and the GM's review of one
    "transfer:character-export", "transfer:campaign-export", "transfer:character-import",
    "transfer:import-review",
})
"""URL names (``app:name``) of the shared apps whose views hand the request to the system."""


def by_system(name: str) -> bool:
    """Whether the URL named ``name`` (``app:name``) can answer differently by system: one of
    :data:`BY_SYSTEM`, or one of a system's own pages (its namespace is the system's slug)."""
    return name in BY_SYSTEM or name.partition(":")[0] in registry.RULESETS


def system_in_turn(name: str, shared: Iterable[str], systems: Sequence[str]) -> str:
    """The system whose campaign asks the shared URL ``name``: with ``shared`` sorted (every
    shared URL name of the caller's kind, ``name`` among them), the n-th takes the n-th of
    ``systems``, round the list. Raises ValueError when ``name`` is not in ``shared``."""
    return systems[sorted(set(shared)).index(name) % len(systems)]
