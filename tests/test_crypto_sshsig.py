"""SSH signatures (brief section 4; OpenSSH PROTOCOL.sshsig).

Signatures are made by the real ``ssh-keygen -Y sign`` and, in the other direction, what this
code considers signed is checked with ``ssh-keygen -Y verify``. A blob is also built in the test
from PROTOCOL.sshsig with ``struct`` and ``cryptography`` to exercise each format error; that
builder is itself checked against ``ssh-keygen -Y verify``.
"""

from __future__ import annotations

import base64
import hashlib
import shutil
import struct
import subprocess
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from pbem.crypto.errors import SshSigError, SshSigKeyTypeError, SshSigNamespaceError
from pbem.crypto.keys import PublicKey, load_public_key
from pbem.crypto.sshsig import (
    find_ssh_signatures,
    match_message,
    message_candidates,
    parse_ssh_signature,
    verify_ssh_signature,
)

SSH_KEYGEN = shutil.which("ssh-keygen")
needs_ssh_keygen = pytest.mark.skipif(SSH_KEYGEN is None, reason="ssh-keygen (OpenSSH) is not installed")

ORDERS = (
    "game: atl-7\nturn: 3\nphase: movement\nrole: red\n"
    "nonce: 5b0f0c9e2d7a4c1e9f3b8a6d2e4f6a8c\nissued: 2026-11-29T20:15:00Z\n\n"
    "move 4 from 0507 to 0607\nsink 0608\n"
)
SEED1 = bytes.fromhex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")


