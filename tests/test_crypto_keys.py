"""Keys and key files (brief section 2, docs/signing.md "Key files").

Expected values come from RFC 8032 section 7.1 (Ed25519 test vectors), from the real
``ssh-keygen`` (fingerprints, OpenSSH key files), and from encodings computed in the test with
``struct``/``base64``/``hashlib`` from RFC 4251/8709 and the documented pbem formats.
"""

from __future__ import annotations

import base64
import hashlib
import os
import shutil
import stat
import struct
import subprocess
from pathlib import Path

import pytest

from pbem.crypto.errors import (
    EncryptedKeyError,
    KeyExistsError,
    KeyFormatError,
    KeyNameError,
    KeyPermissionError,
    UnsupportedKeyTypeError,
)
from pbem.crypto.keys import (
    MASTER_KEY_FILE,
    PrivateKey,
    PublicKey,
    create_master_key,
    generate_keypair,
    load_master_key,
    load_private_key,
    load_public_key,
    write_public_file,
    write_secret_file,
)

# RFC 8032 section 7.1, TEST 1 and TEST 2.
SEED1 = bytes.fromhex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")
PUB1 = bytes.fromhex("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")
SIG1 = bytes.fromhex(
    "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"
)
SEED2 = bytes.fromhex("4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb")
PUB2 = bytes.fromhex("3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c")
MSG2 = bytes.fromhex("72")
SIG2 = bytes.fromhex(
    "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"
)

SSH_KEYGEN = shutil.which("ssh-keygen")
needs_ssh_keygen = pytest.mark.skipif(SSH_KEYGEN is None, reason="ssh-keygen (OpenSSH) is not installed")


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def ssh_blob(raw: bytes) -> bytes:
    """RFC 8709 section 4 by hand: string "ssh-ed25519" || string key."""
    return struct.pack(">I", 11) + b"ssh-ed25519" + struct.pack(">I", len(raw)) + raw


def keygen(tmp_path: Path, name: str, *args: str) -> Path:
    path = tmp_path / name
    subprocess.run(
        [SSH_KEYGEN, "-q", "-N", "", "-C", f"{name}@example.org", "-f", str(path), *args],
        check=True,
        capture_output=True,
    )
    return path


def ssh_fingerprint(pub_path: Path) -> str:
    out = subprocess.run([SSH_KEYGEN, "-lf", str(pub_path)], check=True, capture_output=True, text=True)
    return out.stdout.split()[1]  # "256 SHA256:... comment (ED25519)"


# --- values ---------------------------------------------------------------------------------------


def test_rfc8032_vectors_sign_and_verify():
    for seed, pub, msg, sig in ((SEED1, PUB1, b"", SIG1), (SEED2, PUB2, MSG2, SIG2)):
        key = PrivateKey(seed)
        assert key.public_key().raw == pub
        assert key.sign(msg) == sig
        assert PublicKey(pub).verify(sig, msg)
        assert not PublicKey(pub).verify(sig, msg + b"x")
        bad = bytes([sig[0] ^ 1]) + sig[1:]
        assert not PublicKey(pub).verify(bad, msg)
        assert not PublicKey(pub).verify(sig[:63], msg)


def test_public_key_value_semantics():
    assert PublicKey(PUB1, "red") == PublicKey(PUB1, "blue")
    assert hash(PublicKey(PUB1, "red")) == hash(PublicKey(PUB1))
    assert PublicKey(PUB1) != PublicKey(PUB2)
    with pytest.raises(KeyFormatError, match="32 bytes"):
        PublicKey(PUB1[:31])
    with pytest.raises(KeyNameError, match="line-break"):
        PublicKey(PUB1, "red\nblue")


