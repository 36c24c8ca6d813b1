"""The referee's command line: thin click commands over :mod:`pbem.engine.service`.

Every command parses its arguments, calls one service method and prints the result. Heavy
modules (SQLAlchemy, Jinja2, cryptography) are imported inside the commands, so ``pbem --help``
starts fast. Errors the referee can fix are printed as ``Error: ...`` with exit status 1.
"""

from __future__ import annotations

import importlib
import sys
from contextlib import contextmanager
from pathlib import Path

import click


class Ctx:
    """What the group's options give every command: the home, the clock override and the
    referee's template folder."""

    def __init__(self, home: str | None, db: str | None, now: str | None,
                 templates: str | None = None):
        self.home_arg, self.db_arg, self.now_arg = home, db, now
        self.templates_arg = templates
        self._referee = None
        self._templates_set = False

    def close(self) -> None:
        """At the end of the command: close the database, and forget the template folder (a
        process running several commands, as the tests do, starts each with pbem's
        templates)."""
        if self._referee is not None:
            self._referee.close()
        if self._templates_set:
            from pbem.reports.render import use_templates

            use_templates(None)
            self._templates_set = False

    def referee(self, *, database: bool = True, modules: tuple[str, ...] = ()):
        """The :class:`pbem.engine.service.Referee` of the command (made once). ``database``:
        the command opens the referee's database (False for one that may not, such as
        ``check-receipt --referee``): the storage layer (SQLAlchemy, the tables; not the ORM,
        which is loaded when first used) is imported here then, with the start-up's other modules, under
        :func:`_loading_modules`. ``modules``: the engine modules the command's service method
        imports (``pbem.engine.judge`` for ingest), loaded here too, under the same roof."""
        if self._referee is None:
            with _loading_modules():
                self._referee = self._make_referee(database)
                for name in modules:
                    importlib.import_module(name)
        return self._referee

    def _make_referee(self, database: bool):
        from pbem.engine.home import Home
        from pbem.engine.service import Referee, utc_now

        if database:  # the ORM is loaded when first used (pbem.store.base.ensure_mapped)
            import pbem.store.db  # noqa: F401  (see referee)
            import pbem.store.models  # noqa: F401
        clock = utc_now
        if self.now_arg:
            from pbem.engine.headers import parse_issued

            try:
                fixed = parse_issued(self.now_arg)
            except ValueError:
                raise click.BadParameter(f"expected an ISO 8601 time with a zone, found "
                                         f"{self.now_arg!r}", param_hint="--now") from None
            clock = lambda: fixed  # noqa: E731
        referee = Referee(Home.resolve(self.home_arg, self.db_arg), clock=clock)
        # reports, receipts and rejections are rendered with the referee's templates:
        # --templates, else [reports] templates of HOME/config.toml (read when first needed)
        from pbem.reports.render import use_templates

        use_templates(self.templates_arg, home=referee.home.path)
        self._templates_set = True
        return referee


@contextmanager
def _loading_modules():
    """Import a command's modules with the cyclic garbage collector off, then freeze them.

    Importing the storage layer (SQLAlchemy, the tables) makes tens of thousands of objects
    that live as long as the process and are never garbage: with the collector on, its full
    collections walk them again and again while they load, and later in the middle of a
    phase. So it is off while they load; then ``gc.freeze()`` puts every object made so far
    out of its reach, and it is on again for the command's own work (:func:`run` freezes
    what is left before the interpreter exits, for the same reason). Measured: about a
    seventh of the CPU time of `pbem status` (issue 11, "Start-up")."""
    import gc

    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if enabled:
            gc.enable()


def _fail_on_errors(fn):
    """Turn the service layer's errors into click errors (message, exit 1)."""
    import functools

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        from pbem.crypto.errors import CryptoError
        from pbem.engine.errors import PbemError
        from pbem.engine.registry import UnknownRuleset
        from pbem.mail.errors import MailError

        try:
            return fn(*args, **kwargs)
        except click.ClickException:
            raise
        except BrokenPipeError as e:
            if stdout_gone():  # `pbem log GAME | head`: end quietly (_Main.invoke)
                raise
            raise click.ClickException(str(e)) from None  # a pipe of ours, say to sendmail
        except (PbemError, CryptoError, MailError, UnknownRuleset, OSError, ValueError) as e:
            raise click.ClickException(str(e)) from None
        except Exception as e:  # a database we cannot open, and the like: say what, not where
            # pbem.store's own errors (DatabaseError, integrity.RowTampered...), without
            # importing the store for commands that never open it
            if type(e).__module__.startswith("pbem.store"):
                raise click.ClickException(str(e)) from None
            if type(e).__module__.startswith("sqlalchemy"):
                orig = getattr(e, "orig", None) or e
                sqlite = "sqlite" in type(orig).__module__
                raise click.ClickException(
                    f"database error: {orig}" + (
                        " (check that the home folder and the database are readable and "
                        "writable: SQLite keeps pbem.db-wal and pbem.db-shm beside the "
                        "database)" if sqlite else "")) from None
            raise

    return wrapper


