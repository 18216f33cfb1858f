"""Each lab predicate, asked of both engines: the pyDatalog rules and the Python reference."""

from __future__ import annotations

import re

import pytest
from boards import LAB_CASES, TACTICS, TERMINAL, board
from pyDatalog import pyDatalog

from minimax_lab.facts import FactsError, read_facts
from minimax_lab.logic import reference
from minimax_lab.logic.engines import database, fast_rules, forget_reference_values, make_engine
from minimax_lab.logic.positions import all_positions, reachable_states
from minimax_lab.logic.state import EMPTY, GAME, PLAYERS
from minimax_lab.logic.terms import SV, Action, Decision

DECISIONS = {**LAB_CASES, **TACTICS}


def test_successors_come_in_cell_order(engine):
    state = board("x - - / - o - / - - -")
    successors = engine.successor(state, "x")
    blanks = [2, 3, 4, 6, 7, 8, 9]
    assert successors == [state[: cell - 1] + "x" + state[cell:] for cell in blanks]


def test_the_empty_board_has_nine_successors_one_per_cell(engine):
    successors = engine.successor(EMPTY, "o")
    assert len(successors) == 9
    assert [successor.index("o") + 1 for successor in successors] == list(range(1, 10))


def test_a_full_board_has_no_successor(engine):
    state, _ = TERMINAL["full board, no line"]
    assert engine.successor(state, "x") == []


@pytest.mark.parametrize("name", list(TERMINAL))
def test_terminal_values_from_each_side(engine, name):
    state, values = TERMINAL[name]
    for player, value in values.items():
        assert engine.terminal_state(state, player) == value


@pytest.mark.parametrize("name", ["lab: o takes cell 4 and wins", "lab: x opens in cell 1"])
def test_a_game_in_progress_is_not_terminal(engine, name):
    state, player, *_ = LAB_CASES[name]
    assert engine.terminal_state(state, player) is None


@pytest.mark.parametrize("name", list(TERMINAL))
def test_max_and_min_value_at_a_terminal_state_answer_the_state_itself(engine, name):
    state, values = TERMINAL[name]
    for player, value in values.items():
        assert engine.max_value(state, player) == SV(state, value)
        assert engine.min_value(state, player) == SV(state, value)


def test_max_value_takes_the_winning_successor(engine):
    state, *_ = TACTICS["x completes the top row"]
    assert engine.max_value(state, "x") == SV(board("x x x / o o - / - - -"), 1)


def test_min_value_lets_the_adversary_choose_the_lowest_value(engine):
    # o is the agent; x, the adversary, moves and wins: -1 from o's side.
    state, *_ = TACTICS["x completes the top row"]
    assert engine.min_value(state, "o") == SV(board("x x x / o o - / - - -"), -1)


def test_min_value_follows_max_value_one_ply_down(engine):
    # o to move must block at 3; as the adversary of x, o picks x's lowest value there.
    state, *_ = TACTICS["o must block the top row"]
    assert engine.min_value(state, "x") == SV(board("x x o / - o - / - - -"), 0)


@pytest.mark.parametrize("name", list(DECISIONS))
def test_decisions_of_the_lab_and_of_the_board(engine, name):
    state, player, position, value = DECISIONS[name]
    assert engine.minimax_decision(state, player) == Decision(Action(player, position), value)


@pytest.mark.parametrize("name", list(TERMINAL))
def test_no_decision_at_a_terminal_state(engine, name):
    state, values = TERMINAL[name]
    for player in values:
        assert engine.minimax_decision(state, player) is None


def test_get_action_names_the_cell_each_successor_marks(engine):
    state = board("x - - / - o - / - - -")
    for successor in engine.successor(state, "x"):
        position = next(cell for cell in range(1, 10) if state[cell - 1] != successor[cell - 1])
        assert engine.get_action(state, successor) == Action("x", position)


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("x - - / - - - / - - -", "x - - / - - - / - - -"),
        ("x - - / - - - / - - -", "x o o / - - - / - - -"),
        ("x - - / - - - / - - -", "o - - / - - - / - - -"),
    ],
)
def test_get_action_has_no_answer_unless_one_blank_cell_was_marked(engine, before, after):
    assert engine.get_action(board(before), board(after)) is None


