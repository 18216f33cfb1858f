"""The lab as a small Python API, for notebooks and scripts; the command line's commands call it.

    >>> from logic import api as lab
    >>> lab.minimax_decision("o-x------", "o").answer
    'Action = [o,4], Value = 1.'

A position is a `Board` or any notation of one (`board`); `player` is the lab's Player, and may
be left out where only one player can move. Every answer prints as the command line prints it
and, in Jupyter, draws itself (`logic.api.views`). Errors are `logic.errors.LabError`s.
"""

from __future__ import annotations

import inspect
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING

from minimax_lab.logic.api.views import (
    Board,
    Boards,
    Display,
    Listing,
    Move,
    MoveValues,
    Table,
    Trace,
    preformatted,
)
from minimax_lab.logic.engines import Engine, EngineError, engine_class_for, make_engine
from minimax_lab.logic.engines.minimax import count_nodes
from minimax_lab.logic.engines.search import SearchEngine
from minimax_lab.logic.errors import LabError
from minimax_lab.logic.objective import LAB, Objective
from minimax_lab.logic.predicates import lab_predicates
from minimax_lab.logic.quote import escaped, quoted
from minimax_lab.logic.state import (
    BLANK,
    GAME,
    PLAYERS,
    SIZE,
    Player,
    State,
    StateError,
    check_legal,
    check_turn,
    is_terminal,
    mark,
    parse_drawing,
    parse_player,
    parse_state,
    players_to_move,
)
from minimax_lab.logic.terms import SV, Decision
from minimax_lab.logic.tools.explain import explanation
from minimax_lab.logic.tools.game import Setup as GameSetup
from minimax_lab.logic.tools.listing import listing_parts
from minimax_lab.logic.tools.play import MoveError
from minimax_lab.logic.tools.prolog_trace import trace_lab, trace_program
from minimax_lab.logic.tools.trace import MAX_CALLS, Tracer
from minimax_lab.logic.tools.tree import NODE_LIMIT, GameTree, build_tree

if TYPE_CHECKING:
    from minimax_lab.compare.grader.outputs.graded import Graded

__all__ = ["LAB", "Board", "Boards", "Display", "Game", "Listing", "Move", "MoveValues",
           "Objective", "Table", "Trace", "TreeView", "board", "explain", "game", "get_engine",
           "grade", "listing", "max_value", "min_value", "minimax_decision", "play", "stats",
           "successor", "terminal_state", "trace", "tree"]

Position = Board | str | Sequence
"""A board, or any notation `board` reads."""
TRACED = lab_predicates(traced=True)
"""The goals `trace` follows (`logic/predicates.py`)."""


# --- positions -------------------------------------------------------------------------------

def board(notation: Position, player: str | None = None) -> Board:
    """A legal position from any notation: compact (`o-x------`), a Prolog list
    (`[o,-,x,-,-,-,-,-,-]`), a drawing in rows (`x|o| / |x| / | |o`, as `Board` prints),
    9 cells or 3 rows of them (CS50's `[[X, EMPTY, O], ...]`, None or "" a blank)."""
    given = None
    if isinstance(notation, Board):
        state, given = notation.state, notation.player
    elif isinstance(notation, str):
        state = _read(notation)
    elif isinstance(notation, Sequence):
        state = _from_cells(notation)
    else:
        raise StateError(f"a board is a text or a list of cells, not a {type(notation).__name__}")
    check_legal(state)
    chosen = parse_player(player) if player is not None else given
    if chosen is not None and not is_terminal(state):
        check_turn(state, chosen)
    movers = players_to_move(state)
    if chosen is None and not is_terminal(state) and len(movers) == 1:
        chosen = movers[0]
    return Board(state, chosen)


def _read(text: str) -> State:
    """A state written in one of the lab's notations, or drawn in rows."""
    try:
        return parse_state(text)
    except StateError:
        if not any(sign in text for sign in "\n|/ "):
            raise
    return parse_drawing(text)


