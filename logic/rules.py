"""The lab's predicates as pyDatalog rules over the facts of `facts/game.pl`: the lab, plainly.

Each section matches a section of `logic/reference.py`, in the same order, under the lab's
names; the lab's Prolog clause stands in a comment above each rule. pyDatalog has no compound
terms, so the lab's `sv(Next, V)` becomes two arguments `Next, V`, and the action
`[Player, Position]` becomes its Position (the player is already an argument). The lab's
predicates are named and described by their records (`logic/predicates.py`).

`--engine logic-plain` runs this program (`logic/engines/datalog.py`);
`logic/engines/fast_rules.py` is the same program made fast, which `--engine logic` runs.
"""

from __future__ import annotations

from typing import Any

from pyDatalog import pyDatalog
from pyDatalog.pyParser import Term

from minimax_lab.facts import read_facts
from minimax_lab.logic.objective import DEPTH_BASE, LAB, Objective
from minimax_lab.logic.predicates import LAB_PREDICATES

RELATIONS = (
    "player", "blank", "cell", "line", "objective", "depth_base",
    "list_replace",
    "winning_config", "some_line", "has_blank", "ongoing",
    "utility", "marks",
    "max_successor", "min_successor", "find_max_sv", "find_min_sv",
    "asked", "decision",
)
"""The program's relations beside the lab's predicates: the game's facts, the lab's helpers,
the objective's, a table's."""
PREDICATES = (*LAB_PREDICATES, *RELATIONS)
"""Every predicate of the program: the lab's, one record each (`logic/predicates.py`), then
its own relations."""


class Program:
    """The predicates of a loaded program, by name, as pyDatalog terms to call with constants."""

    def __init__(self, predicates: dict[str, Any]) -> None:
        self._predicates = predicates

    def __getattr__(self, name: str) -> Any:
        try:
            return self.__dict__["_predicates"][name]
        except KeyError:
            raise AttributeError(f"the program has no predicate {name!r}") from None


