"use strict";
// The browser game: polls /api/state, shows the picture, the legal moves (on the
// picture and as buttons), the scores and the log; posts a click to /api/act.
const el = (id) => document.getElementById(id);
let version = 0, last = null, revealed = null, sending = false;

function text(tag, content, cls) {
  const node = document.createElement(tag);
  node.textContent = content;
  if (cls) node.className = cls;
  return node;
}

async function send(pending, index) {
  if (sending) return;
  sending = true;
  for (const b of el("moves").querySelectorAll("button")) b.disabled = true;
  try {
    const r = await fetch("/api/act", {
      method: "POST",
      headers: {"Content-Type": "application/json"},
      body: JSON.stringify({seat: pending.seat, decision: pending.decision, choice: index}),
    });
    if (!r.ok) el("status").textContent = (await r.json()).error;
  } finally {
    sending = false;
  }
}

function showOnly(indices) {
  for (const b of el("moves").querySelectorAll("button.move"))
    b.classList.toggle("picked", indices.includes(Number(b.dataset.index)));
}

function moves(s) {
  const box = el("moves");
  box.replaceChildren();
  const pending = s.pending;
  const human = pending && s.humans.includes(pending.seat);
  el("prompt").textContent = s.result ? "Game over"
    : human ? `${s.names[pending.seat]}: your move`
    : s.to_act === null ? "" : `${s.names[s.to_act]} is thinking…`;
  if (!human) return;
  const byTarget = {};
  pending.options.forEach((o, i) => {
    const b = text("button", o.label, "move");
    b.dataset.index = i;
    b.addEventListener("click", () => send(pending, i));
    box.append(b);
    if (o.target) (byTarget[o.target] ??= []).push(i);
  });
  for (const [target, indices] of Object.entries(byTarget)) {
    const node = el("picture").querySelector(`[id="${CSS.escape(target)}"]`);
    if (!node) continue;
    node.classList.add("legal");
    node.parentNode.appendChild(node);  // on top of its neighbours: nothing hides it
    node.addEventListener("click", () => {
      if (indices.length === 1) send(pending, indices[0]);
      else showOnly(indices);  // one card, several ways to play it: pick a button
    });
  }
}

function scores(s) {
  const table = el("scores");
  table.replaceChildren();
  s.names.forEach((name, seat) => {
    const row = document.createElement("tr");
    row.id = `score-seat-${seat}`;
    if (seat === s.to_act) row.className = "to-act";
    row.append(text("td", name, "name"), text("td", s.scores[seat], "score"));
    table.append(row);
  });
}

function finalTable(s) {
  const section = el("final");
  if (!s.result) { section.hidden = true; return; }
  section.hidden = false;
  const table = el("final-table");
  table.replaceChildren();
  const head = document.createElement("tr");
  for (const h of ["seat", "player", ...s.sources, "total", "rank"]) head.append(text("th", h));
  table.append(head);
  s.names.forEach((name, seat) => {
    const row = document.createElement("tr");
    row.dataset.seat = seat;
    row.append(text("td", seat), text("td", name, "name"));
    for (const src of s.sources) row.append(text("td", s.result.breakdown[seat][src] ?? 0));
    row.append(text("td", s.result.scores[seat], "total"));
    row.append(text("td", s.result.ranks[seat], "rank"));
    table.append(row);
  });
  const faults = el("faults");
  faults.replaceChildren();
  for (const f of s.result.faults) faults.append(text("li", `seat ${f.seat} ${f.kind}: ${f.detail}`));
}

function log(s) {
  const list = el("log");
  list.replaceChildren();
  for (const entry of s.log.slice().reverse()) {
    const item = text("li", `${s.names[entry.seat]}: ${entry.text}` + (entry.by === "fallback" ? " [fallback]" : ""));
    item.value = entry.decision;
    list.append(item);
  }
}

function render(s) {
  last = s;
  const pending = s.pending;
  // hot seat: a person's hand is shown only once they say they are at the screen
  const covered = s.humans.length > 1 && pending && s.humans.includes(pending.seat) && revealed !== pending.seat;
  el("cover").hidden = !covered;
  if (covered) el("cover-text").textContent = `${s.names[pending.seat]}'s turn: pass the screen`;
  el("picture").innerHTML = covered ? "" : (s.picture ?? "");
  el("status").textContent = s.closed && !s.result ? "the game was stopped" : "";
  scores(s);
  if (covered) { el("moves").replaceChildren(); el("prompt").textContent = ""; }
  else moves(s);
  log(s);
  finalTable(s);
  document.body.dataset.version = s.version;
  document.body.dataset.over = s.result ? "1" : "";
}

el("reveal").addEventListener("click", () => {
  if (last && last.pending) revealed = last.pending.seat;
  if (last) render(last);
});

async function poll() {
  try {
    const r = await fetch(`/api/state?since=${version}`, {cache: "no-store"});
    const s = await r.json();
    if (s.version !== version && s.names) {
      version = s.version;
      render(s);
    }
    if (s.result || s.closed) return;  // the game is over: nothing more will change
  } catch (e) {
    el("status").textContent = "the game server is not answering";
  }
  setTimeout(poll, 150);
}
poll();
