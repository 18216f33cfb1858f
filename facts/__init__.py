"""The game of the lab as data: read `game.pl`, the one source of truth for every engine."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

Constant = int | str
Fact = tuple[str, tuple[Constant, ...]]

_FACT = re.compile(r"([a-z]\w*)\(([^()]*)\)\s*\.")
_ARG = re.compile(r"\s*(?:(-?\d+)|([a-z]\w*)|'([^'\\]*)')\s*")


class FactsError(ValueError):
    """The facts file holds something that is not a ground Prolog fact."""


@dataclass(frozen=True)
class Game:
    """The game read from the facts: players, the blank mark, cells, lines and symmetries."""

    players: tuple[str, ...]
    other: dict[str, str]
    blank: str
    cells: tuple[int, ...]
    lines: tuple[tuple[int, int, int], ...]
    symmetries: dict[str, tuple[int, ...]]

    def other_player(self, player: str) -> str:
        """The lab's `other_player(Player, OtherPlayer)`."""
        return self.other[player]


def parse_facts(text: str) -> list[Fact]:
    """Parse ground Prolog facts `name(arg, ...).`; `%` starts a comment."""
    facts: list[Fact] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("%", 1)[0].strip()
        if not line:
            continue
        match = _FACT.fullmatch(line)
        if match is None:
            raise FactsError(f"line {number}: not a fact: {raw.strip()!r}")
        name, args_text = match.groups()
        facts.append((name, tuple(_parse_arg(arg, number) for arg in args_text.split(","))))
    return facts


def _parse_arg(text: str, number: int) -> Constant:
    match = _ARG.fullmatch(text)
    if match is None:
        raise FactsError(f"line {number}: not an atom or integer: {text.strip()!r}")
    integer, atom, quoted = match.groups()
    if integer is not None:
        return int(integer)
    return atom if atom is not None else quoted


def read_facts() -> list[Fact]:
    """The facts of `game.pl`, in file order."""
    return parse_facts(resources.files(__name__).joinpath("game.pl").read_text(encoding="utf-8"))


@cache
def load_game() -> Game:
    """The game described by `game.pl`."""
    facts = read_facts()

    def rows(name: str) -> list[tuple[Constant, ...]]:
        return [args for fact_name, args in facts if fact_name == name]

    (blank,) = (args[0] for args in rows("blank"))
    return Game(
        players=tuple(str(args[0]) for args in rows("player")),
        other={str(a): str(b) for a, b in rows("other_player")},
        blank=str(blank),
        cells=tuple(int(args[0]) for args in rows("cell")),
        lines=tuple((int(a), int(b), int(c)) for a, b, c in rows("line")),
        symmetries={str(name): tuple(map(int, cells)) for name, *cells in rows("symmetry")},
    )
