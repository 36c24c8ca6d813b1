"""Stored reports: what a report is made from, kept compressed and sealed, rendered when it is
mailed or shown (issue 11, "Reports stop bloating the database"; DESIGN.md "Storage").

A phase stores, for each reader (every role and ``"*"``, the public report), the report's
*context* (:func:`pbem.reports.context.report_context`: the reader's view, the events it may see,
the rolls, the next window, ... : every fact the report prints) but its text map, which is
drawn again from the view. Rendering moves from the phase to delivery (``pbem send``, ``pbem
outbox``) and to ``pbem report``: a report is rendered from its stored facts with the
templates of the folder in force when it was made (pbem.engine.publish records it).

A context row (``fmt`` ``context``, ``encoding`` ``zlib``) is sealed for its reader (owner:
the role, or ``public``) under the purpose ``report:SEQ:context:zlib``. The sealed bytes are
one line of JSON, the header, then the zlib stream of the context's JSON (UTF-8, keys in the
context's own order, which the templates iterate). The header names the zlib dictionary and
the referee's template folder in force when the phase was resolved (``templates``: its
absolute path, or null for pbem's own), with which the report is rendered ever after::

    {"dict":null,"templates":null}\\n<zlib>                  the game's first public context
    {"dict":{"role":"*","seq":K},"templates":...}\\n<zlib>    any other public context
    {"dict":{"role":"*","seq":SEQ},"templates":...}\\n<zlib>  a role's

The public contexts of a game, in phase order, are stored as in a video: the first alone;
every :data:`KEY_EVERY`-th after it (a *key*) with the first as dictionary; each other with
the last key before it. A phase's roles' contexts have the same phase's public context as
dictionary. A position changes little between phases, and a dictionary is always a public
report's context, which every reader may see, so a role's row depends on nothing another
role may not know. Reading a report opens at most four rows (a role's, its phase's public
one, a key, the first). Stored sizes, sealed (bench/bench_storage.py's games, mean): an
Atlantis public context 1.1 KB (3.4 KB compressed alone), a role's 0.6 KB; an Altassar public
context 1.5 KB (4.4 KB alone), a role's 0.7 KB; the rendered text and HTML of one reader were
about 60 KB.

Rows stored before schema 0005 hold the rendered text or HTML: ``identity`` (UTF-8, purpose
``report:SEQ:FMT``) and, once ``pbem upgrade`` compressed them (:func:`compress_stored_reports`),
``zlib`` (purpose ``report:SEQ:FMT:zlib``). They are shown as they were mailed.
"""

from __future__ import annotations

import json
import zlib
from datetime import datetime

from pbem.engine import storedjson
from pbem.engine.errors import PbemError
from pbem.store import reports as store

__all__ = ["StoredReportError", "store_contexts", "open_context", "render", "body_of",
           "report_body", "report_parts", "all_report_bodies", "compress_stored_reports",
           "LEVEL"]

LEVEL = 9
"""The zlib compression level of stored reports (9: the smallest; a 20 KB context takes
well under a millisecond)."""
KEY_EVERY = 4
"""Every KEY_EVERY-th public context of a game (in phase order, from the second) is a *key*:
compressed with the first as dictionary; the others with the last key before them."""
_MAX_DEPTH = 3  # a role's row, its public one, a key, the first: no chain is longer


class StoredReportError(PbemError):
    """A stored report that cannot be read back: its dictionary is missing or not a public
    context, or its compressed bytes are damaged (a sealed blob that does not open raises
    the sealer's own error, a CryptoError)."""


def _owner(role: str) -> str:
    return "public" if role == "*" else role


def _purpose(seq: int, fmt: str, encoding: str) -> str:
    return f"report:{seq}:{fmt}" + ("" if encoding == "identity" else f":{encoding}")


def _dump(context: dict) -> bytes:
    """The stored JSON of ``context``: without its text map (drawn again from the view), keys
    in their own order (templates iterate dicts), UTF-8 (pbem.engine.storedjson). TypeError
    for a value JSON cannot hold (a ruleset's view must be JSON values: docs/rulesets.md)."""
    return storedjson.dumps({k: v for k, v in context.items() if k != "board"})


def _pack(raw: bytes, ref: dict | None, zdict: bytes | None, templates: str | None) -> bytes:
    head = json.dumps({"dict": ref, "templates": templates}, sort_keys=True,
                      separators=(",", ":"), ensure_ascii=False).encode()
    z = zlib.compressobj(LEVEL, zdict=zdict) if zdict else zlib.compressobj(LEVEL)
    return head + b"\n" + z.compress(raw) + z.flush()


