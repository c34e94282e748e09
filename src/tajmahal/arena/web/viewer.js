"use strict";
// The replay viewer (common.js comes first): steps through a game's pictures, its
// log and its scores; the data is packed by tajmahal.arena.viewer.
const DATA = JSON.parse(document.getElementById("data").textContent);
let game = null, step = 0, timer = null, fragments = null;
const cache = {};

async function unpacked(text) {
  const bytes = Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return JSON.parse(await new Response(stream).text());
}

// A step's fragments are stored as the changes from the step before (viewer.changes).
function fullSteps(stored) {
  let now = [];
  return stored.map((c) => {
    if (c[0] === -1) now = c.slice(1);
    else {
      now = now.slice();
      for (let k = 0; k < c.length; k += 2) now[c[k]] = c[k + 1];
    }
    return now;
  });
}

async function unpack(i) {
  if (fragments === null) fragments = await unpacked(DATA.fragments);
  if (!cache[i]) {
    const g = await unpacked(DATA.packed[i]);
    g.publics = fullSteps(g.publics);
    g.hands = g.hands.map(fullSteps);
    cache[i] = g;
  }
  return cache[i];
}

// The view chosen: "all" (every hand, the whole game), "none" (a spectator) or a
// seat's number.  A seat or a spectator sees what it was told, up to the step shown.
const seatView = () => el("view").value !== "all";

// A step's log lines in the view chosen (a seat's own draws, not the others').
function linesFor(s, g) {
  const v = el("view").value;
  if (!s.views || v === "all") return s.lines;
  return s.views[v === "none" ? g.names.length : Number(v)];
}

function buildLog(g) {
  const log = el("log");
  log.replaceChildren();
  g.steps.forEach((s, i) => {
    const items = logItems({...s, lines: linesFor(s, g)}, g.names);
    for (const item of items) item.dataset.step = i;
    items[0].addEventListener("click", () => show(i));
    log.append(...items);
  });
  const marks = el("faultmarks");
  marks.replaceChildren();
  g.steps.forEach((s, i) => {
    if (!s.fault) return;
    const m = document.createElement("span");
    m.style.left = `calc(${(100 * i) / Math.max(1, g.steps.length - 1)}% - 2px)`;
    m.title = `fault at decision ${s.decision}`;
    marks.append(m);
  });
}

function viewOptions(g) {
  const view = el("view");
  const keep = view.value;
  view.replaceChildren(new Option("every hand", "all"), new Option("spectator", "none"));
  g.names.forEach((n, k) => view.append(new Option(`seat ${k} (${n})`, String(k))));
  view.value = [...view.options].some((o) => o.value === keep) ? keep : "all";
}

function picture(i) {
  if (game.document === null) return "";
  const v = el("view").value;
  const f = (k) => fragments[k];
  const hand = (seat) => game.hands[seat][i].map(f).join("");
  let hands = "";
  if (v === "all") hands = game.hands.map((_, seat) => hand(seat)).join("");
  else if (v !== "none") hands = hand(Number(v));
  const body = f(game.board) + game.publics[i].map(f).join("") + hands;
  const mark = game.marks[i] === null || game.marks[i] === undefined ? "" : f(game.marks[i]);
  return overlaid(f(game.document).replace("@@BODY@@", () => body), {"last-move": mark});
}

function show(i) {
  if (!game) return;
  step = Math.max(0, Math.min(game.steps.length - 1, i));
  const s = game.steps[step];
  el("slider").value = step;
  el("step-label").textContent = `decision ${s.decision} of ${game.steps.length - 1}`;
  el("picture").innerHTML = picture(step);
  splitAreas(el("picture"));
  const now = el("now");
  const who = s.seat === null ? "" : `seat ${s.seat} (${game.names[s.seat]})${s.told ? " " : ": "}`;
  now.textContent = `${who}${s.text} — scores ${s.scores.join(", ")}`;
  now.className = s.fault ? "fault" : "";
  const limited = seatView(), last = step === game.steps.length - 1;
  for (const li of el("log").children) li.hidden = limited && Number(li.dataset.step) > step;
  el("faultmarks").hidden = el("final").hidden = limited && !last;  // no future in a seat's view
  for (const li of el("log").querySelectorAll("li.current")) li.classList.remove("current");
  const item = el("log").querySelector(`li[data-step="${step}"]`);
  if (item) {
    item.classList.add("current");
    item.scrollIntoView({block: "nearest"});
  }
  if (step === game.steps.length - 1) pause();
}

function pause() {
  if (timer !== null) clearInterval(timer);
  timer = null;
  el("play").textContent = "play";
}

function play() {
  if (timer !== null) return pause();
  if (step >= game.steps.length - 1) show(0);
  el("play").textContent = "pause";
  timer = setInterval(() => show(step + 1), Number(el("speed").value));
}

async function choose(i) {
  pause();
  document.body.dataset.ready = "";
  game = await unpack(i);
  el("title").textContent = game.title;
  el("slider").max = game.steps.length - 1;
  viewOptions(game);
  buildLog(game);
  finalTable(game.names, game.sources, game.result);
  showLegend(game.legend.map((pair) => pair.map((k) => fragments[k])));
  show(0);
  document.body.dataset.ready = "1";
}

const picker = el("game");
DATA.index.forEach((g, i) => picker.append(new Option(`${i + 1}: ${g.record} — ${g.names.join(", ")}`, i)));
if (DATA.index.length < 2) el("game-choice").hidden = true;
picker.addEventListener("change", () => choose(Number(picker.value)));
el("slider").addEventListener("input", (e) => show(Number(e.target.value)));
el("view").addEventListener("change", () => { buildLog(game); show(step); });
el("play").addEventListener("click", play);
el("prev").addEventListener("click", () => show(step - 1));
el("next").addEventListener("click", () => show(step + 1));
el("first").addEventListener("click", () => show(0));
el("last").addEventListener("click", () => show(game.steps.length - 1));
el("speed").addEventListener("change", () => { if (timer !== null) { pause(); play(); } });
document.addEventListener("keydown", (e) => {
  if (e.target instanceof HTMLSelectElement || !game) return;
  const moves = {ArrowLeft: -1, ArrowRight: 1, ArrowUp: -10, ArrowDown: 10};
  if (e.key in moves) { pause(); show(step + moves[e.key]); e.preventDefault(); }
  else if (e.key === "Home") show(0);
  else if (e.key === "End") show(game.steps.length - 1);
  else if (e.key === " ") { play(); e.preventDefault(); }
});
window.addEventListener("resize", () => { if (game) show(step); });
choose(0);