def test_lines_and_fingerprint_computed_by_hand():
    key = PublicKey(PUB1, "red")
    assert key.pbem_line() == f"pbem-ed25519 {b64(PUB1)} red"
    assert key.openssh_line() == f"ssh-ed25519 {b64(ssh_blob(PUB1))} red"
    assert key.openssh_line().split()[1].startswith("AAAAC3NzaC1lZDI1NTE5")  # every ed25519 key
    digest = hashlib.sha256(ssh_blob(PUB1)).digest()
    assert key.fingerprint == "SHA256:" + b64(digest).rstrip("=")
    assert len(key.fingerprint) == len("SHA256:") + 43
    assert PublicKey(PUB1).pbem_line() == f"pbem-ed25519 {b64(PUB1)}"


@needs_ssh_keygen
def test_fingerprint_and_openssh_line_match_ssh_keygen(tmp_path):
    # Our line, read by ssh-keygen.
    ours = tmp_path / "ours.pub"
    ours.write_text(PublicKey(PUB1, "red").openssh_line() + "\n")
    assert ssh_fingerprint(ours) == PublicKey(PUB1).fingerprint
    # ssh-keygen's key, read by us.
    path = keygen(tmp_path, "blue", "-t", "ed25519")
    line = path.with_suffix(".pub").read_text().strip()
    key = load_public_key(line + "\n", "blue.pub")
    assert key.fingerprint == ssh_fingerprint(path.with_suffix(".pub"))
    assert key.openssh_line() == line
    assert key.comment == "blue@example.org"


# --- reading public keys --------------------------------------------------------------------------


def test_load_public_key_pbem_line_with_comments_and_crlf():
    text = f"# red's key\r\n\r\npbem-ed25519 {b64(PUB1)} red\r\n"
    key = load_public_key(text, "red.pub")
    assert key.raw == PUB1 and key.comment == "red"


def test_load_public_key_openssh_line_without_comment():
    key = load_public_key(f"ssh-ed25519 {b64(ssh_blob(PUB2))}", "paste")
    assert key.raw == PUB2 and key.comment == ""


@pytest.mark.parametrize(
    "line,error,pattern",
    [
        ("ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQC7 me@host", UnsupportedKeyTypeError, r"ssh-rsa key; pbem supports only Ed25519"),
        ("ecdsa-sha2-nistp256 AAAAE2VjZHNh me@host", UnsupportedKeyTypeError, r"ecdsa-sha2-nistp256 key; pbem supports only Ed25519"),
        ("sk-ssh-ed25519@openssh.com AAAA me", UnsupportedKeyTypeError, r"only Ed25519"),
        ("pbem-ed25519 not*base64 red", KeyFormatError, r"not valid base64"),
        (f"pbem-ed25519 {b64(PUB1[:31])} red", KeyFormatError, r"decodes to 31 bytes"),
        ("pbem-ed25519", KeyFormatError, r"no key data"),
        ("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBAD me", KeyFormatError, r"not a valid OpenSSH ed25519 public key \(its key data is not shown"),
        (f"pbem-ed25519-private {b64(SEED1)} red", KeyFormatError, r"is a private key"),
        (f'from="10.0.0.1" ssh-ed25519 {b64(ssh_blob(PUB1))}', KeyFormatError, r"authorized_keys options"),
        ("hello world", KeyFormatError, r"expected a public key line"),
    ],
)
def test_load_public_key_rejects(line, error, pattern):
    with pytest.raises(error, match=pattern) as info:
        load_public_key(f"# comment\n{line}\n", "keys/red.pub")
    assert str(info.value).startswith("keys/red.pub:2: ")


def test_ssh_rsa_key_gets_its_own_class_and_still_a_key_format_error():
    assert issubclass(UnsupportedKeyTypeError, KeyFormatError)


@needs_ssh_keygen
def test_real_rsa_and_ecdsa_public_keys_are_refused(tmp_path):
    for name, kind in (("r", "rsa"), ("e", "ecdsa")):
        path = keygen(tmp_path, name, "-t", kind)
        with pytest.raises(UnsupportedKeyTypeError, match="only Ed25519"):
            load_public_key(path.with_suffix(".pub").read_text(), str(path))


