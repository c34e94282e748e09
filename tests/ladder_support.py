"""What the ladder's tests share: a real PostgreSQL server for the session, and
every ladder test run on SQLite and again on PostgreSQL.

The server is Debian's ``postgresql`` (initdb and pg_ctl from
/usr/lib/postgresql/N/bin), a throwaway cluster in a temporary directory,
listening on 127.0.0.1 at a free port (and a socket in that directory), run as
the unprivileged ``postgres`` user when the tests run as root (initdb refuses
root).  Each test gets a database of its own.  Under CI (``CI`` set) a server
that cannot start fails the tests; elsewhere they are skipped on PostgreSQL.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

#: The two kinds of database every ladder test runs on.
ENGINES = ("sqlite", "postgresql")
_numbers = itertools.count()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def postgres_bin() -> Path | None:
    """The newest installed PostgreSQL's programs (Debian's layout), if any."""
    found = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/initdb"),
        key=lambda p: int(p.parent.parent.name) if p.parent.parent.name.isdigit() else 0,
    )
    return found[-1].parent if found else None


def _as_user(argv: list[str], user: str | None) -> list[str]:
    return argv if user is None else ["runuser", "-u", user, "--", *argv]


class PostgresServer:
    """A throwaway cluster: :meth:`start`, :meth:`new_database`, :meth:`stop`."""

    def __init__(self) -> None:
        self.bin = postgres_bin()
        self.root = Path(tempfile.mkdtemp(prefix="tajmahal-pg-"))
        self.data = self.root / "data"
        self.port = free_port()
        self.user = "postgres" if os.geteuid() == 0 else None

    def run(self, *argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            _as_user(list(argv), self.user), capture_output=True, text=True, check=True,
            timeout=120, cwd=self.root,
        )

    def start(self) -> None:
        if self.bin is None:
            raise RuntimeError("PostgreSQL is not installed (apt-get install postgresql)")
        if self.user is not None:
            account = pwd.getpwnam(self.user)
            os.chown(self.root, account.pw_uid, account.pw_gid)
        self.run(str(self.bin / "initdb"), "-D", str(self.data), "-U", "ladder",
                 "--auth=trust", "--no-sync", "-E", "UTF8")
        options = (f"-c listen_addresses=127.0.0.1 -c port={self.port} "
                   f"-c unix_socket_directories={self.root} -c fsync=off "
                   "-c max_connections=100")
        self.run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-o", options,
                 "-l", str(self.root / "server.log"), "-w", "-t", "60", "start")

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://ladder@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A fresh, empty database's URL."""
        import psycopg

        name = f"ladder_{os.getpid()}_{next(_numbers)}"
        with psycopg.connect(f"host=127.0.0.1 port={self.port} user=ladder dbname=postgres",
                             autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def kill(self) -> None:
        """Stop the server at once (immediate shutdown), as a crash would."""
        assert self.bin is not None
        self.run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop")

    def restart(self) -> None:
        assert self.bin is not None
        options = (f"-c listen_addresses=127.0.0.1 -c port={self.port} "
                   f"-c unix_socket_directories={self.root} -c fsync=off")
        self.run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-o", options,
                 "-l", str(self.root / "server.log"), "-w", "-t", "60", "start")

    def stop(self) -> None:
        if self.bin is not None and (self.data / "postmaster.pid").exists():
            with contextlib.suppress(subprocess.SubprocessError, OSError):
                self.run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "fast", "stop")
        shutil.rmtree(self.root, ignore_errors=True)


@contextlib.contextmanager
def postgres_server() -> Iterator[PostgresServer]:
    """A started server; under CI a failure to start fails, elsewhere it skips."""
    server = PostgresServer()
    try:
        try:
            server.start()
        except (RuntimeError, OSError, subprocess.SubprocessError) as e:
            detail = getattr(e, "stderr", "") or str(e)
            message = f"PostgreSQL could not be started: {detail.strip()[-500:]}"
            if os.environ.get("CI"):
                pytest.fail(message)
            pytest.skip(message)
        yield server
    finally:
        server.stop()


def sibling_database(url: str, suffix: str) -> str:
    """A new, empty database beside the one at ``url`` (the same server): its URL."""
    import psycopg

    base, name = url.rsplit("/", 1)
    with psycopg.connect(f"{base}/postgres", autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}_{suffix}"')
    return f"{base}/{name}_{suffix}"


def wait_until(check: object, seconds: float = 60.0) -> None:
    """Wait until ``check()`` is true (a test's own limit, not a timing claim)."""
    deadline = time.monotonic() + seconds
    while not check():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting")
        time.sleep(0.05)
