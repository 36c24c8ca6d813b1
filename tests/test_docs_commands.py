"""Every `pbem ...` command the documentation shows exists, with the options it shows (issue 8,
"What a new user ran into": docs that disagreed with the program).

The commands are taken from README.md, docs/*.md and the READMEs of the games and examples: from
fenced code blocks (a line, with its `\\` continuation lines) and from inline code. For each,
`pbem <command path> --help` is run in-process (click's CliRunner) and every `--option` (or
`-x`) written after the command must be one of that command's options; global options before
the command (`pbem --home DIR report ...`) must be options of `pbem` itself. A failure names the
file and line of the doc, what it shows and what the program has.
"""

from __future__ import annotations

import re
import shlex
from functools import lru_cache
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from pbem.cli import main

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md"),
               *(ROOT / "pbem" / "games").glob("*/README.md"),
               *(ROOT / "examples").glob("*/README.md")])

_FENCE = re.compile(r"^\s*(```|~~~)\s*([\w+-]*)")
_NOT_SHELL = {"python", "py", "toml", "json", "jsonl", "ini", "html", "xml", "diff"}
_INLINE = re.compile(r"(`+)(.+?)\1")
# "pbem" as a program: where a shell command starts (the start of the line or of inline code,
# after a prompt "$ ", or after | && ; ( ` or a quote as in .forward's "|pbem ingest -"),
# alone or the last part of a path (/home/ref/venv/bin/pbem)
_PBEM = re.compile(r"(?:^\s*(?:\$\s+)?|[|;&(`\"]\s*)((?:[\w.~-]*/)*pbem)(?=[ \t])")
_STOP = {"|", "||", "&&", ";", "&", ">", ">>", "<", "2>", "2>&1", "#"}
_PLACEHOLDER = re.compile(r"^[A-Z][A-Z0-9_]*$|^\.\.\.$|^<.*>$")


def _lines_of(path: Path):
    """(line number, text, in a code block) of a Markdown file, a code line joined with its
    backslash continuation lines (numbered by its first line)."""
    in_code, shell, pending, start = False, True, "", 0
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        fence = _FENCE.match(line)
        if fence:
            in_code = not in_code
            shell = fence.group(2).lower() not in _NOT_SHELL
            continue
        if in_code and not shell:
            continue
        if in_code:
            if not pending:
                start = n
            if line.rstrip().endswith("\\"):
                pending += line.rstrip()[:-1] + " "
                continue
            yield start, pending + line, True
            pending = ""
        else:
            yield n, line, False


def _tokens(text: str) -> list[str]:
    """Shell words of ``text`` up to the first shell operator or comment; ``\\|`` (a pipe
    escaped in a Markdown table) stays inside its word; brackets of optional parts are
    dropped."""
    text = text.replace("\\|", "\u00a6")
    try:
        lex = shlex.shlex(text, posix=True, punctuation_chars="|&;<>")
        lex.whitespace_split = True
        lex.commenters = "#"
        words = list(lex)
    except ValueError:  # an unbalanced quote in prose: words as written
        words = text.split()
    out = []
    for w in words:
        if w in _STOP or set(w) <= set("|&;<>"):
            break
        w = w.strip("[]{}(),`\"").replace("\u00a6", "|")
        if w:
            out.append(w)
    return out


def doc_commands(path: Path) -> list[tuple[int, str, list[str]]]:
    """Every pbem command shown in ``path``: (line, the text shown, its words after pbem)."""
    found = []
    for n, line, code in _lines_of(path):
        spans = [line] if code else [m.group(2) for m in _INLINE.finditer(line)]
        for span in spans:
            for m in _PBEM.finditer(span):
                words = _tokens(span[m.end():])
                if words and re.match(r"^(-|[a-z][a-z-]*$|[A-Z])", words[0]):
                    found.append((n, span[m.start(1):].strip(), words))
    return found


@lru_cache(maxsize=None)
def help_of(path: tuple[str, ...]) -> tuple[int, str]:
    """(exit status, output) of ``pbem PATH... --help``, in-process."""
    r = CliRunner().invoke(main, [*path, "--help"])
    return r.exit_code, r.output


def option_names(cmd: click.Command) -> set[str]:
    names = set()
    for p in cmd.params:
        if isinstance(p, click.Option):
            names.update(p.opts)
            names.update(p.secondary_opts)
    names.update(["--help", "-h"])
    return names


def check(words: list[str]) -> str | None:
    """What is wrong with ``pbem WORDS``, or None."""
    cmd: click.Command = main
    path: list[str] = []
    i = 0
    while i < len(words):
        w = words[i]
        if w.startswith("-") and w != "-":
            name = w.split("=", 1)[0]
            if name not in option_names(cmd):
                where = f"pbem {' '.join(path)}".strip()
                return (f"`{where}` has no option {name} (its options: "
                        f"{', '.join(sorted(option_names(cmd)))})")
            opt = next((p for p in cmd.params if isinstance(p, click.Option) and name in
                        p.opts + p.secondary_opts), None)
            takes_value = opt is not None and not opt.is_flag and not opt.count \
                and "=" not in w
            i += 2 if takes_value else 1
            continue
        if isinstance(cmd, click.Group):
            if _PLACEHOLDER.match(w):  # `pbem COMMAND --help`
                return None
            names = w.split("|")  # `pbem game extend|pause|resume`
            missing = [x for x in names if x not in cmd.commands]
            if missing:
                where = f"pbem {' '.join(path)}".strip()
                return (f"`{where}` has no command {', '.join(missing)} (its commands: "
                        f"{', '.join(sorted(cmd.commands))})")
            for alt in names[1:]:
                status, out = help_of((*path, alt))
                if status != 0:
                    return f"`pbem {' '.join([*path, alt])} --help` failed: {out}"
            path.append(names[0])
            cmd = cmd.commands[names[0]]
            status, out = help_of(tuple(path))
            if status != 0:
                return f"`pbem {' '.join(path)} --help` failed (status {status}): {out}"
        i += 1
    return None


def test_the_docs_show_pbem_commands():
    """The extraction finds the commands of README's commands table (a sanity check of the
    reader itself)."""
    shown = {" ".join(w[:2]) for _, _, w in doc_commands(ROOT / "README.md")}
    assert {"init", "game new", "ingest", "process", "report GAME", "verify TARGET"} & shown \
        and len(shown) >= 10


def test_the_reader_sees_through_tables_paths_and_continuations(tmp_path):
    doc = tmp_path / "x.md"
    doc.write_text("| `pbem report GAME [--format text\\|html]` | x |\n"
                   "```\n/home/ref/venv/bin/pbem --home H ingest -v - && pbem process\n"
                   "pbem game new hunt \\\n  --id g1 --nope\n```\n")
    found = doc_commands(doc)
    assert [(n, w) for n, _, w in found] == [
        (1, ["report", "GAME", "--format", "text|html"]),
        (3, ["--home", "H", "ingest", "-v", "-"]), (3, ["process"]),
        (4, ["game", "new", "hunt", "--id", "g1", "--nope"])]
    assert check(found[-1][2]).startswith("`pbem game new` has no option --nope")
    assert check(["sned"]).startswith("`pbem` has no command sned")
    assert check(found[0][2]) is None and check(found[1][2]) is None


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_command_in_the_docs_exists_with_its_options(doc):
    problems = []
    for line, text, words in doc_commands(doc):
        why = check(words)
        if why:
            problems.append(f"{doc.relative_to(ROOT)}:{line}: {text!r}: {why}")
    assert not problems, "\n".join(problems)
