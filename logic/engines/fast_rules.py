"""The lab's program of `logic/rules.py`, made fast: the same predicates, the same answers,
proven equal on every position under every objective; `--engine logic` runs it.

What each optimisation changes, against the plain program:
- a successor's value: asked not of the successor itself but of its symmetry class's
  representative `canon[N]`, the smallest of its 8 images (`image/3`, `class_min`,
  `class_max`): from the empty board, a few hundred classes of games in progress instead of
  thousands of states;
- values across questions: a session; a question solves the classes below its board not yet
  solved, at once (`solution/5`), and asserts their values (`solved_max`, `solved_min`), which
  later questions look up: each class derived at most once in a session (`Session.solved`);
- `winning_config`: not a join with the `line/3` facts but the state's lines read side by side
  as slices (`x-o|-x-|...`, `logic/slices.py`), searched for `P P P`;
- an image under a symmetry: one rule per `symmetry/10` fact, its cells read as a few slices;
- a table of decisions: found once per symmetry class (`class_decision/4`) and carried to its
  members through `maps/3`, the lowest optimal cell in each member's own numbering;
- unchanged: the game facts, the objective (`utility/3`, `objective/2`, `depth_base/1`), and
  every predicate of the lab under its own name.

pyDatalog has no compound terms, so the lab's `sv(Next, V)` becomes two arguments `Next, V`,
and the action `[Player, Position]` its Position (the player is already an argument). The
engine (`logic/engines/datalog.py`) keeps the program in its thread's pyDatalog database.
"""

from __future__ import annotations

from pyDatalog import pyDatalog
from pyDatalog.pyParser import Term

from minimax_lab.facts import Constant, Fact, FactsError, read_facts
from minimax_lab.logic.objective import DEPTH_BASE, LAB, Objective
from minimax_lab.logic.predicates import LAB_PREDICATES
from minimax_lab.logic.rules import Program
from minimax_lab.logic.slices import LINE_SEPARATOR, read_cells, read_lines

_RELATIONS = (
    "player, blank, cell, line, symmetry, objective, depth_base, "
    "list_replace, "
    "winning_config, three, some_line, has_blank, ongoing, "
    "utility, marks, "
    "image, canon, class_max, class_min, known_max, known_min, solved_max, solved_min, "
    "to_solve, solution, "
    "max_successor, min_successor, find_max_sv, find_min_sv, "
    "asked, decision, "
    "maps, class_asked, best_move, member_move, member_cell, class_decision"
)
"""The program's relations beside the lab's predicates (`logic/predicates.py`)."""
_VARIABLES = "L, S, P, O, N, C, V, W, B, D, E, H, M, T, U, G, Z, K, Y, I"
_CELLS = "I1, I2, I3, I4, I5, I6, I7, I8, I9"
_AGGREGATES = "min_, len_"

class Session(Program):
    """The fast program, and what a session of the logic engine has solved in it
    (`logic/engines/datalog.py`)."""

    def __init__(self, predicates: dict[str, Term]) -> None:
        super().__init__(predicates)
        self.solved: set[tuple[str, str]] = set()
        """The symmetry classes (state, player to move) whose values the session has solved
        and kept as facts (`solved_max`, `solved_min`)."""