def _from_cells(cells: Sequence) -> State:
    """A state from 9 cells, or 3 rows of 3, each `x`, `o` (either case) or a blank."""
    flat = [cell for row in cells for cell in row] if all(
        isinstance(row, Sequence) and not isinstance(row, str) for row in cells) else list(cells)
    if len(flat) != SIZE:
        raise StateError(f"a board has {SIZE} cells, this one has {len(flat)}")
    marks = []
    for number, cell in enumerate(flat, start=1):
        if cell is None or cell in ("", BLANK):
            marks.append(BLANK)
        elif isinstance(cell, str) and cell.lower() in PLAYERS:
            marks.append(cell.lower())
        else:
            raise StateError(f"cell {number} is {quoted(repr(cell))}; each cell is x, o or a "
                             "blank (None, '' or -)")
    return State("".join(marks))


def _position(position: Position, player: str | None) -> tuple[State, Player]:
    """The state and the player a question is asked for: `player`, else the one to move."""
    place = board(position, player)
    if place.player is None:
        raise _whose_move(place.state)
    return place.state, place.player


def _whose_move(state: State) -> StateError:
    """The error for a question whose player cannot be read off the board."""
    either = " or ".join(f"player={mover!r}" for mover in PLAYERS)
    return StateError(f"whose move is it in {state}? give {either}")


_ENGINES: dict[tuple, Engine] = {}


def get_engine(name: str | Engine = "reference", objective: Objective = LAB,
               program: str | None = None, depth: int | None = None) -> Engine:
    """The engine called `name` (`logic.engines.ENGINES`), one kept per name, objective,
    program and depth; with `depth`, the reference's search stopped that many plies down
    (`--depth`); an `Engine` is used as it is."""
    if isinstance(name, Engine):
        return name
    if depth is not None and name != "reference":
        raise EngineError(f"depth={depth}: only the reference engine searches to a depth; "
                          "use engine='reference'")
    key = (name, objective, program, depth)
    if key not in _ENGINES:
        _ENGINES[key] = (make_engine(name, objective, program) if depth is None
                         else SearchEngine(objective, "memo", depth))
    return _ENGINES[key]



# --- the lab's predicates --------------------------------------------------------------------

def successor(position: Position, player: str | None = None,
              engine: str | Engine = "reference") -> Boards:
    """`successor(State, Player, Next)`: every board `player` (the one to move) can make."""
    state, mover = _position(position, player)
    other = GAME.other_player(mover)
    return Boards(Board(next_state, None if is_terminal(next_state) else other)
            for next_state in get_engine(engine).successor(state, mover))


def terminal_state(position: Position, player: str,
                   engine: str | Engine = "reference") -> int | None:
    """`terminal_state(State, Player, Value)`: the value of a finished game from `player`'s
    side, None while it goes on."""
    return get_engine(engine).terminal_state(board(position).state, parse_player(player))


def max_value(position: Position, player: str | None = None,
              engine: str | Engine = "reference", objective: Objective = LAB) -> Move:
    """`max_value(State, Player, sv(Next, Value))` with `player` (the agent) to move."""
    state, agent = _position(position, player)
    return _sv(state, get_engine(engine, objective).max_value(state, agent))


def min_value(position: Position, player: str | None = None,
              engine: str | Engine = "reference", objective: Objective = LAB) -> Move:
    """`min_value(State, Player, sv(Next, Value))`: `player` is the agent, its adversary moves
    (by default the agent is the one not to move)."""
    place = board(position)
    agent = parse_player(player) if player is not None else (
        GAME.other_player(place.player) if place.player is not None else None)
    if agent is None:
        raise _whose_move(place.state)
    state = place.state
    if not is_terminal(state):
        check_turn(state, GAME.other_player(agent))
    return _sv(state, get_engine(engine, objective).min_value(state, agent))


