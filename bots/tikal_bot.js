#!/usr/bin/env node
// A Tikal bot in Node.js, no npm packages: a rule-of-thumb player that reads the
// view of protocol/README.md ("Tikal") and ranks the legal actions.
//
// Run it in a match:   tajmahal match --game tikal bots/tikal_bot.js greedy random
//
// Its rules of thumb, best first: dig up treasure; uncover temples it leads;
// guard a valuable temple it leads; walk figures onto temples and treasure where
// it does not lead yet; bring figures into play; end the turn.  It places tiles
// next to its figures, never bids more than 1, and takes the first revealed tile.
"use strict";

const readline = require("node:readline");

const PROTOCOL_VERSION = 1;
let seat = 0;
let setup = null; // the hello's static setup: board, tiles, ...

let seed = 1; // mulberry32: reproducible from the referee's seed
function random() {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

function send(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

// Strength of a seat on a space: workers 1, the leader 3 (rule T41).
function strength(view, space, who) {
  const leader = view.players[who].leader === space ? setup.leader_strength : 0;
  return view.workers[space][who] + leader;
}

function leads(view, space) {
  const mine = strength(view, space, seat);
  return mine > 0 && view.players.every((_, o) => o === seat || strength(view, space, o) < mine);
}

function worth(view, action) {
  const space = (i) => view.spaces[i];
  switch (action.type) {
    case "dig":
      return 10;
    case "uncover":
      return leads(view, action.space) ? 8 : 2;
    case "guard":
      return space(action.space).value >= 5 ? 9 : -1;
    case "move": {
      const target = space(action.target);
      if (target.kind === "temple" && target.guard === null && !leads(view, action.target)) return 6;
      if (target.tokens > 0) return 7;
      if (space(action.origin).kind === "base" || space(action.origin).kind === "jungle") return 1;
      return -1;
    }
    case "enter":
      return action.leader ? 5 : 4;
    case "place": {
      // next to the most of our figures
      const near = setup.board.neighbours[action.space].filter(
        (n) => n !== null && view.workers[n][seat] > 0).length;
      return near;
    }
    case "end_turn":
    case "pass":
      return 0;
    case "bid":
      return action.amount === 1 ? 0.5 : -1;
    default:
      return -2; // camp moves, camps, exchanges: not in this bot's repertoire
  }
}

function choose(message) {
  const view = message.view;
  let best = 0;
  let bestWorth = -Infinity;
  message.legal.forEach((action, i) => {
    const value = worth(view, action) + random() * 0.01;
    if (value > bestWorth) {
      best = i;
      bestWorth = value;
    }
  });
  return best;
}

const input = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });

input.on("line", (line) => {
  const message = JSON.parse(line);
  switch (message.type) {
    case "hello":
      seed = message.seed | 0;
      seat = message.seat;
      setup = message.setup;
      send({ type: "hello", name: "tikal_bot.js", version: "1.0", protocol_version: PROTOCOL_VERSION });
      break;
    case "act":
      send({ type: "action", choice: choose(message) });
      break;
    case "error":
      console.error(`the referee says: ${message.message}`);
      break;
    default: // "events" and "end" need no answer
      break;
  }
});
