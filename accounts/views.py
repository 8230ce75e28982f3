"""Views of the accounts app: sign-up, the account page (email and display name), deleting
one's own account, the rate-limited password-reset request, and the page for a locked-out
login.

Logging in and out, changing a password and the rest of the reset are Django's own views
(``LoginView`` with :class:`accounts.forms.LoginForm`, ``LogoutView``, ``PasswordChangeView``,
``PasswordResetConfirmView`` ...), wired in ``accounts/urls.py``; django-axes refuses a
locked-out login before the password is checked and answers with :func:`locked_out`
(settings.AXES_LOCKOUT_CALLABLE).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model, login, logout
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import PasswordResetForm
from django.db import IntegrityError, transaction
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods, require_POST

from accounts import services
from accounts.addresses import LINK_DAYS, LinkError, read_token
from accounts.forms import AccountDeleteForm, DisplayNameForm, EmailForm, SignupForm
from core import limits
from core.templatetags.text import display_name

if TYPE_CHECKING:
    from django.http import HttpRequest, HttpResponse

    from core.http import AuthenticatedHttpRequest


def signup(request: HttpRequest) -> HttpResponse:
    """Create an account (:class:`accounts.forms.SignupForm`), log it in, mail the address
    given a link that confirms it (accounts.addresses), and continue to ``next`` (e.g. an
    invite link: the login page's "Sign up" links carry it here), or to the campaign list
    when there is none or it points off this site.

    The address is not stored until its link is followed, and the answer is the same for
    every address: nothing here tells whether another account has it.

    At most SIGNUP_RATE tries per client address (core/limits.py), every form sent counting,
    refused or not (a refusal could otherwise be asked again and again for free): past it,
    the page and the form answer 429 saying when to try again, and no account is made.
    """
    # Only a page of this site is carried on (in the form, and in the "Log in" links): an
    # off-site next is dropped here rather than kept for a later redirect to refuse.
    next_url = _same_site_url(request, request.POST.get("next") or request.GET.get("next", ""))
    wait = limits.peek(request, limits.SIGNUP)
    if wait:
        return limits.refused(request, limits.SIGNUP, wait)
    if request.method == "POST":
        wait = limits.spend(request, limits.SIGNUP)
        if wait:  # two sign-ups at once from an address at its last free one
            return limits.refused(request, limits.SIGNUP, wait)
        form = SignupForm(request.POST)
        if form.is_valid():
            try:
                with transaction.atomic():
                    user = form.save()
            except IntegrityError:
                # Another sign-up took the name since the form's check: the database's unique
                # index refused this one.
                if not get_user_model().objects.filter(
                        username__iexact=form.cleaned_data["username"]).exists():
                    raise
                form.add_error("username", "A user with that username already exists.")
            else:
                email = form.cleaned_data["email"]
                services.address_change_request(user=user, email=email,
                                                domain=request.get_host(),
                                                use_https=request.is_secure())
                # Several authentication backends (django-axes first): name the one that
                # knows this freshly made account.
                login(request, user, backend="django.contrib.auth.backends.ModelBackend")
                messages.success(request, f"Welcome to Sheetkeeper, {display_name(user)}. "
                                 f"{_link_sent(email)}")
                return redirect(next_url or reverse("campaigns:campaign-list"))
    else:
        form = SignupForm()
    return render(request, "registration/signup.html", {"form": form, "next": next_url})


def _link_sent(email: str) -> str:
    """What the pages say once an address is given, whatever the address."""
    return (f"We sent a link to {email}: open it within {LINK_DAYS} days to confirm the "
            "address, which a forgotten password's reset link is sent to.")


@login_required
def account(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The signed-in user's account: their username, their email with a form to add or change
    it, their display name (its form posts to :func:`account_display_name`), the way to
    change the password and the way to delete the account.

    An address given here is not stored: it is mailed a link that confirms it
    (accounts.addresses), and the page says so for every address alike, so nothing here
    tells whether another account has it. At most ADDRESS_RATE addresses per client address
    (core/limits.py), every form sent counting; past it, 429. A refused address re-renders
    the form with the input and the reason.
    """
    if request.method == "POST":
        wait = limits.spend(request, limits.ADDRESS)
        if wait:
            return limits.refused(request, limits.ADDRESS, wait)
        form = EmailForm(request.POST)
        if form.is_valid():
            email = form.cleaned_data["email"]
            if email.lower() == request.user.email.lower():
                messages.info(request, f"{email} is already your address.")
            else:
                services.address_change_request(user=request.user, email=email,
                                                domain=request.get_host(),
                                                use_https=request.is_secure())
                messages.success(request, f"{_link_sent(email)} Until then your address "
                                 "stays as it is.")
            return redirect("account")
    else:
        form = EmailForm(initial={"email": request.user.email})
    return render(request, "registration/account.html",
                  {"form": form, "name_form": DisplayNameForm(instance=request.user)})


@require_http_methods(["GET", "POST"])
def account_address_confirm(request: HttpRequest, token: str) -> HttpResponse:
    """The page a confirmation link opens: GET asks to confirm the address (a mail program
    that opens links to look at them changes nothing); POST sets it on the account
    (:func:`accounts.services.address_confirm`) and goes to the account page, or to the log-in
    page for someone not signed in as that account. A link that cannot be used says why
    (400). Anyone holding the link may follow it: it went to the address's mailbox."""
    try:
        confirmation = read_token(token)
    except LinkError as exc:
        return render(request, "registration/address_confirm.html", {"error": str(exc)},
                      status=400)
    if request.method == "POST":
        try:
            user = services.address_confirm(token=token)
        except LinkError as exc:
            return render(request, "registration/address_confirm.html",
                          {"error": str(exc)}, status=400)
        messages.success(request, f"{user.email} is now the address of your account.")
        same = request.user.is_authenticated and request.user.pk == user.pk
        return redirect("account" if same else "login")
    return render(request, "registration/address_confirm.html",
                  {"email": confirmation.email, "token": token})


@require_POST
@login_required
def account_display_name(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Set the signed-in user's display name (``User.first_name``), shown at the table
    instead of their login name; an empty one shows the login name again.

    A refused name (:func:`accounts.forms.clean_display_name`) re-renders the account page
    with the input and the reason, and nothing is saved. Only the name's column is written
    (:func:`accounts.services.account_update`); an account deleted since this request began
    is logged out with a message, and nothing is saved.
    """
    form = DisplayNameForm(request.POST, instance=request.user)
    if form.is_valid():
        try:
            user = services.account_update(user=request.user,
                                           first_name=form.cleaned_data["first_name"])
        except services.AccountError as exc:
            return _account_gone(request, exc)
        messages.success(request, f"You are shown as {user.first_name} at the table."
                         if user.first_name else
                         "You are shown by your login name at the table.")
        return redirect("account")
    return render(request, "registration/account.html",
                  {"form": EmailForm(initial={"email": request.user.email}),
                   "name_form": form})


@require_http_methods(["GET", "POST"])
@login_required
def account_delete(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Delete the signed-in user's account, after they confirm with their password.

    GET shows what would happen (:func:`accounts.services.account_deletion_plan`): while the
    user is GM of a campaign with other members, those campaigns with the ways out (hand the
    GM seat over, delete the campaign) and no form; otherwise the campaigns that would be
    deleted, the characters that would be retired, and the password box. A POST with the
    right password deletes the account (:func:`accounts.services.account_delete`), logs the
    request out and sends it to the login page; a wrong password, or a campaign that gained
    a player meanwhile, re-renders the page with the reason, and nothing changes.
    """
    plan = services.account_deletion_plan(user=request.user)
    form = AccountDeleteForm(request.user, request.POST if request.method == "POST" else None)
    status = 200
    if form.is_bound and plan.blocking:
        form.add_error(None, "Your account cannot be deleted yet: see below.")
        status = 409
    elif form.is_bound and form.is_valid():
        try:
            services.account_delete(user=request.user)
        except services.AccountError as exc:
            form.add_error(None, str(exc))
            plan = services.account_deletion_plan(user=request.user)
            status = 409
        else:
            logout(request)
            messages.success(request, "Your account was deleted. Your characters stay with "
                                      "their tables as a former player's.")
            return redirect("login")
    return render(request, "registration/account_delete.html",
                  {"plan": plan, "form": form}, status=status)


def password_reset(request: HttpRequest) -> HttpResponse:
    """Ask for a password-reset link: a valid address is answered with the redirect to
    "password_reset_done", whether or not an account has it, so the page never tells whether
    an account exists. The request only queues the mail
    (:func:`accounts.services.password_reset_request`) and the worker sends it, so the answer
    takes as long for a known address as for an unknown one. The link points at the host
    this request came to (``request.get_host()``, which Django allows only for
    ``ALLOWED_HOSTS``), so a forged ``Host`` header is refused rather than put in a link.

    At most PASSWORD_RESET_RATE requests per client address (core/limits.py), counted for
    known and unknown addresses alike: past it, the page and the form answer 429 saying when
    to try again, and nothing is sent. A form refused for its content does not count, and is
    shown again with the reason.
    """
    wait = limits.peek(request, limits.PASSWORD_RESET)
    if wait:
        return limits.refused(request, limits.PASSWORD_RESET, wait)
    if request.method == "POST":
        form = PasswordResetForm(request.POST)
        if form.is_valid():
            wait = limits.spend(request, limits.PASSWORD_RESET)
            if wait:  # two requests at once from an address at its last free one
                return limits.refused(request, limits.PASSWORD_RESET, wait)
            services.password_reset_request(email=form.cleaned_data["email"],
                                            domain=request.get_host(),
                                            use_https=request.is_secure())
            return redirect("password_reset_done")
    else:
        form = PasswordResetForm()
    return render(request, "registration/password_reset_form.html", {"form": form})


def locked_out(
    request: HttpRequest, original_response: object, credentials: object
) -> HttpResponse:
    """The page for a login that django-axes refuses (settings.AXES_LOCKOUT_CALLABLE).

    Answers 429 Too Many Requests and says for how many minutes (AXES_COOLOFF_TIME) the
    username is paused from this address; nothing is written.
    """
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    return render(request, "registration/locked_out.html", {"minutes": minutes}, status=429)


def _account_gone(request: AuthenticatedHttpRequest, exc: services.AccountError
                  ) -> HttpResponse:
    """The answer to a change of an account deleted while the request was on its way (from
    another device): it is logged out here too and sent to the login page, with the reason."""
    logout(request)
    messages.error(request, str(exc))
    return redirect("login")


def _same_site_url(request: HttpRequest, next_url: str) -> str:
    """``next_url`` if it points at this site, else "" (no open redirects)."""
    if next_url and url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return next_url
    return ""
