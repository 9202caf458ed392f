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
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, Union

from . import _shinpan

__all__ = ["Rules", "RulesError", "check_paths", "check_texts", "builtin_games", "play"]

RulesError = _shinpan.RulesError
"""Raised when rules cannot be used as asked; ``code`` is the stable code (``shinpan::usage``,
or the rules file's own diagnostic code)."""

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
