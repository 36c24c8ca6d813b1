"""Tests of pbem.mail.sources: Maildir, mbox, .eml, folders, bare files and stdin.

Expected raw bytes are the sample files' own bytes (read here, independently of the code);
mbox splitting follows RFC 4155 (a message starts at a line beginning "From ", which is not
part of the message; the empty line before the next "From " line is the separator).
"""

from __future__ import annotations

import io
import os
import shutil
from email.parser import BytesParser
from email.policy import default
from pathlib import Path

import pytest

from pbem.mail import sources
from pbem.mail.errors import MailSourceError, MailSourceNotFoundError, MailSourceUnreadableError
from pbem.mail.sources import Incoming, iter_messages, looks_like_message

DATA = Path(__file__).parent / "data" / "mail"


def message_id(raw: bytes) -> str:
    return BytesParser(policy=default).parsebytes(raw)["Message-ID"]


# -- files --------------------------------------------------------------------------------


def test_eml_file_is_one_message_with_its_exact_bytes():
    path = DATA / "thunderbird_attachment_sig.eml"
    assert list(iter_messages([str(path)])) == [Incoming(path.read_bytes(), str(path), False)]


def test_bare_orders_file():
    path = DATA / "red_orders.txt"
    assert list(iter_messages([str(path)])) == [Incoming(path.read_bytes(), str(path), True)]


def test_message_file_without_eml_suffix_is_recognised_by_its_headers(tmp_path):
    target = tmp_path / "1"
    shutil.copy(DATA / "mutt_plain_7bit.eml", target)
    (item,) = iter_messages([str(target)])
    assert item.bare is False


def test_crlf_message_without_suffix_is_recognised(tmp_path):
    target = tmp_path / "msg"
    shutil.copy(DATA / "outlook_notepad_crlf_bom.eml", target)
    (item,) = iter_messages([str(target)])
    assert item.bare is False and item.raw == target.read_bytes()


def test_mbox_with_three_messages():
    path = DATA / "three.mbox"
    items = list(iter_messages([str(path)]))
    assert [i.origin for i in items] == [f"{path}#1", f"{path}#2", f"{path}#3"]
    assert [message_id(i.raw) for i in items] == [
        "<20261129201455.GA12345@laptop.example.org>",
        "<9d1c2b3a-4e5f-4061-8a7b-6c5d4e3f2a1b@example.org>",
        "<CAF3x9q2b7YkPq0Lr5vN1m8Zs4T6u2Wd3e1Xo9aBcDeF+gH@mail.gmail.com>",
    ]
    assert all(not i.bare and i.raw.startswith(b"Return-Path: ") for i in items)
    # mboxrd quoting of the body line stays in the bytes.
    assert b"\n>From 0507 the ship sails to 0607\nsink 0608\n" in items[1].raw
    # The envelope lines are not part of any message, and the separating empty line is not
    # part of the message before it.
    whole = path.read_bytes()
    assert items[0].raw == whole[whole.index(b"Return-Path"): whole.index(b"\n\nFrom red@") + 1]


def test_empty_file_yields_nothing(tmp_path):
    (tmp_path / "empty.eml").write_bytes(b"")
    assert list(iter_messages([str(tmp_path / "empty.eml")])) == []


# -- Maildir ------------------------------------------------------------------------------


def make_maildir(root: Path) -> Path:
    maildir = root / "Maildir"
    for sub in ("new", "cur", "tmp"):
        (maildir / sub).mkdir(parents=True)
    # Delivery names start with the delivery time (seconds since 1970), as maildir(5) says.
    shutil.copy(DATA / "mutt_plain_7bit.eml", maildir / "cur" / "1764447298.M1P100.mx:2,S")
    shutil.copy(DATA / "gmail_alternative_qp.eml", maildir / "new" / "1764447305.M2P101.mx")
    shutil.copy(DATA / "apple_flowed_delsp.eml", maildir / "new" / "1764447404.M3P102.mx")
    (maildir / "tmp" / "1764447500.M4P103.mx").write_bytes(b"From: half@delivered\n")
    (maildir / "new" / ".hidden").write_bytes(b"From: x@example.org\n\nx\n")
    return maildir


