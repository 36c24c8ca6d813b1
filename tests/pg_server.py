"""A real PostgreSQL server for the tests (issue 11): the one `.ci/run` started, or a private one.

``PBEM_TEST_PG`` names a running server by a SQLAlchemy URL whose user may create databases
(``.ci/run`` exports it: ``postgresql+psycopg://postgres@/postgres?host=/tmp/...``).
Without it, :func:`server_url` starts a private server for this test process with Debian's
PostgreSQL binaries (``initdb`` into a temporary folder, ``pg_ctl start`` on a Unix socket in that
folder, run as the ``postgres`` user when we are root, since the server refuses to run as root)
and stops it when the process exits. When neither is possible, :func:`server_url` returns None
and :func:`why_not` says why; the fixtures in conftest skip with that reason.

Two kinds of fresh database, each under a name of its own (tests under pytest-xdist never share
one):

- :func:`fresh_database`: ``CREATE DATABASE`` (from ``template0``, about 50 ms and 7 MB), for the
  tests about PostgreSQL itself (conftest's ``pg_url``); :func:`drop_database` removes it;
- :func:`fresh_schema`: a schema in this process's own database (:func:`worker_database`,
  dropped when the process exits), named by the URL's ``options=-csearch_path=...``; about a
  millisecond, so the suite's PostgreSQL mode (``PBEM_TEST_DB=postgresql``) gives every referee
  home one;
- :func:`clone_schema`: a copy of such a schema (``pg_dump`` of it once, replayed under a new
  name: tens of milliseconds), for conftest's ``referee`` homes, copies of one migrated home;
- :func:`shared_database` and :func:`schema_in`: a database of the whole run, made before the
  pytest-xdist workers start, for what they share (conftest's ``demo_game``).
"""

from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import tempfile
import uuid
from pathlib import Path

_state: dict = {"url": None, "why": None, "tried": False, "worker": None, "admin": None}

_BIN_DIRS = ["/usr/lib/postgresql/15/bin", "/usr/lib/postgresql/16/bin",
             "/usr/lib/postgresql/17/bin", "/usr/local/bin", "/usr/bin"]

SERVER_OPTIONS = ("-c fsync=off -c synchronous_commit=off -c full_page_writes=off "
                  "-c max_connections=300")
"""A throw-away server's settings: no syncs (the tests never survive a power cut) and room for
the connections of two test workers and their `pbem` child processes."""


def _binary(name: str) -> str | None:
    for d in _BIN_DIRS:
        p = Path(d) / name
        if p.exists():
            return str(p)
    return shutil.which(name)


