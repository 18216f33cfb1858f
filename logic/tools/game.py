"""A game to click: one click at a time, the game carried by the caller (a page) as its board.

The site's game page asks these functions in the browser at each click; the notebook's game
(`game_html`) asks them of every position in advance. The agent is the engine it is given,
playing for the setup's objective to the end of the game or to a depth (`logic/objective.py`);
its moves are told as `minimax-lab play` tells them (`play.announcement`). A click that cannot
be played (a taken cell, a game over, a board the setup cannot reach) is refused in one line,
and the game stays as it was.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from minimax_lab.logic.engines import Engine
from minimax_lab.logic.errors import LabError
from minimax_lab.logic.objective import Objective
from minimax_lab.logic.quote import quoted
from minimax_lab.logic.state import (
    BLANK,
    EMPTY,
    GAME,
    PLAYERS,
    SIZE,
    Player,
    State,
    StateError,
    check_legal,
    mark,
    marks_count,
    parse_state,
    result,
)
from minimax_lab.logic.tools.explain import signed
from minimax_lab.logic.tools.play import Move, MoveError, announcement
from minimax_lab.logic.tools.tree import GameTree, build_tree

FIRSTS = ("human", "agent")
"""Who opens the game."""
DEPTHS = range(1, SIZE)
"""The depths a depth-limited agent searches to, in plies (none: to the end of the game)."""
SEARCH_PLIES = 2
"""How deep the search of the agent's move is drawn: its moves and the replies to each,
anything below as one box with its count."""
SEARCHES = ("minimax", "alphabeta")


class SetupError(LabError, ValueError):
    """A game that cannot be set up as asked."""


@dataclass(frozen=True)
class Setup:
    """A game's rules: the human's mark, who opens, and what the agent plays for (its mode and
    scoring, and its search depth, None to the end); the search drawn of its moves."""

    human: Player = "x"
    first: str = "human"
    mode: str = "win"
    scoring: str = "depth"
    depth: int | None = None
    search: str = "minimax"

    def __post_init__(self) -> None:
        if self.human not in PLAYERS:
            raise SetupError(f"you play x or o, not {quoted(str(self.human))}")
        if self.first not in FIRSTS:
            raise SetupError(f"the game is opened by {' or '.join(FIRSTS)}, "
                             f"not {quoted(str(self.first))}")
        self.objective  # noqa: B018 - the mode and the scoring checked
        if self.depth is not None and (type(self.depth) is not int or self.depth not in DEPTHS):
            raise SetupError(f"the agent searches 1 to {DEPTHS[-1]} plies deep, or to the end, "
                             f"not {quoted(str(self.depth))}")
        if self.search not in SEARCHES:
            raise SetupError(f"the search drawn is {' or '.join(SEARCHES)}, "
                             f"not {quoted(str(self.search))}")

    @property
    def objective(self) -> Objective:
        return Objective(self.mode, self.scoring)

    @property
    def agent(self) -> Player:
        return GAME.other_player(self.human)

    @property
    def opener(self) -> Player:
        return self.human if self.first == "human" else self.agent

    def to_move(self, state: State) -> Player | None:
        """Who moves in `state` (the opener when the counts are equal); None once it is over."""
        if result(state) is not None:
            return None
        second = GAME.other_player(self.opener)
        return self.opener if marks_count(state, self.opener) == marks_count(state, second) \
            else second

    @property
    def reach(self) -> str:
        """How far the agent looks, in words."""
        return ("to the end of the game" if self.depth is None
                else f"{self.depth} {'ply' if self.depth == 1 else 'plies'} ahead")

    def described(self) -> str:
        """The setup in words."""
        aim = ("to win" if self.mode == "win"
               else f"to lose, assuming you try to make {self.agent} win")
        opens = "you open" if self.first == "human" else f"{self.agent} opens"
        return (f"You play {self.human}; the agent plays {self.agent}, {aim} ({self.scoring} "
                f"scoring), looking {self.reach}; {opens}.")


def setup_from(fields: Mapping[str, Any]) -> Setup:
    """A setup from a page's fields (JSON): each one checked, unknown ones refused."""
    known = set(Setup.__dataclass_fields__)
    unknown = sorted(set(fields) - known)
    if unknown:
        raise SetupError(f"unknown setting {quoted(str(unknown[0]))}; the settings are "
                         f"{', '.join(sorted(known))}")
    for name, value in fields.items():
        if name != "depth" and not isinstance(value, str):
            raise SetupError(f"{name} is a word, not {quoted(repr(value))}")
    return Setup(**fields)