def test_maildir_messages_in_new_and_cur_in_delivery_order(tmp_path):
    maildir = make_maildir(tmp_path)
    items = list(iter_messages([str(maildir)]))
    assert [i.origin for i in items] == [
        str(maildir / "cur" / "1764447298.M1P100.mx:2,S"),
        str(maildir / "new" / "1764447305.M2P101.mx"),
        str(maildir / "new" / "1764447404.M3P102.mx"),
    ]
    assert [i.raw for i in items] == [
        (DATA / "mutt_plain_7bit.eml").read_bytes(),
        (DATA / "gmail_alternative_qp.eml").read_bytes(),
        (DATA / "apple_flowed_delsp.eml").read_bytes(),
    ]
    assert not any(i.bare for i in items)
    # Reading does not move anything.
    assert sorted(os.listdir(maildir / "new")) == [".hidden", "1764447305.M2P101.mx",
                                                   "1764447404.M3P102.mx"]


def test_maildir_message_moved_to_cur_while_reading_is_still_read(tmp_path):
    maildir = make_maildir(tmp_path)
    items = iter_messages([str(maildir)])
    first = next(items)  # the folders have been listed now
    assert first.origin.endswith("1764447298.M1P100.mx:2,S")
    # A mail reader marks the next message seen, moving it from new/ to cur/.
    os.rename(
        maildir / "new" / "1764447305.M2P101.mx", maildir / "cur" / "1764447305.M2P101.mx:2,S"
    )
    # ...and another deletes the last one.
    os.unlink(maildir / "new" / "1764447404.M3P102.mx")
    rest = list(items)
    assert [i.origin for i in rest] == [str(maildir / "cur" / "1764447305.M2P101.mx:2,S")]
    assert rest[0].raw == (DATA / "gmail_alternative_qp.eml").read_bytes()


# -- folders ------------------------------------------------------------------------------


def test_plain_folder_reads_every_regular_file_sorted_by_name(tmp_path):
    folder = tmp_path / "mail"
    folder.mkdir()
    shutil.copy(DATA / "mutt_plain_7bit.eml", folder / "b.eml")
    shutil.copy(DATA / "red_orders.txt", folder / "a-orders.txt")
    shutil.copy(DATA / "three.mbox", folder / "c.mbox")
    (folder / ".DS_Store").write_bytes(b"\x00\x00\x00\x01Bud1")
    (folder / "sub").mkdir()
    shutil.copy(DATA / "gmail_alternative_qp.eml", folder / "sub" / "ignored.eml")
    items = list(iter_messages([str(folder)]))
    assert [(i.origin, i.bare) for i in items] == [
        (str(folder / "a-orders.txt"), True),
        (str(folder / "b.eml"), False),
        (str(folder / "c.mbox") + "#1", False),
        (str(folder / "c.mbox") + "#2", False),
        (str(folder / "c.mbox") + "#3", False),
    ]


def test_several_paths_in_the_order_given(tmp_path):
    paths = [str(DATA / "red_orders.txt"), str(DATA / "mutt_plain_7bit.eml")]
    assert [i.origin for i in iter_messages(paths)] == paths


# -- stdin --------------------------------------------------------------------------------


def test_stdin_message_piped_by_procmail_loses_its_envelope_line():
    message = (DATA / "mutt_plain_7bit.eml").read_bytes()
    piped = b"From blue@example.org  Sun Nov 29 20:14:58 2026\n" + message
    assert list(iter_messages(["-"], stdin=io.BytesIO(piped))) == [Incoming(message, "stdin")]


def test_stdin_message_without_envelope_line():
    message = (DATA / "outlook_notepad_crlf_bom.eml").read_bytes()
    assert list(iter_messages(["-"], stdin=io.BytesIO(message))) == [Incoming(message, "stdin")]


