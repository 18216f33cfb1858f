"""The lab's predicates asked of a student's program, as goals whose answer is `A`, and their
answers read back from the harness's JSON: the one wording of both, for the grader's questions
(`compare.grader.interfaces.prolog`) and the student's program as an engine
(`logic.engines.student`)."""

from __future__ import annotations

from minimax_lab.logic.contain.harness import answer_state, is_integer
from minimax_lab.logic.predicates import LAB_PREDICATES
from minimax_lab.logic.state import Player, State, to_prolog


def lab_goal(predicate: str, state: State, player: Player) -> str:
    """The goal asking the lab's `predicate` of `state` with `player`: successor's answers as
    one list, in order (`findall`), minimax_decision's as `Action-Value`: the record's goal
    (`logic/predicates.py`)."""
    return LAB_PREDICATES[predicate].goal.format(state=to_prolog(state), player=player)


def _arguments(term: object, name: str) -> list[object] | None:
    """The two arguments of `term` if it is `name(_, _)` as the harness's JSON spells it."""
    if isinstance(term, dict) and term.get("f") == name:
        arguments = term.get("args")
        if isinstance(arguments, list) and len(arguments) == 2:
            return arguments
    return None


def read_sv(term: object) -> tuple[State, int] | None:
    """`sv(State, Value)` (max_value's and min_value's answer, lab.md), if `term` is one."""
    arguments = _arguments(term, "sv")
    if arguments is not None:
        state, value = arguments
        kept = answer_state(state)
        if kept is not None and is_integer(value):
            return kept, value
    return None


def read_decision(term: object) -> tuple[str, int, int] | None:
    """`[Mark, Position]-Value` (minimax_decision's action and value, lab.md) as (mark,
    position, value), if `term` is one; the mark is x or o, the integers not yet checked
    against the board."""
    arguments = _arguments(term, "-")
    if arguments is not None:
        action, value = arguments
        if (isinstance(action, list) and len(action) == 2 and action[0] in ("x", "o")
                and is_integer(action[1]) and is_integer(value)):
            return action[0], action[1], value
    return None


def read_states(term: object) -> list[State] | None:
    """A list of states (successor's, gathered by `findall`), if `term` is one."""
    if not isinstance(term, list):
        return None
    states = [answer_state(item) for item in term]
    return None if None in states else [state for state in states if state is not None]
