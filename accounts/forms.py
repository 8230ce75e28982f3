"""Forms of the accounts app: logging in, signing up (with an email and an optional display
name), the account page's email and display name, and the password that confirms deleting an
account. Password change and reset use Django's own forms unchanged."""

from __future__ import annotations

import unicodedata
from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm, UsernameField
from django.contrib.auth.models import User

from core import text
from core.forms import Form, TextRules

DISPLAY_NAME_MAX = 60
"""The longest display name, in characters (after stripping spaces at either end): long enough
for "Captain Ysolde of the Drowned Coast", short enough for a party card on a phone."""

DISPLAY_NAME_HELP = ("Shown at the table instead of your login name. Leave it empty to be "
                     "shown by your login name.")

FORMER_PLAYER_PREFIX = "former-player-"
"""The login names a deleted account is renamed to (``former-player-<id>``,
accounts.services.account_delete): nobody may sign up with one."""


class LoginForm(TextRules, AuthenticationForm):
    """Django's log-in form with the username's length enforced: a name longer than the
    user model's ``username`` (150 characters) is a form error, and nothing reaches
    ``authenticate()`` or django-axes' record of the failure (a 255-character column).

    AuthenticationForm sets the field's max_length after building it, so no validator of
    its own checks it.
    """

    username = UsernameField(
        max_length=get_user_model()._meta.get_field("username").max_length,
        widget=forms.TextInput(attrs={"autofocus": True}),
    )


def _email_field() -> forms.EmailField:
    # The user model's column length, so an over-long address is a form error, not a 500.
    length = get_user_model()._meta.get_field("email").max_length
    return forms.EmailField(
        max_length=length, label="Email",
        help_text="Only for resetting a forgotten password. Never shown to other players.",
        widget=forms.EmailInput(attrs={"autocomplete": "email"}))


def clean_display_name(value: str) -> str:
    """A display name as typed, checked and stripped of spaces at either end.

    Args:
        value: the text of the form's field, unstripped.

    Returns:
        The name to store in ``User.first_name``; empty means "show my login name".

    Raises:
        forms.ValidationError: for a name of spaces (or invisible characters) only, one
            holding a control character (a tab, a line break) or a mark that reverses the
            direction of the text, or one longer than :data:`DISPLAY_NAME_MAX` characters.
    """
    # The form's TextRules check the line first; a caller without the form is checked here.
    problem = text.line_problem(value)
    if problem:
        raise forms.ValidationError(
            "A display name is one line of plain text, with no tabs, line breaks or other "
            f"control characters: {problem}.", code="control_character")
    name = value.strip()
    # "Only spaces" includes invisible characters (zero-width spaces, joiners: format
    # characters, category Cf): a name nobody could see is no name.
    if value and not any(not ch.isspace() and unicodedata.category(ch) != "Cf" for ch in name):
        raise forms.ValidationError(
            "A display name cannot be only spaces. Leave the box empty to be shown by your "
            "login name.", code="blank")
    if len(name) > DISPLAY_NAME_MAX:
        raise forms.ValidationError(
            f"Keep the display name to {DISPLAY_NAME_MAX} characters (it has {len(name)}).",
            code="max_length")
    return name


def _display_name_field(label: str) -> forms.CharField:
    # Unstripped, so that a name of spaces only is told apart from an empty box
    # (clean_display_name strips it after checking).
    return forms.CharField(
        required=False, strip=False, label=label, help_text=DISPLAY_NAME_HELP,
        # No maxlength attribute: the browser would cut a longer pasted name without a word;
        # clean_display_name refuses it and says the limit.
        widget=forms.TextInput(attrs={"autocomplete": "nickname"}))


class SignupForm(TextRules, UserCreationForm[User]):
    """Django's ``UserCreationForm`` with a required email, the address a password reset is
    sent to, and an optional display name (:func:`clean_display_name`).

    The address is never looked up here: whether another account has it is not the form's to
    say (accounts.addresses). The view makes the account without it and mails it a link that
    confirms it. A login name beginning with :data:`FORMER_PLAYER_PREFIX` is a form error.
    """

    first_name = _display_name_field("Display name (optional)")
    email = _email_field()

    class Meta:
        model = User
        fields = ("username", "first_name", "email")
        field_classes = {"username": UsernameField}

    def clean_username(self) -> Any:
        """The login name, refused when it is one kept for deleted accounts (or taken)."""
        username = super().clean_username()
        if str(username).lower().startswith(FORMER_PLAYER_PREFIX):
            raise forms.ValidationError(
                f"Login names beginning with “{FORMER_PLAYER_PREFIX}” are kept for deleted "
                "accounts; choose another.", code="reserved")
        return username

    def clean_first_name(self) -> str:
        """The display name, checked and stripped (:func:`clean_display_name`)."""
        return clean_display_name(self.cleaned_data["first_name"])

    def save(self, commit: bool = True) -> User:
        """The new account, without the address (it is mailed a link that confirms it)."""
        user = super().save(commit=False)
        user.email = ""
        if commit:
            user.save()
        return user


class EmailForm(Form):
    """The account page's form: the address to add or change to. It is not stored, nor looked
    up: the view mails it a link that confirms it (accounts.addresses)."""

    email = _email_field()


class DisplayNameForm(TextRules, forms.ModelForm[User]):
    """The account page's display name (``User.first_name``), shown at the table instead of
    the login name (the ``display_name`` template filter); empty shows the login name."""

    first_name = _display_name_field("Display name")

    class Meta:
        model = User
        fields = ("first_name",)

    def clean_first_name(self) -> str:
        """The display name, checked and stripped (:func:`clean_display_name`)."""
        return clean_display_name(self.cleaned_data["first_name"])


class AccountDeleteForm(Form):
    """The password that confirms deleting the signed-in user's account, so that a session
    left open on a shared computer cannot delete it."""

    password = forms.CharField(
        label="Your password", strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
        error_messages={"required": "Enter your password to delete your account."})

    def __init__(self, user: User, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_password(self) -> str:
        """The password, refused unless it is the user's."""
        password: str = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError(
                "That is not your password; your account was not deleted.",
                code="password_incorrect")
        return password