def test_stdin_bare_orders_and_empty_input():
    orders = (DATA / "red_orders.txt").read_bytes()
    assert list(iter_messages(["-"], stdin=io.BytesIO(orders))) == [
        Incoming(orders, "stdin", bare=True)
    ]
    assert list(iter_messages(["-"], stdin=io.BytesIO(b""))) == []


# -- sniffing -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "data, expected",
    [
        (b"From: a@example.org\nSubject: x\n\nbody", True),
        (b"Received: from x\n\tby y; Sun, 29 Nov 2026 20:00:00 +0000\nDate: x\n\n", True),
        (b"X-Mozilla-Status: 0001\r\nMessage-ID: <a@b>\r\n\r\n", True),
        (b"MIME-Version: 1.0\nContent-Type: text/plain\n", True),  # headers only, no body
        # An orders file: header-like lines, but none a mail header (DESIGN.md "Signed orders").
        (b"game: atl-7\nturn: 3\nphase: movement\nrole: red\n\nmove 4 from 0507 to 0607\n", False),
        (b"-----BEGIN SSH SIGNATURE-----\n", False),
        (b"\xef\xbb\xbfFrom: a@example.org\n\n", False),  # a BOM is not part of a field name
        (b"From: a@example.org\nnot a header line\n\n", False),
        (b" continuation first\nFrom: a@example.org\n\n", False),
        (b"", False),
    ],
)
def test_looks_like_message(data, expected):
    assert looks_like_message(data) is expected


def test_huge_header_block_is_judged_on_its_whole_lines():
    # 70 KiB of Received lines: the sniffed window ends inside a line that must not count.
    hop = b"Received: from relay1.example.org by mx.example.net; Sun, 29 Nov 2026 20:00:00 +0000\n"
    assert 0 < 65536 % len(hop) < len(b"Received:")  # the window ends before that line's colon
    data = hop * (70 * 1024 // len(hop)) + b"From: a@example.org\n\nbody\n"
    assert looks_like_message(data) is True


# -- errors -------------------------------------------------------------------------------


def test_missing_path_raises_before_anything_is_read(tmp_path):
    missing = str(tmp_path / "nope" / "Maildir")
    with pytest.raises(MailSourceNotFoundError) as caught:
        iter_messages([str(DATA / "red_orders.txt"), missing])
    assert caught.value.path == missing
    assert missing in str(caught.value)
    assert isinstance(caught.value, MailSourceError)


def test_path_below_a_file_does_not_exist():
    with pytest.raises(MailSourceNotFoundError):
        iter_messages([str(DATA / "red_orders.txt" / "x")])


def test_unreadable_file_raises_naming_it(tmp_path, monkeypatch):
    target = tmp_path / "orders.txt"
    target.write_bytes(b"game: atl-7\n")

    def refuse(path, mode="r", *args, **kwargs):
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(sources, "open", refuse, raising=False)
    with pytest.raises(MailSourceUnreadableError) as caught:
        list(iter_messages([str(target)]))
    assert caught.value.path == str(target)
    assert "Permission denied" in str(caught.value)


def test_unreadable_stdin():
    class Broken(io.RawIOBase):
        def readable(self):
            return True

        def readinto(self, buffer):
            raise OSError(5, "Input/output error")

    with pytest.raises(MailSourceUnreadableError, match="'-'.*Input/output error"):
        list(iter_messages(["-"], stdin=io.BufferedReader(Broken())))


def test_links_in_a_mail_folder_are_not_followed(tmp_path):
    """A Maildir entry that is a symbolic link (to /etc/passwd, say) is not read."""
    from pbem.mail.sources import iter_messages

    for sub in ("new", "cur", "tmp"):
        (tmp_path / "md" / sub).mkdir(parents=True)
    secret = tmp_path / "secret.txt"
    secret.write_text("root:x:0:0\n")
    (tmp_path / "md" / "new" / "1.link").symlink_to(secret)
    (tmp_path / "md" / "new" / "2.mail").write_bytes(b"From: a@b.example\nSubject: s\n\nhi\n")
    found = list(iter_messages([str(tmp_path / "md")]))
    assert [m.origin.rsplit("/", 1)[-1] for m in found] == ["2.mail"]
