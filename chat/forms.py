"""The GM's form for the campaign's chat connection (chat.views)."""

from __future__ import annotations

from typing import Any

from django import forms

from chat.addresses import MAX_LENGTH, UnsafeWebhook, check_url
from chat.models import ChatHook
from chat.services import SWITCHES


class ChatHookForm(forms.Form):
    """The webhook URL, its format and what to post. With a hook already saved the URL may
    be left blank to keep it (the page never shows it back: ``ChatHook.masked``).
    ``cleaned_data["url"]`` is the URL checked (``chat.addresses.check_url``), or None to
    keep the saved one; a URL the server will not post to is refused with the reason."""

    url = forms.CharField(
        label="Webhook URL", max_length=MAX_LENGTH, required=False, strip=True,
        # A text box (styled as every other) that phones fill with their URL keyboard.
        widget=forms.TextInput(attrs={"inputmode": "url", "autocomplete": "off",
                                      "spellcheck": "false",
                                      "placeholder": "https://discord.com/api/webhooks/…"}),
        help_text="The channel's incoming webhook: in Discord, the channel's settings, "
                  "Integrations, Webhooks, Copy Webhook URL; in Slack, an app's Incoming "
                  "Webhooks. Anyone who has it can post to the channel, so it is never "
                  "shown again once saved.")
    format = forms.ChoiceField(label="Chat", choices=ChatHook.Format.choices,
                               widget=forms.RadioSelect, initial=ChatHook.Format.DISCORD)
    post_rolls = forms.BooleanField(
        label="Rolls", required=False, initial=True,
        help_text="Every roll but the GM-only ones.")
    post_xp = forms.BooleanField(label="XP awards", required=False, initial=True)
    post_recaps = forms.BooleanField(label="Session recaps", required=False, initial=True)
    post_turns = forms.BooleanField(
        label="Encounter turns", required=False, initial=True,
        help_text="Never a hidden NPC's.")

    def __init__(self, *args: Any, hook: ChatHook | None = None, disabled: bool = False,
                 **kwargs: Any) -> None:
        if hook is not None and "initial" not in kwargs:
            kwargs["initial"] = {"format": hook.format,
                                 **{name: getattr(hook, name) for name in SWITCHES}}
        super().__init__(*args, **kwargs)
        self.hook = hook
        if hook is not None:
            self.fields["url"].help_text = (
                f"Saved: {hook.masked}. Leave blank to keep it, or paste a new one.")
        for field in self.fields.values():
            field.disabled = disabled

    def clean_url(self) -> str | None:
        url = self.cleaned_data.get("url") or ""
        if not url:
            if self.hook is None:
                raise forms.ValidationError("Paste the channel's webhook URL.")
            return None
        try:
            return check_url(url).url
        except UnsafeWebhook as exc:
            raise forms.ValidationError(str(exc)) from exc
