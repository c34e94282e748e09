#!/usr/bin/env python3
"""A Java bot from the protocol alone: rules of thumb scoring each legal action on
the view (one ply, no search).  Standard library only.

Run it in a match:   tajmahal match --game java bots/java_bot.py mcts

What it knows comes from protocol/README.md ("Java"): the hello's board (positions,
neighbours, edge costs) and cards, and each act's view and legal actions.  An action
is made of up to three decisions (what, where, how); this bot scores the choices of
each decision by what it sees:

- what: a palace it may build or extend first, then a festival it can win, the
  land tile its turn owes (the big ones first), figures onto the board while it
  has few there, walks where a figure gains by a step, festival cards while its
  hand is small; never water;
- where: a tile next to its own figures and away from the others', up high;
  figures onto high ground, into villages where they would lead; the walk that
  gains most height, into a village it would lead;
- how: the tile's shape with most spaces next to its figures and none off the
  grid; the highest palace value;
- festival bids: its card with most required symbols while it does not lead, in
  palaces of 4 or more.
"""

import json
import random
import sys

PROTOCOL_VERSION = 1
RICE, VILLAGE, WATER = 1, 2, 3


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


class Bot:
    def __init__(self, seat, setup, rng):
        self.seat = seat
        self.rng = rng
        board = setup["board"]
        self.neighbours = board["neighbours"]
        self.grid = board["grid_size"]
        self.edge = board["edge_cost"]
        self.cards = setup["cards"]

    # -- what the view says

    def area(self, v, start):
        """The village (connected village positions) around ``start``."""
        seen, todo = {start}, [start]
        while todo:
            p = todo.pop()
            for q in self.neighbours[p]:
                if q not in seen and v["terrain"][q] == VILLAGE:
                    seen.add(q)
                    todo.append(q)
        return seen

    def levels(self, v, area, moved=None):
        """Each seat's figure levels in ``area``, highest first (``moved``: one of
        ours walked from one position to another)."""
        out = [[] for _ in v["players"]]
        for p in area:
            seat = v["figures"][p]
            if moved and p == moved[0]:
                seat = -1
            if moved and p == moved[1]:
                seat = self.seat
            if seat >= 0:
                out[seat].append(v["height"][p])
        return [sorted(x, reverse=True) for x in out]

    def leads(self, v, area, moved=None):
        lv = self.levels(v, area, moved)
        mine = lv[self.seat]
        return bool(mine) and all(mine > lv[s] for s in range(len(lv)) if s != self.seat)

    def next_to(self, v, p, mine):
        return sum(1 for q in self.neighbours[p]
                   if (v["figures"][q] == self.seat) == mine and v["figures"][q] >= 0)

    def symbols(self, card, required):
        return sum(1 for s in self.cards[card] if s in required)

    # -- scoring the choices

    def score(self, v, action):
        kind = action["type"]
        pending = v["pending"]
        if kind == "select":
            what = pending["action"]["type"]
            if v["phase"] == "target":
                return self.walk_target(v, pending["position"], action["position"])
            return self.where(v, what, action["position"])
        if kind == "shape":
            return self.shape(v, action["cells"])
        if kind == "value":
            return action["value"]
        return self.what(v, action)

    def what(self, v, action):
        kind = action["type"]
        turn = v["turn"]
        mine_on_board = sum(1 for s in v["figures"] if s == self.seat)
        if kind == "build_palace":
            return 100
        if kind == "extend_palace":
            return 90
        if kind == "hold_festival":
            required = self.cards[v["display"]]
            mine = sum(self.symbols(c, required) for c in v["hand"])
            rivals = max(n for s, n in enumerate(v["hands"]) if s != self.seat)
            return 60 if mine > rivals else 5
        if kind == "use_token":
            return 50
        if kind == "place_land":
            owed = 30 if not turn["land"] else 0
            return owed + {"three": 12, "two": 10, "village": 4, "rice": 3}[action["tile"]]
        if kind == "deploy":
            return 25 if mine_on_board < 5 else 6
        if kind == "move":  # only when a figure can step somewhere better
            walked = turn["walked"]
            gains = [self.best_step(v, p) for p, s in enumerate(v["figures"])
                     if s == self.seat and p not in walked]
            return 20 if max(gains, default=0) > 2 else -1
        if kind == "take_card":
            small = len(v["hand"]) < 4
            return (15 if small else 4) + (1 if action["display"] else 0)
        if kind == "withdraw":
            return -5
        if kind == "place_water":
            return -2
        return 0  # end_turn

    def where(self, v, what, p):
        height = v["height"][p]
        if what == "place_land":
            own, other = self.next_to(v, p, True), self.next_to(v, p, False)
            return 3 * own - 2 * other + height - (5 if p >= self.grid else 0)
        if what == "deploy":
            village = v["terrain"][p] == VILLAGE
            gain = 4 if village and self.leads(v, self.area(v, p), moved=(-1, p)) else 0
            return 2 * height + gain - self.edge[p]
        if what == "withdraw":
            return -v["height"][p]
        if what == "move":
            return self.best_step(v, p)
        if what == "build_palace":
            return -height  # keep the high ground for figures
        return v["palace"][p]  # extend_palace, hold_festival: the most valuable

    def best_step(self, v, origin):
        """What the figure on ``origin`` gains at best by one step to a free
        neighbour (the walk may go further; one step is the bot's guess)."""
        steps = [self.walk_target(v, origin, q) for q in self.neighbours[origin]
                 if v["terrain"][q] in (RICE, VILLAGE) and not v["palace"][q]
                 and v["figures"][q] < 0]
        return max(steps, default=0)

    def walk_target(self, v, origin, p):
        gain = 3 * (v["height"][p] - v["height"][origin])
        if v["terrain"][p] == VILLAGE and self.leads(v, self.area(v, p), moved=(origin, p)):
            gain += 8 + (4 if any(v["palace"][q] for q in self.area(v, p)) else 0)
        return gain

    def shape(self, v, cells):
        own = sum(self.next_to(v, p, True) for p in cells)
        other = sum(self.next_to(v, p, False) for p in cells)
        outside = sum(1 for p in cells if p >= self.grid)
        return 2 * own - other - 5 * outside + sum(v["height"][p] for p in cells)

    def bid(self, v, legal):
        f = v["festival"]
        counts = [sum(self.symbols(c, f["required"]) for c in cards) for cards in f["laid"]]
        me = f["bidders"].index(self.seat)
        others = max((n for i, n in enumerate(counts) if i != me), default=0)
        lays = [(self.symbols(a["card"], f["required"]), i)
                for i, a in enumerate(legal) if a["type"] == "lay"]
        opening = f["turn"] == 0 and not f["laid"][0]
        if lays and (opening or (counts[me] <= others and v["palace"][f["palace"]] >= 4)):
            return max(lays)[1]
        return len(legal) - 1  # done or pass

    def choose(self, v, legal):
        if v["phase"] == "festival":
            return self.bid(v, legal)
        scored = [(self.score(v, a) + self.rng.random() * 0.01, i) for i, a in enumerate(legal)]
        return max(scored)[1]


def main():
    rng = random.Random()
    bot = None
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            rng.seed(message["seed"])
            bot = Bot(message["seat"], message["setup"], rng)
            send({"type": "hello", "name": "java_bot.py", "version": "1.0",
                  "protocol_version": PROTOCOL_VERSION})
        elif kind == "act":
            send({"type": "action", "choice": bot.choose(message["view"], message["legal"])})
        elif kind == "error":
            print(f"the referee says: {message['message']}", file=sys.stderr)


if __name__ == "__main__":
    main()