def stdout_gone() -> bool:
    """True when standard output is a pipe whose reader has gone away (``pbem log GAME |
    head`` once head has its lines): poll reports an error on our end of the pipe. False for
    anything else, so that a broken pipe of our own (to sendmail, say) stays an error."""
    import select

    try:
        fd = sys.__stdout__.fileno() if sys.stdout is None else sys.stdout.fileno()
        poller = select.poll()
        poller.register(fd, select.POLLOUT)
        return any(mask & (select.POLLERR | select.POLLHUP) for _, mask in poller.poll(0))
    except (AttributeError, OSError, ValueError):
        return False


def _silence_stdout() -> None:
    """Point standard output at /dev/null, so that nothing more is written to the closed pipe,
    not even by the flush at exit (Python's documentation, signal module, "Note on SIGPIPE")."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (AttributeError, OSError, ValueError):
        pass


def _end_if_reader_gone(e: OSError) -> None:
    """Raise click's Exit(0) when ``e`` is a broken pipe on standard output: a reader that has
    read enough (``| head``, ``| less`` then q) is not an error; every command ends quietly
    with status 0 then. Any other error is left to the caller."""
    import errno

    if e.errno == errno.EPIPE and stdout_gone():
        _silence_stdout()
        raise click.exceptions.Exit(0)


class _Main(click.Group):
    """The ``pbem`` group: a command whose reader goes away ends quietly (see
    :func:`_end_if_reader_gone`); click itself would print nothing but exit with status 1."""

    def make_context(self, *args, **kwargs):
        try:
            return super().make_context(*args, **kwargs)
        except OSError as e:  # `pbem --help | head -1`
            _end_if_reader_gone(e)
            raise

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except OSError as e:
            _end_if_reader_gone(e)
            raise


@click.group(cls=_Main, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--home", envvar="PBEM_HOME", metavar="DIR",
              help="Folder of the database and the referee's key [env PBEM_HOME; default ~/.pbem].")
@click.option("--db", envvar="PBEM_DB", metavar="URL",
              help="Database URL instead of HOME/pbem.db [env PBEM_DB].")
@click.option("--now", envvar="PBEM_NOW", metavar="TIME", hidden=True,
              help="Pretend the time is TIME (ISO 8601 with zone); for tests and replays.")
@click.option("--templates", metavar="DIR",
              type=click.Path(exists=True, file_okay=False, dir_okay=True),
              help="The referee's template folder: its templates replace pbem's, for all games "
                   "(DIR/NAME), a ruleset (DIR/RULESET/NAME) or one game (DIR/games/ID/NAME) "
                   "[default: [reports] templates in HOME/config.toml; docs/reports.md].")
@click.version_option(package_name="pbem")
@click.pass_context
def main(ctx, home, db, now, templates):
    """pbem: a play-by-email judge for board wargames.

    Players mail signed orders; pbem ingests them, checks them against the rules, adjudicates
    each phase with dice every player can verify, keeps secrets sealed, and mails each player a
    report of what they may know. Start with `pbem init`, or see it all at work with `pbem demo`.
    """
    ctx.obj = Ctx(home, db, now, templates)
    ctx.call_on_close(ctx.obj.close)


def read_text_file(path: str, what: str) -> str:
    """A text file's content (UTF-8, a BOM dropped); ClickException naming the file when it is
    not text."""
    try:
        return Path(path).expanduser().read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as e:
        raise click.ClickException(f"{path}: expected {what} in UTF-8 text, found a byte "
                                   f"0x{e.object[e.start]:02x} at offset {e.start} that is not "
                                   "UTF-8 (a binary file?)") from None


def run() -> None:  # pragma: no cover - the console script
    """The ``pbem`` console script: ``main`` with a quiet exit, status 0, when the reader of
    our output goes away (``pbem log GAME | head``; :class:`_Main`).

    A command that ends with an exit status ends the process at once (``os._exit``), once
    standard output and error are flushed: the interpreter's own shutdown would free, one by
    one, every object of the five hundred modules a database command loads, for nothing
    (issue 11, "Start-up": about 17 million instructions; and after `pbem ingest` forked its
    reader, a page fault for most pages of the heap, write-protected by the fork). Nothing is
    lost: every command has closed its database by then (:meth:`Ctx.close`), and pbem
    registers no ``atexit`` handler and starts no thread. An exception that is no exit
    (a bug: its traceback) and an exit with a message take the interpreter's usual way."""
    status = 0
    try:
        main()
    except BrokenPipeError:
        _silence_stdout()
    except SystemExit as e:
        status = e.code
    finally:  # what is still buffered must not fail at exit ("Exception ignored ...", status 120)
        try:
            sys.stdout.flush()
        except (AttributeError, BrokenPipeError, ValueError):
            _silence_stdout()
        # The process ends: the interpreter's last full collection would walk every object
        # left, for nothing (tens of milliseconds after a command that opened the database).
        import gc

        gc.freeze()
    if status is not None and not isinstance(status, int):
        sys.exit(status)  # a message for standard error: the interpreter prints it, status 1
    _end_now(status or 0)


def _end_now(status: int) -> None:  # pragma: no cover - ends the process
    """Flush standard error and end the process with ``status``, skipping the interpreter's
    shutdown (see :func:`run`)."""
    import os

    try:
        sys.stderr.flush()
    except (AttributeError, OSError, ValueError):
        pass
    os._exit(status)


# the commands register themselves on ``main``
from pbem.cli import dbcmd, demo_cmd, games, mailing, play, referee, setup, undo  # noqa: E402,F401
