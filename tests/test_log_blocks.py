"""The public log stored as compressed blocks (table ``log_block``, pbem.store.logblock; issue
11, "stored bytes per phase, all roles: at most 20 KB"): the lines read back are the lines
appended, byte for byte, whatever their ``prev``; a block changed outside pbem is detected
when the log is read; migration 0007 moves a log stored one row per line into blocks and back
without changing a byte.

Independent checks: lines are built here with ``json.dumps`` (keys sorted, no spaces, as the
ledger writes them) and chained here with ``hashlib.sha256``; the stored blocks are opened here
with ``zlib`` alone; the runs a migrated log is cut into are computed here from each line's
``at``."""

from __future__ import annotations

import hashlib
import json
import zlib

import pytest
from click.testing import CliRunner
from conftest import raw_connect
from gameplay import new_game
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.store import logblock

GENESIS = "0" * 64


def sha(line: str) -> str:
    return hashlib.sha256(line.encode("utf-8")).hexdigest()


def canonical(obj) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


# ------------------------------------------------------------------ lines made here

texts = st.one_of(st.text(max_size=30),
                  st.sampled_from(['"prev":""', 'prev', '"prev":"', '\u2028', 'caf\u00e9',
                                   '"type":"roll"', '100% a_b', '\\', '"']))
values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6), texts),
    lambda inner: st.one_of(st.lists(inner, max_size=3),
                            st.dictionaries(st.sampled_from(["prev", "a", "z", "type", "at"]),
                                            inner, max_size=3)),
    max_leaves=8)
MODES = ("chained", "chained", "chained", "nested-first", "wrong", "other-line", "none",
         "empty", "not-hex")


@st.composite
def logs(draw):
    """(lines, modes): canonical JSON lines chained here from GENESIS, each line's ``prev``
    chosen by its mode: the hash of the line before ("chained"; "nested-first": also inside
    a nested object sorted before it), a random hash ("wrong"), the hash of an earlier line
    ("other-line"), no ``prev`` ("none"), ``""`` ("empty") or not hex ("not-hex")."""
    n = draw(st.integers(1, 12))
    lines, modes, prev = [], [], GENESIS
    for i in range(n):
        obj = draw(st.dictionaries(st.sampled_from(["at", "game", "value", "why", "zz"]),
                                   values, max_size=4))
        obj["type"] = draw(st.sampled_from(["roll", "event", "dice-commit"]))
        mode = draw(st.sampled_from(MODES))
        if mode == "chained":
            obj["prev"] = prev
        elif mode == "nested-first":
            obj["a"], obj["prev"] = {"prev": prev}, prev
        elif mode == "wrong":
            obj["prev"] = draw(st.binary(min_size=32, max_size=32)).hex()
        elif mode == "other-line":
            obj["prev"] = sha(lines[0]) if lines else GENESIS + "0"
        elif mode == "empty":
            obj["prev"] = ""
        elif mode == "not-hex":
            obj["prev"] = prev.upper()
        line = canonical(obj)
        lines.append(line)
        modes.append(mode)
        prev = sha(line)
    return lines, modes


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(logs(), st.sampled_from([GENESIS, "ab" * 32]))
def test_any_lines_read_back_byte_for_byte(log, start):
    lines, modes = log
    encoding, blob, head = logblock.encode_block(lines, start)
    assert head == sha(lines[-1])
    assert logblock.decode_block(encoding, blob, start, len(lines)) == lines
    stored = zlib.decompress(blob).decode("utf-8")
    if start == GENESIS and encoding == "z1":
        # the first "prev":"<the line before's hash>" is left out, unless a "prev":"" stands
        # before it (reading puts the hash back at the first one); any other line is kept
        before = [GENESIS] + [sha(x) for x in lines[:-1]]
        for line, orig, mode, want in zip(stored.split("\n"), lines, modes, before):
            token = f'"prev":"{want}"'
            assert (token in orig) >= (mode in ("chained", "nested-first"))
            short = orig.replace(token, '"prev":""', 1)
            if token in orig and short.index('"prev":""') == orig.index(token):
                assert line == "=" + short, (mode, line)
                assert line.count(want) == (mode == "nested-first")
            else:
                assert line == "+" + orig, (mode, line)


