"""The order in which a detached SSH signature's candidate texts are checked
(pbem.crypto.likely; docs/signing.md, section 4): the likeliest first, and what is found never
depends on the order. Signatures made by the real ``ssh-keygen -Y sign -n pbem-orders``."""

from __future__ import annotations

import shutil
import subprocess
from datetime import datetime, timezone

import pytest

from pbem.crypto.canonical import canonical_text
from pbem.mail.clients import order_mail

pytestmark = pytest.mark.skipif(shutil.which("ssh-keygen") is None,
                                reason="ssh-keygen is not installed")

ORDERS = ("game: g1\nturn: 3\nphase: move\nrole: blue\nnonce: 0123456789abcdef0123456789abcdef\n"
          "issued: 2026-12-01T18:00:00Z\n\nship 0803 1004\nmonster 0202\n")


@pytest.fixture
def key(tmp_path):
    path = tmp_path / "id_ed25519"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "blue@laptop", "-f",
                    str(path)], check=True)
    return path


def sign(text: str, key, tmp_path) -> bytes:
    target = tmp_path / "orders.txt"
    target.write_text(text, encoding="utf-8")
    (tmp_path / "orders.txt.sig").unlink(missing_ok=True)
    subprocess.run(["ssh-keygen", "-q", "-Y", "sign", "-f", str(key), "-n", "pbem-orders",
                    str(target)], check=True, capture_output=True)
    return (tmp_path / "orders.txt.sig").read_bytes()


def found_in(raw: bytes, monkeypatch):
    """What pbem.crypto.find finds in the mail ``raw``, and the byte strings it checked, in
    order."""
    import pbem.crypto.likely as likely
    from pbem.crypto.find import find_signed_in
    from pbem.mail.extract import extract

    checked = []
    real = likely.verify_ssh_signature

    def counting(sig, data, namespace):
        checked.append(data)
        return real(sig, data, namespace)

    monkeypatch.setattr(likely, "verify_ssh_signature", counting)
    return find_signed_in(extract(raw)), checked


@pytest.mark.parametrize("form", ["plain", "quoted-printable", "flowed"])
def test_orders_followed_by_a_sign_off_are_checked_first_without_it(form, key, tmp_path,
                                                                     monkeypatch):
    """The mail says "Hello referee, my orders: ... Thanks!" (pbem.mail.clients) with the
    orders file attached as a .sig: the file is the orders alone, found at the first check."""
    raw = order_mail(form, sender="blue@p.example", to="r@j.example", subject="orders",
                     signed=ORDERS, sig=sign(ORDERS, key, tmp_path),
                     date=datetime(2026, 12, 1, tzinfo=timezone.utc))
    (signed,), checked = found_in(raw, monkeypatch)
    assert signed.text == canonical_text(ORDERS) and signed.sig_file == "orders.txt.sig"
    assert checked == [ORDERS.encode()]


def test_a_file_that_ends_with_its_last_paragraph_is_found_all_the_same(key, tmp_path,
                                                                        monkeypatch):
    """Signed with the sign-off in the file: the region without it is tried first and fails;
    the whole region is found next (every candidate is still tried, only the order moved)."""
    whole = ORDERS + "\nThanks!\n"
    raw = order_mail("plain", sender="blue@p.example", to="r@j.example", subject="orders",
                     signed=ORDERS, sig=sign(whole, key, tmp_path),
                     date=datetime(2026, 12, 1, tzinfo=timezone.utc))
    (signed,), checked = found_in(raw, monkeypatch)
    assert signed.text == canonical_text(whole)
    assert checked[0] == ORDERS.encode() and checked[-1] == whole.encode()
    assert len(checked) == len(set(checked))  # no byte string is checked twice


def test_a_last_paragraph_with_a_number_is_not_taken_for_a_sign_off(key, tmp_path,
                                                                     monkeypatch):
    """A last paragraph with a digit ("see you at 5") may be part of the file: the whole
    region is checked first, and is the one signed here."""
    from email.message import EmailMessage

    text = ORDERS + "\nsee you at 5\n"
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "blue@p.example", "r@j.example", "orders"
    msg.set_content("Hello referee,\n\n" + text)
    msg.add_attachment(sign(text, key, tmp_path), maintype="application",
                       subtype="octet-stream", filename="orders.txt.sig")
    (signed,), checked = found_in(msg.as_bytes(), monkeypatch)
    assert signed.text == canonical_text(text)
    assert checked == [text.encode()]
