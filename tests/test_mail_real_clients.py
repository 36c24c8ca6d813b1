"""Mail as real clients send it that pbem used to misread (issue 7), from the message to the verdict.

Each test builds the message the way the client writes it (or reads a small sample from
tests/data/mail_hostile/) and checks :func:`pbem.mail.extract.extract` followed by
:func:`pbem.crypto.find.find_signed_in`. Expected values come from the standards: RFC 2045
section 6 (transfer encodings), the WHATWG Encoding Standard (windows-1252 and its labels),
RFC 3676 (format=flowed), RFC 2046 section 5.2.1 (message/rfc822), and for SSH signatures the
real ``ssh-keygen -Y check-novalidate`` on the same bytes.
"""

from __future__ import annotations

import base64
import shutil
import subprocess
from pathlib import Path

import pytest

from pbem.crypto.envelope import sign_text
from pbem.crypto.find import BadSignature, Signed, find_signed, find_signed_in
from pbem.crypto.keys import PrivateKey
from pbem.mail.charsets import WINDOWS_1252_LABELS, decode_windows_1252
from pbem.mail.extract import extract

DATA = Path(__file__).parent / "data" / "mail_hostile"
SSH_KEYGEN = shutil.which("ssh-keygen")
needs_ssh_keygen = pytest.mark.skipif(SSH_KEYGEN is None, reason="ssh-keygen (OpenSSH) is not installed")