def test_a_line_holding_a_newline_is_stored_whole():
    lines = ['{"prev":"' + GENESIS + '","type":"x"}', 'not json\nat all', ""]
    encoding, blob, head = logblock.encode_block(lines, GENESIS)
    assert encoding == "j1" and head == sha("")
    assert json.loads(zlib.decompress(blob)) == lines
    assert logblock.decode_block(encoding, blob, GENESIS, 3) == lines


@pytest.mark.parametrize("bad", [[], ["x"]])
def test_bad_input_is_refused(bad):
    with pytest.raises(ValueError, match="at least one line|64 lowercase hex"):
        logblock.encode_block(bad, "0" * 63)


def test_a_damaged_block_is_named():
    encoding, blob, _ = logblock.encode_block(['{"a":1}', '{"b":2}'], GENESIS)
    with pytest.raises(logblock.LogBlockError, match="holding 2 line"):
        logblock.decode_block(encoding, blob, GENESIS, 3)
    with pytest.raises(logblock.LogBlockError, match="does not decompress"):
        logblock.decode_block(encoding, blob[:-3], GENESIS)
    with pytest.raises(logblock.LogBlockError, match="unknown log block encoding 'z9'"):
        logblock.decode_block("z9", blob, GENESIS)
    with pytest.raises(logblock.LogBlockError, match="flag '{'"):
        logblock.decode_block("z1", zlib.compress(b'{"a":1}'), GENESIS)


@pytest.mark.parametrize("needle,safe", [
    ('"type":"dice-reveal"', True), ('"type":"game-end"', True), ('"stream":"hidden"', True),
    ('"prev":"', False), ('v":"', False), ('"', False), ('ab', False), ('0f"', False),
    ('":"abc', False), ('x"prev":"a', False), ('"phase":"a', True)])
def test_which_needles_can_be_searched_in_the_stored_text(needle, safe):
    assert logblock.needle_is_safe(needle) is safe


# ------------------------------------------------------------------ through the database

def appended(referee, game_id: str, batches: list[list[str]]) -> None:
    """Append each batch through pbem.store.repo.append_log, the head computed here."""
    from pbem.store import repo

    for lines in batches:
        with referee.db.write() as s:
            game = repo.get_game(s, game_id)
            repo.append_log(s, game, lines, sha(lines[-1]))


def chain_from(head: str, objs: list[dict], wrong: dict | None = None) -> list[str]:
    """``objs`` as canonical lines chained here from ``head``; ``wrong[i]``: line i's prev."""
    out = []
    for i, obj in enumerate(objs):
        line = canonical(dict(obj, prev=(wrong or {}).get(i, head)))
        out.append(line)
        head = sha(line)
    return out


def a_log(referee, game_id="h1", broken=False):
    """Game ``game_id`` (hunt) with three more appends (``broken``: one holding a line whose
    prev is wrong, as pbem never writes); returns its whole log as built here (the creation's
    lines read back first)."""
    new_game(referee, "hunt", ("red", "blue"), game_id)
    own = referee.log_lines(game_id)
    assert [json.loads(x)["prev"] for x in own] == [GENESIS] + [sha(x) for x in own[:-1]]
    batches, head = [], sha(own[-1])
    for b in range(3):
        objs = [{"type": "roll", "game": game_id, "phase": f"p{b}", "index": i, "sides": 6,
                 "value": i % 6 + 1, "why": f"attack {i} \u2028 100% a_b",
                 "at": f"2026-11-29T20:0{b}:00Z"} for i in range(40)]
        objs.append({"type": "event", "game": game_id, "phase": f"p{b}", "kind": "note",
                     "data": {"prev": "not the hash"}, "at": f"2026-11-29T20:0{b}:00Z"})
        batches.append(chain_from(head, objs, {7: "f" * 64} if b == 0 and broken else None))
        head = sha(batches[-1][-1])
    appended(referee, game_id, batches)
    return own + [x for b in batches for x in b]