def load_program(goal: Objective = LAB) -> Session:
    """Clear this thread's pyDatalog database and state the program in it, playing for `goal`."""
    pyDatalog.clear()
    facts = read_facts()
    lines, symmetries = _shapes(facts)
    predicates = {name: Term(name) for name in (*LAB_PREDICATES, *_names(_RELATIONS))}
    (
        minimax_decision, min_value, max_value, terminal_state, successor, other_player,
        get_action,
        player, blank, cell, line, symmetry, objective, depth_base,
        list_replace,
        winning_config, three, some_line, has_blank, ongoing,
        utility, marks,
        image, canon, class_max, class_min, known_max, known_min, solved_max, solved_min,
        to_solve, solution,
        max_successor, min_successor, find_max_sv, find_min_sv,
        asked, decision,
        maps, class_asked, best_move, member_move, member_cell, class_decision,
    ) = predicates.values()
    L, S, P, O, N, C, V, W, B, D, E, H, M, T, U, G, Z, K, Y, I = _terms(_VARIABLES)
    I1, I2, I3, I4, I5, I6, I7, I8, I9 = _terms(_CELLS)
    min_, len_ = _terms(_AGGREGATES)

    # --- Game facts: other_player -----------------------------------------------------------
    # player(x). other_player(x, o). blank('-'). cell(1). line(1, 2, 3). symmetry(...): game.pl
    for name, args in facts:
        pyDatalog.assert_fact(name, *args)
    # objective(Sign, Scoring): the program's parameter (logic/objective.py): Sign 1 plays to
    # win, -1 to lose; Scoring lab or depth. depth_base(10): a win on k marks is worth 10 - k.
    pyDatalog.assert_fact("objective", goal.sign, goal.scoring)
    pyDatalog.assert_fact("depth_base", DEPTH_BASE)

    # --- successor (list_replace) -----------------------------------------------------------
    # successor(State, Player, Next) :- list_replace(-, Player, State, Next).
    # list_replace(S, P, C, N): list_replace(-, P, S, N) at one blank cell C.
    list_replace(S, P, C, N) <= (
        player(P) & blank(B) & cell(C) & (S[C - 1] == B) & (N == S[0 : C - 1] + P + S[C:])
    )
    successor(S, P, N) <= list_replace(S, P, C, N)

    # --- terminal_state (winning_config) ----------------------------------------------------
    # winning_config(S, P): P holds the three cells of a line of the facts: P P P is one of
    # the lines of S, read side by side as slices of S (logic/slices.py).
    winning_config(S, P) <= (L == read_lines(S, lines)) & three(M, P) & M.in_(L)
    three(M, P) <= player(P) & (M == P + P + P)
    some_line(S) <= winning_config(S, P)
    # member(-, S): a blank cell is left.
    has_blank(S) <= blank(B) & B.in_(S)
    # terminal_state(S, P, 1) :- once(winning_config(S, P)).
    terminal_state(S, P, 1) <= winning_config(S, O) & (P == O)
    # terminal_state(S, P, -1) :- other_player(P, O), once(winning_config(S, O)).
    terminal_state(S, P, -1) <= winning_config(S, O) & other_player(P, O)
    # terminal_state(S, _, 0) :- \+ member(-, S), \+ winning_config(S, _).
    terminal_state(S, P, 0) <= player(P) & ~has_blank(S) & ~some_line(S)
    # ongoing(S): the game goes on; the lab's cut after terminal_state in max/min_value.
    ongoing(S) <= has_blank(S) & ~some_line(S)

    # --- utility (the objective) ------------------------------------------------------------
    # utility(S, P, U): terminal_state's value as the objective scores it; under the lab's
    # objective (win, lab) it is terminal_state's value itself.
    utility(S, P, U) <= objective(G, "lab") & terminal_state(S, P, T) & (U == G * T)
    utility(S, P, U) <= (
        objective(G, "depth") & terminal_state(S, P, T) & depth_base(Z) & (marks[S] == K)
        & (U == G * T * (Z - K))
    )
    (marks[S] == len_(C)) <= blank(B) & cell(C) & (S[C - 1] != B)

    # --- class values (symmetry) ------------------------------------------------------------
    # A state and its 8 images under symmetry/10 have the same values, so min_value and
    # max_value are asked of one representative per class, canon[S], the smallest image.
    # image(S, Y, T): cell I of T is cell CI of S, for symmetry(Y, C1, ..., C9). One rule per
    # symmetry of the facts, reading S's cells in that order as a few slices.
    for symmetry_name, cells in symmetries:
        image(S, symmetry_name, T) <= (T == read_cells(S, cells))
    (canon[S] == min_(T, order_by=T)) <= image(S, Y, T)
    # class_min(N, P, V): the value of min_value(N, P, sv(_, V)), of N's class canon[N]:
    # looked up where a session has solved the class (solution/5 below; the engine asserts
    # the answers as solved_min/solved_max), derived by the rules below where it has not.
    class_min(N, P, V) <= (canon[N] == K) & solved_min(K, P, V)
    class_min(N, P, V) <= (canon[N] == K) & ~known_min(K, P) & min_value(K, P, D, V)
    class_max(N, P, V) <= (canon[N] == K) & solved_max(K, P, V)
    class_max(N, P, V) <= (canon[N] == K) & ~known_max(K, P) & max_value(K, P, D, V)
    known_min(K, P) <= solved_min(K, P, V)
    known_max(K, P) <= solved_max(K, P, V)
    for solved in ("solved_min", "solved_max"):  # no fact until a session asserts some
        pyDatalog.assert_fact(solved, "", "", 0)
        pyDatalog.retract_fact(solved, "", "", 0)
    # solution(K, P, V, O, W): for each class K with P to move that the engine asks
    # (to_solve), max_value's value V for P, and min_value's value W for P's adversary O.
    solution(K, P, V, O, W) <= (
        to_solve(K, P) & max_value(K, P, D, V) & other_player(P, O) & min_value(K, O, E, W)
    )

    # --- max_value and min_value (find_max_sv, find_min_sv) ---------------------------------
    # max_value(S, P, sv(S, V)) :- terminal_state(S, P, V), !.
    max_value(S, P, S, V) <= utility(S, P, V)
    # findall(sv(Next, V), (successor(S, P, Next), min_value(Next, P, sv(_, V))), SVs):
    # one row per successor, with the cell C that reaches it.
    max_successor(S, P, C, N, V) <= ongoing(S) & list_replace(S, P, C, N) & class_min(N, P, V)
    # find_max_sv(SVs, sv(Next, _)): the highest value, then the lowest cell (cell in the key).
    (find_max_sv[S, P] == min_(N, order_by=(-V, C))) <= max_successor(S, P, C, N, V)
    # max_value(S, P, MaxSV) :- findall(...), find_max_sv(SVs, MaxSV).
    max_value(S, P, N, V) <= (find_max_sv[S, P] == N) & class_min(N, P, V)

    # min_value(S, P, sv(S, V)) :- terminal_state(S, P, V), !.
    min_value(S, P, S, V) <= utility(S, P, V)
    # other_player(P, O),
    # findall(sv(Next, V), (successor(S, O, Next), max_value(Next, P, sv(_, V))), SVs)
    min_successor(S, P, C, N, V) <= (
        ongoing(S) & other_player(P, O) & list_replace(S, O, C, N) & class_max(N, P, V)
    )
    # find_min_sv(SVs, sv(Next, _)): the lowest value, then the lowest cell.
    (find_min_sv[S, P] == min_(N, order_by=(V, C))) <= min_successor(S, P, C, N, V)
    # min_value(S, P, MinSV) :- other_player(P, O), findall(...), find_min_sv(SVs, MinSV).
    min_value(S, P, N, V) <= (find_min_sv[S, P] == N) & class_max(N, P, V)

    # --- minimax_decision -------------------------------------------------------------------
    # minimax_decision(S, P, Action, V) :-
    #     max_value(S, P, sv(Next, V)), get_action(S, Next, Action).
    # At a terminal state max_value answers sv(S, V) and get_action(S, S, _) fails: false.
    minimax_decision(S, P, C, V) <= max_value(S, P, N, V) & get_action(S, N, H, C)
    # asked(S, P) holds the positions a caller asserts; decision/4 answers them in one query.
    decision(S, P, C, V) <= asked(S, P) & minimax_decision(S, P, C, V)

    # The same decisions, found once per symmetry class: the engine asserts the asked
    # positions' class representatives (class_asked) and keeps the members it asked for.
    # maps(Y, I, C): cell I of a state's image under the symmetry Y shows the state's cell C.
    for cell, source in enumerate((I1, I2, I3, I4, I5, I6, I7, I8, I9), start=1):
        maps(Y, cell, source) <= symmetry(Y, I1, I2, I3, I4, I5, I6, I7, I8, I9)
    # best_move(K, P, C, V): C is one of the optimal moves of the representative K, value V.
    best_move(K, P, C, V) <= (
        class_asked(K, P) & max_value(K, P, N, V) & max_successor(K, P, C, D, W) & (W == V)
    )
    # member_move(T, P, I, V): in T, the image of K under Y, that optimal move is cell I.
    member_move(T, P, I, V) <= best_move(K, P, C, V) & image(K, Y, T) & maps(Y, I, C)
    # The lab's tie rule, in each member's own numbering: its lowest optimal cell.
    (member_cell[T, P, V] == min_(I, order_by=I)) <= member_move(T, P, I, V)
    class_decision(T, P, I, V) <= (member_cell[T, P, V] == I)

    # --- get_action -------------------------------------------------------------------------
    # get_action(From, To, [P, Pos]): To is From with cell Pos marked by P.
    get_action(S, N, P, C) <= list_replace(S, P, C, N)

    return Session(predicates)


