"""A Prolog predicate declared by a mapping: the grammar's keys checked at the boundary, goals
built as data and read back by the project's reader, answers read back as moves."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from minimax_lab.compare.grader.interfaces.mappings import (
    MappingError,
    checked_mapping,
    read_mapping,
    words_in,
)
from minimax_lab.compare.grader.interfaces.prolog_mapping import (
    board_term,
    goal,
    mark_term,
    position_term,
    read_answer,
    read_board,
    read_position,
)
from minimax_lab.logic.contain.prolog_text import Atom, Compound, Term, Var, write
from minimax_lab.logic.positions import all_positions
from minimax_lab.logic.state import BLANK, mark
from minimax_lab.logic.toplevel import prolog_terms as pt
from minimax_lab.logic.toplevel.reader import read_term

POSITIONS = all_positions()[::97]
"""A sample of the 9040 positions, every 97th."""

BRATKO = {"predicate": "minimax/3", "module": "minimax",
          "args": [["player", "play", "board"], "result", "value"], "blank": 0,
          "result": "board"}


def as_json(term: Term) -> object:
    """A term as the harness's JSON gives it back (logic/prolog/harness.pl)."""
    if isinstance(term, Atom):
        return term.name
    if isinstance(term, Var):
        return {"var": True, "n": 1}
    if isinstance(term, Compound):
        return {"f": term.name, "args": [as_json(arg) for arg in term.args]}
    if isinstance(term, list):
        return [as_json(item) for item in term]
    return term


def read_back(term: pt.Term) -> object:
    """A term the project's reader read, as data comparable with `prolog_text`'s."""
    if isinstance(term, pt.Atom):
        return Atom(term.name)
    if isinstance(term, pt.Int):
        return term.value
    if isinstance(term, pt.Var):
        return Var(term.name)
    if isinstance(term, pt.ListTerm):
        return [read_back(item) for item in term.items]
    if isinstance(term, pt.Struct):
        return Compound(term.name, tuple(read_back(arg) for arg in term.args))
    raise AssertionError(f"read as {term!r}")


TEXTS = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=12)
TERMS = st.recursive(st.integers(-10**6, 10**6) | TEXTS.map(Atom),
                     lambda inner: st.lists(inner, max_size=4)
                     | st.builds(lambda name, args: Compound(name, tuple(args)), TEXTS,
                                 st.lists(inner, min_size=1, max_size=3)), max_leaves=12)


@settings(deadline=None, max_examples=150)
@given(TERMS)
def test_a_term_built_as_data_reads_back_as_the_same_term(term):
    assert read_back(read_term(write(term)).term) == term


@pytest.mark.parametrize(("values", "message"), [
    ({"predicate": "minimax"}, "expected \"NAME/ARITY\""),
    ({"predicate": "minimax/x"}, "expected \"NAME/ARITY\""),
    ({"predicate": "best/2", "args": ["board", "player", "result"]}, "takes 2 arguments"),
    ({"predicate": "best/2", "args": ["board", "player"]}, "must hold \"result\""),
    ({"predicate": "best/2", "args": ["player", "result"]}, "must hold \"board\""),
    ({"predicate": "best/3", "args": ["board", "board", "result"]}, "more than once"),
    ({"predicate": "best/2", "args": ["board", ["result"]]}, "an argument of its own"),
    ({"predicate": "best/3", "function": "best"}, "a Python mapping's key"),
    ({"predicate": "best/3", "returns": "cell1"}, "a Python mapping's key"),
    ({"function": "best", "positions": "numpad"}, "a Prolog mapping's key"),
    ({"function": "best", "board": "facts"}, "for a Prolog predicate"),
    ({"predicate": "best/3", "board": "string"}, "for a Python function"),
    ({"predicate": "best/3", "board": "diagonal"}, "expected one of"),
    ({"predicate": "best/3", "positions": "chess"}, "expected one of"),
    ({"predicate": "best/3", "result": "tree"}, "expected one of"),
    ({"predicate": "best/3", "x": "x", "o": "x"}, "must differ"),
    ({"predicate": "best/3", "x": "_"}, "expected an atom's text"),
    ({"predicate": "best/3", "x": 1.5}, "expected an atom's text"),
    ({"predicate": "best/3", "plays": "z"}, "neither x's mark nor o's"),
    ({"predicate": "best/3", "board": "facts", "blank": "_"}, "has no blank"),
    ({"predicate": "best/4", "args": ["board", "depth", "player", "result"]}, "depth = N"),
    ({"predicate": "best/3", "depth": 12}, "1 to 9"),
    ({"predicate": "best/3", "heuristic": True}, "set depth = N"),
    ({"predicate": "best/3", "heuristic": "yes", "depth": 2}, "true or false"),
    ({"predicate": "best/3", "file": "best.py"}, "expected a Prolog file"),
    ({"predicate": "best/3", "module": ""}, "the name of a module"),
    ({"predicate": "best/4", "result": "move_value",
      "args": ["board", "player", "result", "value"]}, "carries the value"),
    ({"predicate": "best/3", "win_value": 0}, "win_value"),
    ({"predicate": "best/3", "nope": 1}, "unknown mapping key"),
])
def test_a_prolog_mapping_that_cannot_be_followed_is_refused(values, message):
    with pytest.raises(MappingError, match=message):
        checked_mapping(values)


