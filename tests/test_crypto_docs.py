"""docs/signing.md says what the code does: its example envelope and its reference signer.

The example envelope is checked with ``cryptography`` directly (Ed25519 over the documented
prefix and canonical text) and with RFC 8032 TEST 1's public key; the documented Python
``canonical_text`` is run against the package's on generated texts.
"""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.crypto.canonical import canonical_text
from pbem.crypto.envelope import find_envelopes

DOC = (Path(__file__).resolve().parents[1] / "docs" / "signing.md").read_text(encoding="utf-8")
PUB1 = bytes.fromhex("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")


def code_blocks() -> list[str]:
    return re.findall(r"^```[a-z]*\n(.*?)^```", DOC, flags=re.S | re.M)


def example_envelope() -> str:
    [block] = [b for b in code_blocks() if b.startswith("-----BEGIN PBEM ORDERS-----\ngame:")]
    return block


def test_example_envelope_verifies_independently():
    lines = example_envelope().split("\n")
    sig_begin = lines.index("-----BEGIN PBEM SIGNATURE-----")
    body = "\n".join(lines[1:sig_begin])
    key_word, key_b64 = lines[sig_begin + 1].split()
    assert key_word == "ed25519" and base64.b64decode(key_b64) == PUB1
    signature = base64.b64decode(lines[sig_begin + 2])
    message = b"pbem-orders/1\n" + body.encode("utf-8")
    Ed25519PublicKey.from_public_bytes(PUB1).verify(signature, message)  # raises if wrong
    assert len(message) == int(re.search(r"signed message is\s+(\d+) bytes", DOC).group(1))
    digest = re.search(r"hashes to\s+`([0-9a-f]{64})`", DOC).group(1)
    assert hashlib.sha256(body.encode("utf-8")).hexdigest() == digest
    [env] = find_envelopes(example_envelope())
    assert env.verify()


def test_documented_marker_lengths():
    lengths = [int(n) for n in re.search(r"exactly as shown \((\d+), (\d+) and (\d+) ASCII", DOC).groups()]
    assert lengths == [len("-----BEGIN PBEM ORDERS-----"), len("-----BEGIN PBEM SIGNATURE-----"),
                       len("-----END PBEM SIGNATURE-----")]


def documented_canonical_text():
    [block] = [b for b in code_blocks() if b.startswith("import unicodedata")]
    namespace: dict = {}
    exec(block, namespace)  # the doc's own reference implementation
    return namespace["canonical_text"]


DOC_CANONICAL = documented_canonical_text()


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab é\u00a0\u0301\t\r\n\ufeff:>-")), max_size=80))
def test_documented_canonical_form_equals_the_code(text):
    assert DOC_CANONICAL(text) == canonical_text(text)
