"""A fuzzed mail corpus (issue 7, item 9): random MIME structures, headers, encodings and garbage.

Whatever the bytes, :func:`pbem.mail.extract.extract` must not raise, must return text bounded
by the input's size, and :func:`pbem.crypto.find.find_signed_in` over its output must not raise.
``max_examples`` is 200 by default; set ``PBEM_FUZZ_EXAMPLES`` for a longer run.
"""

from __future__ import annotations

import base64
import os
import quopri

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.crypto.envelope import sign_text
from pbem.crypto.find import find_signed_in
from pbem.crypto.keys import PrivateKey
from pbem.mail.extract import extract

EXAMPLES = int(os.environ.get("PBEM_FUZZ_EXAMPLES", "200"))
KEY = PrivateKey(bytes.fromhex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60"), "red")
SIGNED = sign_text("game: atl-7\nturn: 3\nphase: movement\nrole: red\n\nmove 4 from 0507 to 0607\n", KEY)

CHARSETS = ["utf-8", "iso-8859-1", "us-ascii", "windows-1252", "latin1", "utf-16", "x-klingon", "", '"',
            "utf-8\x00", "base64", "rot13", "idna", " ISO-8859-1 "]
CTES = ["7bit", "8bit", "binary", "base64", "base64 ", "Base64", "quoted-printable", "Quoted-Printable\t",
        "x-uuencode", "x-unknown", "", "base64 (c)"]
TYPES = ["text/plain", "text/html", "application/octet-stream", "application/x-ssh-signature",
         "text/plain; format=flowed", "text/plain; format=flowed; delsp=yes", "message/rfc822",
         "message/partial", "image/png", "text/", "/", "multipart/mixed"]
BODIES = st.one_of(
    st.binary(max_size=300),
    st.text(max_size=200).map(lambda t: t.encode("utf-8", "surrogatepass")),
    st.just(SIGNED.encode()),
    st.just(b"<blockquote>" * 50 + b"a<br>" * 20),
    st.just(b"-----BEGIN SSH SIGNATURE-----\nU1NIU0lH\n-----END SSH SIGNATURE-----\n"),
    st.just(b"From: x@y\n\ninner\n"),
)
JUNK_HEADERS = st.lists(
    st.one_of(
        st.sampled_from([
            "Subject: =?utf-8?q?a=0Ab?=", "From: \"unterminated", "Date: x", "Reply-To: <<@>>",
            "Content-Disposition: attachment; filename*=utf-8''x%FF.sig", "X: " + "y" * 20000,
            "Content-Type: text/plain" + "; a=b" * 100, "Auto-Submitted: auto-replied", " continuation",
        ]),
        st.text(alphabet=st.characters(codec="latin-1"), max_size=60),
    ),
    max_size=4,
)


def _encode(data: bytes, cte: str) -> bytes:
    token = cte.strip().lower()
    if token.startswith("base64"):
        return base64.encodebytes(data)
    if token == "quoted-printable":
        return quopri.encodestring(data)
    return data


@st.composite
def parts(draw, depth=0):
    if depth < 4 and draw(st.integers(0, 3)) == 0:
        boundary = draw(st.sampled_from(["b", "B1", "x" * 70, "=_", ""])) + str(depth)
        children = draw(st.lists(parts(depth + 1), max_size=4))
        subtype = draw(st.sampled_from(["mixed", "alternative", "related", "signed"]))
        body = b"".join(b"--" + boundary.encode() + b"\n" + c + b"\n" for c in children)
        if draw(st.booleans()):
            body += b"--" + boundary.encode() + b"--\n"
        return f'Content-Type: multipart/{subtype}; boundary="{boundary}"\n\n'.encode() + body
    ctype = draw(st.sampled_from(TYPES))
    charset = draw(st.sampled_from(CHARSETS))
    cte = draw(st.sampled_from(CTES))
    name = draw(st.sampled_from([None, "orders.txt", "orders.txt.sig", "x.eml", "f\u00e9.orders"]))
    body = draw(BODIES)
    if ctype == "message/rfc822" and draw(st.booleans()):
        body = draw(parts(depth + 1))
    headers = [f"Content-Type: {ctype}" + (f"; charset={charset}" if charset else "")]
    if cte:
        headers.append(f"Content-Transfer-Encoding: {cte}")
    if name:
        headers.append(f"Content-Disposition: attachment; filename=\"{name}\"")
    headers += draw(JUNK_HEADERS)
    text = "\n".join(headers).encode("utf-8", "surrogatepass")
    return text + b"\n\n" + _encode(body, cte)


@st.composite
def messages(draw):
    top = b"From: red@example.org\nSubject: fuzz\nMIME-Version: 1.0\n" + draw(parts())
    if draw(st.booleans()):
        top = top.replace(b"\n", b"\r\n")
    if draw(st.integers(0, 4)) == 0:  # cut short, or garbage spliced in
        cut = draw(st.integers(0, len(top)))
        top = top[:cut] + draw(st.binary(max_size=50)) + top[cut:]
    return top


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(messages())
def test_extract_never_raises_and_its_output_is_bounded(raw):
    got = extract(raw)
    total = sum(len(text) for _, text in got.texts)
    total += sum(len(t) for alts in got.alternates.values() for t in alts)
    # Decoding never makes more than a few characters per input byte: each text and its few
    # alternate readings are each at most ~4 characters per byte (HTML layout), plus slack.
    assert total <= 40 * len(raw) + 100_000
    assert sum(len(d) for d in got.raw_bytes.values()) <= 2 * len(raw) + 1000
    assert all(isinstance(w, str) and w for w in got.warnings)
    assert set(got.alternates) <= set(range(len(got.texts)))
    assert set(got.raw_bytes) <= set(range(len(got.texts)))
    find_signed_in(got)


@settings(max_examples=EXAMPLES, deadline=None)
@given(st.binary(max_size=3000))
def test_garbage_bytes_never_raise(raw):
    find_signed_in(extract(raw))
    find_signed_in(extract(raw, bare=True))