def store_contexts(session, sealer, game_id: str, seq: int, contexts: list[tuple[str, dict]],
                   now: datetime, templates: str | None = None) -> None:
    """Store the report contexts of phase ``seq`` (0: the setup) of ``game_id``:
    ``contexts`` is ``[(reader, context)]`` with the public reader ``"*"`` among them (as
    built by pbem.engine.publish), each sealed for its reader (module doc); ``templates`` is
    the referee's template folder in force (an absolute path; None: pbem's own). Raises
    TypeError/ValueError for a context that is not JSON values, LookupError without the
    public one."""
    public = next((c for r, c in contexts if r == "*"), None)
    if public is None:
        raise LookupError(f"phase {seq} of {game_id}: no public report context to store")
    public_raw = _dump(public)
    base_ref = base_raw = None
    position = store.public_contexts(session, game_id)
    if position:  # not the first: a key context's (every KEY_EVERY-th) dictionary is the first
        base = store.public_context_at(session, game_id, position - position % KEY_EVERY
                                       if position % KEY_EVERY else 0)
        if base is not None and base.phase_seq < seq:
            base_ref = {"role": "*", "seq": base.phase_seq}
            base_raw = _open_raw(session, sealer, base, 0)[0]
    rows = []
    for reader, context in contexts:
        if reader == "*":
            payload = _pack(public_raw, base_ref, base_raw, templates)
        else:
            payload = _pack(_dump(context), {"role": "*", "seq": seq}, public_raw, templates)
        blob = sealer.seal(game_id, _owner(reader), _purpose(seq, store.CONTEXT, "zlib"), 0,
                           payload)
        rows.append({"game_id": game_id, "phase_seq": seq, "role": reader,
                     "fmt": store.CONTEXT, "encoding": "zlib", "created_at": now, "blob": blob})
    store.add_reports(session, rows)


def _open_raw(s, sealer, row, depth: int,
              cache: dict | None = None) -> tuple[bytes, str | None]:
    """(the context JSON (bytes), the template folder) of the context ``row``, its
    dictionaries read as needed (through ``cache`` when given: see :func:`report_parts`)."""
    payload = sealer.open(row.game_id, _owner(row.role),
                          _purpose(row.phase_seq, store.CONTEXT, "zlib"), 0, row.blob)
    head, _, body = payload.partition(b"\n")
    where = f"the stored {row.role} report of phase {row.phase_seq} of {row.game_id}"
    try:
        header = json.loads(head)
        ref, templates = header["dict"], header["templates"]
    except (ValueError, KeyError, TypeError):
        raise StoredReportError(f"{where}: expected a JSON header line naming its dictionary, "
                                f"found {head[:60]!r}") from None
    if templates is not None and not isinstance(templates, str):
        raise StoredReportError(f"{where}: expected a template folder or null, found "
                                f"{templates!r}")
    zdict = None
    if ref is not None:
        ok = (isinstance(ref, dict) and ref.get("role") == "*" and isinstance(ref.get("seq"), int)
              and (ref["seq"] < row.phase_seq or (ref["seq"] == row.phase_seq
                                                 and row.role != "*")))
        if not ok or depth >= _MAX_DEPTH:
            raise StoredReportError(f"{where}: expected as dictionary an earlier public "
                                    f"context, found {ref!r}")
        zdict = _dictionary(s, sealer, row.game_id, ref["seq"], depth + 1, cache, where)
    z = zlib.decompressobj(zdict=zdict) if zdict else zlib.decompressobj()
    try:
        raw = z.decompress(body) + z.flush()
    except zlib.error as e:
        raise StoredReportError(f"{where}: its compressed context is damaged ({e})") from None
    if not z.eof:
        raise StoredReportError(f"{where}: its compressed context is cut short")
    return raw, templates


def _dictionary(s, sealer, game_id: str, seq: int, depth: int, cache: dict | None,
                where: str) -> bytes:
    """The context JSON of the public report of phase ``seq``, the dictionary of another
    row: read once per ``cache`` (a phase's readers share theirs, public ones their key)."""
    key = (game_id, seq)
    if cache is not None and key in cache:
        return cache[key]
    base = store.public_context(s, game_id, seq)
    if base is None:
        raise StoredReportError(f"{where}: its dictionary, the public context of phase "
                                f"{seq}, is missing")
    raw = _open_raw(s, sealer, base, depth, cache)[0]
    if cache is not None:
        _keep(cache, key, raw)
    return raw


def _keep(cache: dict, key: tuple, value) -> None:
    """Put ``value`` in a delivery run's ``cache`` (:func:`report_parts`), emptied first when
    full: a long run needs only the phases it read lately."""
    if len(cache) >= 2 * _CACHE_MAX:  # each phase's public context as JSON and, once a
        cache.clear()                 # reader used it, parsed
    cache[key] = value


