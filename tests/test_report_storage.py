"""Stored reports (issue 11, "Reports stop bloating the database"; pbem.engine.reportstore):
a phase stores each reader's report context, compressed and sealed, and the text and HTML are
rendered from it when mailed or shown; schema 0005 compresses the reports an earlier pbem
stored rendered.

Independent checks: the reports read back are compared with the text and HTML rendered
directly from the contexts the phase built in memory (pbem's renderer as a phase used it
before issue 11: text map and SVG drawn from the view itself, never through JSON); the stored
layout (a JSON header line, then a zlib stream whose dictionary is a public context) is
opened here with the ``zlib`` module and the sealer, as pbem.engine.reportstore's docstring
describes it; sizes are measured here against the rendered reports.
"""

from __future__ import annotations

import copy
import json
import random
import zlib

import pytest
from conftest import incoming
from gameplay import new_game, play
from test_store_integrity import attack, next_referee, peek, game  # noqa: F401  (the fixture)

from pbem.engine import registry, reportstore
from pbem.reports.render import render_html, render_text
from pbem.reports.svgmap import map_for
from pbem.store.db import SCHEMA_HEAD


class Enough(Exception):
    """Stops a game played by gameplay.play after some phases."""


def play_some(referee, clock, players, game_id: str, seed: int, phases: int | None) -> None:
    """Play ``game_id`` with its bots for ``phases`` phases, or to its end (None)."""
    done = []

    def count(resolved):
        done.append(resolved)
        if phases is not None and len(done) >= phases:
            raise Enough

    try:
        play(referee, clock, players, game_id, random.Random(seed), nmr_rate=0.1,
             after_phase=count)
    except Enough:
        pass


def direct(context: dict, fmt: str) -> str:
    """``context`` rendered as a phase rendered it before issue 11."""
    ruleset = context["game"]["ruleset"]
    rs = registry.get(ruleset)
    full = dict(context, board=rs.text_map(context["view"]))
    if fmt == "text":
        return render_text(ruleset, full)
    return render_html(ruleset, dict(full, svg=map_for(rs, context["view"])))


@pytest.fixture
def recorded(monkeypatch):
    """Every ``(game, seq, reader, context)`` a phase stores, as the phase built it."""
    out = []
    real = reportstore.store_contexts

    def keep(session, sealer, game_id, seq, contexts, now, templates=None):
        out.extend((game_id, seq, reader, context) for reader, context in contexts)
        return real(session, sealer, game_id, seq, contexts, now, templates)

    monkeypatch.setattr(reportstore, "store_contexts", keep)
    return out


def opened(referee, row):
    """(header, context JSON) of a stored context row, opened here as the docs describe."""
    owner = "public" if row["role"] == "*" else row["role"]
    data = referee.sealer.open(row["game_id"], owner, f"report:{row['phase_seq']}:context:zlib",
                               0, row["blob"])
    head, body = data.split(b"\n", 1)
    header = json.loads(head)
    zdict = None
    if header["dict"] is not None:
        (base,) = [r for r in stored(referee, row["game_id"]) if r["role"] == "*"
                   and r["phase_seq"] == header["dict"]["seq"]]
        zdict = opened(referee, base)[1]
    z = zlib.decompressobj(zdict=zdict) if zdict else zlib.decompressobj()
    return header, z.decompress(body) + z.flush()


def stored(referee, game_id):
    rows = peek(referee, "SELECT id, game_id, phase_seq, role, fmt, encoding, blob FROM report "
                         "WHERE game_id=? ORDER BY id", (game_id,))
    return [dict(zip(("id", "game_id", "phase_seq", "role", "fmt", "encoding", "blob"), r))
            for r in rows]


@pytest.mark.parametrize("ruleset,roles,phases", [
    ("hunt", ("red", "blue", "green"), None),  # to its end: the outcome, the reveals
    ("atlantis", ("red", "green", "blue", "yellow"), 6),
    ("altassar", ("confederation", "spikus"), 6),
    ("attackforce", ("arcturan", "empire"), 6),
])
def test_each_stored_report_reads_back_as_its_phase_made_it(referee, clock, recorded, ruleset,
                                                            roles, phases):
    players = new_game(referee, ruleset, roles, "g1")
    play_some(referee, clock, players, "g1", 3, phases)
    assert recorded and {r for _, _, r, _ in recorded} == set(roles) | {"*"}
    for _, seq, reader, context in recorded:
        for fmt in ("text", "html"):
            assert referee.report("g1", reader, fmt, phase=seq) == direct(context, fmt), \
                (seq, reader, fmt)
    # every reader, every phase: one context row, nothing rendered stored
    rows = stored(referee, "g1")
    assert {(r["fmt"], r["encoding"]) for r in rows} == {("context", "zlib")}
    assert len(rows) == len(recorded)


