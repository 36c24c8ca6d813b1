"""Mail as players' clients send it, for the demo and the tests: the same signed orders wrapped
the ways real mail clients wrap text (RFC 2045 quoted-printable, RFC 3676 format=flowed, a text
attachment, an SSH signature attachment). Built with the standard ``email`` package.
"""

from __future__ import annotations

from datetime import datetime
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid

FORMS = ("plain", "quoted-printable", "flowed", "attachment")


def flow(text: str, width: int = 72) -> str:
    """Encode ``text`` as RFC 3676 format=flowed with DelSp=yes: lines longer than ``width``
    are cut into pieces each ending in a space that the reader deletes when joining (section
    4.2), and lines starting with a space, ``>`` or ``From `` are space-stuffed (section 4.4)."""
    out = []
    for line in text.split("\n"):
        if line.startswith((" ", ">", "From ")):
            line = " " + line
        while len(line) > width:
            out.append(line[:width] + " ")
            rest = line[width:]
            line = " " + rest if rest.startswith((" ", ">", "From ")) else rest
        out.append(line)
    return "\r\n".join(out)


def _base(sender: str, to: str, subject: str, date: datetime, user_agent: str) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = to
    msg["Subject"] = subject
    msg["Date"] = format_datetime(date)
    msg["Message-ID"] = make_msgid(domain=sender.rpartition("@")[2] or "example.invalid")
    msg["User-Agent"] = user_agent
    return msg


def order_mail(form: str, *, sender: str, to: str, subject: str, signed: str, date: datetime,
               sig: bytes | None = None, greeting: str = "Hello referee,\n\nmy orders:\n\n") -> bytes:
    """A message carrying ``signed`` (a signed order text, or plain orders when ``sig`` holds
    an SSH signature file) in one of :data:`FORMS`. Returns the raw bytes (CRLF line ends)."""
    text = greeting + signed.rstrip("\n") + "\n\nThanks!\n"
    if form == "plain":
        msg = _base(sender, to, subject, date, "Mutt/2.2.9 (2022-11-12)")
        msg.set_content(text, charset="utf-8", cte="7bit" if text.isascii() else "8bit")
    elif form == "quoted-printable":
        msg = _base(sender, to, subject, date, "Microsoft Outlook 16.0")
        msg.set_content(text, charset="utf-8", cte="quoted-printable")
    elif form == "flowed":
        msg = _base(sender, to, subject, date,
                    "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Thunderbird/128.5.0")
        body = flow(text)
        msg.set_content(body + "\r\n", charset="utf-8", cte="7bit" if body.isascii() else "8bit")
        msg.replace_header("Content-Type", 'text/plain; charset=UTF-8; format=flowed; delsp=yes')
    elif form == "attachment":
        msg = _base(sender, to, subject, date, "Apple Mail (2.3776.700.51)")
        msg.set_content("Hello referee,\n\nmy orders are attached.\n", charset="utf-8")
        msg.add_attachment(signed.encode(), maintype="text", subtype="plain",
                           filename="orders.txt")
    else:
        raise ValueError(f"unknown mail form {form!r}; expected one of {', '.join(FORMS)}")
    if sig is not None:
        if msg.get_content_maintype() != "multipart":
            msg.make_mixed()
        msg.add_attachment(sig, maintype="application", subtype="octet-stream",
                           filename="orders.txt.sig")
    return msg.as_bytes(policy=msg.policy.clone(linesep="\r\n"))
