"""The client's address, as every limit counts it (docs/security.md, "Limits").

The ASGI server decides it, not Django: uvicorn, told which proxy to believe
(``--forwarded-allow-ips``, FORWARDED_ALLOW_IPS in docs/configuration.md), puts the address
that proxy reports into the request's ``REMOTE_ADDR``, and ignores ``X-Forwarded-For`` from
anyone else. So this module reads ``REMOTE_ADDR`` and never a forwarded header itself: a header
is only as true as the machine that wrote it, and only the server knows which machine that was.
django-axes (``AXES_CLIENT_IP_CALLABLE``) and the sign-up and invite limits
(``RATELIMIT_IP_META_KEY``) both ask :func:`client_ip`, so they always agree.
"""

from __future__ import annotations

import ipaddress
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from django.http import HttpRequest

UNKNOWN = "0.0.0.0"
"""The address of a request whose server gave none (a Unix socket without a proxy header):
such requests share one count rather than escaping every limit."""


def client_ip(request: HttpRequest) -> str:
    """The address the request came from, as the ASGI server established it.

    Returns ``REMOTE_ADDR`` when it is an IP address (IPv4 or IPv6, normalised), else
    :data:`UNKNOWN`. Never raises.
    """
    raw = request.META.get("REMOTE_ADDR") or ""
    try:
        return str(ipaddress.ip_address(raw.strip()))
    except ValueError:
        return UNKNOWN
