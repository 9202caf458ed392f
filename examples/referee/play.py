#!/usr/bin/env python3
"""Two bots play a game of Hangover through `shinpan referee`, then `shinpan check` judges it.

The first bot plays the first legal event, the second a random one; chance moves (the deal)
are the referee's, drawn with `draw`. Only the standard library is used.

    python3 examples/referee/play.py [--shinpan PATH] [--out game.yaml] [--seed N]
"""

import argparse
import json
import random
import subprocess
import sys


class Referee:
    """A `shinpan referee` process: one request line in, one reply line out."""

    def __init__(self, shinpan):
        self.process = subprocess.Popen(
            [shinpan, "referee"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        self.asked = 0

    def ask(self, op, **fields):
        self.asked += 1
        request = {"id": self.asked, "op": op, **fields}
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        reply = json.loads(self.process.stdout.readline())
        if not reply["ok"]:
            raise RuntimeError(f"{op} was not done: {json.dumps(reply)}")
        return reply

    def close(self):
        self.process.stdin.close()
        return self.process.wait()


def first_legal(events, rng):
    return events[0]


def random_legal(events, rng):
    return rng.choice(events)


def play(referee, seed):
    """Plays one game to its end: the game's id."""
    opened = referee.ask("new", rules="hangover", players=["ada", "bo", "cy"], seed=seed)
    game, legal = opened["game"], opened["legal"]
    bots = {"ada": first_legal, "bo": random_legal, "cy": first_legal}
    rng = random.Random(seed)
    while True:
        # Several players may be to move at once (each arranges their snacks): the first listed
        # moves. The table's events (the deal, a score record) are the referee's to draw.
        moves = [l for l in legal if l["by"] in bots and not l["chance"]]
        if moves:
            mover = moves[0]["by"]
            mine = [l["event"] for l in moves if l["by"] == mover]
            referee.ask("apply", game=game, event=bots[mover](mine, rng))
        elif referee.ask("draw", game=game)["event"] is None:
            break
        legal = referee.ask("legal", game=game)["legal"]
    return game


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shinpan", default="shinpan", help="the shinpan binary")
    parser.add_argument("--out", default="game.yaml", help="where the transcript is written")
    parser.add_argument("--seed", type=int, default=1, help="seeds the deal and the random bot")
    args = parser.parse_args()

    referee = Referee(args.shinpan)
    game = play(referee, args.seed)
    verdict = referee.ask("verdict", game=game)["verdict"]
    print(f"scores {verdict['scores']}, winners {verdict['winners']}")
    with open(args.out, "w", encoding="utf-8") as out:
        out.write(referee.ask("transcript", game=game)["transcript"])
    referee.ask("close", game=game)
    if referee.close() != 0:
        sys.exit("the referee did not end well")

    checked = subprocess.run([args.shinpan, "check", "--format", "human", args.out])
    print(f"shinpan check {args.out}: exit {checked.returncode}")
    sys.exit(checked.returncode)


if __name__ == "__main__":
    main()
