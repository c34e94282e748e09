"use strict";
// The browser game (common.js comes first): polls /api/state and shows the picture,
// the scores and the log; a person makes a move on the picture, clicking the parts
// each legal action names (its "path") one after another: after each click the
// parts that can come next are highlighted, and the actions that end there are
// listed, the first previewed; "confirm" (Enter) posts it to /api/act. Actions
// the picture cannot show are buttons.
let version = 0, last = null, revealed = null, sending = false;
let pick = {key: null, chosen: [], selected: null};

function startsWith(path, prefix) {
  return prefix.every((id, k) => path[k] === id);
}

async function send(pending, index) {
  if (sending) return;
  sending = true;
  for (const b of document.querySelectorAll("#moves button, #choice button")) b.disabled = true;
  try {
    const r = await api("/api/act", {
      method: "POST",
      headers: {"Content-Type": "application/json"},
      body: JSON.stringify({seat: pending.seat, decision: pending.decision, choice: index}),
    });
    if (!r.ok) el("status").textContent = r.status === 403 ? await r.text() : (await r.json()).error;
  } finally {
    sending = false;
  }
  poll();  // the answer changes the game at once: do not wait for the next tick
}

// The person's decision, if one is waiting and in view.
function decision(s) {
  const p = s.pending;
  if (!p || !s.humans.includes(p.seat) || covered(s)) return null;
  return p;
}

function covered(s) {
  const p = s.pending;
  return s.humans.length > 1 && p && s.humans.includes(p.seat) && revealed !== p.seat;
}

// What the clicks so far leave: the parts that can come next and the actions that end here.
function options(p) {
  const depth = pick.chosen.length, next = new Map(), ends = [];
  p.options.forEach((o, i) => {
    if (!startsWith(o.path, pick.chosen)) return;
    if (o.path.length > depth) {
      const id = o.path[depth];
      if (!next.has(id)) next.set(id, []);
      next.get(id).push(i);
    } else ends.push(i);
  });
  return {next, ends};
}

function choosePart(p, id) {
  const depth = pick.chosen.length;
  if (depth && pick.chosen[depth - 1] === id) {  // the same part again: the next way
    const {ends} = options(p);
    if (ends.length > 1) pick.selected = ends[(ends.indexOf(pick.selected) + 1) % ends.length];
  } else {
    pick.chosen.push(id);
    const {ends} = options(p);
    pick.selected = ends.length ? ends[0] : null;
  }
  draw();
}

function select(path, index) {
  pick.chosen = path.slice();
  pick.selected = index;
  draw();
}

function cancel() {
  pick.chosen = [];
  pick.selected = null;
  draw();
}

function confirm() {
  const p = last && decision(last);
  if (p && pick.selected !== null) send(p, pick.selected);
}

function moveButton(p, i, commit) {
  const o = p.options[i];
  const b = text("button", o.label, "move");
  b.dataset.index = i;
  if (i === pick.selected) b.classList.add("picked");
  b.addEventListener("click", () => commit ? send(p, i) : select(o.path, i));
  b.addEventListener("dblclick", () => send(p, i));
  return b;
}

function picture(s, p) {
  const preview = p && pick.selected !== null ? p.options[pick.selected].preview : "";
  el("picture").innerHTML = s.picture ? overlaid(s.picture, {"last-move": s.last, "preview": preview}) : "";
  splitAreas(el("picture"));
  if (!p) return new Map();
  const {next} = options(p);
  for (const id of pick.chosen) {
    const node = el("picture").querySelector(`[id="${CSS.escape(id)}"]`);
    if (node) node.classList.add("chosen");
  }
  const current = pick.chosen[pick.chosen.length - 1];
  const targets = new Map(next);
  if (current !== undefined) targets.set(current, []);  // clicked again: the next way
  const legal = [];
  for (const id of targets.keys()) {
    const node = el("picture").querySelector(`[id="${CSS.escape(id)}"]`);
    if (!node) { next.delete(id); continue; }
    if (next.has(id)) { node.classList.add("legal"); legal.push(node); }
    node.addEventListener("click", (e) => { e.stopPropagation(); choosePart(p, id); });
  }
  markMany(legal);
  return next;
}