@dataclass(frozen=True)
class Turn:
    """What a click made of the game: the board after the human's move and the agent's reply,
    who moves next (None once it is over), each move in words, the result, and the board the
    agent last moved from (its search); or, for a click refused, only why."""

    state: State = EMPTY
    to_move: Player | None = None
    said: tuple[str, ...] = ()
    result: str | None = None
    agent_from: State | None = None
    error: str | None = None

    def to_json(self) -> dict[str, Any]:
        if self.error is not None:
            return {"error": self.error}
        return {"state": self.state, "to_move": self.to_move, "said": list(self.said),
                "result": self.result, "agent_from": self.agent_from}


def board_of(setup: Setup, text: object) -> State:
    """A board given back by a page: a legal state this setup's game reaches."""
    if not isinstance(text, str):
        raise StateError(f"a board is a text of 9 cells, not {quoted(repr(text))}")
    state = parse_state(text)
    check_legal(state)
    lead = marks_count(state, setup.opener) - marks_count(state, GAME.other_player(setup.opener))
    if lead not in (0, 1):
        raise StateError(f"{state} is not a board of this game: {setup.opener} opens it")
    return state


def start(setup: Setup, engine: Engine) -> Turn:
    """A new game: the empty board, and the agent's first move if it opens."""
    return _agent_replies(setup, engine, EMPTY, ())


def click(setup: Setup, engine: Engine, state: State, cell: object) -> Turn:
    """The human's click on `cell` of `state`, and the agent's reply; refused (`Turn.error`)
    where it cannot be played, the game unchanged."""
    try:
        return _played(setup, engine, state, cell)
    except (MoveError, StateError) as error:
        return Turn(error=str(error))


def _played(setup: Setup, engine: Engine, state: State, cell: object) -> Turn:
    over = result(state)
    if over is not None:
        raise MoveError(f"the game is over ({over}): start a new game to play again")
    if type(cell) is not int or not 1 <= cell <= SIZE:
        raise MoveError(f"there is no cell {quoted(str(cell))}; the cells are 1 to {SIZE}")
    if state[cell - 1] != BLANK:
        raise MoveError(f"cell {cell} is taken by {state[cell - 1]}; choose a blank cell")
    if setup.to_move(state) != setup.human:
        raise MoveError(f"it is {setup.agent}'s move, not yours")
    after = mark(state, cell, setup.human)
    return _agent_replies(setup, engine, after, (f"{setup.human} plays {cell}.",))


def _agent_replies(setup: Setup, engine: Engine, state: State, said: tuple[str, ...]) -> Turn:
    """The game from `state`: the agent's move if it is its turn, then who is next."""
    agent_from = None
    if setup.to_move(state) == setup.agent:
        decision = engine.minimax_decision(state, setup.agent)
        assert decision is not None, "a game in progress has a decision"
        move = Move(setup.agent, decision.action.cell, decision.value)
        said = (*said, announcement(move, setup.mode, setup.scoring))
        agent_from, state = state, mark(state, move.cell, setup.agent)
    over = result(state)
    if over is not None:
        said = (*said, f"Result: {over}.")
    return Turn(state, setup.to_move(state), said, over, agent_from)


def values(setup: Setup, engine: Engine, state: State) -> dict[str, Any]:
    """The value of each move the player to move can make, from that player's side, as the
    agent's search rates it, and the one that player's best play picks (`explain`'s)."""
    player = setup.to_move(state)
    if player is None:
        return {"values": {}, "best": None}
    rated = engine.move_values(state, player)
    decision = engine.minimax_decision(state, player)
    return {"values": {str(cell): signed(value) for cell, value in sorted(rated.items())},
            "best": None if decision is None else decision.action.cell}


def search(setup: Setup, state: State) -> GameTree:
    """The search of the agent's move from `state`: the tree its search walks, as the stepped
    page draws it, `SEARCH_PLIES` deep."""
    return build_tree(state, setup.agent, setup.objective, setup.search, SEARCH_PLIES,
                      depth=setup.depth)
