"""The ladder's web face (``tajmahal ladder serve``) on a real uvicorn server
(127.0.0.1, a free port), behind its gate as the command serves it: its pages on
SQLite and on PostgreSQL, the gate's refusals, and, in Debian's Chromium, an
owner who signs in, uploads a bot, finds it on the leaderboard, requests a game,
follows it on their page (queued, playing now, finished; another one void, and
why), watches it live to its end and opens its replay, a hostile upload refused
in one line, while another owner sees none of the first one's logs nor requests."""

from __future__ import annotations

import http.client
import io
import subprocess
import sys
import tarfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from browser_support import browser, opened, whole_game
from ladder_support import Served, served_ladder, wait_until
from referee_support import BOTS, cli

from tajmahal.arena.ladder.gate import SIGN_INS, Limit
from tajmahal.arena.sandbox import unavailable

pytestmark = pytest.mark.once
pytest.importorskip("uvicorn")
pytest.importorskip("jinja2")
__all__ = ["browser"]  # the fixture, for the browser test

#: What a bot's author writes to its log: shown as text, never as markup.
HOSTILE = '<img src=x id="injected" onerror="document.body.dataset.pwned=1">'
#: A bot that thinks a while over each move (a game long enough to be watched)
#: and writes markup to its log.
SLOW_BOT = f"""
import sys, time
import random_bot
sent = random_bot.send
def send(message):
    if message["type"] == "action":
        print({HOSTILE!r}, file=sys.stderr, flush=True)
        time.sleep(0.1)
    sent(message)
random_bot.send = send
random_bot.main()
""".encode()


