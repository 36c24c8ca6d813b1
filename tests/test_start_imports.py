"""Start-up (issue 11, "Start-up"): a command that touches the database loads only what it needs.

Each command runs through the real command line in a fresh interpreter (a child process, as cron
and procmail start it), on a referee home with two Escape from Atlantis games, and the child
reports the modules it loaded. ``pbem status`` and ``pbem process --due`` with nothing due render
nothing and load no ruleset; ``pbem ingest -`` of one signed order mail judges it with the
game's ruleset and renders the receipt with Jinja2. None of them loads SQLModel or pydantic
(pbem's tables are SQLAlchemy Core tables with plain mapped classes: pbem.store.base), Alembic
(migrations) or Mako. How long they take is measured by bench/bench_start.py, never asserted
here.
"""

import json
import random
import subprocess
import sys
from types import SimpleNamespace

import pytest
from conftest import Player, pbem_env

from pbem.engine import registry
from pbem.engine.creation import GameSpec

NEVER = ("sqlmodel", "pydantic", "alembic", "mako")
"""Packages no command of these three loads."""
GAMES = ("atl-a", "atl-b")
ROLES = ("red", "green", "blue")

_CHILD = """\
import json, sys
from pbem.cli import main
try:
    main(sys.argv[2:], standalone_mode=False)
except SystemExit:
    pass
sys.stdout.flush()
with open(sys.argv[1], "w") as out:
    json.dump(sorted(sys.modules), out)
"""


@pytest.fixture
def home(referee, clock):
    """``.path``: the referee's home, with two 3-player Atlantis games; ``.mail``: red's signed
    orders for the first game's open window (setup), as a mail."""
    from pbem.mail.clients import order_mail

    seats = [Player(role, referee=referee) for role in ROLES]
    for game in GAMES:
        referee.new_game(GameSpec(ruleset="atlantis", game_id=game,
                                  players=tuple(p.spec() for p in seats), options={},
                                  referee_address="referee@judge.example"))
    view, window = referee.view_and_window(GAMES[0], "red")
    body = registry.get("atlantis").bot_orders(view, window, "red", random.Random(1))
    signed = seats[0].signed(GAMES[0], window.turn, window.phase, body, issued=clock())
    mail = order_mail("plain", sender=seats[0].email, to="referee@judge.example",
                      subject=f"{GAMES[0]} orders", signed=signed, date=clock())
    referee.db.dispose()
    return SimpleNamespace(path=referee.home.path, mail=mail)


def loaded(home, clock, tmp_path, *args, stdin=b""):
    """(what ``pbem --home HOME --now NOW ARGS`` printed, the names of the modules it loaded),
    run in a fresh interpreter."""
    listing = tmp_path / "modules.json"
    argv = ["--home", str(home.path), "--now", clock().isoformat(), *args]
    done = subprocess.run([sys.executable, "-c", _CHILD, str(listing), *argv], input=stdin,
                          capture_output=True, env=pbem_env(home.path), timeout=120)
    assert done.returncode == 0, done.stderr.decode()
    return done.stdout.decode(), set(json.loads(listing.read_text()))


def packages(modules) -> set:
    """The top-level packages among ``modules``."""
    return {m.split(".")[0] for m in modules}


def test_the_command_line_alone_loads_no_database_module(tmp_path):
    """What every command pays before it runs: `import pbem.cli` (the command definitions)."""
    code = "import sys, pbem.cli; print(' '.join(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, check=True)
    top = packages(done.stdout.decode().split())
    assert not top & {"sqlalchemy", "jinja2", "cryptography", *NEVER}


def test_status_loads_the_store_but_no_ruleset_and_no_templates(home, clock, tmp_path):
    out, modules = loaded(home, clock, tmp_path, "status")
    assert all(game in out for game in GAMES) and "orders in: none" in out
    top = packages(modules)
    assert "sqlalchemy" in top  # the database is read (a check that the child really ran)
    assert not top & {"jinja2", *NEVER}
    assert not {m for m in modules if m.startswith("pbem.games")}


def test_process_with_nothing_due_loads_no_ruleset_and_no_templates(home, clock, tmp_path):
    out, modules = loaded(home, clock, tmp_path, "process", "--due")
    assert out.strip() == "nothing to process"
    top = packages(modules)
    assert "sqlalchemy" in top
    assert not top & {"jinja2", *NEVER}
    assert not {m for m in modules if m.startswith("pbem.games")}


def test_ingest_of_one_mail_loads_neither_sqlmodel_nor_pydantic(home, clock, tmp_path):
    out, modules = loaded(home, clock, tmp_path, "ingest", "-", stdin=home.mail)
    assert out.strip() == "accepted 1, rejected 0, duplicate 0"
    top = packages(modules)
    assert "sqlalchemy" in top  # orders checked and stored
    assert "jinja2" not in top  # the receipt is rendered when it is mailed (pbem send)
    assert "html.parser" not in modules  # a plain-text mail: no HTML body to lay out
    assert "pbem.games.atlantis" in modules and "pbem.games.altassar" not in modules
    assert "multiprocessing" not in modules  # the reader is forked with os.fork alone
    assert not top & set(NEVER)

