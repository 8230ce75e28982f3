"""Forms of the accounts app: logging in, signing up (with an email), and the account page's
email. Password change and reset use Django's own forms unchanged."""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm, UsernameField
from django.contrib.auth.models import User

EMAIL_TAKEN = "Another account already uses this email address."


class LoginForm(AuthenticationForm):
    """Django's log-in form with the username's length enforced.

    AuthenticationForm sets the field's max_length after building it, so no validator checks
    it: an over-long name reached authenticate() and django-axes' record of the failure, whose
    255-character column PostgreSQL refused with a 500 (found by tests/fuzz). Now the form
    says "at most 150 characters" and nothing is recorded.
    """

    username = UsernameField(
        max_length=get_user_model()._meta.get_field("username").max_length,
        widget=forms.TextInput(attrs={"autofocus": True}),
    )


def email_taken(email: str, *, exclude: User | None = None) -> bool:
    """Whether an account other than ``exclude`` has ``email``, compared case-insensitively
    (the password reset looks addresses up so too: ``PasswordResetForm.get_users``)."""
    others = get_user_model().objects.filter(email__iexact=email)
    if exclude is not None:
        others = others.exclude(pk=exclude.pk)
    return others.exists()


def _email_field() -> forms.EmailField:
    # The user model's column length, so an over-long address is a form error, not a 500.
    length = get_user_model()._meta.get_field("email").max_length
    return forms.EmailField(
        max_length=length, label="Email",
        help_text="Only for resetting a forgotten password. Never shown to other players.",
        widget=forms.EmailInput(attrs={"autocomplete": "email"}))


class SignupForm(UserCreationForm[User]):
    """Django's ``UserCreationForm`` with a required email, unique among the accounts
    (case-insensitively): the address a password reset is sent to.

    Raises nothing; a taken address is a form error (:data:`EMAIL_TAKEN`).
    """

    email = _email_field()

    class Meta:
        model = User
        fields = ("username", "email")
        field_classes = {"username": UsernameField}

    def clean_email(self) -> str:
        """The address, refused when another account has it."""
        email: str = self.cleaned_data["email"]
        if email_taken(email):
            raise forms.ValidationError(EMAIL_TAKEN, code="email_taken")
        return email


class EmailForm(forms.ModelForm[User]):
    """The account page's form: add or change the signed-in user's email, unique among the
    accounts (case-insensitively) as on sign-up."""

    email = _email_field()

    class Meta:
        model = User
        fields = ("email",)

    def clean_email(self) -> str:
        """The address, refused when another account has it."""
        email: str = self.cleaned_data["email"]
        if email_taken(email, exclude=self.instance):
            raise forms.ValidationError(EMAIL_TAKEN, code="email_taken")
        return email