def _sv(state: State, sv: SV) -> Move:
    """`max_value`'s or `min_value`'s answer at `state`: the board it names, the cell marked."""
    moved = next((cell for cell in range(1, SIZE + 1)
                  if state[cell - 1] != sv.state[cell - 1]), None)
    return Move(sv.state, moved, f"SV = {sv}.", sv)


def minimax_decision(position: Position, player: str | None = None,
                     engine: str | Engine = "reference", objective: Objective = LAB,
                     depth: int | None = None) -> Move | None:
    """`minimax_decision(State, Player, Action, Value)`: the move and its value; None (Prolog's
    `false.`) when the game is over. With `depth`, the search looks that many plies ahead."""
    if is_terminal(board(position).state):
        return None
    state, player = _position(position, player)
    decision = get_engine(engine, objective, depth=depth).minimax_decision(state, player)
    if decision is None:
        return None
    return Move(mark(state, decision.action.cell, player), decision.action.cell, str(decision),
                decision)


# --- the tools -------------------------------------------------------------------------------

def listing(name: str) -> Listing:
    """The lab's predicate `name` (or `name/arity`) three ways, as `:listing` shows it: its
    clauses in Prolog (logic/prolog/lab.pl), its rules in pyDatalog (logic/rules.py), its
    function in Python (logic/reference.py); side by side in a notebook."""
    return Listing(name, listing_parts(name))


def explain(position: Position, player: str | None = None,
            engine: str | Engine = "reference", objective: Objective = LAB,
            depth: int | None = None) -> MoveValues:
    """Every legal move's value for `player`, the decision, and the principal variation; with
    `depth`, as a search that looks that many plies ahead rates them."""
    state, player = _position(position, player)
    answering = get_engine(engine, objective, depth=depth)
    decision = answering.minimax_decision(state, player)
    assert decision is not None, "a game that goes on has a decision"
    values: dict[int, int | Fraction] = {**answering.move_values(state, player)}
    return MoveValues(state, values, decision.action.cell,
                      explanation(answering, state, player, decision))


def trace(position: Position, player: str | None = None, goal: str = "minimax_decision",
          levels: int | None = None, max_calls: int = MAX_CALLS,
          engine: str = "reference", program: str | None = None,
          objective: Objective = LAB, more: str = "levels=N and max_calls=N show more") -> Trace:
    """The lab's recursion below `goal` (minimax_decision, max_value or min_value) call by call:
    the reference's, a pyDatalog engine's proof, or SWI-Prolog's own tracer (prolog engines,
    a student's `program`); `player` is the lab's Player, the agent; `more` says how to see
    what a bounded trace leaves out."""
    if goal not in TRACED:
        raise TraceError(f"unknown goal {quoted(goal)}; the goals traced are {', '.join(TRACED)}")
    place = board(position)
    state = place.state
    agent = parse_player(player) if player is not None else place.player
    if agent is None:
        raise _whose_move(state)
    if not is_terminal(state):  # in min_value it is the agent's adversary who moves
        check_turn(state, agent if goal != "min_value" else GAME.other_player(agent))
    named = engine_class_for(engine, program)
    if not named.plays(objective):
        raise TraceError(f"the {engine} engine plays the lab's objective only (mode win, "
                         f"scoring lab), not {objective}")
    if named.tracing == "prolog":
        if levels is not None:
            raise TraceError("levels: SWI-Prolog's tracer is bounded by the number of calls only")
        if program is not None:
            traced = trace_program(program, goal, state, agent, max_calls)
        elif named.lab_file is not None:
            traced = trace_lab(goal, state, agent, named.lab_file, max_calls)
        else:
            raise TraceError(f"the {engine} engine has no Prolog program to trace")
        lines = [escaped(line) for line in traced.lines]
        if traced.stopped:
            lines.append(f"% the trace stopped {traced.stopped}")
        with make_engine(engine, objective, program) as answering:
            answer = getattr(answering, goal)(state, agent)
    else:
        proof = get_engine(engine, objective) if named.tracing == "proof" else None
        tracer = Tracer(objective, levels, max_calls, proof)
        answer = getattr(tracer, goal)(state, agent)
        lines = list(tracer.text(more))
    shown = ("false." if answer is None else str(answer) if isinstance(answer, Decision)
             else f"SV = {answer}.")
    return Trace(tuple(lines), shown, answer is not None)