# RFC 8032 section 7.1 TEST 1 (never a real player's key).
KEY = PrivateKey(bytes.fromhex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60"), "red")
HEAD = (
    "game: atl-7\nturn: 3\nphase: movement\nrole: red\n"
    "nonce: 5b0f0c9e2d7a4c1e9f3b8a6d2e4f6a8c\nissued: 2026-11-29T20:15:00Z\n\n"
)
ORDERS = HEAD + "move 4 from 0507 to 0607\nsink 0608\n"


def only_signed(raw: bytes) -> Signed:
    found = find_signed_in(extract(raw))
    assert len(found) == 1, found
    assert isinstance(found[0], Signed), found[0]
    return found[0]


def mail(headers: str, body: bytes) -> bytes:
    return b"From: red@example.org\r\nSubject: orders\r\nMIME-Version: 1.0\r\n" + headers.encode() + b"\r\n\r\n" + body


# -- 3. Content-Transfer-Encoding written with other case or white space -----------------------


@pytest.mark.parametrize("cte", ["base64 ", "Base64", "\tbase64", "BASE64\t", "base64 (Outlook)", " base64"])
def test_base64_with_any_case_or_white_space_is_decoded(cte):
    envelope = sign_text(ORDERS, KEY)
    encoded = base64.encodebytes(envelope.encode("utf-8")).replace(b"\n", b"\r\n")
    raw = mail(f"Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: {cte}", encoded)
    got = extract(raw)
    assert got.texts == [("body", envelope)]
    assert only_signed(raw).text == ORDERS.rstrip("\n")


@pytest.mark.parametrize("cte", ["quoted-printable ", "Quoted-Printable", "QUOTED-PRINTABLE\t"])
def test_quoted_printable_with_any_case_or_white_space_is_decoded(cte):
    text = "game: atl-7\nnote: caf\u00e9\n"
    # RFC 2045 6.7: U+00E9 in UTF-8 is C3 A9, written =C3=A9.
    raw = mail(f"Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: {cte}",
               b"game: atl-7\r\nnote: caf=C3=A9\r\n")
    assert extract(raw).texts == [("body", text)]


def test_sample_with_a_trailing_space_after_base64():
    raw = (DATA / "cte_trailing_space.eml").read_bytes()
    assert b"Content-Transfer-Encoding: base64 \r\n" in raw
    assert only_signed(raw).text == ORDERS.rstrip("\n")


# -- 4. windows-1252 under its WHATWG labels --------------------------------------------------

SMART = HEAD + "move 4 from 0507 to 0607\nnote: \u201cthe long way\u201d \u2013 5\u20ac\n"


def test_the_five_bytes_python_leaves_undefined_follow_the_whatwg_index():
    # WHATWG index-windows-1252: pointers 1, 13, 15, 16 and 29 are U+0081, U+008D, U+008F,
    # U+0090 and U+009D; 0x93/0x94 are U+201C/U+201D, 0x80 is U+20AC.
    assert decode_windows_1252(b"\x81\x8d\x8f\x90\x9d") == "\u0081\u008d\u008f\u0090\u009d"
    assert decode_windows_1252(b"\x93a\x94\x80") == "\u201ca\u201d\u20ac"
    with pytest.raises(UnicodeDecodeError):
        b"\x81".decode("cp1252")  # why pbem has its own decoder


@pytest.mark.parametrize("label", sorted(WINDOWS_1252_LABELS) + [None, "ISO-8859-1", " Latin1 "])
def test_smart_quotes_signed_as_unicode_and_sent_as_windows_1252_verify(label):
    envelope = sign_text(SMART, KEY)
    body = envelope.encode("cp1252").replace(b"\n", b"\r\n")  # what Outlook puts on the wire
    assert b"\x93the long way\x94 \x96 5\x80" in body
    ctype = "text/plain" + (f'; charset="{label}"' if label is not None else "")
    raw = mail(f"Content-Type: {ctype}\r\nContent-Transfer-Encoding: 8bit", body)
    signed = only_signed(raw)
    assert "\u201cthe long way\u201d \u2013 5\u20ac" in signed.text


def test_latin1_label_on_utf8_bytes_still_verifies_through_the_alternate_reading():
    envelope = sign_text(SMART, KEY)
    raw = mail("Content-Type: text/plain; charset=iso-8859-1\r\nContent-Transfer-Encoding: 8bit",
               envelope.encode("utf-8"))
    got = extract(raw)
    assert "\u00e2\u20ac\u0153" in got.texts[0][1]  # U+201C's UTF-8 bytes E2 80 9C as windows-1252
    assert got.alternates == {0: [envelope]}
    assert only_signed(raw).text == SMART.rstrip("\n")


# -- 5. format=flowed declared, nothing space-stuffed -----------------------------------------

TYPED = HEAD + "From 0606 sail to 0607\n  (the long way round)\n>>> not a quote\nsink 0608\n"


def test_flowed_without_space_stuffing_verifies_as_typed():
    envelope = sign_text(TYPED, KEY)
    raw = mail("Content-Type: text/plain; charset=utf-8; format=flowed", envelope.encode())
    got = extract(raw)
    assert "\n (the long way round)\n" in got.texts[0][1]  # unstuffed: one space lost
    found = find_signed_in(got)
    assert len(found) == 1 and isinstance(found[0], Signed)  # one envelope, one result
    assert found[0].text == TYPED.rstrip("\n")


def test_flowed_with_soft_breaks_and_no_space_stuffing_verifies():
    long_line = "note: the boat at 0608 carries two of my people, so move it first please"
    envelope = sign_text(HEAD + long_line + "\n  (indented)\n", KEY)
    cut = long_line.index("so ")
    sent = envelope.replace(long_line, long_line[:cut] + "\n" + long_line[cut:])  # "..., " ends flowed
    raw = mail("Content-Type: text/plain; charset=utf-8; format=flowed", sent.encode())
    assert only_signed(raw).text.endswith(long_line + "\n  (indented)")


def test_properly_stuffed_flowed_text_needs_no_alternate():
    envelope = sign_text(TYPED, KEY)
    stuffed = "".join((" " + line if line.startswith((" ", "From ", ">")) else line) + "\n"
                      for line in envelope.split("\n")[:-1])
    raw = mail("Content-Type: text/plain; charset=utf-8; format=flowed", stuffed.encode())
    got = extract(raw)
    assert got.texts == [("body", envelope)]
    assert only_signed(raw).text == TYPED.rstrip("\n")


# -- 6. orders inside a forwarded message -----------------------------------------------------


def forwarded(inner: bytes, cte: str = "7bit", boundary: str = "OUT") -> bytes:
    b = boundary.encode()
    return (
        b"From: red@example.org\nSubject: Fwd: orders\nMIME-Version: 1.0\n"
        b'Content-Type: multipart/mixed; boundary="' + b + b'"\n\n'
        b"--" + b + b"\nContent-Type: text/plain\n\nSee the forwarded mail.\n"
        b"--" + b + b"\nContent-Type: message/rfc822\nContent-Transfer-Encoding: " + cte.encode() + b"\n"
        b"Content-Disposition: attachment; filename=orders.eml\n\n" + inner + b"\n--" + b + b"--\n"
    )


INNER = (
    b"From: red@example.org\nSubject: orders\nMIME-Version: 1.0\n"
    b'Content-Type: multipart/mixed; boundary="IN"\n\n'
    b"--IN\nContent-Type: text/plain; charset=utf-8\n\n" + sign_text(ORDERS, KEY).encode() +
    b"--IN\nContent-Type: text/plain; charset=utf-8\nContent-Disposition: attachment; filename=orders.txt\n\n"
    + ORDERS.encode() + b"--IN--\n"
)


def test_signed_orders_in_a_message_forwarded_as_attachment_are_read():
    got = extract(forwarded(INNER))
    assert [name for name, _ in got.texts] == ["body", "forwarded/body", "forwarded/orders.txt"]
    assert got.texts[2][1] == ORDERS[:-1]  # RFC 2046 5.1.1: the LF before "--IN--" is the delimiter's
    assert got.warnings == []
    found = find_signed_in(got)
    assert len(found) == 1 and isinstance(found[0], Signed) and found[0].source == "forwarded/body"


def test_a_base64_encoded_forwarded_message_is_read():
    got = extract(forwarded(base64.encodebytes(INNER), "base64"))
    assert [name for name, _ in got.texts] == ["body", "forwarded/body", "forwarded/orders.txt"]


def test_forwards_nested_too_deep_are_not_read_with_a_plain_warning():
    message = INNER
    for level in range(5):
        message = forwarded(message, boundary=f"OUT{level}")
    got = extract(message)
    names = [name for name, _ in got.texts]
    assert "forwarded/forwarded/forwarded/body" in names
    assert not any(name.startswith("forwarded/" * 4) for name in names)
    assert any("forwarded more than 3 times" in w for w in got.warnings)


# -- 7. SSH-signed files attached byte for byte -----------------------------------------------

LF_ORDERS = ORDERS.encode()
FORMS = {
    "crlf_trailing_spaces": LF_ORDERS.replace(b"\n", b"  \r\n"),
    "utf8_bom": b"\xef\xbb\xbf" + LF_ORDERS,
    "utf8_bom_crlf": b"\xef\xbb\xbf" + LF_ORDERS.replace(b"\n", b"\r\n"),
    "mixed_line_ends": LF_ORDERS.replace(b"\n", b"\r\n", 3),
    "trailing_tab_no_final_newline": LF_ORDERS.rstrip(b"\n").replace(b"sink 0608", b"sink 0608\t"),
}


@pytest.fixture(scope="module")
def ssh_key(tmp_path_factory):
    folder = tmp_path_factory.mktemp("ssh")
    key = folder / "id_ed25519"
    subprocess.run([SSH_KEYGEN, "-q", "-t", "ed25519", "-N", "", "-C", "red", "-f", str(key)], check=True)
    return key


def ssh_sign(key: Path, data: bytes, folder: Path) -> bytes:
    path = folder / "orders.txt"
    path.write_bytes(data)
    subprocess.run([SSH_KEYGEN, "-Y", "sign", "-f", str(key), "-n", "pbem-orders", str(path)],
                   check=True, capture_output=True)
    sig = (folder / "orders.txt.sig").read_bytes()
    # The independent check: OpenSSH itself accepts exactly these bytes.
    check = subprocess.run([SSH_KEYGEN, "-Y", "check-novalidate", "-n", "pbem-orders", "-s",
                            str(folder / "orders.txt.sig")], input=data, capture_output=True)
    assert check.returncode == 0, check.stderr
    return sig


def attached(data: bytes, sig: bytes, ctype: str = "text/plain; charset=utf-8") -> bytes:
    def b64(x: bytes) -> bytes:
        return base64.encodebytes(x)
    return (
        b"From: red@example.org\nSubject: orders\nMIME-Version: 1.0\n"
        b'Content-Type: multipart/mixed; boundary="B"\n\n'
        b"--B\nContent-Type: text/plain\n\nMy orders are attached.\n"
        b"--B\nContent-Type: " + ctype.encode() + b"; name=orders.txt\nContent-Transfer-Encoding: base64\n"
        b"Content-Disposition: attachment; filename=orders.txt\n\n" + b64(data) +
        b"--B\nContent-Type: application/octet-stream; name=orders.txt.sig\nContent-Transfer-Encoding: base64\n"
        b"Content-Disposition: attachment; filename=orders.txt.sig\n\n" + b64(sig) + b"--B--\n"
    )


@needs_ssh_keygen
@pytest.mark.parametrize("form", sorted(FORMS))
def test_ssh_signed_file_attached_byte_for_byte_verifies(form, ssh_key, tmp_path):
    data = FORMS[form]
    sig = ssh_sign(ssh_key, data, tmp_path)
    got = extract(attached(data, sig))
    index = [name for name, _ in got.texts].index("orders.txt")
    assert got.raw_bytes[index] == data  # the bytes received, before any decoding
    found = find_signed_in(got)
    assert len(found) == 1 and isinstance(found[0], Signed), found
    assert found[0].source == "orders.txt" and found[0].sig_file == "orders.txt.sig"
    assert found[0].text == ORDERS.rstrip("\n")


@needs_ssh_keygen
def test_without_the_raw_bytes_such_files_fail(ssh_key, tmp_path):
    got = extract(attached(FORMS["mixed_line_ends"], ssh_sign(ssh_key, FORMS["mixed_line_ends"], tmp_path)))
    [bad] = find_signed(got.texts, got.sig_files)  # the old call: decoded texts only
    assert isinstance(bad, BadSignature)


@needs_ssh_keygen
def test_a_damaged_file_with_mixed_line_ends_gets_the_hint(ssh_key, tmp_path):
    data = FORMS["mixed_line_ends"]
    sig = ssh_sign(ssh_key, data, tmp_path)
    got = extract(attached(data.replace(b"sink", b"SINK"), sig))
    [bad] = find_signed_in(got)
    assert isinstance(bad, BadSignature)
    assert "mixes Windows (CR LF) and Unix (LF) line ends" in bad.reason


@needs_ssh_keygen
def test_cat_orders_and_sig_attached_as_one_crlf_file_verifies(ssh_key, tmp_path):
    data = FORMS["crlf_trailing_spaces"]
    sig = ssh_sign(ssh_key, data, tmp_path)
    both = data + sig  # `cat orders.txt orders.txt.sig`; the .sig has LF line ends
    raw = (
        b"From: red@example.org\nSubject: orders\nMIME-Version: 1.0\n"
        b'Content-Type: multipart/mixed; boundary="B"\n\n'
        b"--B\nContent-Type: text/plain\n\nAttached.\n"
        b"--B\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: base64\n"
        b"Content-Disposition: attachment; filename=signed.txt\n\n" + base64.encodebytes(both) + b"--B--\n"
    )
    found = find_signed_in(extract(raw))
    assert len(found) == 1 and isinstance(found[0], Signed) and found[0].source == "signed.txt"


@needs_ssh_keygen
def test_ssh_signed_body_sent_as_base64_verifies_from_its_raw_bytes(ssh_key, tmp_path):
    data = FORMS["utf8_bom_crlf"]
    sig = ssh_sign(ssh_key, data, tmp_path)
    raw = (
        b"From: red@example.org\nSubject: orders\nMIME-Version: 1.0\n"
        b'Content-Type: multipart/mixed; boundary="B"\n\n'
        b"--B\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: base64\n\n"
        + base64.encodebytes(data) +
        b"--B\nContent-Type: application/x-ssh-signature\nContent-Disposition: attachment; filename=o.sig\n\n"
        + sig + b"--B--\n"
    )
    found = find_signed_in(extract(raw))
    assert len(found) == 1 and isinstance(found[0], Signed) and found[0].source == "body"
