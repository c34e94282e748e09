"use strict";
// The ladder's pages (common.js comes first). An owner signs in with their token:
// it is kept in this browser's storage for this origin (the tab's sessionStorage,
// or localStorage when they ask to stay signed in), never in a cookie, and sent as
// "Authorization: Bearer ..." with their requests only (see ladder/gate.py). The
// owner's page (/owner): their bots, uploads, the games they requested (queued,
// playing now, finished or void, and why), and the faults and logs of their bots'
// games. Every text from the server is shown as text.
const OWNER_KEY = "tajmahal-ladder-owner";
const owner = {
  token: () => sessionStorage.getItem(OWNER_KEY) || localStorage.getItem(OWNER_KEY),
  keep(token, always) {
    sessionStorage.setItem(OWNER_KEY, token);
    if (always) localStorage.setItem(OWNER_KEY, token);
  },
  forget() {
    sessionStorage.removeItem(OWNER_KEY);
    localStorage.removeItem(OWNER_KEY);
  },
  fetch(path, init = {}, token = owner.token()) {
    const headers = new Headers(init.headers || {});
    if (token) headers.set("Authorization", `Bearer ${token}`);
    return fetch(path, {...init, headers, credentials: "omit", cache: "no-store"});
  },
};

async function errorOf(answer) {
  const body = await answer.text();
  try {
    return JSON.parse(body).error || body;
  } catch {
    return body || `${answer.status} ${answer.statusText}`;
  }
}

function say(id, message, ok) {
  const node = el(id);
  node.textContent = message;
  node.className = ok ? "ok" : "error";
}

async function whoAmI(token) {
  const answer = await owner.fetch("/api/v1/me", {}, token);
  return answer.ok ? {me: await answer.json()} : {error: await errorOf(answer), status: answer.status};
}

async function showNav() {
  const link = el("owner-link");
  if (!link || !owner.token()) return;
  const {me} = await whoAmI(owner.token());
  if (me) link.textContent = `${me.owner}: your page`;
}

// -- the owner's page

const ARCHIVE_TYPES = [[".zip", "application/zip"], [".tar", "application/x-tar"],
  [".tgz", "application/gzip"], [".gz", "application/gzip"]];

function archiveType(name) {
  const found = ARCHIVE_TYPES.find(([end]) => name.toLowerCase().endsWith(end));
  return found ? found[1] : "application/octet-stream";
}

async function signIn(event) {
  event.preventDefault();
  const token = el("token").value.trim();
  const {me, error, status} = await whoAmI(token);
  if (!me) {
    say("sign-in-error", status === 401 ? "this token is no owner's: check it, or ask your organiser for a new one" : error);
    return;
  }
  owner.keep(token, el("keep").checked);
  el("token").value = "";
  el("sign-in-error").textContent = "";
  dashboard(me);
}

function signOut() {
  owner.forget();
  location.reload();
}

async function dashboard(me) {
  el("sign-in").hidden = true;
  el("dashboard").hidden = false;
  el("owner-name").textContent = me.owner;
  document.body.dataset.owner = me.owner;
  const list = el("my-bots"), names = el("my-bot-names");
  list.replaceChildren();
  names.replaceChildren();
  for (const b of me.bots) {
    const item = document.createElement("li"), link = text("a", b.bot);
    link.href = `/bots/${encodeURIComponent(b.bot)}`;
    item.append(link, text("span", ` version ${b.current}, rating ${b.rating.mu.toFixed(1)}, ${b.games} games` + (b.retired ? " (retired)" : "")));
    list.append(item);
    const option = document.createElement("option");
    option.value = b.bot;
    names.append(option);
  }
  if (!me.bots.length) list.append(text("li", "none yet: upload one below"));
  await Promise.all([requestChoices(me), myRequests(), myGames()]);
}

async function requestChoices(me) {
  const box = el("request-bots");
  box.replaceChildren();
  const answer = await fetch("/api/v1/bots", {cache: "no-store"});
  if (!answer.ok) return;
  for (const b of await answer.json()) {
    if (b.retired) continue;
    const label = document.createElement("label"), box_ = document.createElement("input");
    box_.type = "checkbox";
    box_.value = b.bot;
    box_.name = "bot";
    label.append(box_, text("span", ` ${b.bot}` + (b.owner === me.owner ? " (yours)" : "")));
    box.append(label);
  }
}

async function upload(event) {
  event.preventDefault();
  const name = el("upload-bot").value.trim(), file = el("upload-file").files[0];
  if (!file) return;
  el("upload-button").disabled = true;
  say("upload-result", `checking ${file.name}: it is unpacked, checked and started once...`, true);
  try {
    const answer = await owner.fetch(`/api/v1/bots/${encodeURIComponent(name)}/versions`, {
      method: "POST", headers: {"Content-Type": archiveType(file.name)}, body: file,
    });
    if (!answer.ok) {
      say("upload-result", `refused: ${await errorOf(answer)}`);
      return;
    }
    const added = await answer.json();
    say("upload-result", added.unchanged
      ? `${added.bot}: version ${added.version} is this one already (nothing added)`
      : `${added.bot}: version ${added.version} added` + (added.new_bot ? " (a new bot)" : "") + ": it joins the next games", true);
    const {me} = await whoAmI(owner.token());
    if (me) dashboard(me);
  } finally {
    el("upload-button").disabled = false;
  }
}

