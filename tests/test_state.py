"""The state model: both notations, validation at the boundary, legality, whose move it is."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from boards import LAB_CASES, TACTICS, board
from hypothesis import given
from hypothesis import strategies as st

from minimax_lab.logic.positions import all_positions, reachable_states
from minimax_lab.logic.state import (
    StateError,
    canonical,
    check_legal,
    check_turn,
    draw_board,
    is_terminal,
    parse_player,
    parse_position,
    parse_state,
    players_to_move,
    symmetries,
    to_prolog,
    winner,
)

ALL_STRINGS = ["".join(cells) for cells in itertools.product("-xo", repeat=9)]
states = st.text(alphabet="-xo", min_size=9, max_size=9)


def is_legal(state: str) -> bool:
    try:
        check_legal(state)
    except StateError:
        return False
    return True


@pytest.mark.parametrize("name", list(LAB_CASES))
def test_both_notations_read_the_same_state(name):
    state = LAB_CASES[name][0]
    assert parse_state(to_prolog(state)) == state
    assert parse_state(" ".join(to_prolog(state))) == state


def test_the_prolog_list_of_the_lab():
    assert parse_state("[o,o,x, -,x,o, x,o,-]") == "oox-xoxo-"
    assert to_prolog(parse_state("oox-xoxo-")) == "[o,o,x,-,x,o,x,o,-]"


@given(states)
def test_every_state_survives_both_notations(state):
    assert parse_state(state) == state
    assert parse_state(to_prolog(state)) == state


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("--------", "a state has 9 cells, '--------' has 8"),
        ("----------", "has 10"),
        ("[x,o]", "has 2"),
        ("[]", "has 0"),
        ("X--------", "cell 1 is 'X'"),
        ("[x,-,-,-,-,-,-,-,b]", "cell 9 is 'b'"),
        ("[x,-,-,-,-,-,-,-,xx]", "cell 9 is 'xx'"),
    ],
)
def test_a_text_that_is_not_a_state_says_why(text, message):
    with pytest.raises(StateError, match=message.replace("[", r"\[")):
        parse_state(text)


@given(st.text(max_size=40))
def test_any_text_is_a_state_or_a_state_error(text):
    try:
        state = parse_state(text)
    except StateError:
        return
    assert len(state) == 9 and set(state) <= set("-xo")


def test_players():
    assert parse_player(" x ") == "x"
    with pytest.raises(StateError, match="unknown player 'X'"):
        parse_player("X")


def test_legal_states_are_exactly_the_states_play_reaches():
    reachable = reachable_states("x") | reachable_states("o")
    assert {state for state in ALL_STRINGS if is_legal(state)} == reachable


def test_whose_move_it_is_matches_play_from_either_side():
    movers = {}
    for state, player in all_positions():
        movers.setdefault(state, set()).add(player)
    for state, players in movers.items():
        assert set(players_to_move(state)) == players


@pytest.mark.parametrize(
    ("drawing", "reason"),
    [
        ("x x x / - - - / - - -", "x has 3 marks and o has 0"),
        ("x x x / o o o / x - -", "both x and o have a line"),
        ("o o o / x x - / x x -", "o has a line but x has moved since"),
        ("x x x / o o - / o o -", "x has a line but o has moved since"),
    ],
)
def test_an_illegal_state_says_why(drawing, reason):
    with pytest.raises(StateError, match=reason):
        check_legal(board(drawing))


def test_a_player_out_of_turn_is_refused():
    state = board("x - - / - - - / - - -")
    check_turn(state, "o")
    with pytest.raises(StateError, match="it cannot be x's move"):
        check_turn(state, "x")


def test_counts_of_the_game_with_x_first():
    states = reachable_states("x")
    terminal = [state for state in states if is_terminal(state)]
    assert len(states) == 5478
    assert len(terminal) == 958
    assert Counter(winner(state) for state in terminal) == {"x": 626, "o": 316, None: 16}
    assert len(states) - len(terminal) == 4520
    assert len({canonical(state) for state in states}) == 765


def test_counts_of_the_game_with_either_player_first():
    states = reachable_states("x") | reachable_states("o")
    assert len(states) == 8533
    assert sum(is_terminal(state) for state in states) == 1916
    assert len(all_positions()) == 9040


@given(states)
def test_symmetries_form_a_class_with_one_canonical_member(state):
    images = set(symmetries(state))
    assert state in images
    assert {canonical(image) for image in images} == {canonical(state)}
    assert len(images) in (1, 2, 4, 8)


def test_an_asymmetric_state_has_eight_images():
    assert len(set(symmetries(board("x o - / - - - / - - -")))) == 8


def test_the_board_shows_cell_numbers_on_blanks():
    state, *_ = TACTICS["o must block cell 2"]
    assert draw_board(state) == (" x | 2 | x\n---+---+---\n 4 | o | 6\n---+---+---\n 7 | 8 | 9")


def test_a_position_is_read_at_the_boundary_in_one_step():
    assert parse_position("[x,-,-,-,-,-,-,-,-]", "o") == ("x--------", "o")
    assert parse_position("xxxoo----", "x") == ("xxxoo----", "x")  # over: any player
    with pytest.raises(StateError, match="it cannot be x's move"):
        parse_position("x--------", "x")
    with pytest.raises(StateError, match="both x and o have a line"):
        parse_position("xxxooo---", "x")


def test_a_long_text_is_quoted_in_part():
    with pytest.raises(StateError) as caught:
        parse_state("x" * 100_000)
    assert len(str(caught.value)) < 120
    assert "has 100000" in str(caught.value)
