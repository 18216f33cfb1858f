"""The play check: the whole program plays the game against every reply of its opponent, its
whole strategy tree, from the empty board for x and for o and from the lab's cases; each of its
decisions is judged as `minimax_decision` is, and a game that ends worse for it than the game's
value from where it started is lost (docs/grading-reference.md, "The agent judged by how it plays").

The tree is the program's own: which boards it meets depends on the moves it makes, so the
questions are asked as the games go, each board and player once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache

from minimax_lab.compare.grader.interfaces.sample import LAB_CASES
from minimax_lab.compare.judge.categories import Category, Kind
from minimax_lab.compare.judge.results import Verdict, told
from minimax_lab.logic import reference
from minimax_lab.logic.state import BLANK, EMPTY, Player, State, is_terminal, mark

PLAY = "play"
"""The play check's name, in every interface that has one."""

Move = tuple[Player, int]
"""A move: the mark, and the cell (1..9) it is put in."""


@dataclass(frozen=True)
class Start:
    """Where games start: a board, the player to move, and the agent (the program's side)."""

    state: State
    mover: Player
    agent: Player

    @property
    def value(self) -> int:
        """The game's value from here, from the agent's side, both sides playing well."""
        found = (reference.max_value if self.mover == self.agent else reference.min_value)(
            self.state, self.agent)
        return int(found.value)


def starts(cases: Sequence[tuple[str, str]] = LAB_CASES) -> list[Start]:
    """The empty board with the program playing x, then o (x opening), then the lab's cases
    that are not among them (the program to move)."""
    found = [Start(EMPTY, "x", "x"), Start(EMPTY, "x", "o")]
    for state, player in cases:
        start = Start(State(state), player, player)
        if start not in found:
            found.append(start)
    return found


def fitting(from_: Sequence[Start], asks: Callable[[State, Player], bool]) -> list[Start]:
    """The starts whose games the program can be asked to play: those where it can be asked
    (`asks`) its first decision, at the start or after the opponent's first move (CS50's
    program, told no player, moves for o only after x's opening)."""
    return [start for start in from_ if asks(*_first(start))]


def _first(start: Start) -> tuple[State, Player]:
    if start.mover == start.agent or is_terminal(start.state):
        return start.state, start.agent
    return mark(start.state, start.state.index(BLANK) + 1, start.mover), start.agent


@dataclass(frozen=True)
class Decided:
    """The program's decision on one board: its verdict (judged as `minimax_decision` is),
    and the cell it plays, None where the game cannot go on (no answer, an illegal move, a
    limit, the budget spent: the verdict says which)."""

    verdict: Verdict
    cell: int | None


@dataclass(frozen=True)
class Game:
    """One game played: where it started, the moves made, and its verdict (right, lost, or
    stopped where the program could not move)."""

    start: Start
    moves: tuple[Move, ...]
    verdict: Verdict


Decide = Callable[[State, Player], Decided]
"""The program's decision for the player to move on a board (the agent)."""


def play(from_: Sequence[Start], decide: Decide) -> list[Game]:
    """Every game from each start, the agent's moves the program's (`decide`, asked once per
    board and player), the opponent's every legal move in cell order."""
    known: dict[tuple[State, Player], Decided] = {}

    def decided(state: State, agent: Player) -> Decided:
        if (state, agent) not in known:
            known[state, agent] = decide(state, agent)
        return known[state, agent]

    return [game for start in from_ for game in _games(start, decided)]


def _games(start: Start, decided: Decide) -> Iterator[Game]:
    value = start.value

    def go(state: State, mover: Player, moves: tuple[Move, ...]) -> Iterator[Game]:
        if is_terminal(state):
            yield Game(start, moves, _ended(state, start.agent, value, moves))
            return
        if mover != start.agent:
            for cell, held in enumerate(state, 1):
                if held == BLANK:
                    yield from go(mark(state, cell, mover), start.agent, (*moves, (mover, cell)))
            return
        decision = decided(state, mover)
        if decision.cell is None:
            yield Game(start, moves, _stopped(decision.verdict, moves))
            return
        yield from go(mark(state, decision.cell, mover), reference.other_player(mover),
                      (*moves, (mover, decision.cell)))

    yield from go(start.state, start.mover, ())


OUTCOME = {1: "a win", 0: "a draw", -1: "a loss"}


def _ended(state: State, agent: Player, value: int, moves: tuple[Move, ...]) -> Verdict:
    """Right when the game ended no worse for the agent than `value`; else lost."""
    outcome = reference.terminal_state(state, agent)
    assert outcome is not None
    if outcome >= value:
        return Verdict(Category.RIGHT)
    return told(Category.LOST_GAME, f"{said(moves)}: ends in {OUTCOME[outcome]} for {agent}",
                f", where the game was {OUTCOME[value]} for {agent} from its start")


def _stopped(verdict: Verdict, moves: tuple[Move, ...]) -> Verdict:
    """A game that stops where the program gives no legal move, judged by that decision."""
    if verdict.category.kind is Kind.UNASKED:
        return verdict
    said_ = f"after {said(moves)}: no move to play" if moves else "no move to play at the start"
    return Verdict(verdict.category, f"{said_}: {verdict.detail}" if verdict.detail else said_,
                   lab=verdict.lab)


def said(moves: Sequence[Move]) -> str:
    """`x 1, o 5, x 9`: the moves, in order ("no move yet" for none)."""
    return ", ".join(f"{mark} {cell}" for mark, cell in moves) or "no move yet"


def boards(start: Start, moves: Sequence[Move]) -> list[State]:
    """The board after each move of a game, from its start."""
    state, after = start.state, []
    for mover, cell in moves:
        state = mark(state, cell, mover)
        after.append(state)
    return after


@cache
def lab_decisions() -> tuple[tuple[State, Player], ...]:
    """The boards and players the lab's own solution decides on in the play check, from every
    start: what the check's budget is measured by."""
    asked: list[tuple[State, Player]] = []

    def decide(state: State, player: Player) -> Decided:
        asked.append((state, player))
        decision = reference.minimax_decision(state, player)
        assert decision is not None
        return Decided(Verdict(Category.RIGHT), decision.action.cell)

    play(starts(), decide)
    return tuple(asked)