async function requestGames(event) {
  event.preventDefault();
  const bots = [...document.querySelectorAll("#request-bots input:checked")].map((b) => b.value);
  const games = Number(el("request-count").value);
  const answer = await owner.fetch("/api/v1/requests", {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify({bots, games}),
  });
  if (!answer.ok) {
    say("request-result", `refused: ${await errorOf(answer)}`);
    return;
  }
  const made = await answer.json();
  say("request-result", `requested: game${made.games.length > 1 ? "s" : ""} ${made.games.join(", ")} (played before the schedule's next games)`, true);
  await myRequests();
}

// Seconds between two looks at the requested games while one of them waits or plays.
const REQUESTS_REFRESH = 5;
let requestsTimer = null;

function seatsText(seats) {
  return seats.map((s) => `${s.bot}@${s.version}` + (s.rank == null ? "" : ` ${s.rank}.`)
    + (s.fault ? ` (${s.fault})` : "")).join(", ");
}

// Where a requested game stands: [state, what the page says, a link's text].
function requestedState(g, playing) {
  const failed = g.tries ? `failed ${g.tries} time${g.tries > 1 ? "s" : ""}` : "";
  if (g.status === "finished") return ["finished", `finished ${when(g.finished)}`, "see the game"];
  if (g.status === "void") return ["void", `void: ${failed}, not played: ${g.error || "no reason kept"}`, ""];
  if (playing.has(g.game)) return ["playing", "playing now", "watch it"];
  if (g.tries) return ["again", `queued again (${failed}: ${g.error || "no reason kept"})`, ""];
  return ["queued", "queued", ""];
}

function when(stamp) {
  return (stamp || "").replace("T", " ").slice(0, 16);
}

async function myRequests() {
  clearTimeout(requestsTimer);
  const table = el("my-requests");
  const [answer, live] = await Promise.all([owner.fetch("/api/v1/me/requests?limit=20"),
    fetch("/api/v1/live", {cache: "no-store"})]);
  if (!answer.ok) return;
  const made = await answer.json();
  const playing = new Set(live.ok ? (await live.json()).map((g) => g.game) : []);
  const head = document.createElement("tr");
  head.append(text("th", "game"), text("th", "requested", "name wide"), text("th", "bots", "name"),
    text("th", "state", "name"));
  table.replaceChildren(head);
  let waiting = false;
  for (const r of made) {
    for (const g of r.games) {
      const [state, said, linkText] = requestedState(g, playing);
      waiting ||= state !== "finished" && state !== "void";
      const row = document.createElement("tr"), game = document.createElement("td");
      const link = text("a", g.game), cell = text("td", said, `name state ${state}`);
      link.href = `/games/${g.game}`;
      game.append(link);
      if (linkText) {
        const more = text("a", linkText);
        more.href = `/games/${g.game}`;
        cell.append(" · ", more);
      }
      row.dataset.game = g.game;
      row.dataset.state = state;
      row.append(game, text("td", when(r.requested), "name wide"), text("td", seatsText(g.seats), "name"), cell);
      table.append(row);
    }
  }
  if (!made.length) table.append(text("tr", "no request yet: tick the bots above"));
  if (waiting) requestsTimer = setTimeout(myRequests, REQUESTS_REFRESH * 1000);
}

async function myGames() {
  const table = el("my-games");
  const answer = await owner.fetch("/api/v1/me/games?limit=50");
  table.replaceChildren();
  if (!answer.ok) return;
  const rows = await answer.json();
  const head = document.createElement("tr");
  for (const h of ["game", "finished", "bot", "seat", "rank", "fault", "log"]) head.append(text("th", h));
  table.append(head);
  for (const r of rows) {
    const row = document.createElement("tr"), link = text("a", r.game);
    link.href = `/games/${r.game}`;
    const game = document.createElement("td");
    game.append(link);
    const fault = text("td", r.fault ? `${r.fault}${r.fault_detail ? `: ${r.fault_detail}` : ""}` : "", r.fault ? "name fault" : "name");
    const log = document.createElement("td");
    if (r.log) {
      const button = text("button", "show");
      button.type = "button";
      button.className = "show-log";
      button.onclick = () => showLog(r.game, r.seat);
      log.append(button);
    }
    row.append(game, text("td", when(r.finished), "name"),
      text("td", `${r.bot}@${r.version}`, "name"), text("td", r.seat), text("td", r.rank ?? ""), fault, log);
    table.append(row);
  }
  if (!rows.length) table.append(text("tr", "no game of your bots has finished yet"));
}

async function showLog(game, seat) {
  const view = el("log-view");
  const answer = await owner.fetch(`/api/v1/games/${game}/logs/${seat}`);
  view.hidden = false;
  view.textContent = answer.ok
    ? `game ${game}, seat ${seat}:\n${(await answer.text()) || "(nothing written)"}`
    : `game ${game}, seat ${seat}: ${await errorOf(answer)}`;
  view.scrollIntoView({block: "nearest"});
}

async function ownerPage() {
  el("sign-in-form").onsubmit = signIn;
  el("sign-out").onclick = signOut;
  el("upload-form").onsubmit = upload;
  el("request-form").onsubmit = requestGames;
  if (owner.token()) {
    const {me, status} = await whoAmI(owner.token());
    if (me) return dashboard(me);
    if (status === 401) {
      owner.forget();
      say("sign-in-error", "your token was refused: sign in again");
    }
  }
  el("sign-in").hidden = false;
}

if (el("sign-in-form")) ownerPage();
else showNav();