def get(port: int, path: str, headers: dict[str, str] | None = None, method: str = "GET",
        body: bytes | None = None) -> tuple[int, dict[str, str], bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        answer = connection.getresponse()
        return answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read()
    finally:
        connection.close()


@pytest.fixture
def web(tmp_path: Path, ladder_db: str | None) -> Iterator[tuple[Served, Path, dict[str, str]]]:
    with served_ladder(tmp_path / "lad", ladder_db, pages=True) as served:
        yield served


def test_the_pages_of_a_ladder(web: tuple[Served, Path, dict[str, str]]) -> None:
    served, where, _ = web
    assert cli("ladder", "run", "--games", "2", "-j", "1", "-q", "--ladder", str(where))[0] == 0
    port = served.port
    status, headers, body = get(port, "/")
    page = body.decode()
    assert status == 200 and "script-src 'self'" in headers["content-security-policy"]
    assert "ladder" in page and 'href="/bots/house"' in page and 'href="/bots/other"' in page
    status, _, body = get(port, "/bots/house")
    page = body.decode()
    assert status == 200 and "<svg" in page  # its rating over its games, drawn here
    assert 'href="/bots/other"' in page and 'href="/games/1"' in page  # head-to-head, games
    status, _, body = get(port, "/games/1")
    assert status == 200 and 'src="/games/1/replay"' in body.decode()  # the viewer
    status, headers, body = get(port, "/games/1/replay")
    assert status == 200 and b'id="data"' in body
    assert "frame-ancestors 'self'" in headers["content-security-policy"]
    status, _, body = get(port, "/games")
    assert status == 200 and 'href="/games/2"' in body.decode()
    for missing in ("/bots/nobody", "/games/99", "/games/99/replay"):
        assert get(port, missing)[0] == 404, missing
    status, _, body = get(port, "/live")
    assert status == 200 and b"/api/v1/live" in body


def test_the_gate_refuses_other_hosts_other_sites_and_guessers(
    web: tuple[Served, Path, dict[str, str]],
) -> None:
    served, _, tokens = web
    port = served.port
    status, _, body = get(port, "/", {"Host": "rebound.example"})
    assert status == 403 and b"rebound.example" in body  # DNS rebinding
    assert get(port, "/", {"Host": f"localhost:{port}"})[0] == 200
    request = orjson.dumps({"bots": ["house", "other"]})
    json_type = {"Content-Type": "application/json"}
    status, _, body = get(port, "/api/v1/requests", json_type, "POST", request)
    assert status == 401  # a write needs an owner's token
    as_ann = {**json_type, "Authorization": f"Bearer {tokens['ann']}"}
    for other_site in ({"Origin": "http://evil.example"}, {"Sec-Fetch-Site": "cross-site"}):
        status, _, body = get(port, "/api/v1/requests", {**as_ann, **other_site}, "POST",
                              request)
        assert status == 403 and b"other web pages" in body, other_site
    own = {"Origin": f"http://127.0.0.1:{port}", "Sec-Fetch-Site": "same-origin"}
    status, _, body = get(port, "/api/v1/requests", {**as_ann, **own}, "POST", request)
    assert status == 422 and b"one of your own bots" in body  # let in, and answered
    for _ in range(SIGN_INS.count):
        assert get(port, "/api/v1/me", {"Authorization": "Bearer tjl_guess"})[0] == 401
    status, headers, _ = get(port, "/api/v1/me", {"Authorization": f"Bearer {tokens['ann']}"})
    assert status == 429 and int(headers["retry-after"]) > 0  # even a good token, for now
    assert get(port, "/")[0] == 200  # the pages still answer


class Clock:
    """The gate's clock, moved by hand (seconds)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.mark.parametrize("ladder_db", ["sqlite"], indirect=True)
def test_uploads_and_requests_past_their_limits_wait_their_turn(
    tmp_path: Path, ladder_db: str | None,
) -> None:
    clock = Clock()
    two = Limit(2, 60.0)  # two a minute of each: uploads, and other writes
    with served_ladder(tmp_path / "lad", ladder_db, pages=True, uploads=two, writes=two,
                       clock=clock) as (served, _, tokens):
        as_ann = {"Authorization": f"Bearer {tokens['ann']}"}

        def upload(at: float) -> tuple[int, dict[str, str], bytes]:
            clock.now = at  # (an upload of the wrong type: let in, and refused by the API)
            return get(served.port, "/api/v1/bots/annbot/versions",
                       {**as_ann, "Content-Type": "text/plain"}, "POST", b"bot")

        def request(at: float) -> tuple[int, dict[str, str], bytes]:
            clock.now = at  # (a request of bots not ann's: let in, and refused by the API)
            return get(served.port, "/api/v1/requests", {**as_ann, "Content-Type":
                       "application/json"}, "POST", orjson.dumps({"bots": ["house", "other"]}))

        assert upload(1000)[0] == upload(1010)[0] == 415
        status, headers, body = upload(1020)
        assert status == 429 and b"too many uploads" in body
        assert headers["retry-after"] == "40"  # when the one of 1000 leaves the window
        assert request(1020)[0] == request(1030)[0] == 422  # a window of their own
        status, headers, body = request(1030)
        assert status == 429 and b"too many requests" in body
        assert headers["retry-after"] == "50"  # 1020 + 60 - 1030
        assert upload(1060)[0] == 415  # the one of 1000 is out: one more let through
        status, headers, _ = upload(1060)  # and the window full again: 1010 and 1060
        assert status == 429 and headers["retry-after"] == "10"
        assert request(1080)[0] == 422
        assert get(served.port, "/api/v1/me", as_ann)[0] == 200  # reading: never limited


def slow_bot() -> bytes:
    out = io.BytesIO()
    files = {"random_bot.py": (BOTS / "random_bot.py").read_bytes(), "slow.py": SLOW_BOT,
             "bot.json": orjson.dumps({"command": "slow.py"})}
    with tarfile.open(fileobj=out, mode="w:gz") as archive:
        for name, data in files.items():
            info = tarfile.TarInfo(f"annbot/{name}")
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return out.getvalue()


def sign_in(page: Any, root: str, token: str) -> None:
    page.goto(f"{root}/owner")
    page.fill("#token", token)
    page.click("#sign-in-form button[type=submit]")
    page.wait_for_selector("#dashboard:not([hidden])")


@whole_game
@pytest.mark.parametrize("ladder_db", ["sqlite"], indirect=True)
def test_an_owner_uploads_watches_a_game_live_and_reads_only_their_logs(
    browser: Any, web: tuple[Served, Path, dict[str, str]], tmp_path: Path,
) -> None:
    if unavailable() is not None:
        pytest.skip(unavailable())
    served, where, tokens = web
    root = served.root
    archive = tmp_path / "annbot.tar.gz"
    archive.write_bytes(slow_bot())
    with opened(browser, 1280, 900) as page:
        page.goto(f"{root}/owner")
        page.fill("#token", "tjl_wrong")
        page.click("#sign-in-form button[type=submit]")
        page.wait_for_selector("#sign-in-error:has-text('no owner')")
        assert [e for e in page.errors if "401" not in e] == []  # the refusal, expected
        page.errors.clear()
        sign_in(page, root, tokens["ann"])
        assert page.text_content("#owner-name") == "ann"
        page.fill("#upload-bot", "annbot")
        page.set_input_files("#upload-file", str(archive))
        page.click("#upload-button")
        page.wait_for_selector("#upload-result.ok:has-text('version 1 added')", timeout=60_000)
        hostile = tmp_path / "escape.tar"
        with tarfile.open(hostile, "w") as bad:
            for name, data in (("bot.json", b'{"command": "a.py"}'), ("a.py", b""),
                               ("../escape.py", b"")):
                info = tarfile.TarInfo(name)
                info.size = len(data)
                bad.addfile(info, io.BytesIO(data))
        page.fill("#upload-bot", "evil")
        page.set_input_files("#upload-file", str(hostile))
        page.click("#upload-button")
        page.wait_for_selector("#upload-result.error:has-text('refused')", timeout=60_000)
        assert "out of the bot's folder" in (page.text_content("#upload-result") or "")
        assert [e for e in page.errors if "422" not in e] == []  # the refusal, expected
        page.errors.clear()
        page.goto(root)
        assert page.locator("a[href='/bots/annbot']").count() == 1  # placed at once
        assert page.locator("a[href='/bots/evil']").count() == 0
        page.goto(f"{root}/owner")
        page.wait_for_selector("#dashboard:not([hidden])")  # still signed in (this tab)
        page.check("#request-bots input[value='annbot']")
        page.check("#request-bots input[value='house']")
        page.fill("#request-count", "1")
        page.click("#request-form button[type=submit]")
        page.wait_for_selector("#request-result.ok:has-text('game 1')")
        queued = page.wait_for_selector("#my-requests tr[data-game='1'][data-state='queued']")
        assert "annbot@1, house@1" in (queued.text_content() or "")
        page.uncheck("#request-bots input[value='annbot']")
        page.click("#request-form button[type=submit]")  # one bot: refused, and why
        page.wait_for_selector("#request-result.error:has-text('refused: a game of this "
                               "ladder has 2 players')")
        assert [e for e in page.errors if "422" not in e] == []  # the refusal, expected
        page.errors.clear()

        run = subprocess.Popen([sys.executable, "-m", "tajmahal", "ladder", "run", "--games",
                                "1", "-j", "1", "-q", "--ladder", str(where)])
        try:
            wait_until(lambda: [g["game"] for g in served.call("/live")[1]] == [1], 120)
            page.goto(f"{root}/owner")
            page.wait_for_selector("#my-requests tr[data-game='1'][data-state='playing'] "
                                   "a:has-text('watch it')")
            page.goto(f"{root}/live")
            page.click("#game-list a[href='/games/1']", timeout=120_000)
            page.wait_for_selector("#picture svg", timeout=60_000)
            first = int(page.evaluate("document.body.dataset.decision"))
            page.wait_for_selector(f"body:not([data-decision='{first}'])", timeout=60_000)
            moved = page.evaluate("[Number(document.body.dataset.decision), "
                                  "document.body.dataset.over]")
            assert moved[0] > first and not moved[1]  # it moved while watched
            page.wait_for_selector("body[data-over='1']", timeout=300_000)
            page.click("#open-replay", timeout=60_000)
            page.wait_for_url(f"{root}/games/1")
            page.wait_for_selector("iframe#replay", timeout=30_000)
        finally:
            assert run.wait(timeout=300) == 0
        # A request whose game cannot be played (its record's place is taken): void, and why
        assert cli("ladder", "request", "house", "other", "--owner", "ann", "--ladder",
                   str(where))[0] == 0
        (where / "games" / "000002.jsonl").mkdir()
        assert cli("ladder", "run", "--games", "1", "-j", "1", "-q", "--ladder",
                   str(where))[0] == 0

        page.goto(f"{root}/owner")
        page.wait_for_selector("#my-requests tr[data-game='1'][data-state='finished'] "
                               "a[href='/games/1']:has-text('see the game')")
        void = page.text_content("#my-requests tr[data-game='2'][data-state='void'] .state")
        assert void and void.startswith("void: failed 3 times") and "IsADirectoryError" in void
        page.wait_for_selector("#my-games button.show-log")
        page.click("#my-games button.show-log")
        page.wait_for_selector("#log-view:not([hidden])")
        assert HOSTILE in (page.text_content("#log-view") or "")  # as text
        assert page.locator("#injected").count() == 0
        assert not page.evaluate("document.body.dataset.pwned")

    with opened(browser, 1280, 900) as other:
        sign_in(other, root, tokens["ben"])
        other.wait_for_selector("#my-games:has-text('no game of your bots')")
        other.wait_for_selector("#my-requests:has-text('no request yet')")
        status = other.evaluate("""async ([seat]) => (await fetch('/api/v1/games/1/logs/' + seat,
            {headers: {Authorization: 'Bearer ' + sessionStorage.getItem(
            'tajmahal-ladder-owner')}})).status""", [_seat_of(served, "annbot")])
        assert status == 403
        assert [e for e in other.errors if "403" not in e] == []  # the refusal, expected
        other.errors.clear()

    for path in ("/", "/bots/annbot", "/games/1", "/owner", "/live"):  # a phone's screen
        with opened(browser, 390, 844) as phone:
            phone.goto(f"{root}{path}")
            phone.wait_for_load_state("networkidle")
            wide = phone.evaluate("document.documentElement.scrollWidth")
            assert wide <= 390, (path, wide)


def _seat_of(served: Served, bot: str) -> int:
    game = served.call("/games/1")[1]
    seat: int = next(s["seat"] for s in game["seats"] if s["bot"] == bot)
    return seat
