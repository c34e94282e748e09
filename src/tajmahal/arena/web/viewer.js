"use strict";
const DATA = JSON.parse(document.getElementById("data").textContent);
const el = (id) => document.getElementById(id);
let game = null, step = 0, timer = null;
const cache = {};

async function unpack(i) {
  if (cache[i]) return cache[i];
  const bytes = Uint8Array.from(atob(DATA.packed[i]), (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  cache[i] = JSON.parse(await new Response(stream).text());
  return cache[i];
}

function text(tag, content, cls) {
  const node = document.createElement(tag);
  node.textContent = content;
  if (cls) node.className = cls;
  return node;
}

function finalTable(g) {
  const table = el("final-table");
  table.replaceChildren();
  const head = document.createElement("tr");
  for (const h of ["seat", "player", ...g.sources, "total", "rank"])
    head.append(text("th", h, h === "player" ? "name" : ""));
  table.append(head);
  g.names.forEach((name, seat) => {
    const row = document.createElement("tr");
    row.dataset.seat = seat;
    row.append(text("td", seat), text("td", name, "name"));
    for (const s of g.sources) row.append(text("td", g.result.breakdown[seat][s] ?? 0));
    row.append(text("td", g.result.scores[seat], "total"), text("td", g.result.ranks[seat], "rank"));
    table.append(row);
  });
  const faults = el("faults");
  faults.replaceChildren();
  for (const f of g.result.faults)
    faults.append(text("li", `seat ${f.seat} (${g.names[f.seat]}) ${f.kind} at decision ${f.decision}: ${f.detail}`));
}

function buildLog(g) {
  const log = el("log");
  log.replaceChildren();
  g.steps.forEach((s, i) => {
    const item = document.createElement("li");
    item.value = s.decision;
    item.dataset.step = i;
    const who = s.seat === null ? "" : `${g.names[s.seat]}: `;
    item.append(text("span", who + s.text + (s.by === "fallback" ? " [fallback]" : "")));
    if (s.fault) {
      item.classList.add("fault");
      item.prepend(text("span", `!! seat ${s.fault.seat} ${s.fault.kind}: ${s.fault.detail} — `));
    }
    const more = s.lines.filter((l) => !l.startsWith("# "));
    const heads = s.lines.filter((l) => l.startsWith("# "));
    for (const h of heads) log.append(text("li", h.slice(2), "head"));
    if (more.length) {
      const div = text("div", more.join("; "), "more");
      item.append(div);
    }
    item.addEventListener("click", () => show(i));
    log.append(item);
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
  if (!game.document) return "";
  const v = el("view").value;
  let hands = "";
  if (v === "all") hands = game.hands.map((h) => h[i]).join("");
  else if (v !== "none") hands = game.hands[Number(v)][i];
  return game.document.replace("@@BODY@@", () => game.board + game.publics[i] + hands);
}

function show(i) {
  if (!game) return;
  step = Math.max(0, Math.min(game.steps.length - 1, i));
  const s = game.steps[step];
  el("slider").value = step;
  el("step-label").textContent = `decision ${s.decision} of ${game.steps.length - 1}`;
  el("picture").innerHTML = picture(step);
  const now = el("now");
  const who = s.seat === null ? "" : `seat ${s.seat} (${game.names[s.seat]}): `;
  now.textContent = `${who}${s.text} — scores ${s.scores.join(", ")}`;
  now.className = s.fault ? "fault" : "";
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
  game = await unpack(i);
  el("title").textContent = game.title;
  el("slider").max = game.steps.length - 1;
  viewOptions(game);
  buildLog(game);
  finalTable(game);
  show(0);
  document.body.dataset.ready = "1";
}

const picker = el("game");
DATA.index.forEach((g, i) => picker.append(new Option(`${i + 1}: ${g.record} — ${g.names.join(", ")}`, i)));
if (DATA.index.length < 2) el("game-choice").hidden = true;
picker.addEventListener("change", () => choose(Number(picker.value)));
el("slider").addEventListener("input", (e) => show(Number(e.target.value)));
el("view").addEventListener("change", () => show(step));
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
choose(0);
