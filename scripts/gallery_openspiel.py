"""The gallery's games against OpenSpiel (`pyspiel` from PyPI), an independent implementation.

    python scripts/gallery_openspiel.py --shinpan target/release/shinpan [--games N] [--seed S] [GAME...]

For each game of examples/games/ that OpenSpiel also implements, three checks:

  (a) N random OpenSpiel games (seeded), each converted to a shinpan transcript: shinpan must
      judge it legal and finished, with scores that give OpenSpiel's returns;
  (b) N `shinpan play` games, each converted to OpenSpiel's actions: OpenSpiel must list every
      action as legal where it comes, reach the end, and give the returns shinpan's scores give;
  (c) N single illegal moves: an OpenSpiel game played at random to a random decision point,
      where an action OpenSpiel rules illegal there is put in; converted, shinpan must judge the
      transcript illegal at exactly that event.

Exit 0 when every check agrees, 1 otherwise (each disagreement printed). The figures are printed
one line a game and check. The mapping between the two vocabularies is in each game's README.
"""

import argparse
import collections
import json
import random
import subprocess
import sys
from pathlib import Path

import pyspiel

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "examples" / "games"


# ---------------------------------------------------------------------------------- hearts
class Hearts:
    """OpenSpiel's `hearts` (default parameters) and examples/games/hearts/hearts.rules.

    OpenSpiel's actions: a chance action for the pass direction (0 none, 1 left, 2 across,
    3 right), 52 chance actions dealing one card each to seats 0, 1, 2, 3, 0, ... in turn, then
    (unless no pass) three cards from each seat in turn, 0 to 3, then the 52 cards played.
    A card is rank * 4 + suit, ranks 2..A as 0..12, suits C, D, H, S as 0..3; its shinpan code is
    the rank's character and the suit's letter, as OpenSpiel prints it.
    """

    name = "hearts"
    openspiel = "hearts"
    players = ["N", "E", "S", "W"]
    directions = ["none", "left", "across", "right"]

    @staticmethod
    def card(a):
        return "23456789TJQKA"[a // 4] + "CDHS"[a % 4]

    @staticmethod
    def action(code):
        return "23456789TJQKA".index(code[0]) * 4 + "CDHS".index(code[1])

    def to_events(self, steps):
        """shinpan events from OpenSpiel's (player, action) steps (a prefix of a game is fine).

        Returns the events and, for each step, the index of the event that carries it."""
        events, where = [], []
        hands = {p: [] for p in self.players}
        direction, dealt, passed = None, 0, 0
        for player, a in steps:
            if direction is None:
                direction = a
                events.append({"by": "table", "direction": self.directions[a]})
            elif dealt < 52:
                hands[self.players[dealt % 4]].append(self.card(a))
                dealt += 1
                if dealt == 1:
                    events.append({"by": "table", "deal": hands})
            elif direction != 0 and passed < 12:
                # Three cards a seat, seat after seat: one shinpan pass event a seat.
                if passed % 3 == 0:
                    events.append({"by": self.players[player], "pass": []})
                events[-1]["pass"].append(self.card(a))
                passed += 1
            else:
                events.append({"by": self.players[player], "play": self.card(a)})
            where.append(len(events) - 1)
        return events, where

    def complete_pass(self, events, state):
        """A pass cut short by an injected card gets the passer's next held cards after it,
        so that the event is a whole pass (three cards) whose only fault is the injected one."""
        last = events[-1]
        if "pass" in last and len(last["pass"]) < 3:
            player = self.players.index(last["by"])
            for code in json.loads(state.to_json())["hands"][player]:
                if len(last["pass"]) == 3:
                    break
                if code not in last["pass"]:
                    last["pass"].append(code)

    def from_transcript(self, t):
        """OpenSpiel's actions from a shinpan transcript."""
        seats = t["players"]
        actions = []
        passes = {}
        for e in t["events"]:
            if "direction" in e:
                actions.append(self.directions.index(e["direction"]))
            elif "deal" in e:
                hands = [e["deal"][p] for p in seats]
                for i in range(13):
                    for h in hands:
                        actions.append(self.action(h[i]))
            elif "pass" in e:
                passes[e["by"]] = e["pass"]
                if len(passes) == 4:
                    for p in seats:
                        actions.extend(self.action(c) for c in passes[p])
            elif "play" in e:
                actions.append(self.action(e["play"]))
        return actions

    def returns(self, seats, scores):
        """OpenSpiel's returns from shinpan's scores: 26 less the penalty points."""
        return [26 - scores[p] for p in seats]

    def illegal(self, state, rng):
        """An action OpenSpiel does not allow at this decision point: mostly a card the player
        holds (off suit, a heart led too early, points in the first trick), else any other."""
        legal = set(state.legal_actions())
        hand = json.loads(state.to_json())["hands"][state.current_player()]
        held = {self.action(c) for c in hand} - legal
        if held and rng.random() < 0.75:
            return rng.choice(sorted(held))
        others = [a for a in range(52) if a not in legal]
        return rng.choice(others) if others else None


# ---------------------------------------------------------------------------------- oh hell
class OhHell:
    """OpenSpiel's `oh_hell` (default scoring: a trick a point, 10 more for the exact bid) and
    examples/games/oh-hell/oh-hell.rules.

    OpenSpiel's actions: a chance action for the hand size (1 to 51 / players), one for the
    dealer (a seat), then chance actions dealing one card each to seats 0, 1, 2, ... in turn
    (always from seat 0, whoever deals), one more chance action for the card turned up, the bids
    as 52 + the bid from the dealer's left, and the cards played. A card is rank * 4 + suit,
    ranks 2..A as 0..12, suits C, D, S, H as 0..3 (this game's order); its shinpan code is the
    suit's letter, then the rank's character, as OpenSpiel prints it.
    """

    name = "oh-hell"
    openspiel = "oh_hell"

    def __init__(self, players=3):
        self.players = [f"p{i}" for i in range(players)]
        self.params = {"players": players}

    @staticmethod
    def card(a):
        return "CDSH"[a % 4] + "23456789TJQKA"[a // 4]

    @staticmethod
    def action(code):
        return "23456789TJQKA".index(code[1]) * 4 + "CDSH".index(code[0])

    def to_events(self, steps):
        events, where = [], []
        np = len(self.players)
        hands = {p: [] for p in self.players}
        size, dealer, dealt = None, None, 0
        for player, a in steps:
            if size is None:
                size = a
                events.append({"by": "table", "size": a})
            elif dealer is None:
                dealer = a
                events.append({"by": "table", "dealer": self.players[a]})
            elif dealt < size * np:
                hands[self.players[dealt % np]].append(self.card(a))
                dealt += 1
                if dealt == 1:
                    events.append({"by": "table", "deal": hands})
            elif dealt == size * np:
                dealt += 1
                events.append({"by": "table", "turn": self.card(a)})
            elif a >= 52:
                events.append({"by": self.players[player], "bid": a - 52})
            else:
                events.append({"by": self.players[player], "play": self.card(a)})
            where.append(len(events) - 1)
        return events, where

    def complete_pass(self, events, state):
        pass

    def from_transcript(self, t):
        seats = t["players"]
        actions = []
        for e in t["events"]:
            if "size" in e:
                actions.append(e["size"])
            elif "dealer" in e:
                actions.append(seats.index(e["dealer"]))
            elif "deal" in e:
                hands = [e["deal"][p] for p in seats]
                for i in range(len(hands[0])):
                    for h in hands:
                        actions.append(self.action(h[i]))
            elif "turn" in e:
                actions.append(self.action(e["turn"]))
            elif "bid" in e:
                actions.append(52 + e["bid"])
            elif "play" in e:
                actions.append(self.action(e["play"]))
        return actions

    def returns(self, seats, scores):
        return [scores[p] for p in seats]

    def illegal(self, state, rng):
        """A bid OpenSpiel does not allow (over the hand size, or the dealer's hook), or a card:
        mostly one the player holds off the led suit, else any other."""
        legal = set(state.legal_actions())
        if min(legal) >= 52:
            # Bids a game of these players can write: 0 to the largest hand size.
            others = [a for a in range(52, 52 + 51 // len(self.players) + 1) if a not in legal]
            return rng.choice(others) if others else None
        player = state.current_player()
        held = {a for a in range(52) if self._holds(state, player, a)} - legal
        if held and rng.random() < 0.75:
            return rng.choice(sorted(held))
        return rng.choice([a for a in range(52) if a not in legal])

    def _holds(self, state, player, a):
        # OpenSpiel prints each hand as "Player: N" then a line a suit, "    C: AK2".
        text = str(state)
        block = text.split(f"Player: {player}\n", 1)[1]
        for line in block.splitlines()[:4]:
            suit, _, ranks = line.strip().partition(": ")
            if suit == "CDSH"[a % 4] and "23456789TJQKA"[a // 4] in ranks:
                return True
        return False


# ---------------------------------------------------------------------------------- crazy eights
class CrazyEights:
    """OpenSpiel's `crazy_eights` (default parameters but the player count: no special cards, no
    reshuffle, at most 5 draws a turn, 100 plays) and examples/games/crazy-eights/crazy-eights.rules
    under `openspiel_scoring: true`.

    OpenSpiel's actions: a chance action 52 + seat for the dealer; chance actions dealing one card
    each from the dealer's left round (5 cards each, 7 for two players); chance actions turning
    the starter (an eight goes back and another is turned: those are left out of the transcript);
    then a player's card (0-51), 52 to draw (followed by the chance action of the card drawn), 53
    to pass, 54-57 to name a suit after an eight. A card is rank * 4 + suit, ranks 2..A as 0..12,
    suits C, D, H, S as 0..3; the code is the suit's letter, then the rank's character.
    """

    name = "crazy-eights"
    openspiel = "crazy_eights"
    variant = {"openspiel_scoring": True}

    def __init__(self, players=3):
        self.players = [f"p{i}" for i in range(players)]
        self.params = {"players": players}
        self.hand_size = 7 if players == 2 else 5

    @staticmethod
    def card(a):
        return "CDHS"[a % 4] + "23456789TJQKA"[a // 4]

    @staticmethod
    def action(code):
        return "23456789TJQKA".index(code[1]) * 4 + "CDHS".index(code[0])

    def to_events(self, steps):
        events, where = [], []
        np = len(self.players)
        hands = {p: [] for p in self.players}
        dealer, dealt, started = None, 0, False
        for player, a in steps:
            if dealer is None:
                dealer = a - 52
                events.append({"by": "table", "dealer": self.players[dealer]})
            elif dealt < np * self.hand_size:
                hands[self.players[(dealer + 1 + dealt) % np]].append(self.card(a))
                dealt += 1
                if dealt == 1:
                    events.append({"by": "table", "deal": hands})
            elif not started:
                # An eight turned as the starter goes back: only the card kept is written.
                if a // 4 != 6:
                    started = True
                    events.append({"by": "table", "starter": self.card(a)})
            elif player < 0:
                events.append({"by": "table", "drawn": self.card(a)})
            elif a < 52:
                events.append({"by": self.players[player], "play": self.card(a)})
            elif a == 52:
                events.append({"by": self.players[player], "draw": None})
            elif a == 53:
                events.append({"by": self.players[player], "pass": None})
            else:
                events.append({"by": self.players[player], "nominate": "CDHS"[a - 54]})
            where.append(len(events) - 1)
        return events, where

    def complete_pass(self, events, state):
        pass

    def from_transcript(self, t):
        seats = t["players"]
        np = len(seats)
        actions, dealer = [], 0
        for e in t["events"]:
            if "dealer" in e:
                dealer = seats.index(e["dealer"])
                actions.append(52 + dealer)
            elif "deal" in e:
                for k in range(np * self.hand_size):
                    actions.append(self.action(e["deal"][seats[(dealer + 1 + k) % np]][k // np]))
            elif "starter" in e or "drawn" in e or "play" in e:
                actions.append(self.action(e.get("starter") or e.get("drawn") or e["play"]))
            elif "draw" in e:
                actions.append(52)
            elif "pass" in e:
                actions.append(53)
            elif "nominate" in e:
                actions.append(54 + "CDHS".index(e["nominate"]))
        return actions

    def returns(self, seats, scores):
        return [scores[p] for p in seats]

    def illegal(self, state, rng):
        """An action OpenSpiel does not allow here: a held card that matches nothing, a draw or a
        pass out of its time, or a card not held."""
        legal = set(state.legal_actions())
        if min(legal) >= 54:
            return None  # naming a suit: every suit is legal
        held = {a for a in range(52) if self._holds(state, a)} - legal
        options = sorted(held) + [a for a in (52, 53) if a not in legal]
        if options and rng.random() < 0.8:
            return rng.choice(options)
        others = [a for a in range(54) if a not in legal]
        return rng.choice(others) if others else None

    def _holds(self, state, a):
        # The observation lists the hand a suit a line: "Suit C:  34     TJ".
        text = state.observation_string(state.current_player())
        for line in text.splitlines():
            if line.startswith(f"Suit {'CDHS'[a % 4]}:") and "23456789TJQKA"[a // 4] in line[7:]:
                return True
        return False


# ---------------------------------------------------------------------------------- euchre
class Euchre:
    """OpenSpiel's `euchre` (default parameters: stick the dealer, no lone defender) and
    examples/games/euchre/euchre.rules.

    OpenSpiel's actions: a chance action for the dealer's seat; 20 chance actions dealing one
    card each, from the dealer round the table (the dealer first); one for the turned card; then
    the calls, from the dealer's left: 24 to pass, 25-28 to name C, D, H, S; a card to discard
    (the dealer, when the turned card was ordered up); 29 to go alone or 30 to play with the
    partner (the maker); then the cards played. A card is rank * 4 + suit, ranks 9..A as 0..5,
    suits C, D, H, S as 0..3; the code is the suit's letter, then the rank's character.
    """

    name = "euchre"
    openspiel = "euchre"
    players = ["N", "E", "S", "W"]

    @staticmethod
    def card(a):
        return "CDHS"[a % 4] + "9TJQKA"[a // 4]

    @staticmethod
    def action(code):
        return "9TJQKA".index(code[1]) * 4 + "CDHS".index(code[0])

    def to_events(self, steps):
        events, where = [], []
        hands = {p: [] for p in self.players}
        dealer, dealt, passes, called, discarded = None, 0, 0, False, False
        for player, a in steps:
            if dealer is None:
                dealer = a
                events.append({"by": "table", "dealer": self.players[a]})
            elif dealt < 20:
                hands[self.players[(dealer + dealt) % 4]].append(self.card(a))
                dealt += 1
                if dealt == 1:
                    events.append({"by": "table", "deal": hands})
            elif dealt == 20:
                dealt += 1
                events.append({"by": "table", "upcard": self.card(a)})
            elif not called and a >= 24:
                if a == 24:
                    passes += 1
                    events.append({"by": self.players[player], "pass": None})
                else:
                    called = "first" if passes < 4 else "second"
                    events.append({"by": self.players[player], "call": "CDHS"[a - 25]})
            elif called == "first" and not discarded and a < 24:
                discarded = True
                events.append({"by": self.players[player], "discard": self.card(a)})
            elif a in (29, 30):
                events.append({"by": self.players[player], "alone": a == 29})
            else:
                events.append({"by": self.players[player], "play": self.card(a)})
            where.append(len(events) - 1)
        return events, where

    def complete_pass(self, events, state):
        pass

    def from_transcript(self, t):
        seats = t["players"]
        actions, dealer = [], 0
        for e in t["events"]:
            if "dealer" in e:
                dealer = seats.index(e["dealer"])
                actions.append(dealer)
            elif "deal" in e:
                for k in range(20):
                    actions.append(self.action(e["deal"][seats[(dealer + k) % 4]][k // 4]))
            elif "pass" in e:
                actions.append(24)
            elif "call" in e:
                actions.append(25 + "CDHS".index(e["call"]))
            elif "alone" in e:
                actions.append(29 if e["alone"] else 30)
            else:
                actions.append(self.action(e.get("upcard") or e.get("discard") or e["play"]))
        return actions

    def returns(self, seats, scores):
        return [scores[p] for p in seats]

    def illegal(self, state, rng):
        """A call out of its round, the stuck dealer's pass, the turned card as the discard, a
        card held off the suit led, or a card not held."""
        legal = set(state.legal_actions())
        if legal <= {29, 30}:
            return None  # going alone or not: both are always allowed
        if legal <= set(range(24, 29)):
            return rng.choice([a for a in range(24, 29) if a not in legal])
        held = {a for a in range(24) if self._holds(state, a)} - legal
        if held and rng.random() < 0.75:
            return rng.choice(sorted(held))
        return rng.choice([a for a in range(24) if a not in legal])

    def _holds(self, state, a):
        # The information state lists the hand a suit a line, spades first: "S AJ9".
        text = state.information_state_string(state.current_player())
        block = text.split("Hand:", 1)[1]
        for line in block.splitlines()[1:5]:
            if line.startswith("CDHS"[a % 4] + " ") and "9TJQKA"[a // 4] in line[2:] and "none" not in line:
                return True
        return False


# ---------------------------------------------------------------------------------- spades
class Spades:
    """OpenSpiel's `spades` (one hand: its game-level thresholds cannot be reached in one) and
    examples/games/spades/spades.rules under `spades_break: false` (OpenSpiel never breaks
    spades: only a player holding nothing else leads one).

    OpenSpiel has no dealer: 52 chance actions deal one card each to seats 0, 1, 2, 3, 0, ...,
    seat 0 bids first and leads. So seat 0 is the dealer's left: the transcript's dealer is
    OpenSpiel's seat 3, and a `shinpan play` game dealt by another player is turned round the
    table (OpenSpiel's seat i is the (i + 1)-th player after the dealer). Bids are 52 + the bid
    (0 is nil), then the cards played. Here a card is suit * 13 + rank (not rank * 4 + suit as in
    OpenSpiel's other card games), ranks 2..A as 0..12, suits C, D, H, S as 0..3; the code is the
    rank's character, then the suit (as in hearts).
    """

    name = "spades"
    openspiel = "spades"
    players = ["N", "E", "S", "W"]
    variant = {"spades_break": False}

    @staticmethod
    def card(a):
        return "23456789TJQKA"[a % 13] + "CDHS"[a // 13]

    @staticmethod
    def action(code):
        return "CDHS".index(code[1]) * 13 + "23456789TJQKA".index(code[0])

    def to_events(self, steps):
        events, where = [], []
        hands = {p: [] for p in self.players}
        dealt = 0
        for player, a in steps:
            if dealt < 52:
                hands[self.players[dealt % 4]].append(self.card(a))
                dealt += 1
                if dealt == 1:
                    events.append({"by": "table", "dealer": self.players[3]})
                    events.append({"by": "table", "deal": hands})
            elif a >= 52:
                events.append({"by": self.players[player], "bid": a - 52})
            else:
                events.append({"by": self.players[player], "play": self.card(a)})
            where.append(len(events) - 1)
        return events, where

    def complete_pass(self, events, state):
        pass

    def seats(self, t):
        """The transcript's players in OpenSpiel's seat order: from the dealer's left."""
        players = t["players"]
        dealer = next(players.index(e["dealer"]) for e in t["events"] if "dealer" in e)
        return [players[(dealer + 1 + i) % 4] for i in range(4)]

    def from_transcript(self, t):
        seats = self.seats(t)
        actions = []
        for e in t["events"]:
            if "deal" in e:
                for i in range(13):
                    for p in seats:
                        actions.append(self.action(e["deal"][p][i]))
            elif "bid" in e:
                actions.append(52 + e["bid"])
            elif "play" in e:
                actions.append(self.action(e["play"]))
        return actions

    def returns(self, seats, scores):
        return [scores[p] for p in seats]

    def illegal(self, state, rng):
        """A bid over what the partner left (the side's 13), a held card off suit or a spade led
        too early, or a card not held."""
        legal = set(state.legal_actions())
        if min(legal) >= 52:
            others = [a for a in range(52, 66) if a not in legal]
            return rng.choice(others) if others else None
        hand = [a for a in range(52) if self._holds(state, a)]
        held = set(hand) - legal
        if held and rng.random() < 0.75:
            return rng.choice(sorted(held))
        return rng.choice([a for a in range(52) if a not in legal])

    def _holds(self, state, a):
        # The observation's hand: a line a suit, "S AK3" (spades first), "none" for a void.
        text = state.observation_string(state.current_player())
        for line in text.splitlines():
            if line.startswith("CDHS"[a // 13] + " ") and "23456789TJQKA"[a % 13] in line[2:] and "none" not in line:
                return True
        return False


# ---------------------------------------------------------------------------------- cribbage
class Cribbage:
    """OpenSpiel's `cribbage` (two players, default parameters) and
    examples/games/cribbage/cribbage.rules under `crib_flush_of_four: true` and
    `openspiel_ending: true` (OpenSpiel's rulings, see the README).

    OpenSpiel's actions, each deal: 12 chance actions dealing six cards to seat 0, then six to
    seat 1; seat 0's discard, then seat 1's (one action for two cards: 52 + 52 * a + b, a the
    lower of the two by rank, then suit); a chance action for the starter; then the play, a card
    (0-51) or 2756 to pass (the transcript's `go`). Seat 0 deals first, the deal alternates. A
    card is suit * 13 + rank, ranks A..K as 0..12, suits C, D, H, S as 0..3; the code is the
    rank's character, then the suit (as OpenSpiel prints it). The returns are the points, with
    1,000 more for the winner and 1,000 less for the loser.
    """

    name = "cribbage"
    openspiel = "cribbage"
    players = ["p0", "p1"]
    variant = {"crib_flush_of_four": True, "openspiel_ending": True}
    go = 2756

    @staticmethod
    def card(a):
        return "A23456789TJQK"[a % 13] + "CDHS"[a // 13]

    @staticmethod
    def action(code):
        return "CDHS".index(code[1]) * 13 + "A23456789TJQK".index(code[0])

    def to_events(self, steps):
        events, where = [], []
        hands = None
        dealt = 12
        for player, a in steps:
            if player < 0 and dealt == 12:
                # A new deal: the deal event is filled as its cards come.
                hands = {p: [] for p in self.players}
                dealt = 0
                events.append({"by": "table", "deal": hands})
            if player < 0 and dealt < 12:
                hands[self.players[dealt // 6]].append(self.card(a))
                dealt += 1
                if dealt == 12:
                    dealt = 13
            elif player < 0:
                events.append({"by": "table", "starter": self.card(a)})
                dealt = 12
            elif a == self.go:
                events.append({"by": self.players[player], "go": None})
            elif a >= 52:
                pair = [self.card((a - 52) // 52), self.card((a - 52) % 52)]
                events.append({"by": self.players[player], "discard": pair})
            else:
                events.append({"by": self.players[player], "play": self.card(a)})
            where.append(len(events) - 1)
        return events, where

    def complete_pass(self, events, state):
        pass

    @staticmethod
    def order(c):
        return ("A23456789TJQK".index(c[0]), "CDHS".index(c[1]))

    def from_transcript(self, t):
        seats = t["players"]
        actions = []
        for e in t["events"]:
            if "deal" in e:
                actions.extend(self.action(c) for p in seats for c in e["deal"][p])
            elif "discard" in e:
                a, b = sorted(e["discard"], key=self.order)
                actions.append(52 + 52 * self.action(a) + self.action(b))
            elif "starter" in e:
                actions.append(self.action(e["starter"]))
            elif "play" in e:
                actions.append(self.action(e["play"]))
            elif "go" in e:
                actions.append(self.go)
        return actions

    def returns(self, seats, scores):
        # The winner is the first seat at 121 or more (the show counts every hand first).
        won = next((p for p in seats if scores[p] >= 121), None)
        if won is None:
            return [scores[p] for p in seats]
        return [scores[p] + (1000 if p == won else -1000) for p in seats]

    def illegal(self, state, rng):
        """A held card that would pass 31, a go by a player who can play, a discard with a card
        not held, or a card not held."""
        legal = set(state.legal_actions())
        hand = self._hand(state)
        if min(legal) >= 52 and self.go not in legal:
            # The discard: two cards, one of them (or both) not held.
            others = [a for a in range(52) if a not in hand]
            a = rng.choice(others)
            b = rng.choice(hand + others)
            if a == b:
                return None
            lo, hi = sorted([a, b], key=lambda x: self.order(self.card(x)))
            return 52 + 52 * lo + hi
        held = set(hand) - legal
        r = rng.random()
        if held and r < 0.5:
            return rng.choice(sorted(held))
        if self.go not in legal and r < 0.75:
            return self.go
        return rng.choice([a for a in range(52) if a not in legal and a not in hand])

    def _hand(self, state):
        for line in state.observation_string(state.current_player()).splitlines():
            if line.startswith("Hand:"):
                return [self.action(c) for c in line[5:].split()]
        return []


# ---------------------------------------------------------------------------------- gin rummy
class GinRummy:
    """OpenSpiel's `gin_rummy` (default parameters: knock card 10, gin and undercut bonus 25)
    and examples/games/gin-rummy/gin-rummy.rules under `undercut_on_tie: false` and `exact_knock: false`.

    OpenSpiel's actions: 20 chance actions dealing ten cards to seat 0, then ten to seat 1, one
    for the upcard; then 52 to take the upcard, 53 to draw from the stock (followed by the
    chance action of the card drawn), 54 to pass, 55 to knock, a card (0-51) to discard (or,
    after the knocker has laid their melds, to lay off), 56 + a meld's number to lay a meld.
    A card is suit * 13 + rank, ranks A..K as 0..12, suits s, c, d, h as 0..3; the code is the
    rank's character, then the suit (as OpenSpiel prints it). A meld's number: a set of three
    rank * 5 + the missing suit, of four rank * 5 + 4; a run of three 65 + suit * 11 + its lowest
    rank, of four 109 + suit * 10 + rank, of five 149 + suit * 9 + rank.

    Random play almost never knocks (a random player keeps 10 points or less of deadwood
    rarely), so the random OpenSpiel games here knock whenever they may (`policy`): the knock,
    the discard after it, the melds, layoffs and scores are what needs checking.
    """

    name = "gin-rummy"
    openspiel = "gin_rummy"
    players = ["p0", "p1"]
    variant = {"undercut_on_tie": False, "exact_knock": False}
    ranks = "A23456789TJQK"
    suits = "scdh"

    def card(self, a):
        return self.ranks[a % 13] + self.suits[a // 13]

    def action(self, code):
        return self.suits.index(code[1]) * 13 + self.ranks.index(code[0])

    def meld_id(self, codes):
        cards = sorted((self.action(c) for c in codes), key=lambda a: (a % 13, a))
        rank, suits = cards[0] % 13, {a // 13 for a in cards}
        if all(a % 13 == rank for a in cards):
            if len(cards) == 4:
                return rank * 5 + 4
            return rank * 5 + next(s for s in range(4) if s not in suits)
        suit = cards[0] // 13
        base = {3: (65, 11), 4: (109, 10), 5: (149, 9)}[len(cards)]
        return base[0] + suit * base[1] + rank

    def meld_cards(self, i):
        if not hasattr(self, "_melds"):
            self._melds = {}
            for r in range(13):
                for missing in range(4):
                    self._melds[r * 5 + missing] = [s * 13 + r for s in range(4) if s != missing]
                self._melds[r * 5 + 4] = [s * 13 + r for s in range(4)]
            for k, (base, per) in {3: (65, 11), 4: (109, 10), 5: (149, 9)}.items():
                for s in range(4):
                    for r in range(14 - k):
                        self._melds[base + s * per + r] = [s * 13 + r + j for j in range(k)]
        return [self.card(a) for a in self._melds[i]]

    @staticmethod
    def policy(state, rng):
        legal = state.legal_actions()
        if 55 in legal and rng.random() < 0.9:
            return 55
        return rng.choice(legal)

    def to_events(self, steps):
        events, where = [], []
        hands = {p: [] for p in self.players}
        dealt, knocker, laid = 0, None, False
        for player, a in steps:
            if player < 0 and dealt < 20:
                hands[self.players[dealt // 10]].append(self.card(a))
                dealt += 1
                if dealt == 1:
                    events.append({"by": "table", "deal": hands})
            elif player < 0 and dealt == 20:
                dealt += 1
                events.append({"by": "table", "upcard": self.card(a)})
            elif player < 0:
                events.append({"by": "table", "drawn": self.card(a)})
            else:
                by = self.players[player]
                if a < 52:
                    kind = "layoff" if laid and player != knocker else "discard"
                    events.append({"by": by, kind: self.card(a)})
                elif a == 52:
                    events.append({"by": by, "take": None})
                elif a == 53:
                    events.append({"by": by, "draw": None})
                elif a == 54:
                    if knocker == player:
                        laid = True
                    events.append({"by": by, "pass": None})
                elif a == 55:
                    if knocker is None:
                        knocker = player
                    events.append({"by": by, "knock": None})
                else:
                    events.append({"by": by, "meld": self.meld_cards(a - 56)})
            where.append(len(events) - 1)
        return events, where

    def complete_pass(self, events, state):
        pass

    def from_transcript(self, t):
        seats = t["players"]
        actions = []
        simple = {"take": 52, "draw": 53, "pass": 54, "knock": 55}
        for e in t["events"]:
            if "deal" in e:
                actions.extend(self.action(c) for p in seats for c in e["deal"][p])
            elif "meld" in e:
                actions.append(56 + self.meld_id(e["meld"]))
            else:
                key = next(k for k in e if k != "by")
                actions.append(simple[key] if key in simple else self.action(e[key]))
        return actions

    def returns(self, seats, scores):
        return [scores[p] for p in seats]

    def illegal(self, state, rng):
        """A knock, pass, take or draw where OpenSpiel has none; a held card that may not be
        discarded or laid off; a meld of held cards that may not be laid; or a card not held."""
        legal = set(state.legal_actions())
        hand = json.loads(state.to_json())["hands"][state.current_player()]
        held = [self.action(c) for c in hand]
        melds = [56 + i for i in range(185) if set(self.meld_cards(i)) <= set(hand)]
        r = rng.random()
        pool = [a for a in range(52, 56) if a not in legal] if r < 0.3 else []
        if not pool and r < 0.6:
            pool = [a for a in held + melds if a not in legal]
        if not pool:
            pool = [a for a in range(52) if a not in held and a not in legal]
        return rng.choice(pool) if pool else None


# ---------------------------------------------------------------------------------- dou dizhu
class DouDizhu:
    """OpenSpiel's `dou_dizhu` and examples/games/dou-dizhu/dou-dizhu.rules.

    OpenSpiel's actions: a chance action 0-50 for the position of the card turned face up in
    the deal, then 51 chance actions 51 + card dealing one card each to seats 0, 1, 2, 0, ...
    (the face-up card is the one dealt at that position; its holder bids first); bids 0 (pass)
    to 3; then plays: 0 passes, 4 and up are patterns of ranks (suits do not matter there), the
    rocket last. A card is suit * 13 + rank (ranks 3..2 as 0..12, suits C, D, H, S as 0..3), the
    black-and-white joker 52, the coloured one 53; the code is the suit, then the rank (C3, ST),
    jokers (BWJ) and (CJ), as OpenSpiel writes them. A play names ranks; converted, it takes
    the player's first held cards of those ranks. An airplane with kickers (OpenSpiel writes
    it `888999-KK`) is the transcript's `airplane` {trios, kickers}, so that 333444555666 as
    a chain of four trios and as three trios with three kickers stay apart.
    """

    name = "dou-dizhu"
    openspiel = "dou_dizhu"
    players = ["p0", "p1", "p2"]
    rank_chars = "3456789TJQKA2"

    def card(self, c):
        if c >= 52:
            return ["(BWJ)", "(CJ)"][c - 52]
        return "CDHS"[c // 13] + self.rank_chars[c % 13]

    def cid(self, code):
        if code.startswith("("):
            return 52 if code == "(BWJ)" else 53
        return "CDHS".index(code[0]) * 13 + self.rank_chars.index(code[1])

    def rank(self, code):
        return 13 + ["(BWJ)", "(CJ)"].index(code) if code.startswith("(") else self.rank_chars.index(code[1])

    def ranks_of(self, text):
        out, i = [], 0
        while i < len(text):
            if text[i] == "(":
                j = text.index(")", i)
                out.append(13 if text[i:j + 1] == "(BWJ)" else 14)
                i = j + 1
            else:
                out.append(self.rank_chars.index(text[i]))
                i += 1
        return out

    def _table(self):
        if not hasattr(self, "_ids"):
            game = pyspiel.load_game(self.openspiel)
            state = game.new_initial_state()
            self._ids, self._text = {}, {}
            for a in range(4, game.num_distinct_actions()):
                text = state.action_to_string(0, a)
                if "-" in text:
                    trios, kickers = text.split("-")
                    key = ("plane", tuple(sorted(self.ranks_of(trios))), tuple(sorted(self.ranks_of(kickers))))
                else:
                    key = ("play", tuple(sorted(self.ranks_of(text))))
                self._ids[key] = a
                self._text[a] = text
        return self._ids, self._text

    def take(self, hand, ranks):
        """Cards of the hand for these ranks (the first held ones; a card of another hand
        where the hand has too few)."""
        cards = []
        for r in ranks:
            mine = [c for c in hand if self.rank(c) == r and c not in cards]
            if mine:
                cards.append(mine[0])
            else:
                cards.append(next(self.card(x) for x in range(54) if self.rank(self.card(x)) == r and self.card(x) not in hand and self.card(x) not in cards))
        return cards

    def to_events(self, steps):
        _, texts = self._table()
        events, where = [], []
        hands = {p: [] for p in self.players}
        pos, dealt, kitty, dizhu, faceup = None, [], None, None, None
        for player, a in steps:
            if pos is None:
                pos = a
                events.append({"by": "table", "deal": hands})
            elif len(dealt) < 51:
                code = self.card(a - 51)
                dealt.append(code)
                hands[self.players[(len(dealt) - 1) % 3]].append(code)
                if len(dealt) - 1 == pos:
                    faceup = code
                if len(dealt) == 51:
                    events.append({"by": "table", "faceup": faceup})
                    kitty = [self.card(c) for c in range(54) if self.card(c) not in dealt]
                    live = {p: list(h) for p, h in hands.items()}
            elif dizhu is None and not any("play" in e or "airplane" in e or "pass" in e for e in events) and self._bidding(events, player, a):
                events.append({"by": self.players[player], "bid": a})
            else:
                by = self.players[player]
                if dizhu is None:
                    dizhu = by
                    live[by] += kitty
                if a == 0:
                    events.append({"by": by, "pass": None})
                else:
                    text = texts[a]
                    if "-" in text:
                        trios, kickers = text.split("-")
                        t = self.take(live[by], self.ranks_of(trios))
                        k = self.take([c for c in live[by] if c not in t], self.ranks_of(kickers))
                        events.append({"by": by, "airplane": {"trios": t, "kickers": k}})
                        cards = t + k
                    else:
                        cards = self.take(live[by], self.ranks_of(text))
                        events.append({"by": by, "play": cards})
                    for c in cards:
                        if c in live[by]:
                            live[by].remove(c)
            where.append(len(events) - 1)
        return events, where

    def _bidding(self, events, player, a):
        """Whether this decision is still a bid: the auction ends at a 3, at two passes after a
        bid, or at three passes."""
        bids = [e["bid"] for e in events if "bid" in e]
        high = max(bids, default=0)
        if high == 3:
            return False
        tail = 0
        for b in reversed(bids):
            if b != 0:
                break
            tail += 1
        if high > 0 and tail >= 2:
            return False
        return True

    def complete_pass(self, events, state):
        pass

    def from_transcript(self, t):
        ids, _ = self._table()
        seats = t["players"]
        actions = []
        for e in t["events"]:
            if "deal" in e:
                order = [e["deal"][seats[i % 3]][i // 3] for i in range(51)]
            elif "faceup" in e:
                actions.append(order.index(e["faceup"]))
                actions.extend(51 + self.cid(c) for c in order)
            elif "bid" in e:
                actions.append(e["bid"])
            elif "pass" in e:
                actions.append(0)
            elif "play" in e:
                actions.append(ids[("play", tuple(sorted(self.rank(c) for c in e["play"])))])
            elif "airplane" in e:
                a = e["airplane"]
                key = ("plane", tuple(sorted(self.rank(c) for c in a["trios"])), tuple(sorted(self.rank(c) for c in a["kickers"])))
                actions.append(ids[key])
        return actions

    def returns(self, seats, scores):
        return [scores[p] for p in seats]

    def illegal(self, state, rng):
        """A bid not over the last, a pass to lead, a pattern of held ranks that may not be played
        there, or any other pattern (mostly of cards not held)."""
        ids, texts = self._table()
        legal = set(state.legal_actions())
        if max(legal) <= 3 and len(legal) > 1:
            # The auction (a pass alone is the play after a rocket).
            others = [a for a in range(4) if a not in legal]
            return rng.choice(others) if others else None
        if 0 not in legal and rng.random() < 0.2:
            return 0
        counts = self._counts(state)
        if rng.random() < 0.6:
            held = [a for k, a in ids.items() if k[0] == "play" and a not in legal and self._fits(counts, k[1])]
            if held:
                return rng.choice(held)
        return rng.choice([a for a in range(4, max(texts) + 1) if a not in legal])

    def _counts(self, state):
        """The player's ranks and how many of each, from the observation's `My hand` line."""
        for line in state.observation_string(state.current_player()).splitlines():
            if line.startswith("My hand"):
                return collections.Counter(self.ranks_of(line[len("My hand"):].strip()))
        return collections.Counter()

    @staticmethod
    def _fits(counts, ranks):
        return all(counts[r] >= n for r, n in collections.Counter(ranks).items())


# Each game and player count checked: its label on the command line, and its adapter.
ADAPTERS = {
    "hearts": Hearts(),
    "crazy-eights-2": CrazyEights(2),
    "crazy-eights-4": CrazyEights(4),
    "euchre": Euchre(),
    "spades": Spades(),
    "cribbage": Cribbage(),
    "gin-rummy": GinRummy(),
    "dou-dizhu": DouDizhu(),
    "oh-hell-3": OhHell(3),
    "oh-hell-5": OhHell(5),
}


# ---------------------------------------------------------------------------------- checks
def random_game(game, rng, stop_at=None, policy=None):
    """A random OpenSpiel game: (steps, state). With `stop_at`, stop at that decision point.
    `policy(state, rng)` picks a decision's action instead of a uniform choice (an adapter's)."""
    state = game.new_initial_state()
    steps = []
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            a = rng.choice(outcomes)[0]
            player = -1
        else:
            if stop_at is not None and decisions == stop_at:
                return steps, state
            decisions += 1
            player = state.current_player()
            a = policy(state, rng) if policy else rng.choice(state.legal_actions())
        steps.append((player, a))
        state.apply_action(a)
    return steps, state


def seat_order(adapter, t):
    """The transcript's players in OpenSpiel's seat order (the listed order, unless the game
    turns the seats round)."""
    return adapter.seats(t) if hasattr(adapter, "seats") else t["players"]


def transcript(adapter, events):
    return {
        "rules": str(GAMES / adapter.name / f"{adapter.name}.rules"),
        "players": adapter.players,
        "variant": getattr(adapter, "variant", {}),
        "events": events,
    }


def check(shinpan, adapter, transcripts):
    """shinpan's verdicts of the transcripts, one a transcript."""
    rules = GAMES / adapter.name / f"{adapter.name}.rules"
    lines = "".join(json.dumps(t) + "\n" for t in transcripts)
    out = subprocess.run(
        [shinpan, "check", "--stream", "--rules", str(rules), "-"],
        input=lines,
        capture_output=True,
        text=True,
        check=False,
    )
    verdicts = [json.loads(line) for line in out.stdout.splitlines() if line.strip()]
    if len(verdicts) != len(transcripts):
        sys.exit(f"shinpan check gave {len(verdicts)} verdicts for {len(transcripts)} transcripts:\n{out.stderr}")
    return verdicts


def close(a, b):
    return len(a) == len(b) and all(abs(x - y) < 1e-9 for x, y in zip(a, b))


def theirs_in_shinpan(shinpan, adapter, game, n, seed):
    """(a) OpenSpiel's random games, judged by shinpan."""
    rng = random.Random(seed)
    games = [random_game(game, rng, policy=getattr(adapter, "policy", None)) for _ in range(n)]
    transcripts = [transcript(adapter, adapter.to_events(steps)[0]) for steps, _ in games]
    failures = []
    for i, ((_, state), t, v) in enumerate(zip(games, transcripts, check(shinpan, adapter, transcripts))):
        if v["verdict"] != "legal" or not v["finished"]:
            failures.append(f"(a) game {i}: shinpan says {v['verdict']}, finished {v['finished']}: {v.get('violations') or v.get('errors')}")
            continue
        ours = adapter.returns(seat_order(adapter, t), v["scores"])
        if not close(ours, state.returns()):
            failures.append(f"(a) game {i}: returns {state.returns()} in OpenSpiel, {ours} from shinpan's scores {v['scores']}")
    return failures


def ours_in_openspiel(shinpan, adapter, game, n, seed):
    """(b) `shinpan play` games, replayed in OpenSpiel."""
    rules = GAMES / adapter.name / f"{adapter.name}.rules"
    variants = [f"--variant={k}={json.dumps(v)}" for k, v in getattr(adapter, "variant", {}).items()]
    out = subprocess.run(
        [shinpan, "play", "--rules", str(rules), "--players", str(len(adapter.players)), "--seed", str(seed), "--games", str(n)]
        + variants,
        capture_output=True,
        text=True,
        check=True,
    )
    transcripts = [json.loads(line) for line in out.stdout.splitlines() if line.strip()]
    verdicts = check(shinpan, adapter, transcripts)
    failures = []
    for i, (t, v) in enumerate(zip(transcripts, verdicts)):
        state = game.new_initial_state()
        for k, a in enumerate(adapter.from_transcript(t)):
            allowed = [o for o, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
            if state.is_terminal() or a not in allowed:
                failures.append(f"(b) game {i} (seed {seed + i}): OpenSpiel refuses action {k} ({a}); legal: {allowed}")
                break
            state.apply_action(a)
        else:
            if not state.is_terminal():
                failures.append(f"(b) game {i} (seed {seed + i}): OpenSpiel's game is not over")
            elif not v["finished"]:
                failures.append(f"(b) game {i} (seed {seed + i}): shinpan's game is not finished")
            elif not close(adapter.returns(seat_order(adapter, t), v["scores"]), state.returns()):
                failures.append(f"(b) game {i} (seed {seed + i}): returns {state.returns()} in OpenSpiel, scores {v['scores']} in shinpan")
    return failures, len(transcripts)


def illegal_moves(shinpan, adapter, game, n, seed):
    """(c) one action OpenSpiel rules illegal, put into a random game: shinpan catches it there."""
    rng = random.Random(seed)
    cases = []
    while len(cases) < n:
        full, _ = random_game(game, random.Random(rng.random()), policy=getattr(adapter, "policy", None))
        decisions = sum(1 for p, _ in full if p >= 0)
        stop = rng.randrange(decisions)
        # Replay the same game to the chosen decision point.
        state = game.new_initial_state()
        prefix = []
        seen = 0
        for p, a in full:
            if p >= 0:
                if seen == stop:
                    break
                seen += 1
            prefix.append((p, a))
            state.apply_action(a)
        bad = adapter.illegal(state, rng)
        if bad is None:
            continue
        events, where = adapter.to_events(prefix + [(state.current_player(), bad)])
        adapter.complete_pass(events, state)
        said = state.action_to_string(state.current_player(), bad)
        cases.append((transcript(adapter, events), where[-1], said, state.legal_actions()))
    failures = []
    verdicts = check(shinpan, adapter, [t for t, *_ in cases])
    for i, ((t, at, bad, legal), v) in enumerate(zip(cases, verdicts)):
        got = v["violations"][0]["event"] if v["verdict"] == "illegal" else None
        if got != at:
            failures.append(
                f"(c) case {i}: `{bad}` at event {at}, OpenSpiel's legal {legal}: "
                f"shinpan says {v['verdict']} at event {got}"
            )
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shinpan", default=str(ROOT / "target" / "release" / "shinpan"))
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("names", nargs="*", default=sorted(ADAPTERS))
    args = parser.parse_args()
    failures = []
    for name in args.names:
        adapter = ADAPTERS[name]
        game = pyspiel.load_game(adapter.openspiel, getattr(adapter, "params", {}))
        a = theirs_in_shinpan(args.shinpan, adapter, game, args.games, args.seed)
        b, played = ours_in_openspiel(args.shinpan, adapter, game, args.games, args.seed)
        c = illegal_moves(args.shinpan, adapter, game, args.games, args.seed)
        print(f"{name}: (a) {args.games - len(a)}/{args.games} OpenSpiel games legal in shinpan with the same returns")
        print(f"{name}: (b) {played - len(b)}/{played} shinpan games accepted by OpenSpiel with the same returns")
        print(f"{name}: (c) {args.games - len(c)}/{args.games} illegal moves caught by shinpan at their event")
        failures += a + b + c
    for f in failures[:50]:
        print(f)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