class TraceError(LabError, ValueError):
    """A trace that cannot be made as asked."""


@dataclass(frozen=True, repr=False)
class TreeView(Display):
    """A game tree: in a notebook the stepped page (`logic.tools.tree_html`), else the summary
    and the chosen line; `save` writes the page or a picture."""

    tree: GameTree

    def text(self) -> str:
        line = " ".join(f"{node.state}" for node in self.tree.principal_variation())
        return (f"{self.tree.drawn} nodes drawn; {self.tree.search} visited "
                f"{self.tree.counts.nodes}\nthe chosen line: {line}")

    def html(self) -> str:
        from minimax_lab.logic.tools.tree_html import tree_html_frame

        return tree_html_frame(self.tree)

    def svg(self) -> str:
        """The picture `minimax-lab tree --out FILE.svg` draws (needs Graphviz's `dot`)."""
        with tempfile.TemporaryDirectory() as folder:
            return self.save(Path(folder) / "tree.svg").read_text(encoding="utf-8")

    def save(self, path: str | Path) -> Path:
        """Write the tree to `path`: `.html` the stepped page; `.svg`, `.png`, `.dot` a picture."""
        from minimax_lab.logic.tools.tree_dot import render, to_dot
        from minimax_lab.logic.tools.tree_html import tree_html

        target = Path(path)
        if target.suffix == ".html":
            target.write_text(tree_html(self.tree), encoding="utf-8")
        else:
            render(to_dot(self.tree), target)
        return target


def tree(position: Position, player: str | None = None, search: str = "minimax",
         plies: int | None = None, depth: int | None = None, only_best: bool = False,
         max_nodes: int = NODE_LIMIT, objective: Objective = LAB) -> TreeView:
    """The tree `search` (minimax or alphabeta) walks below the position, `plies` deep (by
    default as deep as fits a slide, as `minimax-lab tree` draws it), the search stopped
    `depth` plies down if given."""
    from minimax_lab.logic.tools.tree_dot import slide_tree

    state, player = _position(position, player)

    def built(drawn: int | None, fit: bool = False) -> GameTree:
        return build_tree(state, player, objective, search, drawn, max_nodes, depth, only_best,
                          fit=fit)

    return TreeView(built(plies) if plies is not None else slide_tree(built))


@dataclass(frozen=True, repr=False)
class Stats(Display):
    """The nodes minimax, alpha-beta and memoised search visit, and alpha-beta's cuts."""

    counts: dict[str, int]

    def text(self) -> str:
        return "\n".join(f"{name}: {count}" for name, count in self.counts.items())

    def html(self) -> str:
        return Table(("", "count"), [(name, str(count)) for name, count in self.counts.items()]
                     ).html()


def stats(position: Position, player: str | None = None, depth: int | None = None,
          objective: Objective = LAB) -> Stats:
    """The work of each search below the position, the position itself included; memo counts
    each distinct state once."""
    state, player = _position(position, player)
    counts = count_nodes(state, player, objective, depth)
    return Stats({"minimax": counts["minimax"].nodes, "alphabeta": counts["alphabeta"].nodes,
                  "memo": counts["memo"].nodes, "alpha cuts": counts["alphabeta"].alpha_cuts,
                  "beta cuts": counts["alphabeta"].beta_cuts})


