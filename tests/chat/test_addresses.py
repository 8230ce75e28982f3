"""A webhook URL is posted to only on https, port 443, at a public address: each kind of
address a hook could use to reach inside the server's own network is refused, as a literal
and as what a host name resolves to (chat/addresses.py; docs/security.md, "The group's
chat")."""

from __future__ import annotations

import pytest

from chat.addresses import UnsafeWebhook, check_url

PUBLIC = "162.159.135.232"
"""A public address (one of Discord's)."""

REFUSED = {
    "loopback": "127.0.0.1",
    "loopback, elsewhere in its range": "127.8.9.10",
    "IPv6 loopback": "::1",
    "private 10/8": "10.1.2.3",
    "private 172.16/12": "172.20.0.5",
    "private 192.168/16": "192.168.1.20",
    "link-local (a cloud's metadata service)": "169.254.169.254",
    "IPv6 link-local": "fe80::1",
    "IPv6 unique local": "fd00::5",
    "multicast": "224.0.0.251",
    "IPv6 multicast": "ff02::1",
    "unspecified": "0.0.0.0",
    "reserved": "240.0.0.1",
    "broadcast": "255.255.255.255",
    "shared address space (carrier NAT)": "100.64.0.1",
    "documentation": "203.0.113.9",
    "IPv4 loopback mapped into IPv6": "::ffff:127.0.0.1",
    # 6to4 (2002::/16) carries an IPv4 address in its bits 16-48, and a host with a 6to4
    # route delivers to it: loopback, a private network and the metadata service so.
    "IPv4 loopback in 6to4": "2002:7f00:1::",
    "private 10/8 in 6to4": "2002:a01:203::1",
    "link-local in 6to4": "2002:a9fe:a9fe::",
}


def test_an_https_url_on_a_public_host_is_taken_and_pinned_to_the_address_checked(
        resolver):  # type: ignore[no-untyped-def]
    resolver({"discord.com": [PUBLIC]})

    target = check_url("https://discord.com/api/webhooks/1/abc")

    assert (target.host, target.address, target.port) == ("discord.com", PUBLIC, 443)
    assert target.pinned_url == f"https://{PUBLIC}:443/api/webhooks/1/abc"


def test_a_public_ipv6_literal_is_taken_and_bracketed_when_pinned() -> None:
    target = check_url("https://[2606:4700::6810:84e5]/hook")

    assert target.pinned_url == "https://[2606:4700::6810:84e5]:443/hook"


@pytest.mark.parametrize("address", REFUSED.values(), ids=REFUSED.keys())
def test_each_inward_address_is_refused_as_a_literal(address: str) -> None:
    host = f"[{address}]" if ":" in address else address

    with pytest.raises(UnsafeWebhook, match="public host"):
        check_url(f"https://{host}/api/webhooks/1/abc")


@pytest.mark.parametrize("address", REFUSED.values(), ids=REFUSED.keys())
def test_each_inward_address_is_refused_as_what_a_name_resolves_to(
        resolver, address: str) -> None:  # type: ignore[no-untyped-def]
    resolver({"hooks.example.org": [address]})

    with pytest.raises(UnsafeWebhook, match="hooks.example.org resolves to"):
        check_url("https://hooks.example.org/api/webhooks/1/abc")


def test_a_name_with_one_inward_address_among_public_ones_is_refused(
        resolver):  # type: ignore[no-untyped-def]
    resolver({"hooks.example.org": [PUBLIC, "10.0.0.7"]})

    with pytest.raises(UnsafeWebhook, match="private"):
        check_url("https://hooks.example.org/x")


@pytest.mark.parametrize(("url", "reason"), [
    (f"http://{PUBLIC}/x", "https://"),
    (f"ftp://{PUBLIC}/x", "https://"),
    ("discord.com/api/webhooks/1/abc", "https://"),
    (f"https://{PUBLIC}:8443/x", "443"),
    (f"https://{PUBLIC}:80/x", "443"),
    (f"https://user:pw@{PUBLIC}/x", "user name or password"),
    ("https:///x", "no host"),
    (f"https://{PUBLIC}/x y", "spaces"),
    ("https://nowhere.example/x", "could not be found"),
    ("https://" + "a" * 500 + ".org/", "at most 500"),
])
def test_what_is_not_an_https_url_on_port_443_is_refused_saying_why(url: str, reason: str
                                                                     ) -> None:
    with pytest.raises(UnsafeWebhook, match=reason):
        check_url(url)


def test_no_refusal_repeats_the_url(resolver):  # type: ignore[no-untyped-def]
    resolver({"hooks.example.org": ["10.0.0.7"]})

    with pytest.raises(UnsafeWebhook) as refused:
        check_url("https://hooks.example.org/api/webhooks/1/s3cr3t")

    assert "s3cr3t" not in str(refused.value)


def test_allowing_local_lets_http_and_loopback_through_and_nothing_else_inward() -> None:
    target = check_url("http://127.0.0.1:8765/hook", allow_local=True)

    assert (target.scheme, target.address, target.port) == ("http", "127.0.0.1", 8765)
    with pytest.raises(UnsafeWebhook, match="private"):
        check_url("http://192.168.1.20:8765/hook", allow_local=True)
    with pytest.raises(UnsafeWebhook, match="link-local"):
        check_url("http://169.254.169.254/latest", allow_local=True)


def test_local_addresses_are_refused_unless_the_setting_allows_them(settings
                                                                     ) -> None:  # type: ignore[no-untyped-def]
    settings.CHAT_WEBHOOKS_ALLOW_LOCAL = False
    with pytest.raises(UnsafeWebhook):
        check_url("http://127.0.0.1:8765/hook")

    settings.CHAT_WEBHOOKS_ALLOW_LOCAL = True
    assert check_url("http://127.0.0.1:8765/hook").address == "127.0.0.1"