@pytest.mark.parametrize("ruleset,roles", [
    ("atlantis", ("red", "green", "blue", "yellow")),
    ("altassar", ("confederation", "spikus")),
    ("attackforce", ("arcturan", "empire")),
])
def test_one_delivery_cache_renders_every_reader_as_the_phase_made_it(referee, clock, recorded,
                                                                     ruleset, roles):
    """A delivery run opens a phase's contexts through one cache, and they share the objects
    equal to the public context's (the drawing of the shared part is then remembered across
    readers): in any order of readers, across phases, each report is still exactly its own
    reader's, with no value or secret of another reader's in it."""
    from pbem.store import repo

    players = new_game(referee, ruleset, roles, "g1")
    play_some(referee, clock, players, "g1", 5, 6)
    made = {(seq, reader): context for _, seq, reader, context in recorded}
    expected = {}
    for key, context in made.items():  # each alone, nothing remembered from another reader
        forget_drawings()
        expected[key] = {fmt: direct(copy.deepcopy(context), fmt) for fmt in ("text", "html")}
    rng, cache = random.Random(7), {}
    with referee.db.read() as s:
        assert {p.role for p in repo.players(s, "g1")} == set(roles)
        for seq in sorted({seq for seq, _ in made}):
            readers = [r for q, r in made if q == seq]
            rng.shuffle(readers)
            for reader in readers + readers[:2]:  # and again, after the others
                parts = reportstore.report_parts(s, referee.sealer, "g1", reader, seq, cache)
                assert parts == expected[seq, reader], (seq, reader)


def forget_drawings():
    """Clear every remembered drawing and map (pbem.boards.drawing's decorators)."""
    from pbem.boards import drawing
    from pbem.games.altassar import draw as altassar
    from pbem.games.atlantis import draw as atlantis
    from pbem.games.attackforce import draw as attackforce
    from pbem.reports import svgmap

    for fn in (atlantis.draw, atlantis._shared, altassar.draw, attackforce.draw,
               svgmap._remembered_svg, drawing.text_map):
        fn.cache_clear()


def test_a_reader_s_row_holds_its_context_and_leans_on_public_ones_only(referee, clock,
                                                                        recorded):
    players = new_game(referee, "atlantis", ("red", "green", "blue"), "a1")
    play_some(referee, clock, players, "a1", 5, 10)
    made = {(seq, reader): context for _, seq, reader, context in recorded}
    publics = sorted({seq for seq, reader in made if reader == "*"})
    for row in stored(referee, "a1"):
        header, raw = opened(referee, row)
        context = json.loads(raw)
        assert context == json.loads(json.dumps({k: v for k, v in made[row["phase_seq"],
                                                                       row["role"]].items()
                                                 if k != "board"}))
        assert list(context) == [k for k in made[row["phase_seq"], row["role"]] if k != "board"]
        assert header["templates"] is None
        if row["role"] != "*":  # a role's dictionary: its own phase's public context
            assert header["dict"] == {"role": "*", "seq": row["phase_seq"]}
            continue
        # the public ones, in phase order: the first alone, every 4th with the first, the
        # others with the last of those before them
        i = publics.index(row["phase_seq"])
        want = None if i == 0 else publics[0] if i % 4 == 0 else publics[i - i % 4]
        assert header["dict"] == (None if want is None else {"role": "*", "seq": want})


def test_a_phase_s_reports_are_a_small_part_of_what_they_render(referee, clock, recorded):
    players = new_game(referee, "altassar", ("confederation", "spikus"), "x1")
    play_some(referee, clock, players, "x1", 2, 5)
    rows = stored(referee, "x1")
    for seq in {r["phase_seq"] for r in rows}:
        kept = sum(len(r["blob"]) for r in rows if r["phase_seq"] == seq)
        shown = sum(len(direct(c, f).encode()) for _, s, _, c in recorded if s == seq
                    for f in ("text", "html"))
        assert kept * 20 < shown, (seq, kept, shown)


def deliver(referee, folder):
    """Deliver the due mail into ``folder`` (pbem outbox): the DeliveryRun."""
    from pbem.mail.transports import FolderTransport

    return referee.send(transport=FolderTransport(folder))


def body(path) -> str:
    """The plain-text body of a delivered .eml file."""
    import email
    from email import policy

    msg = email.message_from_bytes(path.read_bytes(), policy=policy.default)
    return msg.get_body(("plain",)).get_content().replace("\r\n", "\n")


