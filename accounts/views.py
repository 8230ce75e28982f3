"""Views of the accounts app: sign-up and the page for a locked-out login.

Logging in and out are Django's own ``LoginView`` (with :class:`accounts.forms.LoginForm`) and
``LogoutView``, wired in ``accounts/urls.py``; django-axes refuses a locked-out login before the
password is checked and answers with :func:`locked_out` (settings.AXES_LOCKOUT_CALLABLE).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.forms import UserCreationForm
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme

from core import limits

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django.http import HttpRequest, HttpResponse


def signup(request: HttpRequest) -> HttpResponse:
    """Create an account, log it in, and continue to ``next`` (e.g. an invite link).

    At most SIGNUP_RATE accounts per client address (core/limits.py): past it, the page and
    the form answer 429 saying when to try again, and no account is made. A form refused for
    its content does not count.
    """
    next_url = request.POST.get("next") or request.GET.get("next", "")
    wait = limits.peek(request, limits.SIGNUP)
    if wait:
        return limits.refused(request, limits.SIGNUP, wait)
    if request.method == "POST":
        form: UserCreationForm[User] = UserCreationForm(request.POST)
        if form.is_valid():
            wait = limits.spend(request, limits.SIGNUP)
            if wait:  # two sign-ups at once from an address at its last free one
                return limits.refused(request, limits.SIGNUP, wait)
            user = form.save()
            # Several authentication backends (django-axes first): name the one that knows
            # this freshly made account.
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, f"Welcome to Sheetkeeper, {user.username}.")
            return redirect(_safe_next_url(request, next_url))
    else:
        form = UserCreationForm()
    return render(request, "registration/signup.html", {"form": form, "next": next_url})


def locked_out(
    request: HttpRequest, original_response: object, credentials: object
) -> HttpResponse:
    """The page for a login that django-axes refuses (settings.AXES_LOCKOUT_CALLABLE).

    Answers 429 Too Many Requests and says for how many minutes (AXES_COOLOFF_TIME) the
    username is paused from this address; nothing is written.
    """
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    return render(request, "registration/locked_out.html", {"minutes": minutes}, status=429)


def _safe_next_url(request: HttpRequest, next_url: str) -> str:
    """``next_url`` if it points at this site, else the campaign list (no open redirects)."""
    if next_url and url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return next_url
    return reverse("campaigns:campaign-list")
