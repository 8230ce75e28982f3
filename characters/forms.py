"""Forms of the shared character pages: the GM's award on the XP page, and a character's life
(what its player and the GM write about it, retiring it, moving it to another player). A
system's own changes have their forms in its package; the purchase form is
:meth:`systems.SheetSystem.spend_form`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from django import forms
from django.core.validators import MaxLengthValidator

from characters.models import Character
from core.forms import Form, TextareaField
from core.markdown import MAX_LENGTH
from systems.fields import CHARACTER_NAME_MAX, CHARACTER_NAME_TOO_LONG

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django.db.models import QuerySet


class AwardForm(Form):
    """The GM's award on the XP page: the system's named awards ticked (1 XP each in
    Maelstrom: rules.md, Earning Experience) and/or a custom amount (1-100 XP) with a
    reason.

    Args:
        awards: the named awards offered, ``[(name, label)]`` (``()`` for none).
    """

    awards = forms.MultipleChoiceField(
        choices=(), required=False, widget=forms.CheckboxSelectMultiple,
        label="Awards (1 XP each)",
    )
    amount = forms.IntegerField(min_value=1, max_value=100, required=False, label="Other XP")
    reason = forms.CharField(max_length=200, required=False, label="Reason")

    def __init__(self, *args: Any, awards: Sequence[tuple[str, str]] = (), **kwargs: Any
                 ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["awards"].choices = list(awards)  # type: ignore[attr-defined]  # django-stubs: Field.choices is not on the base Field

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        if data.get("amount") and not (data.get("reason") or "").strip():
            self.add_error("reason", "Give a reason for the custom award.")
        if not data.get("awards") and not data.get("amount"):
            raise forms.ValidationError("Tick at least one award or enter an amount of XP.")
        return data


# --- A character's life -------------------------------------------------------------------

MARKDOWN_HELP = ("Markdown: **bold**, *italic*, lists, headings and links; no pictures. "
                 f"Up to {MAX_LENGTH:,} characters.")


class MarkdownField(TextareaField):
    """Text a user writes in Markdown (core.markdown), its line ends stored as ``\n``
    (:class:`core.forms.TextareaField`: the limit is checked as the browser counted it)."""


def _markdown_field(label: str, help_text: str) -> MarkdownField:
    """A field for Markdown a user writes (core.markdown), refusing more than
    :data:`core.markdown.MAX_LENGTH` characters with a message that says by how much."""
    return MarkdownField(
        label=label, required=False, max_length=MAX_LENGTH, strip=True,
        widget=forms.Textarea(attrs={"rows": 8}), help_text=f"{help_text} {MARKDOWN_HELP}",
        error_messages={"max_length": "Keep it to %(limit_value)d characters at most (this "
                                      "text has %(show_value)d): trim it, or move part of it "
                                      "to the notes."},
    )


class CharacterEditForm(Form):
    """What the owner and the GM write about a character: its name, concept, backstory and
    the player's notes (Markdown, read by the owner and the GM)."""

    # A validator, not max_length: a maxlength attribute would let the browser cut a longer
    # pasted name short without a word; the form says the limit instead.
    name = forms.CharField(
        label="Name", error_messages={"required": "Give the character a name."},
        validators=[MaxLengthValidator(CHARACTER_NAME_MAX, CHARACTER_NAME_TOO_LONG)])
    concept = forms.CharField(
        label="Concept (optional)", max_length=200, required=False,
        help_text="A line that sums the character up, e.g. \"Smuggler with a past\".",
        error_messages={"max_length": "Keep the concept to %(limit_value)d characters at most "
                                      "(it has %(show_value)d)."})
    backstory = _markdown_field("Backstory", "Where the character comes from.")
    notes = _markdown_field("Notes", "The player's own notes: contacts, debts, plans.")


class GmNotesForm(Form):
    """The GM's private notes on a character (Markdown): never shown to a player."""

    gm_notes = _markdown_field("GM notes", "Only you, the GM, ever see these; the player "
                               "does not, not even in an export.")


class RetireForm(Form):
    """How a character leaves the party: retired, or (the GM's call only) dead.

    Args:
        as_gm: whether the GM is asking; a player is offered "retired" only.
        current: the character's status now: it is not offered again, and a player is
            offered nothing for a character the GM marked dead (no choice: the page says so).
    """

    status = forms.ChoiceField(
        label="How it leaves the party", widget=forms.RadioSelect,
        error_messages={"required": "Choose whether the character retires or is dead.",
                        "invalid_choice": "Choose one of the choices shown: a player can "
                                          "retire a character; only the GM can mark it dead."})

    def __init__(self, *args: Any, as_gm: bool = False, current: str = "",
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [(Character.Status.RETIRED.value,
                    "Retired: it leaves the party, and the GM can bring it back")]
        if as_gm:
            choices.append((Character.Status.DEAD.value,
                            "Dead: it died in play, and the GM can still bring it back"))
        elif current == Character.Status.DEAD:
            choices = []
        # Empty when there is nothing this person can change: the page says why instead.
        self.offered = [(value, label) for value, label in choices if value != current]
        self.fields["status"].choices = self.offered  # type: ignore[attr-defined]  # django-stubs: Field.choices is not on the base Field
        if self.offered:
            self.fields["status"].initial = self.offered[0][0]


class MoveForm(Form):
    """The player a character moves to: one of the campaign's players, its owner aside.

    Args:
        players: the users offered (the campaign's players but the owner).
    """

    to_user: forms.ModelChoiceField[User] = forms.ModelChoiceField(
        queryset=None, label="New player", empty_label="Choose a player",
        error_messages={"required": "Choose the player who takes the character over.",
                        "invalid_choice": "Choose one of the campaign's players listed: that "
                                          "one is not (any more) a player here."})

    def __init__(self, *args: Any, players: QuerySet[User], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["to_user"]
        field.queryset = players  # type: ignore[attr-defined]  # django-stubs: queryset is ModelChoiceField's, not the base Field's
        # The display name the table knows them by (core/templatetags/text.py).
        field.label_from_instance = lambda user: str(  # type: ignore[attr-defined]  # django-stubs: label_from_instance is ModelChoiceField's
            user.get_short_name() or user.get_username())


class NpcCopyForm(Form):
    """"More like this one": how many NPC copies of a character or NPC, and for a single
    copy an optional name (blank: the source's name, numbered)."""

    count = forms.IntegerField(min_value=1, max_value=10, initial=1, label="How many",
                               help_text="1 to 10; several copies are numbered after the "
                                         "original (Goon 2, Goon 3...).")
    name = forms.CharField(max_length=CHARACTER_NAME_MAX, required=False, label="Name",
                           help_text="For a single copy only. Blank: the original's name, "
                                     "numbered.",
                           error_messages={"max_length": CHARACTER_NAME_TOO_LONG})


class NpcShownForm(Form):
    """What the players see of an NPC (``Character.npc_shown``)."""

    shown = forms.ChoiceField(choices=Character.Shown.choices, required=False,
                              widget=forms.RadioSelect, label="The players see")