// Many parts of a kind to click at once (most of Java's board): rings round them
// all would hide the board, so each gets a dot at its centre (and its ring when
// pointed at); the few other parts (a card, the pile) keep their rings.
const MANY = 40;
function markMany(legal) {
  const kinds = new Map();
  for (const node of legal) {
    const kind = [...node.classList].filter((c) => c !== "legal").join(" ");
    if (!kinds.has(kind)) kinds.set(kind, []);
    kinds.get(kind).push(node);
  }
  for (const nodes of kinds.values()) {
    if (nodes.length <= MANY) continue;
    for (const node of nodes) {
      node.classList.add("dotted");
      const svg = node.ownerSVGElement, b = node.getBBox();
      let dots = svg.querySelector(":scope > g.dots");
      if (!dots) {
        dots = document.createElementNS("http://www.w3.org/2000/svg", "g");
        dots.setAttribute("class", "dots");
        svg.append(dots);
      }
      const dot = document.createElementNS("http://www.w3.org/2000/svg", "circle");
      dot.setAttribute("cx", b.x + b.width / 2);
      dot.setAttribute("cy", b.y + b.height / 2);
      dot.setAttribute("r", Math.max(2.5, Math.min(5, b.width / 9)));
      dots.append(dot);
    }
  }
}

function moves(s, p) {
  const box = el("moves");
  box.replaceChildren();
  el("choice").hidden = true;
  el("hint").textContent = "";
  el("prompt").textContent = s.result ? "Game over: see the result above"
    : p ? `${s.names[p.seat]}: your move`
    : s.to_act === null || s.to_act === undefined ? "" : `${s.names[s.to_act]} is thinking…`;
  if (!p) return;
  const next = picture(s, p);
  const {ends} = options(p);
  const depth = pick.chosen.length;
  if (depth === 0) {
    el("hint").textContent = next.size
      ? "Click a highlighted part of the board" + (ends.length ? ", or:" : ".") : "";
    for (const i of ends) box.append(moveButton(p, i, true));
  } else {
    el("hint").textContent = next.size
      ? (ends.length ? "Confirm, or click a highlighted part to go on." : "Now click a highlighted part.")
      : ends.length > 1 ? "Choose one (click the same part again for the next):" : "";
    if (ends.length > 1) for (const i of ends) box.append(moveButton(p, i, false));
  }
  if (pick.selected !== null) {
    el("choice").hidden = false;
    el("choice-text").textContent = p.options[pick.selected].label;
  } else if (depth) {
    el("choice").hidden = false;
    el("choice-text").textContent = "";
  }
  el("confirm").disabled = pick.selected === null;
  el("cancel").disabled = false;
  const all = document.createElement("details");
  all.id = "all-moves";
  all.append(text("summary", `every move as a list (${p.options.length})`));
  p.options.forEach((o, i) => { if (o.path.length) all.append(moveButton(p, i, false)); });
  if (all.children.length > 1) box.append(all);
}

// A seat's name as the page shows it: "(you)" after the one person's.
function shownName(s, seat) {
  return s.names[seat] + (s.humans.length === 1 && s.humans[0] === seat ? " (you)" : "");
}

function scores(s) {
  const table = el("scores");
  table.replaceChildren();
  s.names.forEach((name, seat) => {
    const row = document.createElement("tr");
    row.id = `score-seat-${seat}`;
    if (seat === s.to_act) row.className = "to-act";
    row.append(text("td", shownName(s, seat), "name"), text("td", s.scores[seat], "score"));
    if (s.outlook && !s.result) {  // what a scoring now would add (Tikal's scoring rounds)
      const cell = text("td", `+${s.outlook[seat]} if scored now`, "outlook");
      cell.title = "what this seat would score at a scoring round now";
      row.append(cell);
    }
    table.append(row);
  });
}

// The end: who won, where each person finished, the seats by rank.
function showBanner(s) {
  const shown = !!s.result;
  const box = el("banner");
  if (!shown) { box.hidden = true; return; }
  const first = box.hidden;
  box.hidden = false;
  const r = s.result;
  const {head, line, order} = standings(s.names, r, s.humans);
  el("banner-head").textContent = head;
  el("banner-line").textContent = line;
  const list = el("standings");
  list.replaceChildren();
  for (const seat of order) {
    const item = document.createElement("li");
    if (s.humans.includes(seat)) item.className = "you";
    item.dataset.seat = seat;
    item.append(text("span", `${ordinal(r.ranks[seat])} `, "rank"), text("span", shownName(s, seat)),
      text("span", ` ${r.scores[seat]}`, "score"));
    list.append(item);
  }
  if (first) window.scrollTo(0, 0);  // in view, wherever the page was scrolled
}

