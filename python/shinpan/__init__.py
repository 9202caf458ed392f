"""shinpan: card-game rules as spec files, and a referee that checks recorded games.

A verdict is a dict, exactly a line of ``shinpan check --format json`` (the contract in the
repository's TRANSCRIPTS.md): ``verdict`` (legal, illegal, malformed), ``violations`` with
each rule id, event and stable ``code``, ``finished``, ``scores``, ``winners``. Rules that
cannot be used as asked (an unknown game, a parameter it does not have, a player count
outside its range, a rules file that does not compile) raise :class:`RulesError`; a
transcript that cannot be read is a ``malformed`` verdict, never an exception.

    >>> import shinpan
    >>> rules = shinpan.Rules("hangover", variant={"hand_size": 3})
    >>> rules.check(rules.play(players=3, seed=1))["verdict"]
    'legal'
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, Union

from . import _shinpan

__all__ = ["Rules", "RulesError", "Game", "Applied", "check_paths", "check_texts", "builtin_games", "play"]

RulesError = _shinpan.RulesError
"""Raised when rules cannot be used as asked; ``code`` is the stable code (``shinpan::usage``,
or the rules file's own diagnostic code). Raised for a verdict that is not legal where one was
needed (a transcript :meth:`Rules.resume_game` cannot go on from, rules that fail while a
:class:`Game` runs), it carries that verdict as ``verdict`` (a dict), with the code of what
went wrong (``shinpan::rule``, ``shinpan::transcript::malformed``, ``shinpan::spec::fuel``);
otherwise ``verdict`` is None."""

Transcript = Union[str, Mapping[str, Any]]

# Paths handed to the Rust side at once by check_paths: enough to keep every thread busy,
# few enough that a huge archive never sits in memory.
_BATCH = 1024


class Rules:
    """A game's rules: a built-in game by name or a rules file by path, with parameters
    (``variant``) over its defaults. Compiled once per thread that uses it; one ``Rules`` may
    be shared by any number of threads."""

    def __init__(self, name_or_path: str | os.PathLike[str], variant: Mapping[str, Any] | None = None):
        pairs = [(str(k), json.dumps(v)) for k, v in (variant or {}).items()]
        self._rules = _shinpan.Rules(os.fspath(name_or_path), pairs)

    @classmethod
    def from_text(
        cls, label: str, text: str, base: str | os.PathLike[str] = ".", variant: Mapping[str, Any] | None = None
    ) -> "Rules":
        """Rules given as the text of a rules file: ``label`` names them in diagnostics, ``base``
        is the folder their ``extends`` and data files are found from."""
        rules = cls.__new__(cls)
        pairs = [(str(k), json.dumps(v)) for k, v in (variant or {}).items()]
        rules._rules = _shinpan.Rules.from_text(label, text, os.fspath(base), pairs)
        return rules

    @property
    def game(self) -> str:
        """The game's name, as its rules file declares it."""
        return self._rules.game()

    def check(self, transcript: Transcript, name: str = "<transcript>") -> dict[str, Any]:
        """The verdict on one transcript: YAML or JSON text, or a dict of its fields."""
        text = transcript if isinstance(transcript, str) else json.dumps(transcript)
        return json.loads(self._rules.check_text(name, text))

    def check_path(self, path: str | os.PathLike[str]) -> dict[str, Any]:
        """The verdict on a transcript file (or a malformed verdict saying why it was not read)."""
        return json.loads(self._rules.check_path(os.fspath(path)))

    def play(self, players: int, seed: int = 0) -> str:
        """A random legal game among ``players`` players as a transcript (YAML text); the same
        seed gives the same game."""
        return self._rules.play(players, seed)

    def new_game(self, players: int | Sequence[str], seed: int = 0, name: str = "game") -> Game:
        """A new :class:`Game`, waiting for its first event: among ``players`` players (named
        as :meth:`play` names them), or among the players named, in seating order. ``seed``
        drives its chance moves and :meth:`Game.draw`; played by ``draw`` to its end, it is the
        game ``play(players, seed)`` gives. ``name`` is the file its verdicts name."""
        if isinstance(players, int):
            inner = self._rules.new_game(players, seed)
        elif isinstance(players, str):
            raise TypeError("players is a count or a list of names, not one name")
        else:
            inner = self._rules.new_game_named([str(p) for p in players], seed)
        game = Game._wrap(inner, "game")
        if name != "game":
            game.name = name
        return game

    def resume_game(self, transcript: Transcript, name: str = "game", seed: int = 0) -> Game:
        """The :class:`Game` a transcript (YAML or JSON text, or a dict) has reached, ready to
        go on from its last event, with its players and its ``variant``. A transcript that is
        not legal raises :class:`RulesError` with its verdict as ``verdict``."""
        text = transcript if isinstance(transcript, str) else json.dumps(transcript)
        return Game._wrap(self._rules.resume_game(name, text, seed), name)


class Applied:
    """What :meth:`Game.apply` made of an event: ``accepted``, or refused with ``verdict``, the
    verdict ``check`` gives the transcript with that event added (a dict, as
    :meth:`Rules.check` gives it). True when accepted."""

    __slots__ = ("accepted", "verdict")

    def __init__(self, verdict: dict[str, Any] | None = None):
        self.accepted: bool = verdict is None
        self.verdict: dict[str, Any] | None = verdict

    def __bool__(self) -> bool:
        return self.accepted

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Applied) and (self.accepted, self.verdict) == (other.accepted, other.verdict)

    def __repr__(self) -> str:
        if self.verdict is None:
            return "Applied(accepted)"
        return f"Applied(refused: {self.verdict['verdict']})"


