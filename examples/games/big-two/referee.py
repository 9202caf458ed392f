"""An independent referee for big-two.rules, written from the README's rules alone.

    shinpan play --rules examples/games/big-two/big-two.rules --players 4 --games 1000 > games.jsonl
    python3 referee.py < games.jsonl              # each game's scores, one line each
    python3 referee.py --mutate SHINPAN < games.jsonl

The first replays the games and checks every play and pass, the end and the scores (a game it
finds illegal stops it with the reason). `--mutate` changes one event of each game at random (a
pass where one plays, or a play of 1, 2, 3 or 5 random cards of the hand), judges the changed
game to that event here, and checks that `SHINPAN check` finds it illegal at that very event
exactly when this referee does (and legal otherwise).
"""

import json
import sys
from collections import Counter

RANKS = "3456789TJQKA2"
SUITS = "DCHS"


def rank(c):
    return RANKS.index(c[0]) + 3


def power(c):
    return rank(c) * 4 + SUITS.index(c[1])


def strength(cs):
    """None for cards that make no combination; else a comparable value within a size."""
    if len(cs) in (1, 2, 3):
        return max(map(power, cs)) if len({rank(c) for c in cs}) == 1 else None
    if len(cs) != 5:
        return None
    ranks = sorted(map(rank, cs))
    counts = sorted(Counter(ranks).values())
    flush = len({c[1] for c in cs}) == 1
    straight = counts == [1] * 5 and ranks[-1] - ranks[0] == 4
    main = Counter(ranks).most_common(1)[0][0]
    if straight and flush:
        return (5, max(map(power, cs)))
    if counts == [1, 4]:
        return (4, main)
    if counts == [2, 3]:
        return (3, main)
    if flush:
        return (2, max(map(power, cs)))
    if straight:
        return (1, max(map(power, cs)))
    return None


def referee(t, complete=True):
    players = t["players"]
    ev = t["events"]
    hands = {p: list(h) for p, h in ev[0]["deal"].items()}
    turn = next(p for p in players if "3D" in hands[p])
    to_beat, passes, first, winner = None, 0, True, None
    for e in ev[1:]:
        assert winner is None, "an event after the game ended"
        assert e["by"] == turn, f"{e['by']} acts, {turn} should"
        if "play" in e:
            cs = e["play"]
            assert all(c in hands[turn] for c in cs) and len(set(cs)) == len(cs), f"not held: {cs}"
            assert not first or "3D" in cs, "the first play lacks 3D"
            s = strength(cs)
            assert s is not None, f"no combination: {cs}"
            assert to_beat is None or (len(cs) == len(to_beat) and s > strength(to_beat)), f"{cs} does not beat {to_beat}"
            for c in cs:
                hands[turn].remove(c)
            to_beat, passes, first = cs, 0, False
            if not hands[turn]:
                winner = turn
                continue
        else:
            assert to_beat is not None, "the leader passed"
            passes += 1
        turn = players[(players.index(turn) + 1) % 4]
        if passes == 3:
            to_beat, passes = None, 0
    if not complete:
        return None
    assert winner is not None, "the game did not end"
    pays = {p: len(h) * (3 if len(h) == 13 else 2 if len(h) >= 10 else 1) for p, h in hands.items()}
    return {p: (sum(pays.values()) if p == winner else -pays[p]) for p in players}


def mutate(shinpan):
    import random
    import subprocess

    rng = random.Random(1)
    cases = []
    for line in sys.stdin:
        if not line.strip():
            continue
        t = json.loads(line)
        k = rng.randrange(1, len(t["events"]))
        hands = {p: list(h) for p, h in t["events"][0]["deal"].items()}
        for e in t["events"][1:k]:
            for c in e.get("play", []):
                hands[e["by"]].remove(c)
        by = t["events"][k]["by"]
        n = rng.choice([0, 1, 2, 3, 5])
        new = {"by": by, "pass": None} if n == 0 or n > len(hands[by]) else {"by": by, "play": rng.sample(hands[by], n)}
        u = dict(t, events=t["events"][:k] + [new])
        try:
            referee(u, complete=False)
            cases.append((u, None))
        except AssertionError:
            cases.append((u, k))
    lines = "".join(json.dumps(u) + "\n" for u, _ in cases)
    out = subprocess.run([shinpan, "check", "--stream", "-"], input=lines, capture_output=True, text=True).stdout
    bad = 0
    for (u, k), v in zip(cases, map(json.loads, out.splitlines())):
        got = v["violations"][0]["event"] if v["verdict"] == "illegal" else None
        if got != k:
            bad += 1
            print(f"disagree: referee {k}, shinpan {got}: {u['events'][-1]}")
    illegal = sum(1 for _, k in cases if k is not None)
    print(f"{len(cases)} changed games ({illegal} illegal, {len(cases) - illegal} still legal): {bad} disagreements")
    sys.exit(1 if bad else 0)


def main():
    if sys.argv[1:2] == ["--mutate"]:
        mutate(sys.argv[2])
        return
    games = 0
    for line in sys.stdin:
        if line.strip():
            t = json.loads(line)
            scores = referee(t)
            games += 1
            if "scores" in t:
                assert scores == t["scores"], (scores, t["scores"])
            else:
                print(json.dumps(scores))
    print(f"{games} games refereed", file=sys.stderr)


if __name__ == "__main__":
    main()
