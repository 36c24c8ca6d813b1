"""Key material never appears in an error message (issue 8, "What a new user ran into": passing
a private key where a public key is expected printed the whole private key).

The keys are real files: made by `pbem keygen`, by `ssh-keygen -t ed25519` and by `pbem init`
(the referee's master key). The secret part of each is read from the file here (the base64 of
the seed, the body of the OpenSSH key, the master key line), and the test checks that no 8
characters of it appear in what the command prints."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from click.testing import CliRunner

from pbem.cli import main


def secret_parts(path) -> list[str]:
    """The secret strings of a private key file, read from the file itself: the key data of a
    pbem-ed25519-private line, the base64 lines of an OpenSSH key, or the base64 line of the
    master key file (every line that is not a comment or a marker)."""
    out = []
    for line in path.read_text().splitlines():
        s = line.strip()
        if not s or s.startswith("#") or s.startswith("-----"):
            continue
        fields = s.split()
        out.append(fields[1] if fields[0] == "pbem-ed25519-private" else s)
    assert out and all(len(x) >= 40 for x in out), out
    return out


def leaks(output: str, secrets: list[str], n: int = 8) -> list[str]:
    """Every n-character piece of a secret that appears in ``output``."""
    return [x[i:i + n] for x in secrets for i in range(len(x) - n + 1) if x[i:i + n] in output]


@pytest.fixture
def run(tmp_path):
    home = tmp_path / "home"

    def _run(*args):
        return CliRunner().invoke(main, ["--home", str(home), "--now", "2026-11-29T20:00:00Z",
                                         *args], catch_exceptions=False)

    assert _run("init").exit_code == 0
    assert _run("keygen", "red", "--dir", str(tmp_path)).exit_code == 0
    assert _run("keygen", "blue", "--dir", str(tmp_path)).exit_code == 0
    _run.home = home
    return _run


def game_new_with(run, tmp_path, keyfile):
    return run("game", "new", "hunt", "--id", "h1", "--from", "referee@example.org",
               "--player", f"red=r@x.example:{tmp_path / 'red.pub'}",
               "--player", f"blue=b@x.example:{keyfile}")


def test_a_pbem_private_key_given_as_public_key(run, tmp_path):
    key = tmp_path / "blue.key"
    r = game_new_with(run, tmp_path, key)
    assert r.exit_code == 1
    # the file and the line of the key, what it is, and what to give instead
    assert f"{key}:2:" in r.output and "'pbem-ed25519-private'" in r.output
    assert "is a private key" in r.output and "blue.pub" not in r.output.split("Error")[0]
    assert "NAME.pub" in r.output
    assert leaks(r.output, secret_parts(key)) == []


@pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="needs ssh-keygen")
def test_an_openssh_private_key_given_as_public_key(run, tmp_path):
    key = tmp_path / "id_ed25519"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "blue@laptop", "-f",
                    str(key)], check=True)
    r = game_new_with(run, tmp_path, key)
    assert r.exit_code == 1
    assert f"{key}:1:" in r.output and "OPENSSH PRIVATE KEY" in r.output
    assert "is a private key" in r.output
    assert leaks(r.output, secret_parts(key)) == []


def test_the_master_key_given_as_public_key(run, tmp_path):
    master = run.home / "referee.key"
    r = game_new_with(run, tmp_path, master)
    assert r.exit_code == 1 and f"{master}:" in r.output and "not shown" in r.output
    assert leaks(r.output, secret_parts(master)) == []


def test_a_public_and_a_private_key_in_one_file(run, tmp_path):
    both = tmp_path / "both.pub"
    both.write_text((tmp_path / "blue.pub").read_text() + (tmp_path / "blue.key").read_text())
    r = game_new_with(run, tmp_path, both)
    assert r.exit_code == 1 and f"{both}:3: a second key line" in r.output
    assert leaks(r.output, secret_parts(tmp_path / "blue.key")) == []


def test_sign_with_the_master_key_does_not_echo_it(run, tmp_path):
    orders = tmp_path / "orders.txt"
    orders.write_text("game: h1\nturn: 1\nphase: dig\nrole: red\nnonce:\nissued:\n\ndig 3\n")
    master = run.home / "referee.key"
    r = run("sign", str(orders), "--key", str(master))
    assert r.exit_code == 1 and f"{master}:" in r.output
    assert leaks(r.output, secret_parts(master)) == []


@pytest.mark.parametrize("line,shown", [
    ("ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQC7 me@host", "ssh-rsa"),
    ("hello world", "'hello'"),
])
def test_public_key_errors_name_the_line_kind(line, shown):
    """Lines that are no key are named by their first word when it looks like a key type, and
    never quoted beyond it."""
    from pbem.crypto.keys import KeyFormatError, load_public_key

    with pytest.raises(KeyFormatError) as info:
        load_public_key(line + "\n", "k.pub")
    assert str(info.value).startswith("k.pub:1: ") and shown in str(info.value)
    assert line.split(None, 1)[1] not in str(info.value)


@pytest.mark.parametrize("kind", ["ssh-ed25519", "pbem-ed25519"])
def test_a_secret_seed_on_a_public_key_line_is_not_echoed(tmp_path, kind):
    """A new referee's trial: a line 'ssh-ed25519 <a private seed>' was refused with the seed
    quoted in the error."""
    import base64

    from pbem.crypto.errors import CryptoError
    from pbem.crypto.keys import load_public_key

    seed = base64.b64encode(bytes(range(7, 39))).decode() + "AB"  # not a valid key blob
    with pytest.raises(CryptoError) as e:
        load_public_key(f"{kind} {seed} carol\n", "carol.pub")
    assert seed not in str(e.value) and seed[:12] not in str(e.value)