def load_program(goal: Objective = LAB) -> Program:
    """Clear this thread's pyDatalog database and state the program in it, playing for `goal`."""
    pyDatalog.clear()
    predicates = {name: Term(name) for name in PREDICATES}
    (
        minimax_decision, min_value, max_value, terminal_state, successor, other_player,
        get_action,
        player, blank, cell, line, objective, depth_base,
        list_replace,
        winning_config, some_line, has_blank, ongoing,
        utility, marks,
        max_successor, min_successor, find_max_sv, find_min_sv,
        asked, decision,
    ) = predicates.values()
    S, P, O, N, C, V, B, D, G, T, U, Z, K, A, E = (Term(name) for name in "SPONCVBDGTUZKAE")
    min_, len_ = Term("min_"), Term("len_")

    # --- Game facts: other_player -----------------------------------------------------------
    # other_player(x, o).
    # other_player(o, x).
    # and the other facts of facts/game.pl: player/1, blank/1, cell/1, line/3.
    for name, args in read_facts():
        if name != "symmetry":
            pyDatalog.assert_fact(name, *args)
    # objective(Sign, Scoring): what the program plays for (logic/objective.py).
    pyDatalog.assert_fact("objective", goal.sign, goal.scoring)
    pyDatalog.assert_fact("depth_base", DEPTH_BASE)

    # --- successor (list_replace) -----------------------------------------------------------
    # list_replace(Find, Replace, [Find|Rest], [Replace|Rest]).
    # list_replace(Find, Replace, [Head|Rest], [Head|Result]) :-
    #     list_replace(Find, Replace, Rest, Result).
    # Here with the cell C it replaces: list_replace(S, P, C, N) marks the blank cell C of S.
    list_replace(S, P, C, N) <= (
        player(P) & blank(B) & cell(C) & (S[C - 1] == B) & (N == S[0 : C - 1] + P + S[C:])
    )
    # successor(State, Player, Next) :-
    #     blank(Blank),
    #     list_replace(Blank, Player, State, Next).
    successor(S, P, N) <= list_replace(S, P, C, N)

    # --- terminal_state (winning_config) ----------------------------------------------------
    # winning_config(State, Player) :-
    #     line(A, B, C),
    #     nth1(A, State, Player),
    #     nth1(B, State, Player),
    #     nth1(C, State, Player).
    winning_config(S, P) <= (
        line(A, D, E) & player(P) & (S[A - 1] == P) & (S[D - 1] == P) & (S[E - 1] == P)
    )
    # What the clauses below ask, and max_value's cut said without a cut: some_line, has_blank
    # and ongoing.
    some_line(S) <= winning_config(S, P)
    has_blank(S) <= blank(B) & B.in_(S)
    ongoing(S) <= has_blank(S) & ~some_line(S)
    # terminal_state(State, Player, 1) :-
    #     once(winning_config(State, Player)).
    terminal_state(S, P, 1) <= winning_config(S, P)
    # terminal_state(State, Player, -1) :-
    #     other_player(Player, Other),
    #     once(winning_config(State, Other)).
    terminal_state(S, P, -1) <= other_player(P, O) & winning_config(S, O)
    # terminal_state(State, _, 0) :-
    #     blank(Blank),
    #     \+ memberchk(Blank, State),
    #     \+ winning_config(State, _).
    terminal_state(S, P, 0) <= player(P) & ~has_blank(S) & ~some_line(S)

    # --- utility (the objective) ------------------------------------------------------------
    # utility(S, P, U): terminal_state's value as the objective scores it; under the lab's
    # objective (win, lab) it is terminal_state's value itself.
    utility(S, P, U) <= objective(G, "lab") & terminal_state(S, P, T) & (U == G * T)
    utility(S, P, U) <= (
        objective(G, "depth") & terminal_state(S, P, T) & depth_base(Z) & (marks[S] == K)
        & (U == G * T * (Z - K))
    )
    (marks[S] == len_(C)) <= blank(B) & cell(C) & (S[C - 1] != B)

    # --- max_value and min_value (find_max_sv, find_min_sv) ---------------------------------
    # max_value(State, Player, sv(State, Value)) :-
    #     terminal_state(State, Player, Value), !.
    max_value(S, P, S, V) <= utility(S, P, V)
    # max_value(State, Player, MaxSV) :-
    #     findall(sv(Next, Value),
    #             ( successor(State, Player, Next),
    #               min_value(Next, Player, sv(_, Value)) ),
    #             SVs),
    #     find_max_sv(SVs, MaxSV).
    # The findall is a relation, one row per successor with the cell C that reaches it;
    # find_max_sv(SVs, MaxSV): the first sv of SVs with the highest value, so the highest
    # value and then the lowest cell (the cell in the key).
    max_successor(S, P, C, N, V) <= ongoing(S) & list_replace(S, P, C, N) & min_value(N, P, D, V)
    (find_max_sv[S, P] == min_(N, order_by=(-V, C))) <= max_successor(S, P, C, N, V)
    max_value(S, P, N, V) <= (find_max_sv[S, P] == N) & min_value(N, P, D, V)

    # min_value(State, Player, sv(State, Value)) :-
    #     terminal_state(State, Player, Value), !.
    min_value(S, P, S, V) <= utility(S, P, V)
    # min_value(State, Player, MinSV) :-
    #     other_player(Player, Other),
    #     findall(sv(Next, Value),
    #             ( successor(State, Other, Next),
    #               max_value(Next, Player, sv(_, Value)) ),
    #             SVs),
    #     find_min_sv(SVs, MinSV).
    # find_min_sv(SVs, MinSV): the first sv of SVs with the lowest value, so the lowest value
    # and then the lowest cell.
    min_successor(S, P, C, N, V) <= (
        ongoing(S) & other_player(P, O) & list_replace(S, O, C, N) & max_value(N, P, D, V)
    )
    (find_min_sv[S, P] == min_(N, order_by=(V, C))) <= min_successor(S, P, C, N, V)
    min_value(S, P, N, V) <= (find_min_sv[S, P] == N) & max_value(N, P, D, V)

    # --- minimax_decision -------------------------------------------------------------------
    # minimax_decision(State, Player, Action, Value) :-
    #     max_value(State, Player, sv(Next, Value)),
    #     get_action(State, Next, Action).
    # At a terminal state max_value answers sv(State, V) and get_action fails: false.
    minimax_decision(S, P, C, V) <= max_value(S, P, N, V) & get_action(S, N, O, C)
    # asked(S, P) holds the positions a caller asserts; decision/4 answers them in one query.
    decision(S, P, C, V) <= asked(S, P) & minimax_decision(S, P, C, V)

    # --- get_action -------------------------------------------------------------------------
    # get_action(From, To, [Player, Position]) :-
    #     blank(Blank),
    #     nth1(Position, From, Blank),
    #     nth1(Position, To, Player),
    #     Player \== Blank.
    get_action(S, N, P, C) <= list_replace(S, P, C, N)

    return Program(predicates)