class Game:
    """One game played move by move: the live referee. It waits where its rules wait for an
    event, lists what is legal there (:meth:`legal`), takes one event at a time or refuses it
    with the verdict ``check`` would give (:meth:`apply`), draws random and chance moves
    (:meth:`draw`), and can be copied, undone and written out as a transcript that ``check``
    judges the same way. Made by :meth:`Rules.new_game` or :meth:`Rules.resume_game`.

    Every call runs on the shinpan thread the game lives on, with the GIL released; a game
    may be used from any Python thread (one call at a time runs on it)."""

    def __init__(self) -> None:
        raise TypeError("a Game is made by Rules.new_game or Rules.resume_game")

    @classmethod
    def _wrap(cls, inner: Any, name: str) -> Game:
        game = cls.__new__(cls)
        game._game = inner
        game._name = name
        return game

    @property
    def name(self) -> str:
        """What its verdicts and refusals call the game (their ``file``)."""
        return self._name

    @name.setter
    def name(self, name: str) -> None:
        self._game.set_name(str(name))
        self._name = str(name)

    def legal(self) -> list[dict[str, Any]]:
        """The legal events where the game waits, each a dict: ``by`` (a player, or
        ``table``), ``action``, ``event`` (the event as a transcript writes it, for
        :meth:`apply`; None for a chance move, which :meth:`draw` plays), ``words`` (as a
        verdict's help says it) and ``chance``."""
        return json.loads(self._game.legal())

    def apply(self, event: Mapping[str, Any]) -> Applied:
        """Takes one event, ``{"by": PLAYER, ACTION: ARGUMENT}`` as a transcript writes it. A
        refused event is an :class:`Applied` that is false, with the verdict (illegal, or
        malformed for an event that cannot be read); the game is then as it was. Rules that
        fail while running (out of fuel, a type error) raise :class:`RulesError` with the
        verdict, and the game is as it was too. An event that cannot be written as JSON (a NaN,
        an object JSON has no word for, nesting deeper than 128 levels, as the referee's
        requests) raises ``ValueError``: it never reached the game."""
        refused = self._game.apply(json.dumps(event, allow_nan=False))
        return Applied(None if refused is None else json.loads(refused))

    def draw(self) -> dict[str, Any] | None:
        """Draws the next event as a random game does (uniformly among the legal events, a
        chance move as the rules draw it, from the game's seed) and takes it: the event, or
        None when none can be drawn (the game is over, or nothing is legal). Rules that fail
        while running, or refuse what they listed as legal, raise :class:`RulesError` with the
        verdict."""
        drawn = self._game.draw()
        return None if drawn is None else json.loads(drawn)

    def reseed(self, seed: int) -> None:
        """Seeds what :meth:`draw` and chance moves draw from here on."""
        self._game.reseed(seed)

    def state(self, all: bool = False) -> dict[str, Any]:
        """The variables the rules' ``view`` shows, by name, in transcript words; with
        ``all``, every variable of the rules."""
        return json.loads(self._game.state(all))

    @property
    def finished(self) -> bool:
        """Whether the game is over (a ``finish`` has run)."""
        return self._game.finished()

    @property
    def players(self) -> list[str]:
        """The players in seating order."""
        return self._game.players()

    def verdict(self) -> dict[str, Any]:
        """The verdict ``check`` gives the game so far (:meth:`transcript`): legal, with the
        scores, and the winners once finished."""
        return json.loads(self._game.verdict())

    def scores(self) -> dict[str, Any]:
        """Each player's score as ``check`` gives it for the game so far."""
        return json.loads(self._game.scores())

    def winners(self) -> list[str]:
        """The winners as ``check`` gives them: none before the game is finished."""
        return self._game.winners()

    def undo(self) -> bool:
        """Takes back the last event (the game's seed too): False when there is none. It plays
        the game again from its start, so it costs what the game so far cost."""
        return self._game.undo()

    def transcript(self) -> str:
        """The game so far as a transcript (YAML, one event a line in JSON, as :meth:`Rules.play`
        writes it), which ``check`` judges as this game judged each event."""
        return self._game.transcript()

    def copy(self) -> Game:
        """A copy that goes on alone (cheap: the two share what neither has changed)."""
        return Game._wrap(self._game.copy(), self._name)

    __copy__ = copy

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        return self.copy()

    def __len__(self) -> int:
        """How many events the game has taken."""
        return self._game.event_count()

    def __bool__(self) -> bool:
        # A game is a game even before its first event (``len`` would make it false).
        return True

    def __repr__(self) -> str:
        return f"<shinpan.Game {self._name!r}: {len(self)} events{', finished' if self.finished else ''}>"


