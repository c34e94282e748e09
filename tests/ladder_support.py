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
import io
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tarfile
import tempfile
import threading
import time
import urllib.error
import urllib.request
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from referee_support import BOTS, cli

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


def new_ladder(where: Path, ladder_db: str | None) -> dict[str, str]:
    """A two-player ladder in ``where`` (on ``ladder_db``, else SQLite) with the
    owners ann and ben and the bots house and other (random players): the
    owners' tokens."""
    extra = ["--db", ladder_db] if ladder_db is not None else []
    assert cli("ladder", "init", str(where), "--players", "2", "--round", "2", *extra)[0] == 0
    tokens = {}
    for owner in ("ann", "ben"):
        code, out, err = cli("ladder", "owners", "add", owner, "--ladder", str(where))
        assert code == 0, err
        tokens[owner] = out.split("API token ")[1].split()[0]
    for name in ("house", "other"):
        assert cli("ladder", "add", name, "random", "--ladder", str(where))[0] == 0
    return tokens


def bot_archive(extra: dict[str, bytes] | None = None, command: str = "random_bot.py",
                zipped: bool = False) -> bytes:
    files = {"random_bot.py": (BOTS / "random_bot.py").read_bytes(),
             "bot.json": orjson.dumps({"command": command}), **(extra or {})}
    out = io.BytesIO()
    if zipped:
        with zipfile.ZipFile(out, "w") as archive:
            for name, data in files.items():
                archive.writestr(name, data)
    else:
        with tarfile.open(fileobj=out, mode="w:gz") as archive:
            for name, data in files.items():
                info = tarfile.TarInfo(name)
                info.size = len(data)
                archive.addfile(info, io.BytesIO(data))
    return out.getvalue()


class Served:
    """The API of the ladder in ``where`` (and its pages, behind its gate, as
    ``ladder serve`` serves them, with ``pages``; ``gate``: the gate's limits and
    clock, if not its own), served in a thread."""

    def __init__(self, where: Path, pages: bool = False, **gate: Any) -> None:
        import uvicorn

        from tajmahal.arena.ladder.api import Context, make_app
        from tajmahal.arena.ladder.database import open_database
        from tajmahal.arena.ladder.serve import web_app
        from tajmahal.arena.ladder.store import find
        from tajmahal.arena.registry import GAMES

        place = find(where, None)
        assert place is not None
        self.db = open_database(place.url)
        settings = self.db.settings()
        ctx = Context(self.db, place, GAMES.by_id(settings["game"]), settings)
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.port: int = self.sock.getsockname()[1]
        app = web_app(ctx, "127.0.0.1", self.port, **gate) if pages else make_app(ctx)
        self.root = f"http://127.0.0.1:{self.port}"
        self.base = f"{self.root}/api/v1"
        config = uvicorn.Config(app, log_level="warning", lifespan="off")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]},
                                       daemon=True)
        self.thread.start()
        while not self.server.started:
            time.sleep(0.02)

    def call(self, path: str, body: bytes | None = None, token: str | None = None,
             kind: str = "application/json") -> tuple[int, Any]:
        headers = {"Content-Type": kind} if body is not None else {}
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        request = urllib.request.Request(self.base + path, data=body, headers=headers,
                                         method="POST" if body is not None else "GET")
        try:
            with urllib.request.urlopen(request, timeout=60) as answer:
                status, data, media = answer.status, answer.read(), answer.headers["content-type"]
        except urllib.error.HTTPError as e:
            status, data, media = e.code, e.read(), e.headers["content-type"]
        parsed = media.startswith("application/json")
        return status, orjson.loads(data) if parsed else data

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.db.close()


@contextlib.contextmanager
def served_ladder(where: Path, ladder_db: str | None, pages: bool = False, **gate: Any
                  ) -> Iterator[tuple[Served, Path, dict[str, str]]]:
    """A new ladder in ``where`` (:func:`new_ladder`) served (:class:`Served`):
    the server, ``where`` and the owners' tokens."""
    tokens = new_ladder(where, ladder_db)
    served = Served(where, pages, **gate)
    try:
        yield served, where, tokens
    finally:
        served.stop()