def test_load_public_key_no_key_and_two_keys():
    with pytest.raises(KeyFormatError, match=r"^empty.pub: no public key found"):
        load_public_key("# nothing\n\n", "empty.pub")
    two = f"pbem-ed25519 {b64(PUB1)} a\npbem-ed25519 {b64(PUB2)} b\n"
    with pytest.raises(KeyFormatError, match=r"^two.pub:2: a second key line .* first is on line 1"):
        load_public_key(two, "two.pub")


# --- private keys ---------------------------------------------------------------------------------


def test_load_pbem_private_key_rfc8032_seed():
    text = f"# secret\n\npbem-ed25519-private {b64(SEED1)} red\n# trailing comment\n"
    key = load_private_key(text, "red.key")
    assert key.public_key().raw == PUB1
    assert key.comment == "red"
    assert key.sign(b"") == SIG1
    assert b64(SEED1) not in repr(key)


def test_private_key_errors_do_not_quote_secret_material():
    text = f"pbem-ed25519-private {b64(SEED1)} red\npbem-ed25519-private {b64(SEED2)} blue\n"
    with pytest.raises(KeyFormatError, match=r"^red.key:2: a second key line") as info:
        load_private_key(text, "red.key")
    assert b64(SEED1) not in str(info.value) and b64(SEED2) not in str(info.value)
    with pytest.raises(KeyFormatError, match=r"^x.key:1: a line starting 'xyz'") as info:
        load_private_key(f"xyz {b64(SEED1)}\n", "x.key")
    assert b64(SEED1) not in str(info.value)


@pytest.mark.parametrize(
    "text,pattern",
    [
        (f"pbem-ed25519 {b64(PUB1)} red\n", r"^k:1: .* is a public key"),
        (f"pbem-ed25519-private {b64(SEED1[:16])} red\n", r"^k:1: key data decodes to 16 bytes"),
        ("pbem-ed25519-private ***\n", r"^k:1: key data is not valid base64"),
        ("-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIA==\n-----END PRIVATE KEY-----\n", r"^k:1: .* PEM private key"),
        ("\n# only comments\n", r"^k: no private key found"),
    ],
)
def test_load_private_key_rejects(text, pattern):
    with pytest.raises(KeyFormatError, match=pattern):
        load_private_key(text, "k")


@needs_ssh_keygen
def test_load_openssh_private_key_from_ssh_keygen(tmp_path):
    path = keygen(tmp_path, "green", "-t", "ed25519")
    key = load_private_key(path.read_text(), str(path))
    expected = load_public_key(path.with_suffix(".pub").read_text(), "green.pub")
    assert key.public_key() == expected
    assert key.comment == "green@example.org"
    # A signature by the loaded key verifies under the public key ssh-keygen wrote.
    assert expected.verify(key.sign(b"walk red3 0607 0608"), b"walk red3 0607 0608")


@needs_ssh_keygen
def test_encrypted_openssh_key_is_refused_with_advice(tmp_path):
    path = tmp_path / "locked"
    subprocess.run([SSH_KEYGEN, "-q", "-t", "ed25519", "-N", "correct horse", "-f", str(path)], check=True)
    with pytest.raises(EncryptedKeyError, match=r"encrypted with a passphrase.*ssh-keygen -Y sign") as info:
        load_private_key(path.read_text(), str(path))
    assert str(path) in str(info.value)


@needs_ssh_keygen
def test_openssh_rsa_private_key_is_refused(tmp_path):
    path = keygen(tmp_path, "rsa", "-t", "rsa", "-b", "2048")
    with pytest.raises(UnsupportedKeyTypeError, match=r"ssh-rsa key; pbem supports only Ed25519"):
        load_private_key(path.read_text(), str(path))


@needs_ssh_keygen
def test_cut_short_openssh_key(tmp_path):
    path = keygen(tmp_path, "cut", "-t", "ed25519")
    lines = path.read_text().splitlines()
    with pytest.raises(KeyFormatError, match=r":1: no '-----END OPENSSH PRIVATE KEY-----' line"):
        load_private_key("\n".join(lines[:-1]), "cut")
    with pytest.raises(KeyFormatError, match=r"truncated"):
        load_private_key("\n".join(lines[:3] + lines[-1:]), "cut")


