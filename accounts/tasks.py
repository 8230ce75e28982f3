"""What the accounts app does off the request path: mailing a password-reset link.

A task (django-tasks), queued by :func:`accounts.services.password_reset_request` and run by
the worker (``manage.py db_worker``), so that the reset page answers in the same time whether
or not the address has an account (docs/security.md, "Password reset").
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.contrib.auth.forms import PasswordResetForm
from django.http.request import split_domain_port, validate_host
from django_tasks import task

logger = logging.getLogger(__name__)


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
    allowed = settings.ALLOWED_HOSTS
    if settings.DEBUG and not allowed:
        allowed = [".localhost", "127.0.0.1", "[::1]"]  # as Django's HttpRequest.get_host
    host, _ = split_domain_port(domain)
    if not host or not validate_host(host, allowed):
        logger.warning("password reset not mailed: host %r is not in ALLOWED_HOSTS", domain)
        return
    form = PasswordResetForm({"email": email})
    if not form.is_valid():
        logger.warning("password reset not mailed: not an email address")
        return
    form.save(domain_override=domain, use_https=use_https)