def _as_postgres(cmd: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return cmd
    runuser = shutil.which("runuser")
    return [runuser, "-u", "postgres", "--", *cmd] if runuser else ["su", "postgres", "-c",
                                                                    " ".join(cmd)]


def _start_private() -> str:
    initdb, pg_ctl = _binary("initdb"), _binary("pg_ctl")
    if not initdb or not pg_ctl:
        raise RuntimeError("no PostgreSQL binaries (initdb, pg_ctl): install Debian's "
                           "postgresql package or set PBEM_TEST_PG to a server URL")
    folder = Path(tempfile.mkdtemp(prefix="pbem-pg-"))
    data, sock = folder / "data", folder
    user = "postgres"
    if os.geteuid() == 0:
        shutil.chown(folder, user="postgres", group="postgres")
    else:
        import getpass
        user = getpass.getuser()
    subprocess.run(_as_postgres([initdb, "-D", str(data), "-U", user, "-A", "trust",
                                 "--no-sync", "-E", "UTF8", "--locale=C"]),
                   check=True, capture_output=True, timeout=120)
    opts = f"-c listen_addresses='' -c unix_socket_directories={sock} {SERVER_OPTIONS}"
    subprocess.run(_as_postgres([pg_ctl, "-D", str(data), "-o", opts, "-w", "-l",
                                 str(folder / "server.log"), "start"]),
                   check=True, capture_output=True, timeout=120)
    owner = os.getpid()

    def stop():
        if os.getpid() != owner:  # a forked child (ingest's readers) exits: not ours to stop
            return
        subprocess.run(_as_postgres([pg_ctl, "-D", str(data), "-m", "immediate", "stop"]),
                       capture_output=True, timeout=60)
        shutil.rmtree(folder, ignore_errors=True)

    atexit.register(stop)
    return f"postgresql+psycopg://{user}@/postgres?host={sock}"


def server_url() -> str | None:
    """The URL of a server the tests may create databases on, or None (see :func:`why_not`)."""
    if not _state["tried"]:
        _state["tried"] = True
        env = os.environ.get("PBEM_TEST_PG")
        try:
            import psycopg  # noqa: F401
        except ImportError:
            _state["why"] = "psycopg is not installed (pip install -e '.[test]')"
            return None
        if env:
            _state["url"] = env
        else:
            try:
                _state["url"] = _start_private()
            except (RuntimeError, OSError, subprocess.SubprocessError) as e:
                _state["why"] = f"no PostgreSQL server: {e}"
    return _state["url"]


def why_not() -> str:
    """Why :func:`server_url` gave None."""
    return _state["why"] or "no PostgreSQL server"


def _with_database(url: str, name: str) -> str:
    from sqlalchemy.engine import make_url

    return make_url(url).set(database=name).render_as_string(hide_password=False)


def _connect(url: str, dbname: str | None = None):
    """An autocommit psycopg connection to ``dbname`` (default: the URL's database)."""
    import psycopg
    from sqlalchemy.engine import make_url

    u = make_url(url)
    kw = {k: v for k, v in {"host": u.query.get("host") or u.host, "port": u.query.get("port")
                            or u.port, "user": u.username, "password": u.password,
                            "dbname": dbname or u.database or "postgres"}.items() if v}
    return psycopg.connect(**kw, autocommit=True)


def _base() -> str:
    base = server_url()
    if base is None:
        raise RuntimeError(why_not())
    return base


def fresh_database(prefix: str = "t") -> str:
    """CREATE DATABASE a new empty database on the server; returns its SQLAlchemy URL.
    RuntimeError (:func:`why_not`) when there is no server."""
    base = _base()
    name = f"{prefix}_{uuid.uuid4().hex[:16]}"
    with _connect(base) as conn:
        conn.execute(f'CREATE DATABASE "{name}" TEMPLATE template0')
    return _with_database(base, name)


def drop_database(url: str) -> None:
    """DROP a database :func:`fresh_database` made, closing whatever is still connected."""
    from sqlalchemy.engine import make_url

    name = make_url(url).database
    with _connect(_base()) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def worker_database() -> str:
    """This process's own database (created at the first call, dropped at exit), which holds
    the schemas of :func:`fresh_schema`."""
    if _state["worker"] is None:
        url = fresh_database("pbem_tests")
        owner = os.getpid()

        def drop():
            if os.getpid() != owner:
                return
            if _state["admin"] is not None:
                _state["admin"].close()
            try:
                drop_database(url)
            except Exception:  # the server may already be gone (a private one stops first)
                pass

        atexit.register(drop)
        _state["worker"] = url
    return _state["worker"]


def fresh_schema(prefix: str = "h") -> str:
    """CREATE SCHEMA a new empty schema in :func:`worker_database`; returns a SQLAlchemy URL
    whose connections have it alone on their ``search_path``
    (``...?host=...&options=-csearch_path%3Dh_...``), so every table pbem creates or reads
    through that URL is in it."""
    from sqlalchemy.engine import make_url

    url = worker_database()
    if _state["admin"] is None or _state["admin"].closed:
        _state["admin"] = _connect(url)
    name = f"{prefix}_{uuid.uuid4().hex[:16]}"
    _state["admin"].execute(f'CREATE SCHEMA "{name}"')
    u = make_url(url)
    return u.update_query_dict({"options": f"-csearch_path={name}"}).render_as_string(
        hide_password=False)


def _dump_schema(url: str, schema: str) -> str:
    """The SQL that makes again the tables, sequences, indexes, constraints and rows of
    ``schema`` in the database at ``url`` (``pg_dump --schema --inserts``, every name
    qualified by the schema), without psql meta-commands and session settings. RuntimeError
    when pg_dump is missing or fails."""
    from sqlalchemy.engine import make_url

    pg_dump = _binary("pg_dump")
    if not pg_dump:
        raise RuntimeError("no pg_dump")
    u = make_url(url)
    cmd = [pg_dump, "--schema", schema, "--inserts", "--no-owner", "--no-privileges",
           "--no-comments", "-d", u.database]
    for flag, value in (("-h", u.query.get("host") or u.host), ("-p", u.query.get("port")
                        or u.port), ("-U", u.username)):
        if value:
            cmd += [flag, str(value)]
    env = dict(os.environ, **({"PGPASSWORD": u.password} if u.password else {}))
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=env)
    if done.returncode != 0:
        raise RuntimeError(f"pg_dump failed: {done.stderr.strip()}")
    keep = [line for line in done.stdout.splitlines()
            if not line.startswith(("\\", "SET ", "SELECT pg_catalog.set_config"))]
    return "\n".join(keep)