def test_appended_lines_read_back_exactly_and_are_found_by_their_text(referee, tmp_path):
    from pbem.store import loglines

    lines = a_log(referee)
    assert referee.log_lines("h1") == lines
    assert list(referee.iter_log_lines("h1")) == lines
    path = referee.export_log("h1", tmp_path / "h1.jsonl")
    assert path.read_bytes() == "".join(x + "\n" for x in lines).encode("utf-8")
    blocks = peek(referee, "SELECT first_seq, last_seq, prev, blob FROM log_block WHERE "
                           "game_id='h1' ORDER BY first_seq")
    assert [(f, last) for f, last, _, _ in blocks][-3:] == [
        (len(lines) - 123 + 1 + 41 * b, len(lines) - 123 + 41 * (b + 1)) for b in range(3)]
    for first, last, prev, blob in blocks:  # each prev is the hash of the line before
        assert prev == (sha(lines[first - 2]) if first > 1 else GENESIS)
        text = zlib.decompress(bytes(blob)).decode("utf-8")
        assert not any(sha(x) in text for x in lines[first - 1:last - 1])  # left out
    # needles inside a left-out hash, across its start and across its end
    line = lines[-50]
    k = line.index('"prev":"') + 8
    inside, start, end = line[k + 10:k + 30], line[k - 6:k + 6], line[k + 58:k + 72]
    with referee.db.read() as s:
        for batch in (1, 2, 100):
            assert list(loglines.iter_lines(s, "h1", batch)) == lines
        for needles in (['"type":"event"'], [inside], [start], [end], ['"prev":""'],
                        ['"kind":"note"', '100%'], ['nowhere'], ['"type":"roll"', inside]):
            want = [x for x in lines if any(n in x for n in needles)]
            pending = [x for x in ("{}", lines[0]) if any(n in x for n in needles)]
            assert loglines.matching(s, "h1", needles, ["{}", lines[0]]) == want + pending
            # exact=False: the same lines, a prev that is the hash of the line before may be
            # left empty
            loose = loglines.matching(s, "h1", needles, ["{}", lines[0]], exact=False)
            assert len(loose) == len(want + pending)
            for got, line in zip(loose, want + pending):
                n = lines.index(line)
                token = f'"prev":"{sha(lines[n - 1]) if n else GENESIS}"'
                assert got in (line, line.replace(token, '"prev":""', 1)), (got, line)
            if needles == ['"type":"event"']:  # a safe needle: no hash computed
                assert loose[-1] == want[-1].replace(f'"prev":"{sha(lines[-2])}"',
                                                     '"prev":""', 1)


def test_append_log_refuses_a_head_that_is_not_the_last_line_s_hash(referee):
    from pbem.store import repo

    new_game(referee, "hunt", ("red", "blue"), "h1")
    with pytest.raises(ValueError, match="is not the hash of the game's last line"):
        with referee.db.write() as s:
            game = repo.get_game(s, "h1")
            repo.append_log(s, game, ['{"type":"x"}'], "e" * 64)


def peek(referee, sql, params=()):
    with raw_connect(referee.home.url) as con:
        return con.execute(sql, params).fetchall()


def attack(referee, sql, params=()):
    with raw_connect(referee.home.url) as con:
        con.execute(sql, params)


def recompressed(referee, first: int, edit) -> bytes:
    """The block starting at line ``first`` with ``edit`` applied to its stored text."""
    ((blob,),) = peek(referee, "SELECT blob FROM log_block WHERE first_seq=?", (first,))
    return zlib.compress(edit(zlib.decompress(bytes(blob)).decode()).encode())


@pytest.mark.parametrize("attack_on,message", [
    ("middle", "at line {next} does not follow the line before it"),
    ("last", "does not end at the game's log head"),
    ("removed", "at line {middle} is missing"),
    ("prev", "at line {middle} does not follow the line before it"),
    ("garbage", "at line {middle} cannot be read"),
    ("count", "at line {middle} cannot be read: a log block holding 41"),
])
def test_a_block_changed_outside_pbem_is_detected(referee, attack_on, message):
    from pbem.cli import main
    from pbem.store.loglines import LogTampered

    lines = a_log(referee)
    firsts = [f for (f,) in peek(referee, "SELECT first_seq FROM log_block ORDER BY first_seq")]
    middle, nxt, last = firsts[-2], firsts[-1], firsts[-1]
    six = '"value":6,'  # a roll of 6 becomes a 5
    if attack_on in ("middle", "last"):
        at = middle if attack_on == "middle" else last
        attack(referee, "UPDATE log_block SET blob=? WHERE first_seq=?",
               (recompressed(referee, at, lambda t: t.replace(six, '"value":5,', 1)), at))
    elif attack_on == "removed":
        attack(referee, "DELETE FROM log_block WHERE first_seq=?", (middle,))
    elif attack_on == "prev":
        attack(referee, "UPDATE log_block SET prev=? WHERE first_seq=?", ("1" * 64, middle))
    elif attack_on == "garbage":
        attack(referee, "UPDATE log_block SET blob=? WHERE first_seq=?", (b"not zlib", middle))
    else:
        attack(referee, "UPDATE log_block SET last_seq=last_seq+1 WHERE first_seq=?",
               (middle,))
    want = message.format(next=nxt, middle=middle)
    with pytest.raises(LogTampered, match=want):
        referee.log_lines("h1")
    r = CliRunner().invoke(main, ["--home", str(referee.home.path), "log", "h1", "--json"])
    assert r.exit_code == 1 and "Error: the public log of game h1" in r.output, r.output
    assert want in r.output.replace("\n", " ")
    assert len(lines) > 100


