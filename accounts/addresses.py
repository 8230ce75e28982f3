"""Confirming an email address by a link mailed to it (docs/security.md, "Addresses").

Neither the sign-up form nor the account page may tell anyone whether an address has an
account. So neither stores the address it is given: both queue a mail to it
(:func:`accounts.tasks.address_mail`) and answer alike, "we sent a link to ...". The mail to
a free address holds a link that sets it on the account; the mail to an address another
account has says so to the one who reads that mailbox, its owner, and holds no link. Only
who can read the mailbox learns anything.

The link carries its own facts, signed with the site's secret key (Django's signing, salted
for this use): the account, the address, and the address the account had when the link was
made. It lasts :data:`LINK_DAYS` days, and a link made before the account's address changed
again no longer works.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.core import signing

if TYPE_CHECKING:
    from django.contrib.auth.models import User

LINK_DAYS = 3
"""How long a confirmation link works, in days."""

_SALT = "accounts.addresses.confirm"


class LinkError(ValueError):
    """A confirmation link that cannot set an address: the message says why and what to do."""


@dataclass(frozen=True)
class Confirmation:
    """What a valid link says: set ``email`` on the account ``user_id``, whose address was
    ``was`` when the link was made."""

    user_id: int
    email: str
    was: str


def make_token(user: User, email: str) -> str:
    """The signed, URL-safe token of a link that sets ``email`` on ``user``'s account."""
    return signing.dumps({"u": user.pk, "e": email, "w": user.email}, salt=_SALT,
                         compress=True)


def read_token(token: str) -> Confirmation:
    """The confirmation a link's token carries.

    Raises:
        LinkError: a token this site did not sign, or one older than :data:`LINK_DAYS` days.
    """
    try:
        data = signing.loads(token, salt=_SALT,
                             max_age=datetime.timedelta(days=LINK_DAYS))
    except signing.SignatureExpired:
        raise LinkError(f"This link has expired: links work for {LINK_DAYS} days. Add the "
                        "address again on your account page for a new one.") from None
    except signing.BadSignature:
        raise LinkError("This link is not one this site sent (it may have been cut short by "
                        "the mail program): copy the whole link from the mail.") from None
    if not (isinstance(data, dict) and isinstance(data.get("u"), int)
            and isinstance(data.get("e"), str) and isinstance(data.get("w"), str)):
        raise LinkError("This link is not one this site sent.")
    return Confirmation(user_id=data["u"], email=data["e"], was=data["w"])