def _shapes(
    facts: list[Fact],
) -> tuple[list[tuple[int, ...]], list[tuple[Constant, tuple[int, ...]]]]:
    """The arguments of the facts `line/3` and `symmetry/10`, which the rules spell as slices,
    once checked that there are lines, that they name cells by number, and that no mark is
    the line separator."""
    lines = [_cells("line", args) for name, args in facts if name == "line"]
    symmetries = [(args[0], _cells("symmetry", args[1:]))
                  for name, args in facts if name == "symmetry"]
    marks = [args[0] for name, args in facts if name in ("player", "blank")]
    if not lines:
        raise FactsError("the facts hold no line/3: no player could ever win")
    if LINE_SEPARATOR in marks:
        raise FactsError(f"a mark of the facts is {LINE_SEPARATOR!r}, which the rules keep "
                         "to separate lines")
    return lines, symmetries


def _cells(name: str, args: tuple[Constant, ...]) -> tuple[int, ...]:
    """The cell numbers among a fact's arguments; an error if one is not a number."""
    cells = tuple(arg for arg in args if isinstance(arg, int))
    if len(cells) != len(args):
        raise FactsError(f"a fact {name} names a cell that is not a number: {args}")
    return cells


def _names(names: str) -> list[str]:
    """The names of a comma-separated list."""
    return [name.strip() for name in names.split(",")]


def _terms(names: str) -> list[Term]:
    """pyDatalog terms for the comma-separated names: what `pyDatalog.create_terms` makes,
    without its look at the caller's stack, which slows every cold start (docs/benchmarks.md)."""
    return [Term(name) for name in _names(names)]