# ------------------------------------------------------------------ migration 0007

def alembic(url: str, how: str, revision: str) -> None:
    """Run Alembic's ``upgrade``/``downgrade`` to ``revision`` on ``url`` (plain SQLAlchemy
    engine, as `alembic -c migrations/alembic.ini` would)."""
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import create_engine

    from pbem.resources import migrations_dir

    cfg = Config()
    cfg.set_main_option("script_location", str(migrations_dir()))
    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            cfg.attributes["connection"] = conn
            getattr(command, how)(cfg, revision)
    finally:
        engine.dispose()


def test_migration_0007_moves_every_line_into_blocks_and_back(referee, clock, tmp_path):
    from test_store_integrity import next_referee

    from pbem.store.db import SCHEMA_HEAD

    lines = a_log(referee)
    other = a_log(referee, "h2")
    exported = referee.export_log("h1", tmp_path / "before.jsonl").read_bytes()
    referee.db.dispose()
    url = referee.home.url
    alembic(url, "downgrade", "0006_lookup_indexes")
    with raw_connect(url) as con:
        assert "log_block" not in con.tables()
        rows = con.execute("SELECT game_id, seq, line FROM log_line ORDER BY game_id, seq")
        assert rows.fetchall() == [("h1", n, x) for n, x in enumerate(lines, 1)] + \
            [("h2", n, x) for n, x in enumerate(other, 1)]
        heads = dict(con.execute("SELECT id, log_head FROM game").fetchall())
    assert heads == {"h1": sha(lines[-1]), "h2": sha(other[-1])}
    out = next_referee(referee, clock).upgrade()
    assert (out["revision_before"], out["revision"]) == ("0006_lookup_indexes", SCHEMA_HEAD)
    r = next_referee(referee, clock)
    assert r.log_lines("h1") == lines and r.log_lines("h2") == other
    assert r.export_log("h1", tmp_path / "after.jsonl").read_bytes() == exported
    # the lines of one append share their "at": the runs of the same "at" are the blocks
    runs, at = [], None
    for n, x in enumerate(lines, 1):
        stamp = json.loads(x)["at"]
        if stamp != at:
            runs.append([n, n])
        runs[-1][1], at = n, stamp
    assert peek(referee, "SELECT first_seq, last_seq FROM log_block WHERE game_id='h1' "
                         "ORDER BY first_seq") == [tuple(r) for r in runs]
    # and the game plays on, its new lines chained from the migrated head
    new = chain_from(sha(lines[-1]), [{"type": "note", "at": "2026-11-30T00:00:00Z"}])
    appended(r, "h1", [new])
    assert r.log_lines("h1") == lines + new


def test_a_line_whose_prev_is_not_the_hash_before_it_is_kept_and_refused_by_a_whole_read(
        referee):
    """Such a line (pbem never writes one; a log changed before an upgrade holds one) is
    stored as given, is found by its text, and a whole read names it as a break."""
    from pbem.store import loglines
    from pbem.store.loglines import LogTampered

    lines = a_log(referee, broken=True)
    blocks = peek(referee, "SELECT first_seq, blob FROM log_block WHERE game_id='h1' "
                           "ORDER BY first_seq")
    first, blob = blocks[-3]
    assert "f" * 64 in zlib.decompress(bytes(blob)).decode()  # kept: not the hash
    with pytest.raises(LogTampered) as e:
        referee.log_lines("h1")
    assert e.value.seq == first + 7
    with referee.db.read() as s:
        assert loglines.matching(s, "h1", ["f" * 64]) == [lines[first + 6]]


# ---------------------------------------------------------------- found by a tester's trial

