"""A database URL pbem cannot use is refused with the forms it expects, never a traceback
(issue 11: found by a first-time referee following docs/operations.md)."""

import pytest
from click.testing import CliRunner

from pbem.cli import main


@pytest.mark.parametrize("url, why", [
    ("postgresql+psycopg2://ref@/pbem", "No module named 'psycopg2'"),  # a driver not installed
    ("postgres://ref@/pbem", "sqlalchemy.dialects:postgres"),            # a dialect misspelt
    ("garbage", "Could not parse"),                                      # not a URL at all
])
def test_an_unusable_database_url_names_the_forms_expected(tmp_path, url, why):
    r = CliRunner().invoke(main, ["--home", str(tmp_path / "home"), "--db", url, "status"])
    assert r.exit_code == 1
    assert "Traceback" not in r.output
    assert why in r.output
    assert "expected sqlite:///PATH or postgresql+psycopg://USER@HOST/DBNAME" in r.output
