"use strict";
// Live games (common.js comes first; session.js too on a local page, whose requests
// carry its token). The page's data attributes say where things are:
//   data-list: the games under way (JSON), shown as links while no game is chosen;
//   data-events: the chosen game's events, or data-events-base + ?game=KEY;
//   data-replay: where the finished game's replay is (a link), once data-finished
//   (the game's JSON) says "finished"; data-replay-frame: a replay fetched into
//   the page (a local page's: with the token).
// A game's events are server-sent events read from fetch() (EventSource cannot
// send the token): "view" (the game so far), then "start", "steps", "end" as they
// come, or "gone" (the game was stopped: it is played again). The board, the
// picture's document and the legend, which never change, are not in them: "view"
// and "start" name them ("pictures": a SHA-256), fetched beside the events
// (../pictures/SHA256) and kept by the browser.
const page = document.body.dataset;
const request = typeof api === "function" ? api : (path, init) => fetch(path, init);
const game = {url: null, view: null, ended: false, gone: false, tries: 0};

function status(textContent, cls) {
  const s = el("status");
  s.textContent = textContent;
  s.className = cls || "";
}

async function listGames() {
  el("games").hidden = false;
  try {
    const answer = await request(page.list, {cache: "no-store"});
    const games = answer.ok ? await answer.json() : [];
    const list = el("game-list");
    list.replaceChildren();
    for (const g of games) {
      const item = document.createElement("li");
      const link = text("a", `game ${g.label || g.game}`);
      link.href = g.href || `?game=${encodeURIComponent(g.game)}`;
      item.append(link, text("span", `: ${g.names.join(", ")}` + (g.started ? ` (since ${g.started})` : "")));
      list.append(item);
    }
    el("no-games").hidden = games.length > 0;
    status(games.length ? `${games.length} under way` : "");
  } finally {
    setTimeout(listGames, 2000);
  }
}

// Each event of a server-sent stream: handle(kind, data).
async function follow(url, handle) {
  const answer = await request(url, {cache: "no-store"});
  if (!answer.ok) {
    handle("missing", await answer.json().catch(() => ({})));
    return;
  }
  const reader = answer.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const {value, done} = await reader.read();
    if (done) break;
    buffer += value;
    let cut;
    while ((cut = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      let kind = "message", data = "";
      for (const line of block.split("\n")) {
        if (line.startsWith("event: ")) kind = line.slice(7);
        else if (line.startsWith("data: ")) data += line.slice(6);
      }
      if (data) handle(kind, JSON.parse(data));
    }
  }
  handle("closed", null);
}

// The public picture: the numbers of its fragments (each sent once).
function drawPicture() {
  const v = game.view;
  if (!v.document) return;
  const body = (v.board || "") + v.picture.slice(1).map((n) => v.fragments[n]).join("");
  el("picture").innerHTML = overlaid(v.document.replace("@@BODY@@", () => body), {"last-move": v.last});
}

function drawScores() {
  const v = game.view, table = el("scores");
  table.replaceChildren();
  const head = document.createElement("tr");
  head.append(text("th", "seat"), text("th", "player", "name"), text("th", "score"));
  table.append(head);
  v.names.forEach((name, seat) => {
    const row = document.createElement("tr");
    row.append(text("td", seat), text("td", name, "name"), text("td", v.scores[seat] ?? ""));
    table.append(row);
  });
}

function addLog(entries) {
  const log = el("log"), box = log.parentElement;
  const atEnd = box.scrollHeight - box.scrollTop - box.clientHeight < 40;
  for (const entry of entries) log.append(...logItems(entry, game.view.names));
  if (atEnd) box.scrollTop = box.scrollHeight;
}

function drawAll() {
  const v = game.view;
  el("title").textContent = v.title;
  el("seats").textContent = v.names.map((n, seat) => `seat ${seat}: ${n}`).join(" · ");
  el("log").replaceChildren();
  addLog(v.log);
  drawScores();
  drawPicture();
  showLegend(v.legend);
  if (v.result) ended(v.result);
  else status(v.ready ? `live: decision ${lastDecision()}` : "live: the board comes in a moment");
}

function lastDecision() {
  const log = game.view.log;
  return log.length ? log[log.length - 1].decision : 0;
}

function ended(result) {
  game.ended = true;
  status("the game is over", "over");
  el("final").hidden = false;
  finalTable(game.view.names, game.view.sources, result);
  document.body.dataset.over = "1";
  offerReplay();
}

async function offerReplay() {
  const box = el("replay");
  if (page.replay) {
    box.textContent = "the record is being written...";
    if (page.finished) {
      for (let k = 0; k < 120; k++) {
        const answer = await fetch(page.finished, {cache: "no-store"});
        if (answer.ok && (await answer.json()).status === "finished") break;
        await new Promise((done) => setTimeout(done, 500));
      }
    }
    const link = text("a", "open the replay");
    link.href = page.replay;
    link.id = "open-replay";
    box.replaceChildren(link);
  } else if (page.replayFrame) {
    const button = text("button", "open the replay");
    button.id = "open-replay";
    button.onclick = async () => {
      const answer = await request(page.replayFrame, {cache: "no-store"});
      const frame = el("replay-frame");
      frame.srcdoc = await answer.text();
      frame.hidden = false;
      el("final").hidden = true;
      frame.scrollIntoView();
    };
    box.replaceChildren(button);
  }
}

// The unchanging pictures named by digest: fetched once (the browser keeps them).
async function loadPictures(digest) {
  if (!digest) return;
  const url = new URL(`../pictures/${digest}`, new URL(game.url, location.href));
  const answer = await request(url.pathname);
  if (!answer.ok || !game.view || game.view.pictures !== digest) return;
  const pictures = await answer.json();
  Object.assign(game.view, {legend: pictures.legend, board: pictures.board, document: pictures.document});
  showLegend(pictures.legend);
  drawPicture();
}

function handle(kind, data) {
  if (kind === "view") {
    game.view = data;
    drawAll();
    loadPictures(data.pictures);
  } else if (kind === "start") {
    Object.assign(game.view, {pictures: data.pictures, ready: true});
    more(data);
    loadPictures(data.pictures);
  } else if (kind === "steps") {
    more(data);
  } else if (kind === "end") {
    game.view.result = data.result;
    ended(data.result);
  } else if (kind === "gone") {
    game.gone = true;
    status("the game was stopped: it will be played again", "stopped");
  } else if (kind === "missing") {
    status(data.error || "this game is not under way", "stopped");
    game.gone = true;
  } else if (kind === "closed" && !game.ended && !game.gone && game.tries++ < 20) {
    setTimeout(connect, 1000);  // the connection broke: the game so far again
  }
  document.body.dataset.decision = game.view ? lastDecision() : 0;
}

function more(data) {
  const v = game.view;
  v.log.push(...data.log);
  v.fragments.push(...data.fragments);
  Object.assign(v, {scores: data.scores, picture: data.picture, last: data.last});
  addLog(data.log);
  drawScores();
  drawPicture();
  if (!game.ended) status(`live: decision ${lastDecision()}`);
}

function connect() {
  follow(game.url, handle).catch(() => handle("closed", null));
}

function start() {
  const key = new URLSearchParams(location.search).get("game");
  game.url = page.events || (key && `${page.eventsBase}${encodeURIComponent(key)}/events`);
  if (page.replayFrameBase && key) page.replayFrame = `${page.replayFrameBase}${encodeURIComponent(key)}`;
  if (!game.url) {
    listGames();
    return;
  }
  el("game").hidden = false;
  status("connecting...");
  connect();
}

start();