WORDS = st.sampled_from(["board", "player", "result", "value", "depth", "play", 0, 3])
PROLOG_KEYS = st.fixed_dictionaries({"predicate": st.sampled_from(
    ["best/2", "best/3", "best/4", "minimax/3", "m/x", "/3"]) | TEXTS}, optional={
    "board": st.sampled_from(["flat", "rows", "facts", "string", "x"]),
    "result": st.sampled_from(["move", "board", "action", "move_value", "other"]),
    "positions": st.sampled_from(["cell1", "cell0", "row_col", "numpad", 9]),
    "x": st.sampled_from(["x", "X", 1, "_", 2.0]), "o": st.sampled_from(["o", "O", 2, 1]),
    "blank": st.sampled_from(["-", "e", "n", 0, "b", "_", "x"]),
    "plays": st.sampled_from(["x", "o", 1, "z"]), "depth": st.sampled_from([1, 4, 0, "2"]),
    "heuristic": st.booleans(), "value_side": st.sampled_from(["x", "mover", "y"]),
    "win_value": st.sampled_from([1, 10, -1]), "module": st.sampled_from(["game", "", 3]),
    "file": st.sampled_from(["t.p", "t.pro", "t.pl", "t.py"]),
    "args": st.lists(WORDS | st.lists(WORDS, max_size=3), max_size=5)})


@settings(deadline=None, max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(PROLOG_KEYS, st.sampled_from(POSITIONS))
def test_any_prolog_keys_are_a_mapping_that_round_trips_or_a_mapping_error(values, position):
    try:
        mapping = checked_mapping(values)
    except MappingError as error:
        assert "\n" not in str(error)
        return
    state, player = position
    assert mapping.prolog and mapping.arity == len(mapping.args)
    assert read_board(mapping, as_json(board_term(mapping, state))) == state
    for cell in range(1, 10):
        assert read_position(mapping, as_json(position_term(mapping, cell))) == cell
    text, template = goal(mapping, state, player)
    called = read_back(read_term(text).term)
    if mapping.module is not None:  # called in the program's module: Module:Goal
        assert isinstance(called, Compound) and called.name == ":"
        assert called.args[0] == Atom(mapping.module)
        called = called.args[1]
    assert isinstance(called, Compound) and called.name == mapping.name
    assert len(called.args) == mapping.arity
    assert read_back(read_term(template).term) in (Var("Result"), [Var("Result"), Var("Value")])


@pytest.mark.parametrize("values", [
    BRATKO,
    {"predicate": "minimax/2", "blank": "n", "x": "x", "o": "o", "plays": "x",
     "args": ["board", "result"], "result": "board", "win_value": 10},
    {"predicate": "alphabeta/4", "board": "facts", "positions": "numpad", "depth": 3,
     "heuristic": True, "args": ["board", "depth", "player", "result"], "result": "action"},
    {"predicate": "negamax/3", "board": "rows", "blank": "_", "positions": "row_col",
     "args": ["board", "player", "result"], "result": "move_value", "value_side": "mover"},
    {"predicate": "best/3", "board": "rows", "file": "ttt.p", "result": "board"},
    {"predicate": "best/3", "x": 1, "o": 2, "blank": 0, "positions": "cell0"},
])
def test_each_style_reads_back_the_move_it_is_given(values):
    """The answer a right program gives (its move, next board or action, as the mapping
    encodes it) is read back as that move, on every sampled position."""
    mapping = checked_mapping(values)
    for state, player in POSITIONS:
        for cell in [index + 1 for index, held in enumerate(state) if held == BLANK][:2]:
            after = mark(state, cell, player)
            result: Term = {"move": position_term(mapping, cell),
                            "board": board_term(mapping, after),
                            "action": [mark_term(mapping, player),
                                       position_term(mapping, cell)],
                            "move_value": Compound("-", (position_term(mapping, cell), 1)),
                            }[mapping.result.value]
            if mapping.result.value == "board" and "board" not in mapping.args:
                result = [Atom("o"), Atom("play"), result]  # a position, as the argument
            answer = ([as_json(result), 1] if "value" in words_in(mapping.args)
                      else as_json(result))
            assert read_answer(mapping, state, player, answer)[0] == cell


def test_a_prolog_mapping_reads_from_set_options_too():
    mapping = read_mapping(None, ["predicate=best/3", 'board="facts"', "positions=numpad"])
    assert (mapping.name, mapping.arity, mapping.board.value) == ("best", 3, "facts")
    assert goal(mapping, "x-------o", "o")[0] == (
        "'best'(['played'(7, 'x'), 'played'(3, 'o')], 'o', Result)")
