"""Run engines over positions and report every position where their decisions differ."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from minimax_lab.logic.engines import Engine, Turn
from minimax_lab.logic.terms import Decision


@dataclass(frozen=True)
class Disagreement:
    """A position where the engines' answers (action and value) are not all the same."""

    position: Turn
    answers: dict[str, Decision | None]

    def __str__(self) -> str:
        state, player = self.position
        said = "; ".join(f"{name}: {answer or 'false.'}" for name, answer in self.answers.items())
        return f"{state} {player}: {said}"


Decisions = Mapping[Turn, Decision]


def decision_tables(engines: Sequence[Engine], positions: Sequence[Turn]) -> dict[str, Decisions]:
    """Each engine's decisions on the positions, by engine name."""
    return {engine.name: engine.decisions(positions) for engine in engines}


def disagreements(tables: Mapping[str, Decisions], positions: Iterable[Turn]) -> list[Disagreement]:
    """Every position where the tables do not give the same action and value, in input order."""
    found = []
    for position in positions:
        answers = {name: table.get(position) for name, table in tables.items()}
        if len(set(answers.values())) > 1:
            found.append(Disagreement(position, answers))
    return found
