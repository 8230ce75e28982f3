"""What the accounts app does off the request path: mailing a password-reset link, and
mailing an address a link that confirms it.

Tasks (django-tasks), queued by :func:`accounts.services.password_reset_request` and
:func:`accounts.services.address_change_request` and run by the worker (``manage.py
db_worker``), so that the pages answer in the same time whether or not the address has an
account (docs/security.md, "Password reset", "Addresses").
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import PasswordResetForm
from django.core.mail import send_mail
from django.http.request import split_domain_port, validate_host
from django.template.loader import render_to_string
from django.urls import reverse
from django_tasks import task

from accounts import addresses

logger = logging.getLogger(__name__)


def _allowed(domain: str) -> bool:
    """Whether ``domain`` (a host, with its port if any) is one of ``ALLOWED_HOSTS`` now."""
    allowed = settings.ALLOWED_HOSTS
    if settings.DEBUG and not allowed:
        allowed = [".localhost", "127.0.0.1", "[::1]"]  # as Django's HttpRequest.get_host
    host, _ = split_domain_port(domain)
    return bool(host) and validate_host(host, allowed)


@task()
def password_reset_mail(*, email: str, domain: str, use_https: bool) -> None:
    """Mail a password-reset link to each active account with a usable password whose address
    is ``email``, in any case (Django's ``PasswordResetForm``: its rules, templates
    ``registration/password_reset_*`` and token); nothing to an unknown address.

    Args:
        email: the address typed on the reset page.
        domain: the host the request came to, with its port if it had one
            (``table.example.org``, ``127.0.0.1:8000``); the link points there.
        use_https: whether the request came over HTTPS, and so the link's scheme.

    The token is made here, when the mail is written, so what the queue stores of this task
    (its arguments, its return value) is the address and the host, and nothing that resets a
    password. The host was one of ``ALLOWED_HOSTS`` when the request was answered (Django
    refuses any other ``Host`` header before a view runs); it is checked again here, so a
    queued row naming another host (the setting changed meanwhile, a row written by hand)
    sends nothing and logs a warning, and a forged ``Host`` can never point a link elsewhere.

    A mail the server refuses or that cannot be delivered to it is logged by Django's form
    (logger ``django.contrib.auth``, naming the account's id, never the link) and the task
    ends normally: the worker goes on, and the user may ask for a new link.
    """
    if not _allowed(domain):
        logger.warning("password reset not mailed: host %r is not in ALLOWED_HOSTS", domain)
        return
    form = PasswordResetForm({"email": email})
    if not form.is_valid():
        logger.warning("password reset not mailed: not an email address")
        return
    form.save(domain_override=domain, use_https=use_https)


@task()
def address_mail(*, user_id: int, email: str, domain: str, use_https: bool) -> None:
    """Mail ``email`` about the account ``user_id`` asking to use it (accounts.addresses):
    a link that confirms it when no other account has the address (case aside), else a
    note that it is in use, with the password-reset page's address and no link that changes
    anything. Nothing is mailed for an account that is gone or a host no longer allowed.

    Args:
        user_id: the account asking (signed up with the address, or changing to it).
        email: the address given, a valid address (the form checked it).
        domain: the host the request came to, with its port if any; the link points there.
        use_https: whether the request came over HTTPS, and so the links' scheme.

    The link's token is made here, so the queue stores the address and never a link. A
    refused mail is logged (the account's id, never the link) and the task ends normally.
    """
    user = get_user_model().objects.filter(pk=user_id, is_active=True).first()
    if user is None:
        return
    if not _allowed(domain):
        logger.warning("address link not mailed: host %r is not in ALLOWED_HOSTS", domain)
        return
    base = f"{'https' if use_https else 'http'}://{domain}"
    taken = (get_user_model().objects.filter(email__iexact=email).exclude(pk=user.pk)
             .exists())
    if taken:
        subject = "Your address was given for another Sheetkeeper account"
        body = render_to_string("registration/address_in_use_email.txt", {
            "user": user, "domain": domain, "reset": base + reverse("password_reset")})
    else:
        link = base + reverse("account-address-confirm",
                              args=[addresses.make_token(user, email)])
        subject = "Confirm your address for Sheetkeeper"
        body = render_to_string("registration/address_confirm_email.txt", {
            "user": user, "domain": domain, "link": link, "days": addresses.LINK_DAYS})
    try:
        send_mail(subject, body, None, [email])
    except Exception:  # the worker goes on; the user may ask again
        logger.exception("address mail for account %s could not be sent", user.pk)
