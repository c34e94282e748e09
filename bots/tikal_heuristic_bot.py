#!/usr/bin/env python3
"""A one-ply Tikal bot: it tries each legal action on a copy of its view and keeps
the one after which its position looks best.  Standard library only, written from
protocol/README.md ("Tikal") and the rules (docs/tikal-rules.md).

Run it in a match:   tajmahal match --game tikal bots/tikal_heuristic_bot.py mcts

A position is worth, for a seat, its points so far plus what it would score at
each scoring round still to come (one per volcano left, and the final one) if
the board stayed as it is: the temples it guards (sure), those where it has the
most strength (less sure: they can be taken), and its treasures (1, 3, 6 points
for one, two, three of a kind).  Small terms reward figures in play, figures near
temples and treasure, and camps.  The bot plays for the difference between its
worth and the best rival's.

It places a tile where it is worth most by the same measure (temples and treasure
near its own figures), bids for a revealed temple or treasure only while the price
is small, and chooses the revealed tile worth most to it.
"""

import heapq
import json
import random
import sys

PROTOCOL_VERSION = 1
TREASURE_POINTS = (0, 1, 3, 6)
COSTS = {"enter": 1, "camp_move": 1, "uncover": 2, "dig": 3, "exchange": 3,
         "build_camp": 5, "guard": 5}
LED = 0.6  # a temple led now scores in a round to come this often
IN_PLAY = 0.4  # a figure on the board
NEAR = 0.15  # per point of a target, falling with the AP it takes to walk there
CAMP = 1.0


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


