"""The post goes to the address checked, and TLS still verifies the certificate for the
host's name: a server on 127.0.0.1 with a certificate for hooks.example.org takes the post
when the name resolves there, and one whose certificate names another host is refused
(chat/tasks.py, ``send``; docs/security.md, "The group's chat")."""

from __future__ import annotations

import datetime
import ssl
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from chat import tasks
from chat.addresses import check_url


def _certificate(name: str, key: Any, issuer: x509.Name, signer: Any, *, ca: bool
                 ) -> x509.Certificate:
    now = datetime.datetime.now(datetime.UTC)
    builder = (x509.CertificateBuilder()
               .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)]))
               .issuer_name(issuer).public_key(key.public_key())
               .serial_number(x509.random_serial_number())
               .not_valid_before(now - datetime.timedelta(minutes=5))
               .not_valid_after(now + datetime.timedelta(hours=1))
               .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True))
    if not ca:
        builder = builder.add_extension(x509.SubjectAlternativeName([x509.DNSName(name)]),
                                        critical=False)
    return builder.sign(signer, hashes.SHA256())


@dataclass
class Channel:
    """HTTPS channels on 127.0.0.1 with certificates from the test's own CA: :meth:`serve`
    starts one whose certificate names ``name`` and returns its port; :attr:`hosts` are the
    Host headers the channels saw."""

    folder: Path
    ca: tuple[Any, x509.Name]
    hosts: list[str] = field(default_factory=list)
    servers: list[ThreadingHTTPServer] = field(default_factory=list)

    def serve(self, name: str) -> int:
        ca_key, ca_name = self.ca
        key = ec.generate_private_key(ec.SECP256R1())
        cert = _certificate(name, key, ca_name, ca_key, ca=False)
        (self.folder / "cert.pem").write_bytes(cert.public_bytes(serialization.Encoding.PEM))
        (self.folder / "key.pem").write_bytes(key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption()))
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(self.folder / "cert.pem", self.folder / "key.pem")
        hosts = self.hosts

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                self.rfile.read(int(self.headers.get("Content-Length", "0")))
                hosts.append(self.headers.get("Host", ""))
                self.send_response(204)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                pass

        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        server.socket = context.wrap_socket(server.socket, server_side=True)
        threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05},
                         daemon=True).start()
        self.servers.append(server)
        return int(server.server_address[1])


@pytest.fixture
def channel(tmp_path: Path, settings: Any, monkeypatch: pytest.MonkeyPatch
            ) -> Iterator[Channel]:
    """The test's CA, trusted by the worker's HTTP client (as a public CA is), and the
    channels it signs; loopback allowed, so they may listen on 127.0.0.1."""
    settings.CHAT_WEBHOOKS_ALLOW_LOCAL = True
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Test CA")])
    ca = _certificate("Test CA", ca_key, ca_name, ca_key, ca=True)
    (tmp_path / "ca.pem").write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    trusted = ssl.create_default_context(cafile=str(tmp_path / "ca.pem"))
    real_client = httpx.Client
    monkeypatch.setattr(tasks.httpx, "Client",
                        lambda **kwargs: real_client(verify=trusted, **kwargs))
    state = Channel(folder=tmp_path, ca=(ca_key, ca_name))
    try:
        yield state
    finally:
        for server in state.servers:
            server.shutdown()
            server.server_close()


def test_the_post_reaches_the_checked_address_with_the_hosts_name_and_certificate(
        channel, resolver) -> None:  # type: ignore[no-untyped-def]
    port = channel.serve("hooks.example.org")
    resolver({"hooks.example.org": ["127.0.0.1"]})
    target = check_url(f"https://hooks.example.org:{port}/api/webhooks/1/x")

    assert target.pinned_url.startswith(f"https://127.0.0.1:{port}/")
    assert tasks.send(target, {"content": "hello"}) == 204
    assert channel.hosts == [f"hooks.example.org:{port}"]


def test_a_certificate_for_another_name_at_that_address_is_refused(channel, resolver  # type: ignore[no-untyped-def]
                                                                   ) -> None:
    port = channel.serve("elsewhere.example.net")
    resolver({"hooks.example.org": ["127.0.0.1"]})
    target = check_url(f"https://hooks.example.org:{port}/api/webhooks/1/x")

    with pytest.raises(tasks.Refused, match="Could not reach the channel") as refused:
        tasks.send(target, {"content": "hello"})

    assert refused.value.again and channel.hosts == []
