"""docs/rulesets.md: ``check`` must not change the state it is given. The judge relies on it
since issue 11: a role's state is loaded once per batch and every order set of that role in the
batch is checked against it, in the judge and in the reader processes (pbem.engine.judge,
pbem.engine.prepare). Every installed ruleset, through random games, each check compared with
a copy of the state taken before it."""

from __future__ import annotations

import pickle

import pytest
from test_role_state import RULESETS, compare_game, roles_of

from pbem.engine import registry


def snapshot(state):
    """Everything a state holds: its pickle, or (a state holding read-only mappings, which do
    not pickle) its full repr."""
    try:
        return pickle.dumps(state)
    except TypeError:
        return repr(state)


@pytest.mark.parametrize("name", RULESETS)
def test_check_leaves_the_state_it_is_given_as_it_was(name, monkeypatch):
    rs = registry.get(name)
    real = rs.check
    calls, changed = [], []

    def check(state, role, orders):
        before = snapshot(state)
        out = real(state, role, orders)
        calls.append(role)
        if snapshot(state) != before:
            changed.append(role)
        return out

    monkeypatch.setattr(rs, "check", check)
    compare_game(rs, roles_of(rs, 3), 3)
    assert calls and not changed