@pytest.mark.parametrize("encoding", ["z1", "j1"])
def test_a_line_changed_inside_a_block_with_the_next_kept_as_it_was_is_found(referee, encoding):
    """A forger changes a roll on line k of a block and stores line k+1 with its own original
    bytes (flag +, or the block re-encoded as j1): the block still ends at the same hash, so
    only the check that each kept line points at the line before it finds it, at line k+1."""
    from pbem.cli import main
    from pbem.store.loglines import LogTampered

    lines = a_log(referee)
    (first, last, blob), = peek(referee, "SELECT first_seq, last_seq, blob FROM log_block WHERE "
                                         "game_id='h1' ORDER BY first_seq DESC LIMIT 1 OFFSET 1")
    mine = lines[first - 1:last]
    k = next(i for i, x in enumerate(mine[:-1]) if '"value":' in x)
    changed = mine[k].replace('"value":', '"value":9', 1)
    if encoding == "z1":
        parts = zlib.decompress(bytes(blob)).decode().split("\n")
        assert parts[k].startswith("=")
        parts[k] = parts[k].replace('"value":', '"value":9', 1)
        parts[k + 1] = "+" + mine[k + 1]
        new = zlib.compress("\n".join(parts).encode())
    else:
        new = zlib.compress(json.dumps(mine[:k] + [changed] + mine[k + 1:]).encode())
    attack(referee, "UPDATE log_block SET blob=?, encoding=? WHERE game_id='h1' AND first_seq=?",
           (new, encoding, first))
    assert sha(changed) != sha(mine[k])  # the forgery changed the line's hash...
    with pytest.raises(LogTampered) as e:
        referee.log_lines("h1")
    assert e.value.seq == first + k + 1  # ...which the next line no longer points at
    r = CliRunner().invoke(main, ["--home", str(referee.home.path), "log", "h1", "--json"])
    assert r.exit_code == 1 and f"at line {first + k + 1}" in r.output


def test_a_refused_log_leaves_the_file_it_was_to_be_written_to_as_it_was(referee, tmp_path):
    from pbem.cli import main

    a_log(referee)
    (last,), = peek(referee, "SELECT max(first_seq) FROM log_block WHERE game_id='h1'")
    attack(referee, "UPDATE log_block SET blob=? WHERE first_seq=?",
           (recompressed(referee, last, lambda t: t.replace('"value":6,', '"value":5,', 1)), last))
    out = tmp_path / "site" / "published.jsonl"
    out.parent.mkdir()
    out.write_text("the good copy published yesterday\n")
    r = CliRunner().invoke(main, ["--home", str(referee.home.path), "log", "h1", "--json",
                                  "-o", str(out)])
    assert r.exit_code == 1 and "Error: the public log of game h1" in r.output
    assert out.read_text() == "the good copy published yesterday\n"
    assert [p.name for p in out.parent.iterdir()] == ["published.jsonl"]  # no part left


def test_a_block_of_no_line_is_a_changed_log_not_a_crash(referee):
    from pbem.cli import main
    from pbem.store.loglines import LogTampered

    a_log(referee)
    (middle,), = peek(referee, "SELECT first_seq FROM log_block WHERE game_id='h1' "
                               "ORDER BY first_seq DESC LIMIT 1 OFFSET 1")
    attack(referee, "UPDATE log_block SET encoding='j1', blob=?, last_seq=first_seq-1 "
                    "WHERE game_id='h1' AND first_seq=?", (zlib.compress(b"[]"), middle))
    r = CliRunner().invoke(main, ["--home", str(referee.home.path), "log", "h1", "--json"])
    assert r.exit_code == 1 and "Error: the public log of game h1" in r.output, r.output
    with pytest.raises(LogTampered):
        referee.log_lines("h1")


def test_an_upgrade_of_a_log_with_a_missing_line_says_so_and_changes_nothing(referee, clock):
    """Found by a tester: a 0006 database whose log_line table lacks a line ended `pbem
    upgrade` in a traceback; it is an `Error:` naming the game and the line, exit 1, and the
    database stays at 0006."""
    from pbem.cli import main

    a_log(referee)
    referee.db.dispose()
    url = referee.home.url
    alembic(url, "downgrade", "0006_lookup_indexes")
    attack(referee, "DELETE FROM log_line WHERE game_id='h1' AND seq=10")
    r = CliRunner().invoke(main, ["--home", str(referee.home.path), "upgrade"])
    assert r.exit_code == 1, r.output
    assert "Error: the public log of game h1 has no line 10 (the next is 11)" in r.output
    assert "Traceback" not in r.output
    with raw_connect(url) as con:
        assert con.execute("SELECT version_num FROM alembic_version").fetchall() == [
            ("0006_lookup_indexes",)]
