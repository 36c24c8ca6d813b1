"""Tests of pbem.mail.htmltext.html_to_text on markup as real mail clients write it.

Expected texts are what a reader sees in a browser (HTML rendering: blocks start new lines,
white space collapses, &nbsp; is U+00A0), written out by hand.
"""

from __future__ import annotations

from pbem.mail.htmltext import html_to_text

NBSP = "\u00a0"


def test_gmail_divs_with_an_empty_line():
    # Gmail and Apple Mail: one <div> per typed line, an empty line as <div><br></div>.
    html = (
        '<div dir="ltr"><div>game: atl-7</div><div>turn: 3</div><div><br></div>'
        "<div>move 4 from 0507 to 0607</div></div>"
    )
    assert html_to_text(html) == "game: atl-7\nturn: 3\n\nmove 4 from 0507 to 0607\n"


def test_trailing_br_inside_a_block_adds_no_line():
    assert html_to_text("<div>a<br></div><div>b</div>") == "a\nb\n"


def test_br_separated_lines_and_double_br():
    assert html_to_text("one<br>two<br><br>three") == "one\ntwo\n\nthree\n"


def test_outlook_paragraphs_are_one_line_each_and_nbsp_is_kept():
    html = (
        '<p class="MsoNormal">game: atl-7<o:p></o:p></p>'
        '<p class="MsoNormal"><o:p>&nbsp;</o:p></p>'
        '<p class="MsoNormal">sink&nbsp;&nbsp;0608<o:p></o:p></p>'
    )
    assert html_to_text(html) == f"game: atl-7\n{NBSP}\nsink{NBSP}{NBSP}0608\n"


def test_white_space_collapses_and_source_line_breaks_are_not_text():
    html = "<div>\n   move   4\n\tfrom 0507\n</div>\n\n<div>  sink 0608  </div>"
    assert html_to_text(html) == "move 4 from 0507\nsink 0608\n"


def test_character_references():
    assert html_to_text("<p>a &amp; b &lt;c&gt; &#8220;d&#x201D; caf&eacute;</p>") == (
        "a & b <c> \u201cd\u201d caf\u00e9\n"
    )


def test_blockquote_lines_are_marked_as_quoted():
    html = (
        "<div>my answer</div>"
        '<blockquote class="gmail_quote"><div>your report</div>'
        "<blockquote><div>older</div></blockquote></blockquote><div>after</div>"
    )
    assert html_to_text(html) == "my answer\n> your report\n>> older\nafter\n"


def test_pre_keeps_spaces_and_line_breaks():
    html = "<pre>\n  0101  0102\n\n  sea   land</pre><p>x</p>"
    assert html_to_text(html) == "  0101  0102\n\n  sea   land\nx\n"


def test_head_style_script_and_comments_are_not_text():
    html = (
        "<html><head><title>Report</title><style>p {margin:0}</style>"
        "<script>var x = 1;</script></head><body><!-- hidden -->"
        "<!--[if gte mso 9]><xml><o:shapedefaults/></xml><![endif]-->"
        "<p>shown</p></body></html>"
    )
    assert html_to_text(html) == "shown\n"


def test_unclosed_title_does_not_hide_the_body():
    assert html_to_text("<head><title>oops<body><p>orders</p>") == "orders\n"


def test_table_row_is_one_line_with_cells_separated_by_a_space():
    html = "<table><tr><td>0507</td><td>red3</td></tr><tr><th>0607</th><td>ship1</td></tr></table>"
    assert html_to_text(html) == "0507 red3\n0607 ship1\n"


def test_inline_elements_do_not_break_lines():
    assert html_to_text("<div>move <b>4</b> from <span>0507</span></div>") == "move 4 from 0507\n"


def test_no_text_at_all():
    assert html_to_text("") == ""
    assert html_to_text("<html><head><title>t</title></head><body></body></html>") == ""


def test_120000_nested_blockquotes_take_memory_linear_in_the_input():
    # Issue 7: one "> " prefix per level per line made memory grow with the square of the depth
    # (3.6 GB at depth 50,000). The bound below is derived from the input (1.68 MB): the output
    # may be at most MAX_OUTPUT_RATIO (4) times the input, well under 50 MB with the parser's own.
    import tracemalloc

    from pbem.mail.htmltext import MAX_OUTPUT_RATIO, MAX_QUOTE_MARKS, OUTPUT_SLACK

    depth = 120_000
    html = "<blockquote>a\n" * depth
    tracemalloc.start()
    try:
        text = html_to_text(html)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 50 * 1024 * 1024
    assert len(text) <= MAX_OUTPUT_RATIO * len(html) + OUTPUT_SLACK
    lines = text.split("\n")
    assert lines[0] == "> a" and lines[1] == ">> a"
    assert MAX_QUOTE_MARKS == 32
    assert lines[31] == ">" * 32 + " a"
    assert lines[32] == ">" * 32 + " a"  # deeper: still quoted, with the capped prefix


def test_output_is_bounded_by_the_input_size():
    from pbem.mail.htmltext import MAX_OUTPUT_RATIO, OUTPUT_SLACK

    html = "<blockquote>" * 40 + "<br>" * 200_000
    text = html_to_text(html)
    assert len(text) <= MAX_OUTPUT_RATIO * len(html) + OUTPUT_SLACK
