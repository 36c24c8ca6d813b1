"""The usual Content-Type and Content-Disposition values read without the stdlib's RFC 2045
parser (issue 11: batch ingest).

``email.policy.default`` turns a header into an object by running its full RFC 5322 / RFC 2231
parser; for a multipart the Content-Type carries a boundary of its own, so the header objects
pbem.mail.extract remembers never help there, and parsing it cost about a tenth of reading a
signed mail. Everything pbem and the stdlib parser ask of these two headers goes through the
header's text (``str``): ``get_content_type``, ``get_params``, ``get_param``,
``get_boundary``, ``get_filename``, ``get_content_charset``, ``get_content_disposition``
(Python 3.11 ``email.message``). That text is the policy's normal form of the value: the type
(or disposition) as written, then ``; name="value"`` for each parameter (the stdlib's
``MIMEParameters.__str__``). :func:`plain_mime_value` writes that normal form directly for a
value of the simple shape most mail has, and answers None for anything else (folded lines,
comments, RFC 2231 or RFC 2047 forms, backslashes, non-ASCII, an empty or repeated
parameter), which then goes to the stdlib as before. tests/test_mail_mimeparams.py compares
the two on generated values.
"""

from __future__ import annotations

import re

__all__ = ["plain_mime_value"]

_TOKEN = "A-Za-z0-9!#$%&'*+.^_`|~-"  # RFC 2045 token characters
_ATTRTEXT = "A-Za-z0-9!#$&+.^_`|~-"  # without the characters RFC 2231 gives a meaning: * ' %
_SIMPLE_TYPE = re.compile(rf"[{_TOKEN}]+/[{_TOKEN}]+")
_SIMPLE_DISPOSITION = re.compile(rf"[{_TOKEN}]+")
_PARAM = re.compile(rf'; ?([A-Za-z0-9-]+)=(?:"([ !#-\[\]-~]*)"|([{_ATTRTEXT}]+))')


def plain_mime_value(name: str, value: str) -> str | None:
    """The text ``email.policy.default`` gives the header ``name`` (Content-Type or
    Content-Disposition, any case) with the raw ``value``, when ``value`` has the simple
    shape ``type/subtype`` (or ``disposition``) then ``;`` or ``; `` and ``name=token`` or
    ``name="quoted text"`` parameters, each named once; None otherwise, and for any other
    header."""
    key = name.lower()
    if key == "content-type":
        head = _SIMPLE_TYPE.match(value)
    elif key == "content-disposition":
        head = _SIMPLE_DISPOSITION.match(value)
    else:
        return None
    if head is None or "=?" in value:
        return None
    out, seen, pos, end = [head.group()], set(), head.end(), len(value)
    while pos < end:
        m = _PARAM.match(value, pos)
        if m is None:
            return None
        pname, quoted, token = m.groups()
        text = quoted if quoted is not None else token
        lowered = pname.lower()
        if not text or lowered in seen:
            return None
        seen.add(lowered)
        out.append(f'; {pname}="{text}"')
        pos = m.end()
    return "".join(out)