def play(position: Position, cell: int | None = None, player: str | None = None,
         engine: str | Engine = "reference") -> Board:
    """The board after one move of the player to move: `cell` (1 to 9), or the engine's
    decision if no cell is given."""
    state, mover = _position(position, player)
    if is_terminal(state):
        raise MoveError(f"the game in {state} is over: there is no move to play")
    if cell is None:
        decision = get_engine(engine).minimax_decision(state, mover)
        assert decision is not None, "a game that goes on has a decision"
        cell = decision.action.cell
    if not isinstance(cell, int) or not 1 <= cell <= SIZE:
        raise MoveError(f"there is no cell {cell!r}; the cells are 1 to {SIZE}")
    if state[cell - 1] != BLANK:
        raise MoveError(f"cell {cell} is taken by {state[cell - 1]}; choose a blank cell")
    after = mark(state, cell, mover)
    return Board(after, None if is_terminal(after) else GAME.other_player(mover))


@dataclass(frozen=True, repr=False)
class Game(Display):
    """A game against the agent to click: in a notebook a board whose every answer was computed
    when the game was made (`logic.tools.game_html`), else its setup in words; `save` writes
    it as a page of its own."""

    setup: GameSetup
    engine: Engine

    def text(self) -> str:
        return f"{self.setup.described()}\nIn Jupyter this shows a board to click."

    def html(self) -> str:
        from minimax_lab.logic.tools.game_html import game_html_frame

        return game_html_frame(self.setup, self.engine)

    def save(self, path: str | Path) -> Path:
        """Write the game to `path` as a page of its own (`.html`)."""
        from minimax_lab.logic.tools.game_html import game_html

        target = Path(path)
        target.write_text(game_html(self.setup, self.engine), encoding="utf-8")
        return target


def game(human: str = "x", first: str = "human", mode: str = "win", scoring: str = "depth",
         depth: int | None = None, engine: str | Engine = "reference",
         search: str = "minimax") -> Game:
    """A game against the agent: you play `human` (x or o), `first` opens (human or agent);
    the agent, `engine`, plays for `mode` (win or lose) under `scoring` (depth, as `minimax-lab
    play`, or lab), looking `depth` plies ahead (None: to the end); the search of each of its
    moves is drawn as `search` walks it."""
    setup = GameSetup(parse_player(human), first, mode, scoring, depth, search)
    return Game(setup, get_engine(engine, setup.objective, depth=depth))


# --- grading ---------------------------------------------------------------------------------

@dataclass(frozen=True, repr=False)
class Grade(Display):
    """A grade as `minimax-lab grade` gives it: its report (one submission's whole report, or
    a class's summary and bugs), whether all is right, the score (one submission's), the exit
    status the command would end with, the notes it would print, and every grade (`graded`,
    `compare.grader.outputs.graded.Graded`). In Jupyter it shows its report, then its
    searches beside the lab's (`beside`)."""

    report: str
    clean: bool
    score: float | None
    max_score: float | None
    status: int = 0
    notes: tuple[str, ...] = ()
    graded: Graded | None = None

    def text(self) -> str:
        return self.report

    @property
    def beside(self) -> str:
        """One submission's searches at its first wrong calls, each drawn beside the lab's,
        the first difference marked, as HTML ("" where none is drawn: a right program, a
        class, or a student view that does not show the lab's answers)."""
        from minimax_lab.compare.grader.outputs.beside_page import searches_html

        shown = self.graded.shown if self.graded is not None else []
        return searches_html(shown[0]) if len(shown) == 1 else ""

    def html(self) -> str:
        return preformatted(escape(self.report)) + self.beside


