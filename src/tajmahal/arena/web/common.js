"use strict";
// Shared by the replay viewer and the browser game: the log, the final table, the
// legend, and the picture with what is drawn over it (a preview, the last move).
const el = (id) => document.getElementById(id);

function text(tag, content, cls) {
  const node = document.createElement(tag);
  node.textContent = content;
  if (cls) node.className = cls;
  return node;
}

// The log items of one step: the action, the lines of what it caused under it, and
// each "# " line as a heading of its own AFTER the action that caused it (a new
// visit begins when the last player of the old one has withdrawn), with the lines
// that follow it under it.
function logItems(entry, names) {
  const item = document.createElement("li");
  item.value = entry.decision;
  item.className = "action";
  if (entry.part) item.classList.add("part");  // an action's first decision: told in full at its last
  // an action told by what it caused ("told") reads "alice withdraws and wins ..."
  const who = entry.seat === null || entry.seat === undefined ? ""
    : `${names[entry.seat]}${entry.told ? " " : ": "}`;
  item.append(text("span", who + entry.text + (entry.by === "fallback" ? " [fallback]" : ""), "what"));
  if (entry.fault) {
    item.classList.add("fault");
    item.prepend(text("span", `!! seat ${entry.fault.seat} ${entry.fault.kind}: ${entry.fault.detail} — `));
  }
  const items = [item];
  let holder = item, box = null;
  for (const line of entry.lines || []) {
    if (line.startsWith("# ")) {
      holder = text("li", line.slice(2), "head");
      items.push(holder);
      box = null;
      continue;
    }
    if (!box) {
      box = text("div", "", "more");
      holder.append(box);
    }
    box.append(text("div", line, "event"));
  }
  return items;
}

function finalTable(names, sources, result) {
  const table = el("final-table");
  table.replaceChildren();
  const head = document.createElement("tr");
  for (const h of ["seat", "player", ...sources, "total", "rank"])
    head.append(text("th", h, h === "player" ? "name" : ""));
  table.append(head);
  names.forEach((name, seat) => {
    const row = document.createElement("tr");
    row.dataset.seat = seat;
    row.append(text("td", seat), text("td", name, "name"));
    for (const s of sources) row.append(text("td", result.breakdown[seat][s] ?? 0));
    row.append(text("td", result.scores[seat], "total"), text("td", result.ranks[seat], "rank"));
    table.append(row);
  });
  const faults = el("faults");
  faults.replaceChildren();
  for (const f of result.faults) {
    const at = f.decision === undefined ? "" : ` at decision ${f.decision}`;
    faults.append(text("li", `seat ${f.seat} (${names[f.seat]}) ${f.kind}${at}: ${f.detail}`));
  }
}

// The legend: each symbol (an SVG fragment of the game's pictures) and its meaning.
function showLegend(items) {
  const box = el("legend");
  box.replaceChildren();
  el("legend-box").hidden = !items || !items.length;
  for (const [symbol, meaning] of items || []) {
    const key = text("div", "", "key");
    key.innerHTML = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 28 28" width="28" height="28">${symbol}</svg>`;
    key.append(text("span", meaning));
    box.append(key);
  }
}

// An SVG document with groups drawn over everything (class name -> fragment).
function overlaid(svg, over) {
  const end = svg.lastIndexOf("</svg>");
  if (end < 0) return svg;
  let extra = "";
  for (const [cls, fragment] of Object.entries(over)) {
    if (fragment) extra += `<g class="${cls}" pointer-events="none">${fragment}</g>`;
  }
  return svg.slice(0, end) + extra + svg.slice(end);
}

// 1st, 2nd, 3rd, 4th ...
function ordinal(n) {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  return n + (teen ? "th" : ({1: "st", 2: "nd", 3: "rd"}[n % 10] || "th"));
}

// The words of the end of a game: a head (where the person, or each person,
// finished; else who won), a line naming the winner(s), and the seats by rank.
function standings(names, result, humans) {
  const n = names.length;
  const order = names.map((_, k) => k).sort((a, b) => result.ranks[a] - result.ranks[b] || a - b);
  const winners = order.filter((k) => result.ranks[k] === 1);
  const best = result.scores[winners[0]];
  const points = (p) => `${p} point${p === 1 ? "" : "s"}`;
  const line = winners.length === 1
    ? `${names[winners[0]]} wins with ${points(best)}`
    : `${winners.map((k) => names[k]).join(" and ")} share the win with ${points(best)}`;
  const shared = (seat) => order.filter((k) => result.ranks[k] === result.ranks[seat]).length > 1;
  const place = (seat) => `${ordinal(result.ranks[seat])}${shared(seat) ? " (shared)" : ""} of ${n}`;
  let head;
  if (humans.length === 1) {
    const you = humans[0];
    head = result.ranks[you] === 1 && !shared(you) ? `You won! 1st of ${n}` : `You finished ${place(you)}`;
  } else if (humans.length > 1) {
    head = humans.map((k) => `${names[k]} finished ${place(k)}`).join("; ");
  } else head = line;
  return {head, line, order};
}

// On a narrow screen (a phone), a picture whose root names its areas (the board,
// the panel: data-areas="x y w h|x y w h") is shown as one copy per area, one under
// another, each across the screen.  Each part with an id stays in the one copy
// whose area holds its centre (it would be out of sight in the others), so that
// every id is found once.
const NARROW = 600;
function splitAreas(box) {
  const svg = box.querySelector(":scope > svg");
  const areas = svg && svg.dataset.areas;
  box.classList.remove("split");
  if (!areas || box.clientWidth >= NARROW) return;
  const boxes = areas.split("|").map((a) => a.trim().split(/\s+/).map(Number));
  const copies = boxes.map((b, k) => {
    const copy = k ? svg.cloneNode(true) : svg;
    copy.setAttribute("viewBox", b.join(" "));
    copy.setAttribute("width", b[2]);
    copy.setAttribute("height", b[3]);
    copy.removeAttribute("data-areas");
    if (k) box.append(copy);
    return copy;
  });
  box.classList.add("split");
  const home = (node, svg) => {  // the area holding the part's centre
    const b = node.getBBox(), m = svg.getScreenCTM().inverse().multiply(node.getScreenCTM());
    const x = m.a * (b.x + b.width / 2) + m.c * (b.y + b.height / 2) + m.e;
    const y = m.b * (b.x + b.width / 2) + m.d * (b.y + b.height / 2) + m.f;
    const k = boxes.findIndex(([l, t, w, h]) => x >= l && x < l + w && y >= t && y < t + h);
    return k < 0 ? 0 : k;
  };
  copies.forEach((copy, k) => {
    for (const node of copy.querySelectorAll("[id]")) {
      if (!node.isConnected || node.closest("defs") || !node.getBBox) continue;
      if (home(node, copy) !== k) node.remove();
    }
  });
}
