#!/usr/bin/env node
// A random bot in Node.js, no npm packages: plays a random legal action.
//
// Run it in a match:   tajmahal match bots/random_bot.js random random random
//
// The referee writes one JSON object per line on our stdin; we answer "hello"
// with our name and protocol version, and "act" with the index of one of the
// actions listed under "legal".  "events", "end" and "error" need no answer.
// stderr (console.error) goes to our log file; stdout is for protocol lines only.
"use strict";

const readline = require("node:readline");

const PROTOCOL_VERSION = 1;

// A small seeded generator (mulberry32), so a match can be replayed exactly.
let seed = 1;
function random() {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

function send(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

const input = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });

input.on("line", (line) => {
  const message = JSON.parse(line);
  switch (message.type) {
    case "hello":
      seed = message.seed | 0;
      send({ type: "hello", name: "random_bot.js", version: "1.0", protocol_version: PROTOCOL_VERSION });
      break;
    case "act":
      send({ type: "action", choice: Math.floor(random() * message.legal.length) });
      break;
    case "error":
      console.error(`the referee says: ${message.message}`);
      break;
    default: // "events" and "end": nothing to answer
      break;
  }
});

// The referee closes our stdin after the "end" message: exit then.
input.on("close", () => process.exit(0));
