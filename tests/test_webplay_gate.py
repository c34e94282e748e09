"""The browser game's server lets in only the person who started it (the red
team's attacks on ``tajmahal play``): a page of another site posting a move
(CSRF, any Content-Type), a DNS-rebinding page reading the hand, a request
without the token (or with it in a cookie or the query), a framing page, a
400 MB body, a thousand idle connections."""

from __future__ import annotations

import http.client
import json
import socket
import threading
import time
from collections.abc import Iterator

import pytest

from tajmahal.arena import webgate
from tajmahal.arena.connection import InProcessConnection
from tajmahal.arena.player import FirstPlayer
from tajmahal.arena.referee import play_match
from tajmahal.arena.registry import GAMES
from tajmahal.arena.terms import MatchConfig
from tajmahal.arena.webplay import Server
from tajmahal.arena.webtable import HUMAN_TIME, HumanSeat, Table

pytest.importorskip("uvicorn")


class Served:
    """A two-seat game (a person, then the ``first`` bot) served on a free port."""

    def __init__(self, max_connections: int | None = None) -> None:
        game = GAMES.get("tajmahal")
        setup = game.random_setup(2, 3)
        self.table = Table(game, setup, ["human", "first"], [0])
        self.server = Server(self.table, "127.0.0.1", 0, max_connections)
        self.server.start()
        self.port, self.token = self.server.port, self.server.token
        connections = [InProcessConnection(HumanSeat(self.table, 0), "human"),
                       InProcessConnection(FirstPlayer(), "first")]
        config = MatchConfig(time=(HUMAN_TIME, MatchConfig().seat_time(1)),
                             on_step=self.table.on_step)
        self.referee = threading.Thread(
            target=play_match, args=(game, setup, connections, config), daemon=True)
        self.referee.start()
        deadline = time.monotonic() + 30
        while self.table.pending is None and time.monotonic() < deadline:
            time.sleep(0.01)
        assert self.table.pending is not None

    def request(self, method: str, path: str, body: bytes | None = None,
                headers: dict[str, str] | None = None) -> tuple[int, bytes, dict[str, str]]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        try:
            connection.request(method, path, body, headers or {})
            answer = connection.getresponse()
            return answer.status, answer.read(), dict(answer.getheaders())
        finally:
            connection.close()

    def move(self, **headers: str) -> tuple[int, bytes, dict[str, str]]:
        """Post the waiting decision's first legal action."""
        pending = self.table.pending
        assert pending is not None
        body = json.dumps({"seat": 0, "decision": pending["decision"], "choice": 0}).encode()
        return self.request("POST", "/api/act", body, headers)

    def stop(self) -> None:
        self.table.close()
        self.server.stop()


@pytest.fixture
def served() -> Iterator[Served]:
    game = Served()
    yield game
    game.stop()


def bearer(game: Served) -> str:
    return f"Bearer {game.token}"


def test_the_game_answers_only_requests_that_carry_the_token_in_their_header(
    served: Served,
) -> None:
    """The page itself holds nothing secret (anyone may load it, no cookie is set);
    the game's state wants the token in the Authorization header, and nowhere else."""
    status, page, headers = served.request("GET", "/")
    assert status == 200 and b"<html" in page and served.token.encode() not in page
    named = {k.lower(): v for k, v in headers.items()}
    assert "set-cookie" not in named
    assert named["x-frame-options"] == "DENY" and named["referrer-policy"] == "no-referrer"
    status, body, _ = served.request("GET", "/api/state?since=0",
                                     headers={"Authorization": bearer(served)})
    assert status == 200 and json.loads(body)["pending"]["seat"] == 0
    for path, headers in (
        ("/api/state?since=0", {}),
        ("/api/state?since=0", {"Authorization": "Bearer " + "x" * len(served.token)}),
        ("/api/state?since=0", {"Authorization": served.token}),  # no scheme
        (f"/api/state?since=0&token={served.token}", {}),  # the query: not taken
        ("/api/state?since=0", {"Cookie": f"tajmahal-play-{served.port}={served.token}"}),
    ):
        status, body, _ = served.request("GET", path, headers=headers)
        assert status == 403 and b"pending" not in body, headers
        assert b"open the address `tajmahal play` printed" in body


