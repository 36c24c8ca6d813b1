"""Building a report's context: the only facts a template may print.

A report for a role is built from ``ruleset.view(state, role)`` and the events whose audience
includes that role, nothing else (DESIGN.md, "Every fact has an audience"). The context is a
plain dict of JSON-like values; see :func:`report_context` for its keys.
"""

from __future__ import annotations

from datetime import datetime, timezone

PUBLIC_ROLE = "*"


def format_deadline(when: datetime, zone: str | None) -> dict:
    """A deadline as ``{"utc": "2026-12-02 20:15 UTC", "local": "2026-12-02 21:15 CET
    (Europe/Paris)" | None, "iso": "2026-12-02T20:15:00Z"}``; ``zone`` is an IANA name."""
    from zoneinfo import ZoneInfo

    when = when.astimezone(timezone.utc)
    out = {"utc": when.strftime("%Y-%m-%d %H:%M UTC"),
           "iso": when.strftime("%Y-%m-%dT%H:%M:%SZ"), "local": None}
    if zone:
        local = when.astimezone(ZoneInfo(zone))
        out["local"] = f"{local.strftime('%Y-%m-%d %H:%M %Z')} ({zone})"
    return out


def order_header(game_id: str, turn: int, phase: str, role: str, referee: str) -> str:
    """The header lines of an order file for one window: ``game``, ``turn``, ``phase``,
    ``role``, ``referee`` (the fingerprint ``SHA256:...`` of the game's referee key, binding
    the orders to this judge; docs/signing.md, section 10), then ``nonce`` and ``issued`` left
    empty for ``pbem sign`` to fill (DESIGN.md, "Signed orders"). Each line ends with LF."""
    return (f"game: {game_id}\nturn: {turn}\nphase: {phase}\nrole: {role}\n"
            f"referee: {referee}\nnonce:\nissued:\n")


def report_context(*, game: dict, role: str, zone: str | None, view: dict, board: str, log: dict,
                   events: list, rolls: list, reveal: dict | None, problems: list,
                   reported: dict | None, next_window: dict | None, template: str | None,
                   outcome: dict | None, setup: dict | None, now: datetime) -> dict:
    """The context of one role's report.

    - ``game``: ``{"id", "title", "ruleset"}``; ``role``: the reader (``"*"`` for the public
      report); ``zone``: the reader's IANA time zone or None.
    - ``view``: the ruleset's view for the reader; ``board``: its text map.
    - ``log``: ``{"lines", "head"}``: the public log's length and the sha256 of its last line
      when the report was made, so the reader can later check a copy of the log against it.
    - ``events``: the events visible to the reader, as ``{"kind", "text"}``.
    - ``rolls``: the phase's public rolls ``{"index", "sides", "value", "why"}``;
      ``reveal``: ``{"phase", "seed", "commit", "nonces"}`` of the phase just resolved.
    - ``problems``: the reader's problems ``{"line", "text", "rule", "why"}``.
    - ``reported``: ``{"turn", "phase", "phase_id", "title"}`` of the phase resolved (None for
      the setup report).
    - ``next_window``: ``{"turn", "phase", "phase_id", "title", "owed", "optional",
      "you_owe", "you_may", "deadline": format_deadline(...), "commit"}`` or None at the end.
    - ``template``: the order file to fill in (header + body) or None.
    - ``map_events``: the moves and attacks among ``events`` the SVG map draws
      (:func:`map_events`).
    - ``outcome``: ``{"scores", "winners", "reason"}`` or None; ``setup``: for the setup report
      ``{"stand_ins", "referee_key", "referee_fingerprint", "hidden_commit", "setup_commit",
      "options", "house_rules_sha256", "map", "map_sha256", "roles"}``, else None.
    """
    return {
        "game": game,
        "role": role,
        "is_public": role == PUBLIC_ROLE,
        "zone": zone,
        "view": view,
        "board": board,
        "log": log,
        "events": [{"kind": e.kind, "text": e.text} for e in events],
        "rolls": [{"index": r.index, "sides": r.sides, "value": r.value, "why": r.why}
                  for r in rolls],
        "reveal": reveal,
        "problems": [p.to_json() if hasattr(p, "to_json") else dict(p) for p in problems],
        "reported": reported,
        "next": next_window,
        "template": template,
        "outcome": outcome,
        "setup": setup,
        "generated": now.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "map_events": map_events(events),
    }


MAP_EVENTS_MAX = 200
"""At most this many moves and attacks are drawn on one report's map."""


def map_events(events: list) -> list:
    """The moves and attacks of ``events`` (the reader's own) that the SVG map draws
    (templates/map.svg.j2), in event order, from the events' data (docs/rulesets.md, "draw"):

    - ``{"kind": "move", "text", "path": [space, ...]}`` for an event whose data has a
      ``"path"`` of at least two spaces: an arrow along them (a ``"from"`` space beside the
      path, when the path does not start there, is its first space);
    - ``{"kind": "attack", "text", "from", "to", "hit": bool | None, "result": str}`` for each
      entry of an event's ``"attack"`` (one ``{"from", "to", "hit" | "result"}`` or a list of
      them): a line from the attacker's space to the target's (a ring when they are the same)
      with its result (``"hit"``/``"miss"`` from ``hit`` unless a ``result`` is given).
      ``"map_attack"`` (same shape) is read instead when present, for an event whose
      ``"attack"`` already means something else.

    Data of another shape is left out (the event's text still tells it)."""
    out: list = []
    for e in events:
        data = getattr(e, "data", None)
        if not isinstance(data, dict):
            continue
        path = data.get("path")
        start = data.get("from")
        if isinstance(path, (list, tuple)) and isinstance(start, (str, int)) \
                and (not path or path[0] != start):
            path = [start] + list(path)
        if isinstance(path, (list, tuple)) and len(path) >= 2 \
                and all(isinstance(p, (str, int)) for p in path):
            out.append({"kind": "move", "text": e.text, "path": [str(p) for p in path]})
        attack = data.get("map_attack", data.get("attack"))
        for a in attack if isinstance(attack, list) else [attack]:
            if not isinstance(a, dict) or a.get("from") is None or a.get("to") is None:
                continue
            hit = a.get("hit") if isinstance(a.get("hit"), bool) else None
            result = a.get("result")
            if result is None:
                result = "" if hit is None else ("hit" if hit else "miss")
            out.append({"kind": "attack", "text": e.text, "from": str(a["from"]),
                        "to": str(a["to"]), "hit": hit, "result": str(result)})
    return out[-MAP_EVENTS_MAX:]