# --- generating and writing -----------------------------------------------------------------------


def test_generate_keypair_round_trip():
    private_text, public_text = generate_keypair("red")
    assert public_text.endswith("\n") and public_text.count("\n") == 1
    tag, data, name = public_text.split()
    assert (tag, name) == ("pbem-ed25519", "red") and len(base64.b64decode(data)) == 32
    key_lines = [line for line in private_text.splitlines() if not line.startswith("#")]
    tag, data, name = key_lines[0].split()
    assert (tag, name) == ("pbem-ed25519-private", "red") and len(base64.b64decode(data)) == 32
    private = load_private_key(private_text, "red.key")
    public = load_public_key(public_text, "red.pub")
    assert private.public_key() == public
    assert public.verify(private.sign(b"orders"), b"orders")
    assert generate_keypair("red")[1] != public_text  # fresh randomness each time


@pytest.mark.parametrize("name", ["", " red", "red ", "red\nblue", "red\tblue", "a\u2028b"])
def test_generate_keypair_bad_names(name):
    with pytest.raises(KeyNameError):
        generate_keypair(name)


def test_generate_keypair_name_with_inner_space_round_trips():
    _, public_text = generate_keypair("Red Player")
    assert load_public_key(public_text, "p").comment == "Red Player"


@pytest.fixture
def umask_022():
    old = os.umask(0o022)
    yield
    os.umask(old)


def test_write_secret_file_mode_and_refusal(tmp_path, umask_022):
    path = tmp_path / "red.key"
    write_secret_file(path, "secret\n")
    assert path.read_text() == "secret\n"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    with pytest.raises(KeyExistsError, match=str(path)):
        write_secret_file(path, "other\n")
    assert path.read_text() == "secret\n"


def test_write_public_file_mode_exact_even_under_strict_umask(tmp_path):
    old = os.umask(0o077)
    try:
        path = tmp_path / "red.pub"
        write_public_file(path, "pub\n")
    finally:
        os.umask(old)
    assert stat.S_IMODE(path.stat().st_mode) == 0o644
    with pytest.raises(KeyExistsError):
        write_public_file(path, "pub\n")


def test_write_secret_file_refuses_a_symlink(tmp_path):
    target = tmp_path / "elsewhere"
    link = tmp_path / "red.key"
    link.symlink_to(target)  # dangling: O_EXCL must not follow it
    with pytest.raises(KeyExistsError):
        write_secret_file(link, "secret\n")
    assert not target.exists()


# --- master key -----------------------------------------------------------------------------------


def test_master_key_round_trip_and_format(tmp_path):
    path = tmp_path / MASTER_KEY_FILE
    key = create_master_key(path)
    assert len(key) == 32
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    lines = path.read_text().splitlines()
    assert lines[0].startswith("#") and base64.b64decode(lines[1], validate=True) == key
    assert load_master_key(path) == key
    with pytest.raises(KeyExistsError):
        create_master_key(path)
    assert load_master_key(path) == key


def test_master_key_readable_by_others_is_refused(tmp_path):
    path = tmp_path / MASTER_KEY_FILE
    key = create_master_key(path)
    for mode in (0o640, 0o604, 0o620):
        os.chmod(path, mode)
        with pytest.raises(KeyPermissionError, match=rf"mode 0{mode:o}.*chmod 600"):
            load_master_key(path)
    assert load_master_key(path, check_permissions=False) == key
    os.chmod(path, 0o400)
    assert load_master_key(path) == key


@pytest.mark.parametrize(
    "text,pattern",
    [
        (f"# header\n{b64(bytes(31))}\n", r":2: decodes to 31 bytes; a master key is 32 bytes"),
        ("# header\nnot base64!\n", r":2: not valid base64"),
        ("# header only\n", r"no key line found"),
        (f"{b64(bytes(32))}\n{b64(bytes(32))}\n", r":2: a second key line"),
    ],
)
def test_master_key_bad_files(tmp_path, text, pattern):
    path = tmp_path / "m.key"
    write_secret_file(path, text)
    with pytest.raises(KeyFormatError, match=pattern) as info:
        load_master_key(path)
    assert str(path) in str(info.value)