def test_a_row_moved_or_relabelled_does_not_open_and_its_mail_stays_queued(game, players, clock,
                                                                          tmp_path):
    from pbem.crypto.errors import CryptoError

    v = game.ingest([incoming(players["blue"].signed("h1", 1, "dig", "dig 7", issued=clock()))])
    assert [x.status for x in v] == ["accepted"]
    assert game.process("h1")
    rows = {(r["phase_seq"], r["role"]): r for r in stored(game, "h1")}
    red, blue = rows[1, "red"], rows[1, "blue"]
    attack(game, "UPDATE report SET blob=? WHERE id=?", (blue["blob"], red["id"]))
    r = next_referee(game, clock)
    with pytest.raises(CryptoError):
        r.report("h1", "red", "text", phase=1)
    assert r.report("h1", "blue", "text", phase=1) == \
        next_referee(game, clock).report("h1", "blue", "text")
    run = deliver(r, tmp_path / "out")
    assert [what for what, why in run.problems if "cannot be read back" in why] == \
        [f"report to {players['red'].email} (h1)"]
    assert peek(game, "SELECT count(*) FROM outbox WHERE owner='red' AND kind='report' AND "
                      "sent_at IS NULL AND report_seq=1") == [(1,)]
    assert peek(game, "SELECT count(*) FROM outbox WHERE owner='blue' AND kind='report' AND "
                      "sent_at IS NULL") == [(0,)]


@pytest.mark.parametrize("packed", [False, True])
def test_a_letter_stored_by_an_earlier_pbem_is_still_delivered(game, clock, tmp_path, packed):
    """Receipts were stored rendered, as sealed plain JSON before issue 11, then as zlib; they
    are stored as their context now (pbem.engine.letters). A rendered one is mailed as it is."""
    (row_id, blob), = peek(game, "SELECT id, blob FROM outbox WHERE kind='receipt'")
    letter = json.loads(zlib.decompress(game.sealer.open("h1", "red", "mail:receipt", 0, blob)))
    assert letter["template"] == "receipt.txt.j2" and "text" not in letter
    text = ("Your orders are received (stored rendered by an earlier pbem).\n\n"
            f"orders-sha256: {letter['context']['sha256']}\n")
    old = json.dumps({"sender": letter["sender"], "text": text,
                      "in_reply_to": letter["in_reply_to"]}, sort_keys=True).encode()
    attack(game, "UPDATE outbox SET blob=? WHERE id=?",
           (game.sealer.seal("h1", "red", "mail:receipt", 0,
                             zlib.compress(old) if packed else old), row_id))
    run = deliver(next_referee(game, clock), tmp_path / "out")
    (sent,) = [d for d in run.sent if d.id == row_id]
    assert body(sent.where).replace("\r\n", "\n") == text and not run.problems


def test_reports_are_rendered_with_the_folder_in_force_when_made(game, players, clock, tmp_path):
    from click.testing import CliRunner

    from pbem.cli import main
    from pbem.reports.render import use_templates

    tpl = tmp_path / "tpl"
    (tpl / "hunt").mkdir(parents=True)
    (tpl / "hunt" / "report.txt.j2").write_text("CLUB {{ game.id }} {{ role }}\n")
    v = game.ingest([incoming(players["blue"].signed("h1", 1, "dig", "dig 7", issued=clock()))])
    assert [x.status for x in v] == ["accepted"]
    home = ["--home", str(game.home.path), "--now", "2026-11-30T20:00:00Z"]
    try:
        r = CliRunner().invoke(main, [*home, "--templates", str(tpl), "process", "--game", "h1"])
        assert r.exit_code == 0, r.output
    finally:
        use_templates(None)
    # shown and mailed without --templates: the folder of the phase, recorded with it
    assert next_referee(game, clock).report("h1", "red", "text", phase=1) == "CLUB h1 red\n"
    assert next_referee(game, clock).report("h1", "red", "text", phase=0) != "CLUB h1 red\n"
    moved = tpl.rename(tmp_path / "tpl-moved")
    run = deliver(next_referee(game, clock), tmp_path / "out")
    stuck = sorted(what for what, why in run.problems
                   if "cannot be rendered" in why and str(tpl.resolve()) in why)
    assert stuck == sorted(f"report to {players[p].email} (h1)" for p in ("red", "blue"))
    moved.rename(tpl)
    run = deliver(next_referee(game, clock), tmp_path / "out2")
    mails = sorted(body(d.where) for d in run.sent if d.kind == "report")
    assert mails == ["CLUB h1 blue\n", "CLUB h1 red\n"] and not run.problems


