"""One space of the SVG map (a hex, or a square of a positioned board) and its counters, as
markup: drawn by the macros of templates/map_hex.svg.j2, the contract a referee's template
folder may replace, or, with pbem's own templates, by :func:`hex_markup`, the same text
written in Python. Used by :mod:`pbem.reports.svgmap`; knows no game.
"""

from __future__ import annotations

__all__ = ["draw_hex", "hex_markup", "num"]


def num(value) -> str:
    """``value`` (a number, pixels) as the SVG map writes every number: rounded to one
    decimal, without a trailing ``.0`` and never ``-0`` (``44.0`` -> ``"44"``, ``19.06`` ->
    ``"19.1"``, ``-0.04`` -> ``"0"``): a 572-hex map's points were a third of its report's
    bytes (issue 10's limit per HTML report). The template filter ``num`` (pbem.reports.render)
    is this function, so the macros of templates/map_hex.svg.j2 and :func:`hex_markup` write
    the same characters. Raises TypeError or ValueError for a value that is not a number."""
    text = f"{float(value):.1f}"
    if text.endswith(".0"):
        text = text[:-2]
    return "0" if text == "-0" else text

_drawn: dict = {}
_DRAWN_MAX = 50_000


def draw_hex(h: dict, g: dict) -> tuple:
    """One hex (or square) and its counters, drawn by the macros of templates/map_hex.svg.j2
    (autoescaped markup): ``(space, counters)``, the counters drawn in a layer above the
    spaces and the links. ``h``: the space's fields (see the template), its ``geo`` the key
    of its geometry ``g`` (label and counter offsets: pbem.reports.svgmap). Remembered: most
    hexes look the same in every reader's map and every phase (a 384-hex map drawn for three
    readers took a third of a phase's time before)."""
    from pbem.reports.render import default_environment, environment

    env = environment()
    key = (h["label"], h["points"], h["fill"], h["title"], h["special"], h["counters"],
           h["titles"], h["geo"], id(env))
    out = _drawn.get(key)
    if out is None:
        from markupsafe import Markup

        if len(_drawn) >= _DRAWN_MAX:
            _drawn.clear()
        if env is default_environment():  # pbem's own macros: the same text, drawn in Python
            out = _drawn[key] = hex_markup(h, g)
        else:  # a referee's folder may hold its own map_hex.svg.j2
            module = _hex_module(env)
            h = _Fields(h, geo=_Fields(g))
            out = _drawn[key] = (Markup(str(module.draw(h))),
                                 Markup(str(module.counters(h))) if h["counters"] else "")
    return out


def hex_markup(h: dict, g: dict) -> tuple:
    """``(space, counters)`` of :func:`draw_hex` as pbem's own templates/map_hex.svg.j2
    draws them (macros ``draw`` and ``counters``), character for character, written in
    Python: a movement phase draws dozens of spaces anew for each reader, and a Jinja macro
    call cost ten times this (tests/test_svg_hex_fast.py compares the two on generated
    spaces)."""
    from markupsafe import Markup, escape

    e = escape
    label = e(h["label"])
    space = (f'<g data-space="{label}"><title>{e(h["title"])}</title><polygon points='
             f'"{e(h["points"])}" fill="{e(h["fill"])}"/>')
    if h["special"]:
        space += f'<polygon class="x x-{e(h["special"])}" points="{e(h["inset"])}"/>'
    space += (f'<text class="l" x="{num(h["x"])}" y="{num(h["y"] + g["label_dy"])}">'
              f'{label}</text></g>')
    counters = h["counters"]
    if not counters:
        return Markup(space), ""
    out, c, half, many = [], g["c"], g["half"], len(counters) > 1
    box = f'width="{num(c)}" height="{num(c)}" rx="{num(g["rx"])}"/>'
    for i, (key, cls, face, values, left, top) in enumerate(counters):
        cx = num(left + half)
        out.append(f'<g class="c{e(" " + cls) if cls else ""}" data-piece="{e(key)}" '
                   f'data-space="{label}"><title>{e(h["titles"][i])}</title><rect '
                   f'x="{num(left)}" y="{num(top)}" {box}')
        if values:
            out.append(f'<text class="f" x="{cx}" y="{num(top + c * 0.47)}">{e(face)}'
                       f'</text><text class="v" x="{cx}" y="{num(top + c * 0.84)}">'
                       f'{e(values)}</text>')
        else:
            out.append(f'<text class="f" x="{cx}" y="{num(top + half + g["sym"] * 0.36)}">'
                       f'{e(face)}</text>')
        if many and i == len(counters) - 1:
            out.append(f'<text class="n" x="{num(left + c - 0.8)}" '
                       f'y="{num(top + c - 1)}">{len(counters)}</text>')
        out.append("</g>")
    return Markup(space), Markup("".join(out))


class _Fields(dict):
    """A dict whose keys also read as attributes: the templates' ``h.label`` then finds its
    value at the first try (Jinja tries an attribute before an item; a plain dict's missing
    attribute cost an exception per field of every space drawn). Still a dict for a
    referee's template that reads ``h["label"]``."""

    __slots__ = ()

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


_MODULES: dict = {}
"""``{environment id: (environment, module of map_hex.svg.j2)}``."""


def _hex_module(env):
    """The macros of templates/map_hex.svg.j2 in ``env``, loaded once per environment (as the
    spaces it drew are remembered per environment)."""
    found = _MODULES.get(id(env))
    if found is None or found[0] is not env:
        found = _MODULES[id(env)] = (env, env.get_template("map_hex.svg.j2").module)
    return found[1]
