"""What XP buys, one part of the sheet layer's contract (:mod:`systems.base`): the price of the
next rank of something (:class:`Advance`), the form that buys it (:class:`SpendForm`), and
:class:`AdvancementPart`, the hooks of the XP page (``characters:character-xp``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, final

from django import forms

from core.forms import Form
from rulesets.errors import RuleError
from systems.part import SystemPart

if TYPE_CHECKING:
    from characters.models import Character, XpEntry

__all__ = ["Advance", "AdvancementPart", "SpendForm"]


@dataclass(frozen=True)
class Advance:
    """The price of the next rank of something XP buys, shown before confirming.

    Attributes:
        key: the ledger's ``trait_key`` (``skill:Athletics``, ``buy_in:Hit Points``); the
            key :meth:`AdvancementPart.quote` was asked with may say more (Maelstrom's
            ``advanced-specialty:Driving:Cars`` buys the ledger's ``specialty:Driving:Cars``).
        label: what the player reads ("Athletics 2 -> 3").
        rank_from, rank_to: ranks before and after (dots, die size, levels bought).
        cost: XP.
        notes: how the price was made (multipliers), shown with it.
        bank_key: the ledger ``bank_key`` whose banked XP pays for this advance first, the
            rest coming from available XP (Maelstrom rules.md, Spending Experience: "use
            any banked experience points that apply before spending available points");
            ``""`` where the system banks nothing.
    """

    key: str
    label: str
    rank_from: int
    rank_to: int
    cost: int
    notes: tuple[str, ...] = ()
    bank_key: str = ""


class SpendForm(Form):
    """What XP buys: the key of the next rank (as :meth:`AdvancementPart.quote` takes it), and
    on confirming, the price the player saw (a changed price is refused). The default
    :meth:`AdvancementPart.spend_form`; a system's own keeps ``key`` and ``expected_cost`` in
    its ``cleaned_data``."""

    key = forms.CharField(max_length=200, label="Buy")
    expected_cost = forms.IntegerField(required=False, min_value=0, max_value=100000,
                                       widget=forms.HiddenInput)


@dataclass(kw_only=True)
class AdvancementPart(SystemPart):
    """What XP buys, one rank at a time, on the XP page (``characters:character-xp``): the
    priced list (:meth:`advances`), the price of one (:meth:`quote`), the rank on the sheet
    (:meth:`rank`, :meth:`set_rank`, which a spend and its undo write), and the system's own
    extras on that page (:meth:`xp_context`, ``xp.html``). The defaults sell nothing."""

    rule_spending: ClassVar[str] = "Advancement"
    """What the shared XP services cite when they refuse a purchase or its undo (a price
    changed, a shortfall): the system's own rule for spending XP (Maelstrom: "Maelstrom
    rules.md, Spending Experience")."""

    banks_xp: ClassVar[bool] = False
    """Whether XP is banked in this system before it is spent (an :class:`Advance`'s
    ``bank_key`` names the bank that pays first): the XP page's balance then lists the banks,
    and says so while there are none. False by default."""

    live_xp: ClassVar[tuple[str, ...]] = ("sheet-xp",)
    """The sheet's regions an XP change redraws (``xpChanged-<id>``), as
    :attr:`TracksPart.live_tracks`; ``sheet-xp`` is the frame's own
    (``systems/_sheet.html``) unless the system's sheet defines one."""

    def advances(self, character: Character) -> list[Advance]:
        """Every next rank XP can buy now, priced, in the order the XP page lists them
        (``[]`` by default: nothing for sale)."""
        return []

    def quote(self, character: Character, key: str) -> Advance:
        """The price of the next rank of ``key`` (a ledger key, or what the system's
        :meth:`spend_form` posts). Raises RuleError (an unknown key, at the maximum, a
        prerequisite unmet: the message names it); the default refuses every key."""
        raise RuleError("Nothing here is bought with XP.", "Advancement")

    def rank(self, character: Character, key: str) -> int:
        """The current rank of the ledger key ``key`` on the sheet, in the units of
        :attr:`Advance.rank_to` (for undo's "changed since" check). Raises RuleError for a
        key the system does not sell; the default refuses every key."""
        raise RuleError("Nothing here is bought with XP.", "Advancement")

    def set_rank(self, character: Character, key: str, rank: int) -> None:
        """Set the ledger key ``key`` to ``rank`` on ``character.sheet`` (in memory: a spend
        or its undo, with the character locked; the caller saves). Raises RuleError for a
        key the system does not sell; the default refuses every key."""
        raise RuleError("Nothing here is bought with XP.", "Advancement")

    def spend_form(self, character: Character, data: Mapping[str, Any] | None = None
                   ) -> forms.Form:
        """The XP page's purchase form, bound to ``data`` or unbound: its ``cleaned_data``
        holds ``key`` (what :meth:`quote` prices) and ``expected_cost`` (XP, or ``None``
        before confirming). The default is :class:`SpendForm`, fed by the page's list of
        :meth:`advances`."""
        return SpendForm(data)

    def key_label(self, key: str) -> str:
        """A ledger ``trait_key`` in words for the XP page's banks and undo's messages (by
        default the part after the last colon: ``skill:Athletics`` -> ``Athletics``)."""
        return key.rpartition(":")[2]

    def undo_description(self, character: Character, entry: XpEntry) -> str:
        """What undoing the spend ``entry`` (its ``trait_key``, ``rank_from``, ``rank_to``)
        takes back on ``character``'s sheet: one sentence in the system's words for the undo
        page ("Firearms goes back from 3 to 2 dots."; the XP refunded is the page's to say).
        Never raises, whatever the key (a stale one gets the default, in no system's units:
        "<key_label> goes back from <rank_to> to <rank_from>.")."""
        label = self.key_label(entry.trait_key) or "What it bought"
        label = label[:1].upper() + label[1:]  # it opens the sentence
        if entry.rank_from is None or entry.rank_to is None:
            return f"{label} goes back to what it was before."
        return f"{label} goes back from {entry.rank_to} to {entry.rank_from}."

    def xp_context(self, character: Character, *, is_gm: bool) -> dict[str, Any]:
        """What the system adds to the XP page: the context of its ``xp.html``
        (:attr:`template_xp`: achievements, the buy-in catalogue, a bank form), database
        queries allowed, it is not a hot page. ``{}`` by default.

        The shared page also reads two keys, if given: ``"spend_template"``, a template
        drawn under "Spend XP" after the list of :meth:`advances` (a purchase form of the
        system's own, :meth:`spend_form`; the page then does not say "Nothing to buy"), and
        ``"spend_intro_template"``, one drawn before it (what is left of creation). A form
        in them that changes the sheet posts to a :class:`TrackAction`, with ``on_xp_page``
        to be answered with the XP page.
        """
        return {}

    @property
    @final
    def template_xp(self) -> str:
        """The system's extras on the XP page (``systems/<slug>/xp.html``), drawn inside its
        grid with :meth:`xp_context`."""
        return self.template("xp.html")