def run(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([SSH_KEYGEN, *args], input=stdin, capture_output=True)


@pytest.fixture
def ssh(tmp_path):
    """An ed25519 key made by ssh-keygen, and helpers to sign and verify with it."""

    class Ssh:
        dir: Path = tmp_path
        key: Path = tmp_path / "id_ed25519"

        def sign(self, data: bytes, namespace: str = "pbem-orders", *extra: str, key: Path | None = None) -> str:
            path = tmp_path / "orders.txt"
            path.write_bytes(data)
            sig = path.with_name("orders.txt.sig")
            sig.unlink(missing_ok=True)
            done = run("-Y", "sign", "-f", str(key or self.key), "-n", namespace, *extra, str(path))
            assert done.returncode == 0, done.stderr
            return sig.read_text()

        def ssh_verifies(self, data: bytes, armored: str, namespace: str = "pbem-orders") -> bool:
            pub = self.key.with_suffix(".pub").read_text().split()
            allowed = tmp_path / "allowed_signers"
            allowed.write_text(f"red@example.org {pub[0]} {pub[1]}\n")
            sig = tmp_path / "check.sig"
            sig.write_text(armored)
            done = run("-Y", "verify", "-f", str(allowed), "-I", "red@example.org", "-n", namespace,
                       "-s", str(sig), stdin=data)
            return done.returncode == 0

        @property
        def public(self) -> PublicKey:
            return load_public_key(self.key.with_suffix(".pub").read_text(), "id_ed25519.pub")

    if SSH_KEYGEN is None:
        pytest.skip("ssh-keygen (OpenSSH) is not installed")
    done = run("-q", "-t", "ed25519", "-N", "", "-C", "red@example.org", "-f", str(Ssh.key))
    assert done.returncode == 0, done.stderr
    return Ssh()


# --- with the real ssh-keygen ---------------------------------------------------------------------


@needs_ssh_keygen
def test_ssh_keygen_signature_parses_and_verifies(ssh):
    data = ORDERS.encode()
    sig = parse_ssh_signature(ssh.sign(data))
    assert sig.public_key == ssh.public
    assert sig.namespace == "pbem-orders"
    assert sig.hash_algorithm == "sha512"  # ssh-keygen's default
    assert sig.reserved == b"" and len(sig.signature) == 64
    assert verify_ssh_signature(sig, data)


@needs_ssh_keygen
def test_ssh_keygen_sha256_signature_verifies(ssh):
    data = ORDERS.encode()
    sig = parse_ssh_signature(ssh.sign(data, "pbem-orders", "-O", "hashalg=sha256"))
    assert sig.hash_algorithm == "sha256"
    assert verify_ssh_signature(sig, data)


@needs_ssh_keygen
def test_a_changed_byte_is_rejected(ssh):
    data = ORDERS.encode()
    sig = parse_ssh_signature(ssh.sign(data))
    for i in (0, len(data) // 2, len(data) - 1):
        changed = data[:i] + bytes([data[i] ^ 0x01]) + data[i + 1:]
        assert not verify_ssh_signature(sig, changed)
    assert not verify_ssh_signature(sig, data + b"\n")


@needs_ssh_keygen
def test_a_wrong_namespace_is_rejected_with_its_own_error(ssh):
    data = ORDERS.encode()
    sig = parse_ssh_signature(ssh.sign(data, "other"))
    assert sig.namespace == "other"
    with pytest.raises(SshSigNamespaceError, match=r"namespace 'other'; expected 'pbem-orders'.*-n pbem-orders"):
        verify_ssh_signature(sig, data)
    assert verify_ssh_signature(sig, data, namespace="other")


@needs_ssh_keygen
def test_an_rsa_signature_is_rejected_with_its_own_error(ssh):
    rsa = ssh.dir / "id_rsa"
    assert run("-q", "-t", "rsa", "-b", "2048", "-N", "", "-f", str(rsa)).returncode == 0
    armored = ssh.sign(ORDERS.encode(), "pbem-orders", key=rsa)
    with pytest.raises(SshSigKeyTypeError, match=r"made with an ssh-rsa key; pbem supports only Ed25519"):
        parse_ssh_signature(armored)


@needs_ssh_keygen
def test_ssh_keygen_agrees_on_the_bytes_we_consider_signed(ssh):
    """Reverse direction: the candidate we accept is byte for byte what ssh-keygen signed."""
    for signed_file in (ORDERS.encode(), ORDERS.rstrip("\n").encode(), ORDERS.replace("\n", "\r\n").encode()):
        armored = ssh.sign(signed_file)
        sig = parse_ssh_signature(armored)
        # The text as it arrives by mail: CRLF, trailing spaces, a blank line after.
        arrived = "\r\n".join(line + "  " for line in ORDERS.split("\n")) + "\r\n"
        matched = match_message(sig, message_candidates(arrived))
        assert matched == signed_file
        assert ssh.ssh_verifies(matched, armored)
        assert not ssh.ssh_verifies(matched + b"x", armored)


@needs_ssh_keygen
def test_signing_stdin_gives_the_same_kind_of_signature(ssh):
    done = run("-Y", "sign", "-f", str(ssh.key), "-n", "pbem-orders", stdin=ORDERS.encode())
    assert done.returncode == 0, done.stderr
    sig = parse_ssh_signature(done.stdout)
    assert verify_ssh_signature(sig, ORDERS.encode())


# --- built by hand from PROTOCOL.sshsig ----------------------------------------------------------


def s(data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + data


def handmade(
    message: bytes,
    *,
    magic: bytes = b"SSHSIG",
    version: int = 1,
    namespace: bytes = b"pbem-orders",
    hash_algorithm: bytes = b"sha512",
    key_type: bytes = b"ssh-ed25519",
    sig_type: bytes = b"ssh-ed25519",
    trailing: bytes = b"",
) -> str:
    sk = Ed25519PrivateKey.from_private_bytes(SEED1)
    raw = sk.public_key().public_bytes_raw()
    digest = hashlib.new(hash_algorithm.decode(), message).digest()
    signed = b"SSHSIG" + s(namespace) + s(b"") + s(hash_algorithm) + s(digest)
    blob = (
        magic + struct.pack(">I", version) + s(s(key_type) + s(raw)) + s(namespace) + s(b"")
        + s(hash_algorithm) + s(s(sig_type) + s(sk.sign(signed))) + trailing
    )
    text = base64.b64encode(blob).decode()
    body = "\n".join(text[i:i + 70] for i in range(0, len(text), 70))
    return f"-----BEGIN SSH SIGNATURE-----\n{body}\n-----END SSH SIGNATURE-----\n"


@needs_ssh_keygen
def test_handmade_blob_is_accepted_by_ssh_keygen_and_by_us(ssh, tmp_path):
    armored = handmade(ORDERS.encode())
    pub = PublicKey(Ed25519PrivateKey.from_private_bytes(SEED1).public_key().public_bytes_raw())
    allowed = tmp_path / "allowed"
    allowed.write_text(f"red {pub.openssh_line()}\n")
    (tmp_path / "h.sig").write_text(armored)
    done = run("-Y", "verify", "-f", str(allowed), "-I", "red", "-n", "pbem-orders",
               "-s", str(tmp_path / "h.sig"), stdin=ORDERS.encode())
    assert done.returncode == 0, done.stderr
    sig = parse_ssh_signature(armored)
    assert sig.public_key == pub and verify_ssh_signature(sig, ORDERS.encode())


@pytest.mark.parametrize(
    "kwargs,error,pattern",
    [
        ({"magic": b"SSHSIX"}, SshSigError, r"starts with b'SSHSIX'; expected the magic b'SSHSIG'"),
        ({"version": 2}, SshSigError, r"version 2; expected 1"),
        ({"key_type": b"ecdsa-sha2-nistp256"}, SshSigKeyTypeError, r"ecdsa-sha2-nistp256 key; pbem supports only Ed25519"),
        ({"sig_type": b"rsa-sha2-512"}, SshSigKeyTypeError, r"type 'rsa-sha2-512'"),
        ({"hash_algorithm": b"sha1"}, SshSigError, r"hash algorithm b'sha1'; expected 'sha512' or 'sha256'"),
        ({"namespace": b""}, SshSigError, r"empty namespace"),
        ({"trailing": b"\x00"}, SshSigError, r"1 unexpected trailing bytes"),
    ],
)
def test_format_errors(kwargs, error, pattern):
    with pytest.raises(error, match=pattern):
        parse_ssh_signature(handmade(ORDERS.encode(), **kwargs))


def test_armour_errors():
    good = handmade(ORDERS.encode())
    with pytest.raises(SshSigError, match=r"no '-----BEGIN SSH SIGNATURE-----' line"):
        parse_ssh_signature("hello")
    with pytest.raises(SshSigError, match=r"line 1: .* has no '-----END SSH SIGNATURE-----'"):
        parse_ssh_signature(good.replace("-----END SSH SIGNATURE-----", ""))
    with pytest.raises(SshSigError, match=r"line 2: the SSH signature .* is not valid base64"):
        parse_ssh_signature(good.replace("U1NI", "U1N*", 1))
    with pytest.raises(SshSigError, match=r"line 1: 'game: x' outside the armored block"):
        parse_ssh_signature("game: x\n" + good)
    with pytest.raises(SshSigError, match=r"truncated"):
        lines = good.split("\n")
        parse_ssh_signature("\n".join(lines[:3] + ["-----END SSH SIGNATURE-----"]))
    with pytest.raises(SshSigError, match=r"not ASCII"):
        parse_ssh_signature(b"\xff" + good.encode())
    # Bytes, CRLF and blank lines around are fine.
    assert parse_ssh_signature(("\r\n" + good.replace("\n", "\r\n") + "\r\n").encode()).namespace == "pbem-orders"


# --- finding blocks and candidates ----------------------------------------------------------------


def test_find_ssh_signatures_lines_and_preceding_text():
    sig = handmade(ORDERS.encode())
    n_sig = sig.count("\n")
    text = "Hi,\r\n" + ORDERS.replace("\n", "\r\n") + sig + "\n> quoted\n> " + sig.replace("\n", "\n> ") + "\n"
    [block] = find_ssh_signatures(text)
    n_orders = ORDERS.count("\n")
    assert block.start_line == 2 + n_orders
    assert block.end_line == 1 + n_orders + n_sig
    assert block.preceding == "Hi,\n" + ORDERS
    assert block.preceding_start_line == 1
    assert block.armored == sig
    assert verify_ssh_signature(parse_ssh_signature(block.armored), ORDERS.encode())


def test_two_blocks_each_with_its_own_preceding_text():
    a = handmade(b"game: a\n")
    b = handmade(b"game: b\n")
    blocks = find_ssh_signatures("game: a\n" + a + "game: b\n" + b)
    assert [blk.preceding for blk in blocks] == ["game: a\n", "game: b\n"]
    assert blocks[1].preceding_start_line == 2 + a.count("\n")


def test_block_cut_short():
    with pytest.raises(SshSigError, match=r"line 2: .* has no '-----END SSH SIGNATURE-----'"):
        find_ssh_signatures("game: x\n-----BEGIN SSH SIGNATURE-----\nU1NI\n")


def test_message_candidates_order_and_dedup():
    text = "\r\ngame: x  \r\nsink 0101\r\n\r\n"
    assert message_candidates(text) == [
        b"game: x\nsink 0101\n",
        b"game: x\nsink 0101",
        b"game: x\r\nsink 0101\r\n",
        text.encode(),
    ]
    # A file already in canonical form plus LF: "as given" equals the first candidate.
    assert message_candidates("game: x\n") == [b"game: x\n", b"game: x", b"game: x\r\n"]
