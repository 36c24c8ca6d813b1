"""pbem.engine.modular.PackageRuleset (issue 9, "a game's ruleset.py becomes a short adapter"):
methods bound from the package's conventional modules, the class's own methods winning, a
method nobody gives staying abstract."""

import sys
import types

import pytest

from pbem.engine.modular import PackageRuleset


def _package(name: str, **modules):
    """A package ``name`` with the given modules (name -> {function name: function})."""
    pkg = types.ModuleType(name)
    pkg.__path__ = []
    sys.modules[name] = pkg
    for mod, functions in modules.items():
        m = types.ModuleType(f"{name}.{mod}")
        m.__dict__.update(functions)
        m.__spec__ = types.SimpleNamespace(name=f"{name}.{mod}")
        sys.modules[f"{name}.{mod}"] = m
    return pkg


def _game(package, **attrs):
    body = {"name": "toy", "title": "Toy", "min_roles": 2, "max_roles": 2,
            "role_names": ("a", "b"), "package": package, "data_file": None, "map_file": None}
    body.update(attrs)
    return type("Toy", (PackageRuleset,), body)


def test_functions_of_the_conventional_modules_become_the_methods():
    def window(s):
        return "turns.window"

    fns = {f: (lambda *a, f=f: f) for f in ("setup", "resolve")}
    _package("toypkg1", turns={"window": window, **fns},
             orders={"parse": lambda *a: "parse"}, checking={"check": lambda *a: "check"},
             state={"view": lambda *a: "view", "dump": lambda *a: "dump",
                    "load": lambda *a: "load"},
             texts={"template": lambda *a: "template"})
    rs = _game("toypkg1")()
    assert rs.window(None) == "turns.window" and rs.parse() == "parse"
    assert rs.template(None, "a") == "template" and rs.draw({}) is None


def test_the_class_own_method_and_modules_win():
    _package("toypkg2", turns={f: (lambda *a, f=f: f) for f in ("setup", "resolve")},
             windows={"window": lambda s: "windows.window"},
             orders={"parse": lambda *a: "parse"}, checking={"check": lambda *a: "check"},
             state={"view": lambda *a: "view", "dump": lambda *a: "dump",
                    "load": lambda *a: "load"},
             texts={"template": lambda *a: "template"})
    cls = _game("toypkg2", modules={"window": "windows"},
                parse=lambda self, *a: "own parse")
    rs = cls()
    assert rs.window(None) == "windows.window" and rs.parse() == "own parse"


def test_a_method_nobody_gives_stays_abstract():
    _package("toypkg3", state={"view": lambda *a: "view"})
    with pytest.raises(TypeError, match="window"):
        _game("toypkg3")()
