"""Which webhook URLs the server will post to: https on a public host, port 443, so that a
hook can never make the server knock on a door of its own network (server-side request
forgery: docs/security.md, "The group's chat").

A host name is resolved and every address it resolves to must be public; the delivery
then connects to the address checked (:class:`Target`), not to a second resolution of the
name, so a DNS answer that changes between the check and the connection cannot point the
post inward. ``CHAT_WEBHOOKS_ALLOW_LOCAL`` (off by default, docs/configuration.md) lets
http and loopback addresses through, for a developer's local receiver and the tests'.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings

__all__ = ["Target", "UnsafeWebhook", "check_url", "resolve"]

MAX_LENGTH = 500
"""The longest URL a hook keeps (``ChatHook.url``)."""

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


class UnsafeWebhook(ValueError):
    """A webhook URL the server will not post to; ``str()`` says why, in words for the GM,
    and never repeats the URL."""


@dataclass(frozen=True)
class Target:
    """Where a checked URL posts: ``url`` as given, its ``host`` name in ASCII (IDNA; for
    the ``Host`` header and TLS's server name), ``address``, the address checked, which the
    connection must use, and ``port``."""

    url: str
    scheme: str
    host: str
    address: str
    port: int

    @property
    def pinned_url(self) -> str:
        """``url`` with its host replaced by :attr:`address` (bracketed for IPv6): the
        connection goes to the address that was checked."""
        parts = urlsplit(self.url)
        address = f"[{self.address}]" if ":" in self.address else self.address
        netloc = f"{address}:{self.port}"
        return parts._replace(netloc=netloc).geturl()


def resolve(host: str, port: int) -> list[str]:
    """Every address ``host`` resolves to now (the system's resolver), as text. Raises
    OSError when it resolves to nothing. The tests replace this function."""
    found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return [str(info[4][0]) for info in found]


def _refusal(address: IPAddress) -> str | None:
    """Why ``address`` may not be posted to, or None for a public one."""
    if isinstance(address, ipaddress.IPv6Address):
        # An IPv6 address that carries an IPv4 one (mapped, or 6to4's 2002::/16, which a host
        # with a 6to4 route delivers to that IPv4 address) is judged by the IPv4 address.
        carried = address.ipv4_mapped or address.sixtofour
        if carried is not None:
            return _refusal(carried)
    if address.is_loopback:
        return "a loopback address (this server itself)"
    if address.is_link_local:
        return "a link-local address"
    if address.is_multicast:
        return "a multicast address"
    if address.is_private:
        return "a private network's address"
    if address.is_reserved or address.is_unspecified:
        return "a reserved address"
    if not address.is_global:
        return "an address that is not on the public internet"
    return None


def check_url(url: str, *, allow_local: bool | None = None) -> Target:
    """Check a webhook URL and resolve its host: the :class:`Target` to connect to.

    Args:
        url: the URL as the GM gave it.
        allow_local: let http and loopback addresses through; None reads
            ``settings.CHAT_WEBHOOKS_ALLOW_LOCAL``.

    Raises :class:`UnsafeWebhook`, saying why, for anything but an https URL (no user name
    or password in it) on port 443 whose host resolves only to public addresses; with
    ``allow_local``, also http, any port, and loopback addresses (never the others).
    """
    if allow_local is None:
        allow_local = settings.CHAT_WEBHOOKS_ALLOW_LOCAL
    url = url.strip()
    if len(url) > MAX_LENGTH:
        raise UnsafeWebhook(f"A webhook URL has at most {MAX_LENGTH} characters.")
    if any(ord(c) <= 32 or ord(c) == 127 for c in url):
        raise UnsafeWebhook("A webhook URL has no spaces or control characters.")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise UnsafeWebhook("That is not a URL.") from exc
    schemes = ("https", "http") if allow_local else ("https",)
    if parts.scheme not in schemes:
        raise UnsafeWebhook("A webhook URL starts with https://.")
    host = parts.hostname
    if not host:
        raise UnsafeWebhook("That URL names no host.")
    if parts.username is not None or parts.password is not None:
        raise UnsafeWebhook("A webhook URL carries no user name or password.")
    try:
        # As DNS and HTTP spell it (IDNA: "exämple.org" is "xn--exmple-cua.org"): the name
        # resolved, sent in Host and as TLS's server name must be ASCII.
        host = host.encode("idna").decode("ascii")
    except UnicodeError as exc:
        raise UnsafeWebhook("That URL's host is not a host name.") from exc
    if port is None:
        port = 443 if parts.scheme == "https" else 80
    elif port != 443 and not allow_local:
        raise UnsafeWebhook("A webhook URL uses the https port, 443 (or names no port).")
    try:
        literal: IPAddress | None = ipaddress.ip_address(host)
    except ValueError:
        literal = None
    if literal is not None:
        addresses = [str(literal)]
    else:
        try:
            addresses = resolve(host, port)
        except (OSError, UnicodeError) as exc:
            raise UnsafeWebhook(f"The host {host} could not be found.") from exc
        if not addresses:
            raise UnsafeWebhook(f"The host {host} could not be found.")
    for text in addresses:
        address = ipaddress.ip_address(text.split("%", 1)[0])
        refusal = _refusal(address)
        if refusal is not None and not (allow_local and address.is_loopback):
            where = "" if literal is not None else f"{host} resolves to "
            raise UnsafeWebhook(
                f"A webhook must be on a public host: {where}{refusal}.")
    return Target(url=url, scheme=parts.scheme, host=host, address=addresses[0], port=port)