_CACHE_MAX = 64
"""At most this many public contexts (about 20 KB each, and as many parsed) are kept in a
``cache`` of :func:`report_parts`."""


def open_context(s, sealer, row, cache: dict | None = None) -> tuple[dict, str | None]:
    """``(context, template folder)`` stored in the report row ``row`` (``fmt`` ``context``):
    the context without its text map, and the referee's template folder in force when it
    was made (None: pbem's own). ``cache``: see :func:`report_parts`; with one, the contexts
    of a phase share the parts equal to the public context's (:func:`_share`), and the
    public context itself is one object: callers must not change a context. Raises
    StoredReportError (or the sealer's error) for a row that cannot be read."""
    raw, templates = _open_raw(s, sealer, row, 0, cache)
    if cache is not None and row.role == "*":  # the dictionary of this phase's other readers
        key = (row.game_id, row.phase_seq)
        if key not in cache:
            _keep(cache, key, raw)
        if cache[key] == raw:
            return _parsed_public(cache, row.game_id, row.phase_seq), templates
    context = storedjson.loads(raw)
    if cache is not None and row.role != "*":
        public = _parsed_public(cache, row.game_id, row.phase_seq)
        if public is not None:
            _share(context, public)
            if isinstance(context.get("view"), dict) and isinstance(public.get("view"), dict):
                _share(context["view"], public["view"])
    return context, templates


def _parsed_public(cache: dict, game_id: str, seq: int) -> dict | None:
    """The public context of phase ``seq`` parsed, once per ``cache``, when its JSON is there
    (a reader's row of that phase was opened against it); else None."""
    raw = cache.get((game_id, seq))
    if raw is None:
        return None
    key = ("parsed", game_id, seq)
    parsed = cache.get(key)
    if parsed is None:
        parsed = storedjson.loads(raw)
        _keep(cache, key, parsed)
    return parsed


def _share(mine: dict, public: dict) -> None:
    """Replace each value of ``mine`` equal to the same key's value in ``public`` by that very
    object: a reader's context then shares the public one's parts (a ruleset's drawing
    remembers the part every reader shares by equality, which is then an identity check:
    pbem.boards.drawing.remember_equal). The values are JSON values nobody changes."""
    for key, value in mine.items():
        theirs = public.get(key, mine)
        if theirs is not mine and theirs is not value and theirs == value:
            mine[key] = theirs


def render(context: dict, fmt: str, templates: str | None = None) -> str:
    """Render a report ``context`` (as built by pbem.engine.publish, or stored:
    :func:`open_context`) as ``fmt`` (``text`` or ``html``) with the templates of the folder
    ``templates`` over pbem's (None: pbem's own; pbem.reports.render.templates_in): its text
    map is drawn from its view by its game's ruleset, and, for HTML, its SVG map. Raises
    ReportTemplateError for a template that fails or a folder that is gone, ValueError for
    another format."""
    return render_formats(context, (fmt,), templates)[fmt]


def render_formats(context: dict, fmts=("text", "html"),
                   templates: str | None = None) -> dict[str, str]:
    """``{fmt: body}``: the report ``context`` rendered as each of ``fmts`` (as
    :func:`render`), its reader's view drawn once for the text map and the SVG map of all of
    them (a drawing is the costliest part of a report). Raises as :func:`render`."""
    from pbem.engine import registry
    from pbem.reports.render import render_html, render_text, templates_in

    for fmt in fmts:
        if fmt not in ("text", "html"):
            raise ValueError(f"report format {fmt!r}: expected text or html")
    ruleset = context["game"]["ruleset"]
    board, svg = _maps(registry.get(ruleset), context["view"], "html" in fmts)
    full = dict(context, board=board)
    out = {}
    with templates_in(templates):
        for fmt in fmts:
            out[fmt] = (render_text(ruleset, full) if fmt == "text"
                        else render_html(ruleset, dict(full, svg=svg)))
    return out


def _maps(rs, view: dict, svg: bool) -> tuple[str, dict | None]:
    """``(text map, svg context or None)`` of ``view`` by ruleset ``rs``: one ``draw`` for
    both, unless the ruleset writes its own ``text_map``."""
    from pbem.engine.ruleset import Ruleset
    from pbem.reports.svgmap import drawing_svg, map_for

    if type(rs).text_map is not Ruleset.text_map:
        return rs.text_map(view), (map_for(rs, view) if svg else None)
    drawing = rs.draw(view)
    if drawing is None:
        return "", None
    from pbem.boards.drawing import text_map

    return text_map(drawing), (drawing_svg(drawing) if svg else None)


