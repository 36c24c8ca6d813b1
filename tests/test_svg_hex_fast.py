"""pbem's own hexes are drawn in Python (pbem.reports.svghex.hex_markup) instead of by the
macros of templates/map_hex.svg.j2, which stay the contract a referee's folder may replace:
the two must write the same characters for any space, its text escaped the same way."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.reports import svghex, svgmap
from pbem.reports.render import default_environment

TEXT = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12)
NUMBER = st.one_of(st.integers(-500, 5000), st.floats(-500, 5000, allow_nan=False).map(
    lambda x: round(x, 3)))
COUNTER = st.tuples(TEXT, st.sampled_from(["", "k0", "k1 dn", "k2"]), TEXT,
                    st.sampled_from(["", "3-3-6", "A/B", "<1>"]), NUMBER, NUMBER)
GEO = st.builds(lambda size, shape: svgmap._GEO[svgmap._geometry_of(shape, size)],
                st.sampled_from([10, 14, 18.5, 24, 30]), st.sampled_from(["hex", "square"]))


@st.composite
def spaces(draw):
    counters = tuple(draw(st.lists(COUNTER, max_size=5)))
    return {"label": draw(TEXT), "points": draw(TEXT), "fill": draw(TEXT), "title": draw(TEXT),
            "x": draw(NUMBER), "y": draw(NUMBER), "special": draw(st.sampled_from(
                ["", "safe", "near", "x&y"])), "inset": draw(TEXT), "counters": counters,
            "titles": tuple(draw(TEXT) for _ in counters)}


def by_macros(h: dict, geo: dict) -> tuple[str, str]:
    module = default_environment().get_template("map_hex.svg.j2").module
    h = dict(h, geo=geo)
    return str(module.draw(h)), (str(module.counters(h)) if h["counters"] else "")


@settings(max_examples=300, deadline=None)
@given(spaces(), GEO)
def test_pbem_s_own_hexes_drawn_in_python_are_the_macros_text(h, geo):
    space, counters = svghex.hex_markup(h, geo)
    assert (str(space), str(counters)) == by_macros(h, geo)


def test_a_stack_of_counters_with_markup_in_its_words():
    """The worked case: two counters, one with values, the text quoting HTML."""
    geo = svgmap._GEO[svgmap._geometry_of("hex", 18)]
    h = {"label": "0405", "points": "1,2 3,4", "fill": "#cfe6fa", "title": 'sea <"deep">',
         "x": 31.2, "y": 40, "special": "near", "inset": "5,6 7,8",
         "counters": (("red1", "k0", "r", "3", 20, 30.5), ("ship2", "", "B & C", "", 21.4, 29)),
         "titles": ("red1 (worth 3)", "ship2 <empty>")}
    space, counters = svghex.hex_markup(h, geo)
    assert (str(space), str(counters)) == by_macros(h, geo)
    assert 'sea &lt;&#34;deep&#34;&gt;' in space and "B &amp; C" in counters
    assert counters.count("<g ") == 2 and '<text class="n"' in counters  # the stack's count


def test_numbers_are_written_with_one_decimal_at_most_and_no_point_zero():
    """The map's number format (pbem.reports.svghex.num, the template filter ``num``)."""
    cases = {44.0: "44", 19.1: "19.1", 19.06: "19.1", -0.0: "0", -0.04: "0", 0: "0",
             3: "3", 110: "110", 2.96: "3", -3.44: "-3.4", 1000000.0: "1000000"}
    assert {v: svghex.num(v) for v in cases} == cases
    env = default_environment()
    assert env.from_string("{{ 44.0 | num }} {{ 6.64 | num }}").render() == "44 6.6"


@settings(max_examples=300, deadline=None)
@given(st.floats(-1e6, 1e6, allow_nan=False))
def test_a_number_is_its_value_rounded_to_a_tenth(x):
    """Against the exact binary value rounded by decimal arithmetic (half to even, as the
    correctly rounded formatting of a float does)."""
    from decimal import ROUND_HALF_EVEN, Decimal

    tenth = Decimal(x).quantize(Decimal("0.1"), rounding=ROUND_HALF_EVEN)
    text = svghex.num(x)
    assert Decimal(text) == tenth and not text.endswith(".0") and text != "-0"
    assert "." not in text or len(text.split(".")[1]) == 1