def clone_schema(url: str, prefix: str = "h") -> str:
    """A copy of the schema a :func:`fresh_schema` URL names (tables, sequences, indexes,
    constraints and rows, as ``pg_dump`` sees them) under a new name in the same database;
    returns the copy's URL (the same form as :func:`fresh_schema`'s). The dump is made once
    per source schema: later changes to the source are not copied. RuntimeError when pg_dump
    is missing or fails (then make the schema the long way)."""
    from sqlalchemy.engine import make_url

    u = make_url(url)
    options = u.query.get("options") or ""
    source = options.split("search_path=", 1)[1].split()[0] if "search_path=" in options else ""
    if not source:
        raise RuntimeError(f"{url} names no schema (options=-csearch_path=...)")
    dumps = _state.setdefault("dumps", {})
    if source not in dumps:
        dumps[source] = _dump_schema(url, source)
    if _state["admin"] is None or _state["admin"].closed:
        _state["admin"] = _connect(worker_database())
    name = f"{prefix}_{uuid.uuid4().hex[:16]}"
    try:  # one simple-query script: all of it or nothing
        _state["admin"].execute(dumps[source].replace(source, name))
    except Exception as e:  # e.g. a pg_dump of another version than the server
        raise RuntimeError(f"cannot copy the schema {source}: {e}") from None
    return u.update_query_dict({"options": f"-csearch_path={name}"}).render_as_string(
        hide_password=False)


def shared_database() -> str:
    """A database for the whole test run (made by pytest-xdist's controller, or the only
    process, before the workers start; dropped when that process exits), whose schemas any
    worker may use (:func:`schema_in`): conftest's ``demo_game``, played once for all workers."""
    url = fresh_database("pbem_shared")
    owner = os.getpid()

    def drop():
        if os.getpid() == owner:
            try:
                drop_database(url)
            except Exception:  # the server may already be gone
                pass

    atexit.register(drop)
    return url


def schema_in(url: str, prefix: str = "s") -> str:
    """CREATE SCHEMA a new empty schema in the database at ``url``; its URL, as
    :func:`fresh_schema` gives one."""
    from sqlalchemy.engine import make_url

    name = f"{prefix}_{uuid.uuid4().hex[:16]}"
    with _connect(url) as conn:
        conn.execute(f'CREATE SCHEMA "{name}"')
    return make_url(url).update_query_dict({"options": f"-csearch_path={name}"}).render_as_string(
        hide_password=False)
