"""Shared fixtures: a referee home in a temporary folder with a movable clock, players with
keys, and the test-only ruleset "hunt" (tests/toygame.py) registered beside the real ones."""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from pbem.engine import registry

START = datetime(2026, 11, 29, 20, 0, tzinfo=timezone.utc)


class MovableClock:
    """A UTC clock a test moves by hand."""

    def __init__(self, start=START):
        self.now = start

    def __call__(self):
        return self.now

    def advance(self, **kw):
        self.now += timedelta(**kw)


class CountingEntropy:
    """Reproducible 'random' bytes for tests (sha256 in counter mode)."""

    def __init__(self, label="test"):
        self.label, self.n = label, 0

    def __call__(self, k):
        out = b""
        while len(out) < k:
            out += hashlib.sha256(f"{self.label}/{self.n}".encode()).digest()
            self.n += 1
        return out[:k]


@pytest.fixture(autouse=True)
def _hunt_registered():
    import toygame

    registry._cache["hunt"] = toygame.ruleset
    yield
    registry._cache.pop("hunt", None)


@pytest.fixture
def clock():
    return MovableClock()


@pytest.fixture
def referee(tmp_path, clock):
    from pbem.engine.home import Home
    from pbem.engine.service import Referee

    r = Referee(Home(tmp_path / "home"), clock=clock, entropy=CountingEntropy())
    r.init()
    # the From address of games created without one (docs/mail.md, "The settings file")
    (r.home.path / "config.toml").write_text('[mail]\nfrom = "referee@judge.example"\n',
                                             encoding="utf-8")
    return r


class Player:
    """A player with a pbem key pair; ``text(...)`` writes an order file, ``signed(...)`` signs
    it. With ``referee`` (a Referee) the header carries the game's ``referee:`` line, the
    fingerprint of the game's referee key as the report's order template gives it."""

    def __init__(self, role, email=None, seed=None, referee=None):
        from pbem.crypto.keys import PrivateKey

        self.role = role
        self.referee = referee
        self.email = email or f"{role}@players.example"
        self.key = PrivateKey(hashlib.sha256(f"key/{seed or role}".encode()).digest(), role)
        self.public_text = self.key.public_key().pbem_line() + "\n"
        self.n = 0

    def spec(self):
        from pbem.engine.creation import PlayerSpec

        return PlayerSpec(self.role, self.email, self.public_text, f"{self.role}.pub")

    def referee_line(self, game):
        """``referee: SHA256:...`` of ``game`` on this player's referee, or "" without one."""
        if self.referee is None:
            return ""
        key = self.referee.sealer.referee_signing_key(game).public_key()
        return f"referee: {key.fingerprint}\n"

    def text(self, game, turn, phase, body, *, issued, role=None, nonce=None, referee=None):
        """An order file; ``referee``: None for the line of this player's referee (if any),
        False for none, or the fingerprint to write."""
        self.n += 1
        nonce = nonce or hashlib.sha256(f"nonce/{self.role}/{self.n}".encode()).hexdigest()[:32]
        stamp = issued.strftime("%Y-%m-%dT%H:%M:%SZ")
        ref = (self.referee_line(game) if referee is None
               else f"referee: {referee}\n" if referee else "")
        return (f"game: {game}\nturn: {turn}\nphase: {phase}\nrole: {role or self.role}\n"
                f"{ref}nonce: {nonce}\nissued: {stamp}\n\n{body}")

    def signed(self, *args, **kw):
        from pbem.crypto.envelope import sign_text

        return sign_text(self.text(*args, **kw), self.key)


@pytest.fixture
def players(request):
    """Four players; in a test that uses the ``referee`` fixture they write its referee line."""
    ref = request.getfixturevalue("referee") if "referee" in request.fixturenames else None
    return {r: Player(r, referee=ref) for r in ("red", "blue", "green", "white")}


def incoming(data, origin="test", bare=None):
    """An Incoming item for ingest from text or bytes (bare orders unless it looks like mail)."""
    from pbem.mail.sources import Incoming, looks_like_message

    raw = data.encode() if isinstance(data, str) else data
    return Incoming(raw, origin, (not looks_like_message(raw)) if bare is None else bare)


@pytest.fixture(scope="session")
def demo_game(tmp_path_factory):
    """One reproducible `pbem demo atlantis --players 3 --seed 8`, played once per test run
    through the command line: ``{"out": its folder, "game": the game id, "output": what the
    command printed}``. A finished game with a long log and every kind of report, its referee
    home in ``out/home``; tests must not change it."""
    from click.testing import CliRunner

    from pbem.cli import main

    out = tmp_path_factory.mktemp("demo")
    r = CliRunner().invoke(main, ["demo", "atlantis", "--players", "3", "--seed", "8", "--out",
                                  str(out), "--quiet"], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    (log,) = out.glob("*.jsonl")
    return {"out": str(out), "game": log.stem, "output": r.output}


def pytest_addoption(parser):
    parser.addoption("--conformance-seeds", type=int, default=None,
                     help="random games per ruleset in tests/test_conformance.py (default 3)")
    parser.addoption("--update-screenshots", action="store_true", default=False,
                     help="write the report screenshots of tests/test_reports_browser.py to "
                          "docs/screenshots/ (also: PBEM_UPDATE_SCREENSHOTS=1)")


def pytest_configure(config):
    import sys

    sys.path.insert(0, str(Path(__file__).parent))