# Seat keys of small order (found by a fresh-eyes tester): under the identity point (01 00 .. 00)
# RFC 8032 verification, as OpenSSL does it, accepts R = [r]B, S = r for any message, so anyone
# could sign orders for that seat. Such keys are refused where keys are read.

_P = 2**255 - 19
_D = -121665 * pow(121666, -1, _P) % _P


def _decode(raw: bytes):
    """RFC 8032 5.1.3: the point (x, y) a 32-byte encoding names (y taken mod p), or None."""
    n = int.from_bytes(raw, "little")
    y, sign = (n & (2**255 - 1)) % _P, n >> 255
    u, v = (y * y - 1) % _P, (_D * y * y + 1) % _P
    x = u * pow(v, 3, _P) * pow(u * pow(v, 7, _P), (_P - 5) // 8, _P) % _P
    if v * x * x % _P != u:
        x = x * pow(2, (_P - 1) // 4, _P) % _P
        if v * x * x % _P != u:
            return None
    if x % 2 != sign:
        x = (_P - x) % _P
    return x, y


def _add(a, b):
    """Edwards addition on -x^2 + y^2 = 1 + d x^2 y^2 (RFC 8032 5.1.4, affine)."""
    (x1, y1), (x2, y2) = a, b
    t = _D * x1 * x2 * y1 * y2 % _P
    return ((x1 * y2 + y1 * x2) * pow(1 + t, -1, _P) % _P,
            (y1 * y2 + x1 * x2) * pow(1 - t, -1, _P) % _P)


def _times_8(point):
    for _ in range(3):
        point = _add(point, point)
    return point


def test_the_small_order_blocklist_holds_exactly_points_of_small_order():
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from pbem.crypto.keyread import _SMALL_ORDER

    for raw in _SMALL_ORDER:
        for sign in (0, 0x80):  # either sign of x
            point = _decode(raw[:31] + bytes([raw[31] | sign]))
            assert point is None or _times_8(point) == (0, 1), raw.hex()
    # the eight points of order dividing 8 are all named (each by a canonical encoding)
    named = {_decode(raw[:31] + bytes([raw[31] | s])) for raw in _SMALL_ORDER for s in (0, 0x80)}
    assert len(named - {None}) == 8
    real = _decode(Ed25519PrivateKey.generate().public_key().public_bytes_raw())
    assert _times_8(real) != (0, 1)


@pytest.mark.parametrize("raw", [bytes([1]) + bytes(31), bytes(32),
                                 bytes.fromhex("ecff" + "ff" * 29 + "7f"),
                                 bytes.fromhex("26e8958fc2b227b045c3f489f2ef98f0"
                                               "d5dfac05d3c63339b13802886d53fc85")],
                         ids=["identity", "order-4", "order-2", "order-8-negative-x"])
def test_a_public_key_of_small_order_is_refused(raw):
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from pbem.crypto.keys import KeyFormatError, load_public_key

    line = f"pbem-ed25519 {base64.b64encode(raw).decode()} red"
    with pytest.raises(KeyFormatError, match=r"seat\.pub:1: .*small order"):
        load_public_key(line, "seat.pub")
    blob = (len(b"ssh-ed25519").to_bytes(4, "big") + b"ssh-ed25519"
            + (32).to_bytes(4, "big") + raw)
    with pytest.raises(KeyFormatError, match="small order"):
        load_public_key(f"ssh-ed25519 {base64.b64encode(blob).decode()} red", "seat.pub")
    good = Ed25519PrivateKey.generate().public_key().public_bytes_raw()
    assert load_public_key(f"pbem-ed25519 {base64.b64encode(good).decode()} red",
                           "seat.pub").raw == good