# ---------------------------------------------------------------- schema 0005

def _make_0004(referee):
    """Turn the database into what pbem at schema 0004 left: every report stored rendered
    (text and HTML rows, sealed plain UTF-8 under ``report:SEQ:FMT``), no ``encoding``
    column. Returns ``{(seq, role, fmt): body}``."""
    from test_migrations import rewrite_as

    from pbem.store.integrity import MARKER_VERSION, PROTECTED

    bodies, rows = {}, []
    for row in stored(referee, "h1"):
        header, raw = opened(referee, row)
        context = json.loads(raw)
        for fmt in ("html", "text"):
            body = direct(context, fmt)
            bodies[row["phase_seq"], row["role"], fmt] = body
            owner = "public" if row["role"] == "*" else row["role"]
            rows.append((row["id"], row["phase_seq"], row["role"], fmt, referee.sealer.seal(
                "h1", owner, f"report:{row['phase_seq']}:{fmt}", 0, body.encode())))

    def drop(con):
        for old_id, seq, role, fmt, blob in rows:
            con.execute("INSERT INTO report (game_id, phase_seq, role, fmt, created_at, blob, "
                        "encoding) SELECT game_id, phase_seq, role, ?, created_at, ?, 'identity' "
                        "FROM report WHERE id=?", (fmt, blob, old_id))
        con.execute("DELETE FROM report WHERE fmt='context'")
        con.execute("ALTER TABLE report DROP COLUMN encoding")

    rewrite_as(referee, PROTECTED, drop, MARKER_VERSION, "0004_encrypted_reports")
    return bodies


def test_a_0004_database_gets_its_reports_compressed_and_plays_on(game, players, clock,
                                                                  tmp_path):
    from test_migrations import columns

    bodies = _make_0004(game)
    before = {(seq, role, fmt): len(blob) for seq, role, fmt, blob in
              peek(game, "SELECT phase_seq, role, fmt, blob FROM report")}
    assert set(before) == set(bodies)
    assert "encoding" not in columns(game, "report")
    with pytest.raises(Exception, match="pbem upgrade"):
        next_referee(game, clock).status()
    out = next_referee(game, clock).upgrade()
    assert (out["revision_before"], out["revision"]) == ("0004_encrypted_reports", SCHEMA_HEAD)
    rows = stored(game, "h1")
    assert {(r["fmt"], r["encoding"]) for r in rows} == {("text", "zlib"), ("html", "zlib")}
    for r in rows:  # compressed with zlib, sealed under the purpose naming it
        owner = "public" if r["role"] == "*" else r["role"]
        data = game.sealer.open("h1", owner, f"report:{r['phase_seq']}:{r['fmt']}:zlib", 0,
                                r["blob"])
        assert zlib.decompress(data).decode() == bodies[r["phase_seq"], r["role"], r["fmt"]]
        assert len(r["blob"]) < before[r["phase_seq"], r["role"], r["fmt"]]
    r = next_referee(game, clock)
    for (seq, role, fmt), text in bodies.items():
        assert r.report("h1", role, fmt, phase=seq) == text
    # the game plays on: the next phase stores contexts, and all mail goes out
    v = r.ingest([incoming(players["blue"].signed("h1", 1, "dig", "dig 7", issued=clock()))])
    assert [x.status for x in v] == ["accepted"]
    assert [d.phase for d in r.process("h1")] == ["1.dig"]
    assert {(x["fmt"], x["encoding"]) for x in stored(game, "h1") if x["phase_seq"] == 1} \
        == {("context", "zlib")}
    run = deliver(r, tmp_path / "out")
    assert not run.problems and len([d for d in run.sent if d.kind == "report"]) == 4
    (setup_mail,) = [d.where for d in run.sent
                     if d.kind == "report" and "setup report for red" in d.subject]
    assert body(setup_mail) == bodies[0, "red", "text"]
    assert next_referee(game, clock).upgrade()["revision_before"] == SCHEMA_HEAD


def test_an_upgrade_that_cannot_open_a_report_changes_nothing(game, clock):
    from test_migrations import columns

    _make_0004(game)
    from pbem.engine.errors import SetupError

    attack(game, "UPDATE report SET blob=? WHERE role='red' AND fmt='text'", (b"\x01" * 40,))
    with pytest.raises(SetupError, match=r"the stored text report of red for phase 0 of game "
                                         r"h1 \(report row \d+\) does not open"):
        next_referee(game, clock).upgrade()
    assert peek(game, "SELECT version_num FROM alembic_version") == [("0004_encrypted_reports",)]
    assert "encoding" not in columns(game, "report")