@pytest.mark.parametrize("name", list(DECISIONS))
def test_move_values_hold_the_decision_at_the_lowest_best_cell(engine, name):
    state, player, position, value = DECISIONS[name]
    values = engine.move_values(state, player)
    assert sorted(values) == [cell for cell in range(1, 10) if state[cell - 1] == "-"]
    best = max(values.values())
    assert best == value
    assert min(cell for cell, cell_value in values.items() if cell_value == best) == position


def test_move_values_where_only_one_move_saves_the_game(engine):
    # o threatens 3-5-7: x must block at 7; every other move loses.
    state = board("x x o / - o - / - - -")
    values = engine.move_values(state, "x")
    assert values[7] == 0
    assert all(values[cell] == -1 for cell in (4, 6, 8, 9))


def test_no_move_values_at_a_terminal_state(engine):
    state, _ = TERMINAL["x has the top row"]
    assert engine.move_values(state, "o") == {}


def test_other_player(engine):
    assert engine.other_player("x") == "o"
    assert engine.other_player("o") == "x"


def test_after_the_first_question_the_reference_answers_every_position_from_its_memo():
    forget_reference_values()
    engine = make_engine("reference")
    engine.minimax_decision(EMPTY, "x")
    misses = reference.max_value.cache_info().misses + reference.min_value.cache_info().misses
    for state, player in all_positions():
        engine.minimax_decision(state, player)
        engine.min_value(state, engine.other_player(player))
    after = reference.max_value.cache_info().misses + reference.min_value.cache_info().misses
    assert after == misses


def ask_rows(predicate, *args) -> list[tuple]:
    """The rows of the variables of one query to a predicate of the rules."""
    return list(predicate(*args).data)


def fresh():
    return pyDatalog.Variable()


@pytest.fixture(scope="module")
def every_state() -> list[str]:
    """Every state play reaches, with either player first, terminal or not."""
    return sorted(reachable_states("x") | reachable_states("o"))


def test_the_rules_winning_config_holds_where_the_references_does(logic_engine, every_state):
    program = logic_engine.program
    for state in every_state:
        winners = {player for (player,) in ask_rows(program.winning_config, state, fresh())}
        assert winners == {player for player in PLAYERS if reference.winning_config(state, player)}


def test_the_rules_image_of_a_state_under_each_symmetry_of_the_facts(logic_engine, every_state):
    program = logic_engine.program
    for state in every_state:
        images = dict(ask_rows(program.image, state, fresh(), fresh()))
        assert images == {
            name: "".join(state[cell - 1] for cell in cells)
            for name, cells in GAME.symmetries.items()
        }


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda fact: [] if fact[0] == "line" else [fact], "the facts hold no line/3"),
        (lambda fact: [("player", ("|",))] if fact == ("player", ("o",)) else [fact],
         "a mark of the facts is '|'"),
    ],
)
def test_the_rules_refuse_facts_they_cannot_spell(monkeypatch, change, message):
    facts = [changed for fact in read_facts() for changed in change(fact)]
    monkeypatch.setattr(fast_rules, "read_facts", lambda: facts)
    try:
        with pytest.raises(FactsError, match=re.escape(message)):
            fast_rules.load_program()
    finally:
        database.forget()


@pytest.fixture(scope="module")
def plain_engine():
    return make_engine("logic-plain")


@pytest.mark.parametrize(
    ("state", "player"),
    [("xo-x-----", "o"), ("xxooxo---", "x"), ("xoxoxo---", "x"), ("xxxoo----", "o"),
     ("xoxxoooxx", "x"), ("-x-xo-o--", "x")],
)
def test_the_plain_program_answers_each_predicate_as_the_reference(plain_engine, state, player):
    ref = make_engine("reference")
    other = reference.other_player(player)
    assert plain_engine.other_player(player) == other
    assert plain_engine.successor(state, player) == ref.successor(state, player)
    assert plain_engine.terminal_state(state, player) == ref.terminal_state(state, player)
    assert plain_engine.max_value(state, player) == ref.max_value(state, player)
    assert plain_engine.min_value(state, other) == ref.min_value(state, other)
    assert plain_engine.minimax_decision(state, player) == ref.minimax_decision(state, player)
    assert plain_engine.move_values(state, player) == ref.move_values(state, player)
    for next_state in ref.successor(state, player):
        assert plain_engine.get_action(state, next_state) == ref.get_action(state, next_state)