class Bot:
    def __init__(self, hello):
        self.seat = hello["seat"]
        self.setup = hello["setup"]
        self.neighbours = self.setup["board"]["neighbours"]
        self.rng = random.Random(hello["seed"])

    # ------------------------------------------------------------ reading the view

    def strength(self, v, space, who):
        lead = self.setup["leader_strength"] if v["players"][who]["leader"] == space else 0
        return v["workers"][space][who] + lead

    def rounds_left(self, v, who):
        """Scoring rounds still to come for ``who``: one per volcano not yet on the
        board, the final one, and the round under way if it has not scored in it."""
        volcanoes = {t["id"] for t in self.setup["tiles"] if t["kind"] == "volcano"}
        seen = {s["tile"] for s in v["spaces"] if s is not None} | {v["tile"]}
        rounds = 1
        if v["round"] is not None:
            seen.add(v["round"]["volcano"])
            if v["round"]["volcano"] is None:  # the final round: only those still to score
                rounds = 0
            rounds += who in v["round"]["order"]
        return rounds + len(volcanoes - seen)

    def distances(self, v, starts):
        """AP to walk from the nearest of ``starts`` to every explored space
        (Dijkstra over the stones of each border)."""
        dist = {s: 0 for s in starts}
        heap = [(0, s) for s in dist]
        while heap:
            d, here = heapq.heappop(heap)
            if d > dist[here]:
                continue
            for direction, n in enumerate(self.neighbours[here]):
                if n is None or v["spaces"][n] is None or v["spaces"][n]["kind"] == "volcano":
                    continue
                cost = v["spaces"][here]["stones"][direction] + \
                    v["spaces"][n]["stones"][(direction + 3) % 6]
                if cost and d + cost < dist.get(n, 99):
                    dist[n] = d + cost
                    heapq.heappush(heap, (d + cost, n))
        return dist

    def worth(self, v, who):
        rounds = self.rounds_left(v, who)
        p = v["players"][who]
        now = p["temple_points"] + p["treasure_points"] + p["capital"]
        sure = sum(TREASURE_POINTS[n] for n in p["treasures"]) + p.get("found", 0.0)
        likely = 0.0
        targets = []
        for i, s in enumerate(v["spaces"]):
            if s is None:
                continue
            if s["kind"] == "temple":
                if s["guard"] is not None:
                    sure += s["value"] if s["guard"] == who else 0
                    continue
                mine = self.strength(v, i, who)
                best = max(self.strength(v, i, o) for o in range(len(v["players"])) if o != who)
                if mine > best:
                    likely += s["value"]
                else:
                    targets.append((i, s["value"]))
            elif s["tokens"]:
                targets.append((i, 1.5 * s["tokens"]))
        figures = [i for i, row in enumerate(v["workers"]) for _ in range(row[who])]
        if p["leader"] >= 0:
            figures.append(p["leader"])
        reach = self.distances(v, set(figures))
        near = sum(value / (1 + reach.get(space, 99)) for space, value in targets)
        return (now + rounds * (sure + LED * likely) + IN_PLAY * len(figures)
                + NEAR * near + CAMP * len(p["camps"]))

    def score(self, v):
        mine = self.worth(v, self.seat)
        return mine - max(self.worth(v, o) for o in range(len(v["players"])) if o != self.seat)

    # ------------------------------------------------------------ trying an action

    def after(self, v, a):
        """A copy of the view after action ``a`` of this seat (what can be known of it)."""
        v = json.loads(json.dumps(v))
        me = v["players"][self.seat]
        kind = a["type"]
        v["ap"] -= COSTS.get(kind, 0)
        if kind == "enter":
            if a["leader"]:
                me["leader"] = a["space"]
            else:
                me["reserve"] -= 1
                v["workers"][a["space"]][self.seat] += 1
        elif kind in ("move", "camp_move"):
            if a["leader"]:
                me["leader"] = a["target"]
            else:
                v["workers"][a["origin"]][self.seat] -= 1
                v["workers"][a["target"]][self.seat] += 1
        elif kind == "uncover":
            v["spaces"][a["space"]]["value"] += 1
        elif kind == "dig":
            v["spaces"][a["space"]]["tokens"] -= 1
            me["found"] = me.get("found", 0.0) + self.expected_find(v, me["treasures"])
        elif kind == "exchange":
            other = v["players"][a["seat"]]
            me["treasures"][a["give"]] -= 1
            me["treasures"][a["take"]] += 1
            other["treasures"][a["take"]] -= 1
            other["treasures"][a["give"]] += 1
        elif kind == "build_camp":
            me["camps"].append(a["space"])
            v["spaces"][a["space"]]["camp"] = self.seat
        elif kind == "guard":
            space = v["spaces"][a["space"]]
            space["guard"] = self.seat
            v["workers"][a["space"]][self.seat] = 0
            if me["leader"] == a["space"]:
                me["leader"] = -2
        return v

    def expected_find(self, v, held):
        """What a dug token adds to the seat's treasure points, on average: its type
        is one of the copies nobody holds yet, each as likely."""
        copies = self.setup["treasure_copies"]
        hidden = [copies - sum(p["treasures"][t] for p in v["players"]) for t in range(len(held))]
        total = sum(hidden) or 1
        return sum(h / total * (TREASURE_POINTS[min(held[t] + 1, 3)] - TREASURE_POINTS[held[t]])
                   for t, h in enumerate(hidden))

    # ------------------------------------------------------------ placing a tile

    def place_value(self, v, a):
        tile = self.setup["tiles"][v["tile"]]
        here = a["space"]
        mine = others = 0.0
        for n in self.neighbours[here]:
            if n is None or v["spaces"][n] is None:
                continue
            for who in range(len(v["players"])):
                figures = self.strength(v, n, who)
                if who == self.seat:
                    mine += figures
                else:
                    others += figures
        worth = tile.get("value", 0) + tile.get("masks", 0)
        if tile["kind"] == "volcano":  # a volcano in the way of the others
            return others - mine
        stones = sum(v["spaces"][n]["stones"][(d + 3) % 6]
                     for d, n in enumerate(self.neighbours[here])
                     if n is not None and v["spaces"][n] is not None)
        return worth * (mine - others) + 0.1 * stones + self.rng.random() * 0.01

    # ------------------------------------------------------------ choosing

    def choose(self, message):
        v, legal = message["view"], message["legal"]
        if len(legal) == 1:
            return 0
        phase = v["phase"]
        if phase == "place":
            return max(range(len(legal)), key=lambda i: self.place_value(v, legal[i]))
        if phase == "choose":
            tiles = self.setup["tiles"]
            return max(range(len(legal)), key=lambda i: (
                tiles[legal[i]["tile"]].get("value", 0) + tiles[legal[i]["tile"]].get("masks", 0)))
        if phase == "bid":
            tiles = [self.setup["tiles"][t] for t in v["auction"]["display"]]
            prize = max(t.get("value", 0) + t.get("masks", 0) for t in tiles)
            for i, a in enumerate(legal):
                if a["type"] == "bid" and a["amount"] <= prize // 2:
                    return i
            return len(legal) - 1  # pass
        best, choice = None, len(legal) - 1
        base = self.score(v)
        for i, a in enumerate(legal):
            value = base if a["type"] == "end_turn" else self.score(self.after(v, a))
            value += self.rng.random() * 1e-6
            if best is None or value > best:
                best, choice = value, i
        return choice


def main():
    bot = None
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "hello":
            bot = Bot(message)
            send({"type": "hello", "name": "tikal_heuristic_bot.py", "version": "1.0",
                  "protocol_version": PROTOCOL_VERSION})
        elif message["type"] == "act":
            send({"type": "action", "choice": bot.choose(message)})
        elif message["type"] == "error":
            print(f"the referee says: {message['message']}", file=sys.stderr)


if __name__ == "__main__":
    main()
