"""Fixtures of the SMTP tests: a test certificate authority and server certificate made with
`cryptography` at test time, and real SMTP server processes (tests/smtp_server.py) on free
loopback ports that store what they accept in a Maildir."""

from __future__ import annotations

import datetime as dt
import email
import ipaddress
import json
import mailbox
import subprocess
import sys
from email import policy
from pathlib import Path

import pytest

SERVER = Path(__file__).with_name("smtp_server.py")
USER, PASSWORD = "referee", "s3cret-Pa55"
PASSWORD_ENV = "PBEM_TEST_SMTP_PASSWORD"


def make_certs(folder: Path) -> dict[str, Path]:
    """A CA (``ca.pem``) and a server certificate it signed for ``localhost`` and 127.0.0.1
    (``server.pem``, key ``server.key``), plus an unrelated CA (``other-ca.pem``)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    now = dt.datetime.now(dt.timezone.utc)

    def name(cn):
        return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, cn)])

    def ca(cn):
        key = ec.generate_private_key(ec.SECP256R1())
        cert = (x509.CertificateBuilder().subject_name(name(cn)).issuer_name(name(cn))
                .public_key(key.public_key()).serial_number(x509.random_serial_number())
                .not_valid_before(now - dt.timedelta(days=1))
                .not_valid_after(now + dt.timedelta(days=30))
                .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
                .add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False,
                                             False), critical=True)
                .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()),
                               critical=False)
                .sign(key, hashes.SHA256()))
        return key, cert

    folder.mkdir(parents=True, exist_ok=True)
    ca_key, ca_cert = ca("pbem test CA")
    _, other_cert = ca("some other CA")
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (x509.CertificateBuilder().subject_name(name("localhost"))
            .issuer_name(ca_cert.subject).public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - dt.timedelta(days=1))
            .not_valid_after(now + dt.timedelta(days=30))
            .add_extension(x509.SubjectAlternativeName(
                [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
                critical=False)
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(x509.KeyUsage(True, False, True, False, False, False, False, False,
                                         False), critical=True)
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]),
                           critical=False)
            .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()),
                           critical=False)
            .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(
                ca_key.public_key()), critical=False)
            .sign(ca_key, hashes.SHA256()))
    pem = serialization.Encoding.PEM
    paths = {"ca": folder / "ca.pem", "other_ca": folder / "other-ca.pem",
             "cert": folder / "server.pem", "key": folder / "server.key"}
    paths["ca"].write_bytes(ca_cert.public_bytes(pem))
    paths["other_ca"].write_bytes(other_cert.public_bytes(pem))
    paths["cert"].write_bytes(cert.public_bytes(pem))
    paths["key"].write_bytes(key.private_bytes(pem, serialization.PrivateFormat.PKCS8,
                                               serialization.NoEncryption()))
    return paths


class SmtpServer:
    """One running tests/smtp_server.py process (see its docstring for the options)."""

    def __init__(self, folder: Path, certs: dict, mode: str = "plain", *, auth: bool = False,
                 tempfail=(), reject=(), stall=(), delay: float = 0.0):
        self.mode = mode
        self.maildir = folder / "Maildir"
        self.log = folder / "smtp-log.jsonl"
        argv = [sys.executable, str(SERVER), "--maildir", str(self.maildir), "--log",
                str(self.log), "--mode", mode, "--delay", str(delay)]
        if mode != "plain":
            argv += ["--cert", str(certs["cert"]), "--key", str(certs["key"])]
        if auth:
            argv += ["--auth", f"{USER}:{PASSWORD}"]
        for flag, values in (("--tempfail", tempfail), ("--reject", reject), ("--stall", stall)):
            for v in values:
                argv += [flag, v]
        self.proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True)
        line = self.proc.stdout.readline()
        if not line.startswith("READY "):
            self.proc.kill()
            raise RuntimeError(f"the SMTP server did not start: {line}{self.proc.stderr.read()}")
        self.port = int(line.split()[1])

    def config(self, cafile=None, **extra) -> str:
        """The ``[smtp]`` table of config.toml for this server."""
        security = {"plain": "none", "starttls": "starttls", "tls": "tls"}[self.mode]
        lines = ["[smtp]", 'host = "127.0.0.1"', f"port = {self.port}",
                 f'security = "{security}"', "timeout = 10"]
        if cafile:
            lines.append(f'cafile = "{cafile}"')
        for k, v in extra.items():
            lines.append(f'{k} = "{v}"' if isinstance(v, str) else f"{k} = {v}")
        return "\n".join(lines) + "\n"

    def raw(self) -> list[bytes]:
        """Every message the server accepted, as received, in delivery order."""
        box = mailbox.Maildir(self.maildir, create=False) if self.maildir.exists() else {}
        items = sorted(box.iterkeys()) if box else []
        return [box.get_bytes(k) for k in items]

    def messages(self) -> list:
        return [email.message_from_bytes(b, policy=policy.default) for b in self.raw()]

    def deliveries(self) -> list[dict]:
        if not self.log.exists():
            return []
        return [json.loads(x) for x in self.log.read_text().splitlines() if x.strip()]

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for stream in (self.proc.stdout, self.proc.stderr):
            stream.close()


@pytest.fixture(scope="session")
def certs(tmp_path_factory):
    return make_certs(tmp_path_factory.mktemp("certs"))


@pytest.fixture
def smtp(tmp_path, certs):
    """``smtp(mode="plain", auth=False, tempfail=(), reject=(), stall=(), delay=0)`` starts a
    server process; every server is stopped at the end of the test."""
    started = []

    def start(mode="plain", **kw):
        folder = tmp_path / f"smtp{len(started)}"
        folder.mkdir()
        server = SmtpServer(folder, certs, mode, **kw)
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()
