"""Undoing ``format=flowed`` (RFC 3676) on a decoded text/plain body.

Mail clients such as Thunderbird and Apple Mail send ``Content-Type: text/plain;
format=flowed`` (Apple Mail adds ``delsp=yes``): long paragraphs are cut into short lines and
every cut is marked by a space at the end of the line (a "soft line break"). The receiver joins
them again. The ``email`` package decodes quoted-printable and base64 but knows nothing of
format=flowed, so :func:`unflow` does it, on the text after transfer decoding.

Rules implemented (RFC 3676, section numbers in brackets):

- A line's quote depth is the number of ``>`` at its start [4.5]; the quote marks are taken
  off before anything else and put back on output.
- One leading space after the quote marks is space-stuffing and is removed [4.4]; it protects
  lines that begin with a space, ``>`` or ``From `` (``" From here"`` becomes ``"From here"``,
  ``" >not a quote"`` becomes ``">not a quote"`` at depth 0).
- A line ending in a space is flowed [4.1]: it is joined with the next line. With
  ``DelSp=yes`` that one trailing space was added by the sender and is deleted [4.1, 4.2].
- A flowed line is joined only with a following line of the same quote depth; when the depth
  changes, the flowed line is treated as fixed ("quote depth wins") [4.5].
- The signature separator ``-- `` (optionally quoted) is never flowed and is never joined to
  the line before it [4.3].

Grammar (RFC 3676 section 5, abridged)::

    flowed-line = [quote] [stuffing] *text-char flow CRLF     ; flow = SP
    fixed-line  = [quote] [stuffing] *text-char CRLF
    sig-sep     = [quote [stuffing]] "--" SP CRLF
    quote       = 1*">"

Lines are separated by LF (CRLF is accepted and becomes LF). Output quoted paragraphs keep the
quote marks and stuffing space of their first line, so ``">> a \\n>> b"`` becomes ``">> a b"``.
"""

from __future__ import annotations

_SIG_SEP = "-- "


def unflow(text: str, delsp: bool = False, *, unstuff: bool = True) -> str:
    """Return ``text`` with RFC 3676 soft line breaks joined and space-stuffing removed.

    ``text``: the decoded body of a ``text/plain; format=flowed`` part (LF or CRLF line ends).
    ``delsp``: the part's ``DelSp`` parameter is ``yes`` (case-insensitive); then the space
    that marks each soft line break is deleted instead of kept.
    ``unstuff``: remove the space-stuffing space [4.4] (the default). ``False`` keeps a leading
    space as content: the reading of a text from a client that declares format=flowed but does
    not space-stuff (a line typed as `` indented`` or ``From here`` arrives as typed).

    Returns the fixed text with LF line ends; a final line end is kept if ``text`` had one.
    Never raises: any string is a valid (if odd) flowed text. Source: RFC 3676 sections 4.1-4.5.
    """
    if "\r\n" in text:
        text = text.replace("\r\n", "\n")
    trailing_newline = text.endswith("\n")
    if trailing_newline:
        text = text[:-1]

    out: list[str] = []
    # The paragraph being assembled: its output prefix, quote depth and the pieces so far.
    prefix = ""
    depth = -1
    pieces: list[str] = []

    for line in text.split("\n"):
        line_depth = len(line) - len(line.lstrip(">"))
        content = line[line_depth:]
        stuffed = unstuff and content.startswith(" ")
        if stuffed:
            content = content[1:]
        is_sig_sep = content == _SIG_SEP
        flowed = not is_sig_sep and content.endswith(" ")
        if flowed and delsp:
            content = content[:-1]

        if pieces and (line_depth != depth or is_sig_sep):
            # Quote depth wins [4.5], and a sig-sep never joins the line before it [4.3]:
            # the open paragraph ends here as if its last line were fixed.
            out.append(prefix + "".join(pieces))
            pieces = []
        if not pieces:
            depth = line_depth
            prefix = line[:line_depth] + (" " if stuffed and line_depth else "")
        pieces.append(content)
        if not flowed:
            out.append(prefix + "".join(pieces))
            pieces = []

    if pieces:  # the text ended on a flowed line: nothing follows, so it ends the paragraph
        out.append(prefix + "".join(pieces))
    result = "\n".join(out)
    return result + "\n" if trailing_newline else result