def test_a_dns_rebinding_page_cannot_read_the_hand(served: Served) -> None:
    """The attacker's name resolves to 127.0.0.1; the browser sends that name as
    Host (a page of that name cannot have our token; even with it, refused)."""
    status, body, _ = served.request(
        "GET", "/api/state?since=0",
        headers={"Host": f"rebind.example:{served.port}", "Authorization": bearer(served)})
    assert status == 403 and b"hand" not in body and b"svg" not in body
    for host in ("localhost", "127.0.0.1"):
        status, _, _ = served.request("GET", "/api/state?since=0",
                                      headers={"Host": f"{host}:{served.port}",
                                               "Authorization": bearer(served)})
        assert status == 200


def test_another_site_cannot_play_the_persons_move(served: Served) -> None:
    """A form or fetch of another page: text/plain (no preflight), or with the
    browser's Origin and Sec-Fetch-Site; the person's token does not help it."""
    waiting = served.table.pending
    for headers in (
        {"Content-Type": "text/plain"},
        {"Content-Type": "text/plain", "Authorization": bearer(served)},
        {"Content-Type": "application/json", "Authorization": bearer(served),
         "Origin": "http://evil.example"},
        {"Content-Type": "application/json", "Authorization": bearer(served),
         "Origin": f"http://127.0.0.1:{served.port + 1}"},
        {"Content-Type": "application/json", "Authorization": bearer(served),
         "Sec-Fetch-Site": "cross-site"},
    ):
        status, _, _ = served.move(**headers)
        assert status in (403, 415), headers
    assert served.table.pending is waiting and served.table.answer is None
    status, body, _ = served.move(**{"Content-Type": "application/json",
                                     "Authorization": bearer(served),
                                     "Origin": f"http://127.0.0.1:{served.port}"})
    assert (status, json.loads(body)) == (200, {"ok": True})


def test_a_huge_body_is_refused_unread(served: Served) -> None:
    headers = {"Content-Type": "application/json", "Authorization": bearer(served)}
    connection = http.client.HTTPConnection("127.0.0.1", served.port, timeout=10)
    connection.putrequest("POST", "/api/act")
    for name, value in {**headers, "Content-Length": str(400 << 20)}.items():
        connection.putheader(name, value)
    connection.endheaders(b"{" * 1000)  # 400 MB announced: answered before they come
    assert connection.getresponse().status == 413
    connection.close()
    chunks = (b"[" * 65536 for _ in range(64))  # 4 MB without a length (chunked)
    status, _, _ = served.request("POST", "/api/act", chunks, headers)  # type: ignore[arg-type]
    assert status == 413


def test_idle_connections_cannot_lock_the_person_out() -> None:
    game = Served(max_connections=8)
    idle = []
    try:
        for _ in range(40):
            idle.append(socket.create_connection(("127.0.0.1", game.port)))
        time.sleep(0.2)
        status, _, _ = game.request("GET", "/api/state?since=0",
                                    headers={"Authorization": bearer(game)})
        assert status == 200
        assert len(game.server.server.server_state.connections) <= 8
    finally:
        for s in idle:
            s.close()
        game.stop()


def test_a_request_that_never_comes_whole_is_dropped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(webgate, "REQUEST_TIME", 0.3)
    game = Served()
    try:
        slow = socket.create_connection(("127.0.0.1", game.port))
        slow.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # never ends
        slow.settimeout(5)
        assert slow.recv(100) == b""  # closed by the server
        slow.close()
    finally:
        game.stop()


def test_answers_go_out_at_once_nagle_off() -> None:
    """Every connection the server takes has Nagle's algorithm off: with it on, an
    answer written in two parts (headers, then body) waited for the client's
    delayed acknowledgement, 40 ms on each answer of a kept-alive connection."""
    game = Served()
    kept = http.client.HTTPConnection("127.0.0.1", game.port, timeout=10)
    try:
        kept.request("GET", "/api/state?since=0", headers={"Authorization": bearer(game)})
        assert kept.getresponse().read() and kept.sock is not None
        connections = game.server.server.server_state.connections
        assert connections
        for protocol in connections:
            sock = protocol.transport.get_extra_info("socket")
            assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) != 0
    finally:
        kept.close()
        game.stop()