def _rendered_body(sealer, row) -> str:
    """The body of a row stored rendered (before schema 0005)."""
    data = sealer.open(row.game_id, _owner(row.role),
                       _purpose(row.phase_seq, row.fmt, row.encoding), 0, row.blob)
    if row.encoding == "zlib":
        data = zlib.decompress(data)
    elif row.encoding != "identity":
        raise StoredReportError(f"the stored {row.role} report of phase {row.phase_seq} of "
                                f"{row.game_id}: unknown encoding {row.encoding!r}")
    return data.decode("utf-8")


def body_of(s, sealer, row, fmt: str) -> str:
    """The report of ``row`` (from :mod:`pbem.store.reports`) as ``fmt``: rendered from its
    context, or as stored rendered."""
    if row.fmt == store.CONTEXT:
        context, templates = open_context(s, sealer, row)
        return render(context, fmt, templates)
    return _rendered_body(sealer, row)


def report_body(s, sealer, game_id: str, role: str, fmt: str,
                phase_seq: int | None = None) -> tuple[int, str] | None:
    """``(phase seq, body)`` of ``role``'s report of ``phase_seq`` (None: the latest that is
    not of an undone phase) as ``fmt`` (``text`` or ``html``), or None when there is none."""
    row = store.find_report(s, game_id, role, phase_seq, fmt=fmt)
    return None if row is None else (row.phase_seq, body_of(s, sealer, row, fmt))


def report_parts(s, sealer, game_id: str, role: str, phase_seq: int,
                 cache: dict | None = None) -> dict[str, str]:
    """``{"text": ..., "html": ...}``: ``role``'s report of phase ``phase_seq`` in both formats
    (a context row opened once). ``cache``: a dict the caller keeps while it reads the
    reports of one database (a delivery run): the public contexts that other rows are
    compressed against are read and opened once for all of them (a phase's readers share
    one; stored rows never change). Raises LookupError when a format is not stored."""
    parts: dict[str, str] = {}
    for fmt in ("text", "html"):
        row = store.find_report(s, game_id, role, phase_seq, fmt=fmt)
        if row is None:
            raise LookupError(f"no stored {fmt} report of phase {phase_seq} for {role}")
        if row.fmt == store.CONTEXT:
            context, templates = open_context(s, sealer, row, cache)
            return render_formats(context, ("text", "html"), templates)
        parts[fmt] = _rendered_body(sealer, row)
    return parts


def all_report_bodies(s, sealer, game_id: str) -> list[dict]:
    """Every report of a game as ``{"seq", "role", "fmt", "body"}``, by phase, role and
    format (``html`` before ``text``): a context row gives both."""
    out, cache = [], {}
    for row in store.game_reports(s, game_id):
        if row.fmt == store.CONTEXT:
            context, templates = open_context(s, sealer, row, cache)
            for fmt, body in render_formats(context, ("html", "text"), templates).items():
                out.append({"seq": row.phase_seq, "role": row.role, "fmt": fmt, "body": body})
        else:
            out.append({"seq": row.phase_seq, "role": row.role, "fmt": row.fmt,
                        "body": _rendered_body(sealer, row)})
    return out


def compress_stored_reports(s, sealer) -> int:
    """The data step of schema 0005 (run by ``pbem init``/``pbem upgrade`` in the transaction
    that migrated, with the master key): every rendered report stored as plain UTF-8 is
    compressed with zlib and sealed again under the purpose naming the encoding. Returns how
    many rows were compressed. Raises SetupError naming a row that does not open with this
    master key (the upgrade then rolls back: nothing is changed)."""
    from pbem.crypto.errors import CryptoError
    from pbem.engine.errors import SetupError

    done = 0
    for rows in store.uncompressed(s):
        changes = []
        for row in rows:
            owner = _owner(row.role)
            try:
                body = sealer.open(row.game_id, owner,
                                   _purpose(row.phase_seq, row.fmt, "identity"), 0, row.blob)
            except CryptoError as e:
                raise SetupError(
                    f"the stored {row.fmt} report of {row.role} for phase {row.phase_seq} of "
                    f"game {row.game_id} (report row {row.id}) does not open with this master "
                    f"key ({e}); nothing was upgraded") from None
            changes.append({"id": row.id, "blob": sealer.seal(
                row.game_id, owner, _purpose(row.phase_seq, row.fmt, "zlib"), 0,
                zlib.compress(body, LEVEL))})
        store.set_compressed(s, changes)
        done += len(changes)
    return done