function log(s) {
  const list = el("log");
  const follow = list.scrollTop + list.clientHeight >= list.scrollHeight - 30;
  list.replaceChildren();
  for (const entry of s.log) list.append(...logItems(entry, s.names));
  const items = list.querySelectorAll("li.action");
  if (items.length) items[items.length - 1].classList.add("current");
  if (follow) list.scrollTop = list.scrollHeight;
}

function draw() {
  const s = last;
  if (!s) return;
  const p = decision(s);
  const key = p ? `${p.seat}:${p.decision}` : null;
  if (key !== pick.key) pick = {key, chosen: [], selected: null};
  el("cover").hidden = !covered(s);
  if (covered(s)) el("cover-text").textContent = `${s.names[s.pending.seat]}'s turn: pass the screen`;
  if (covered(s)) {
    el("picture").innerHTML = "";
    el("moves").replaceChildren();
    el("choice").hidden = true;
    el("prompt").textContent = "";
    el("hint").textContent = "";
  } else if (p) moves(s, p);
  else { moves(s, null); picture(s, null); }
}

// The layout that shows the picture biggest: beside the panels, or (a wide picture
// such as Java's board) across the page with the panels under it.  A phone's
// narrow screen always stacks them (play.css).
function arrange() {
  if (el("picture").classList.contains("split")) return;
  const svg = el("picture").querySelector("svg");
  const box = svg && svg.viewBox.baseVal;
  if (!box || !box.width) return;
  const aspect = box.width / box.height, page = document.documentElement.clientWidth - 24;
  const room = window.innerHeight - 60;
  const beside = Math.min(page - 300, room * aspect);
  const across = Math.min(page, (room - 200) * aspect);  // the turn's panel in view below
  document.body.classList.toggle("wide", across > 1.15 * beside);
}
window.addEventListener("resize", () => { if (last) { draw(); arrange(); } });

// On a phone the turn's panel stays at the screen's foot: the page ends below it.
function makeRoom() {
  const box = el("turn-box");
  const fixed = getComputedStyle(box).position === "fixed";
  document.body.style.paddingBottom = fixed ? `${box.offsetHeight + 16}px` : "";
}

function render(s) {
  last = s;
  el("status").textContent = s.closed && !s.result ? "the game was stopped" : "";
  draw();
  arrange();
  scores(s);
  log(s);
  showBanner(s);
  makeRoom();
  if (s.result) {
    el("final").hidden = false;
    finalTable(s.names, s.sources, s.result);
  } else el("final").hidden = true;
  document.body.dataset.version = s.version;
  document.body.dataset.over = s.result ? "1" : "";
}

el("reveal").addEventListener("click", () => {
  if (last && last.pending) revealed = last.pending.seat;
  if (last) render(last);
});
el("confirm").addEventListener("click", confirm);
el("cancel").addEventListener("click", cancel);
document.addEventListener("keydown", (e) => {
  if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
  const p = last && decision(last);
  if (!p) return;
  if (e.key === "Enter" && pick.selected !== null) { confirm(); e.preventDefault(); }
  else if (e.key === "Escape") cancel();
  else if ((e.key === "r" || e.key === "R") && pick.chosen.length) {
    choosePart(p, pick.chosen[pick.chosen.length - 1]);
  }
});

let legendShown = false, polling = false, timer = null;
async function poll() {
  if (polling) return;
  polling = true;
  clearTimeout(timer);
  try {
    const r = await api(`/api/state?since=${version}`, {cache: "no-store"});
    if (r.status === 403) {  // no token (an address typed without it): nothing to show
      el("status").textContent = await r.text();
      return;
    }
    const s = await r.json();
    if (s.version !== version && s.names) {
      version = s.version;
      if (!legendShown) { showLegend(s.legend); legendShown = true; }
      render(s);
    }
    if (s.result || s.closed) return;  // the game is over: nothing more will change
  } catch (e) {
    el("status").textContent = "the game server is not answering";
  } finally {
    polling = false;
  }
  timer = setTimeout(poll, 150);
}
poll();