def grade(paths: str | Path | Sequence[str | Path], *, assignment: str | None = None,
          jobs: int = 1, shard: tuple[int, int] | None = None, feedback: str | None = None,
          student_view: bool = False, roster: str | None = None, **named: object) -> Grade:
    """Grade submissions (a file, or a folder of one student's files; or several) as
    `minimax-lab grade` does, each in its own contained process, with the same options by the
    same names: every option of `grade`'s table (`interface`, `predicates`, `ties`, `budget`,
    `hints`...: this function's signature lists them, None for the assignment's, else the
    table's default, said below), the interface's own options (`answers=3`,
    `python=PATH`, `definitions_only=True`, `mapping=FILE`, `mapping_set=["KEY=VALUE"]` for
    `--set`...), `unsandboxed=True` to grade where bwrap cannot contain the submissions (else
    refused, as the command refuses), `roster=FILE` (`--roster`), and the outputs, named as
    the command's options are (`csv="gradebook.csv"`, `reports="reports"`,
    `gradescope="results"`...; docs/grading-reference.md).
    Errors are `LabError`s."""
    from minimax_lab.compare.grader.interfaces.registry import interface_options
    from minimax_lab.compare.grader.options.config import Settings, SettingsError
    from minimax_lab.compare.grader.options.options import OPTION, Kind, Where, options_at
    from minimax_lab.compare.grader.outputs.text import submission_report, summary
    from minimax_lab.compare.grader.outputs.writers import WRITERS
    from minimax_lab.compare.grader.pipeline import GradingRun, Quiet, grade_run

    keywords = {option.argument: option.name for option in options_at(Where.API)}
    unknown = sorted(set(named) - set(keywords) - set(WRITERS) - set(interface_options()))
    if unknown:
        raise LabError(f"unknown option {quoted(unknown[0])}; the interfaces' options are "
                       f"{', '.join(interface_options())}, the outputs {', '.join(WRITERS)}")
    given = [paths] if isinstance(paths, str | Path) else list(paths)
    try:
        settings = Settings(
            **{keywords[key]: value for key, value in named.items() if key in keywords},
            own={name: tuple(value) if isinstance(value, list) else value
                 for name, value in named.items() if name not in keywords | WRITERS.keys()})
    except SettingsError as error:
        option = OPTION[error.name]
        if option.kind in (Kind.CHOICE, Kind.NAMES):  # said as the API's keyword
            raise LabError(f"{option.argument}={error.value!r}: expected "
                           f"{error.expected}") from None
        raise
    outputs = {name: Path(str(value)) for name, value in named.items() if name in WRITERS}
    told = Quiet()
    graded = grade_run(GradingRun(tuple(Path(path) for path in given), settings, assignment,
                                  jobs, shard, feedback, student_view, outputs,
                                  None if roster is None else str(roster)), told)
    shown = graded.shown
    one = shown[0] if len(shown) == 1 else None
    return Grade(submission_report(one) if one is not None else summary(graded),
                 all(grade.clean for grade in shown),
                 None if one is None or one.score is None else one.score.score,
                 None if one is None or one.score is None else one.score.max_score,
                 graded.status, tuple(told.said), graded)


def grade_signature() -> inspect.Signature:
    """`grade`'s signature as `help()` and `inspect.signature` show it: the paths, then each
    option the API takes from `grade`'s table (`compare.grader.options.options`), by its
    keyword, default None, then the rest of `grade`'s own parameters."""
    from minimax_lab.compare.grader.options.options import Where, options_at

    written = _WRITTEN.parameters
    keyword = inspect.Parameter.KEYWORD_ONLY
    return inspect.Signature(
        [written["paths"],
         *(inspect.Parameter(option.argument, keyword, default=None,
                             annotation=option.annotation) for option in options_at(Where.API)),
         *(parameter for name, parameter in written.items() if name != "paths")],
        return_annotation="Grade")


def _defaults_said() -> str:
    """The table's defaults of the options that have one, as `grade`'s docstring says them."""
    from minimax_lab.compare.grader.options.options import Where, options_at

    return ", ".join(f"{option.argument}={option.default!r}" for option in options_at(Where.API)
                     if option.default is not None)


_WRITTEN = inspect.signature(grade)
"""`grade`'s parameters as written, without the table's."""
grade.__signature__ = grade_signature()  # type: ignore[attr-defined]
grade.__doc__ = (f"{grade.__doc__}\n\n    Not given, an option is the assignment's, else: "
                 f"{_defaults_said()}.")