def check_paths(
    paths: Iterable[str | os.PathLike[str]], jobs: int | None = None, rules: Rules | None = None
) -> Iterator[dict[str, Any]]:
    """Verdicts on transcript files, in the order of ``paths``, checked on ``jobs`` threads
    (default: one per core) with the GIL released. Without ``rules``, each transcript's own
    ``rules`` field names its game, compiled once per thread."""
    return _stream((os.fspath(p) for p in paths), _shinpan.check_paths, jobs, rules)


def check_texts(
    transcripts: Iterable[tuple[str, Transcript] | tuple[str, Transcript, int]],
    jobs: int | None = None,
    rules: Rules | None = None,
) -> Iterator[dict[str, Any]]:
    """Verdicts on transcripts given as ``(name, text or dict)`` pairs, in order, as
    :func:`check_paths` checks files. A third item, the line of a JSON Lines archive the text
    was read from, makes the verdict's lines the archive's, as ``shinpan check --stream`` gives
    them (name such a text ``ARCHIVE#LINE``, as it does)."""
    return _stream((_triple(*t) for t in transcripts), _shinpan.check_texts, jobs, rules)


def _triple(name: str, transcript: Transcript, line: int = 1) -> tuple[str, str, int]:
    text = transcript if isinstance(transcript, str) else json.dumps(transcript)
    return (str(name), text, int(line))


def _stream(items: Iterable[Any], check: Any, jobs: int | None, rules: Rules | None) -> Iterator[dict[str, Any]]:
    jobs = jobs or os.cpu_count() or 1
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs}")
    inner = rules._rules if rules is not None else None

    def batches() -> Iterator[dict[str, Any]]:
        batch: list[Any] = []
        for item in items:
            batch.append(item)
            if len(batch) == _BATCH:
                yield from _checked(batch, check, jobs, inner)
                batch = []
        if batch:
            yield from _checked(batch, check, jobs, inner)

    return batches()


def _checked(batch: list[Any], check: Any, jobs: int, inner: Any) -> Iterator[dict[str, Any]]:
    # Each input's verdicts are JSON lines: one, or one a deal of a record file (.pbn, .lin).
    for lines in check(batch, jobs, inner):
        for line in lines.split("\n"):
            yield json.loads(line)


def play(game: str | os.PathLike[str], players: int, seed: int = 0, variant: Mapping[str, Any] | None = None) -> str:
    """A random legal game of ``game`` as a transcript: ``Rules(game, variant).play(players, seed)``."""
    return Rules(game, variant).play(players, seed)


def builtin_games() -> list[str]:
    """The names of the games built into shinpan."""
    return _shinpan.builtin_games()
