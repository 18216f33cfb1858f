"""The facts layer: game.pl read as the game of tic-tac-toe."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from minimax_lab.facts import FactsError, load_game, parse_facts, read_facts


def test_the_facts_describe_tic_tac_toe():
    game = load_game()
    assert game.players == ("x", "o")
    assert game.cells == tuple(range(1, 10))
    assert game.blank == "-"
    grid = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
    rows = {tuple(row) for row in grid}
    columns = {tuple(column) for column in zip(*grid, strict=True)}
    diagonals = {(1, 5, 9), (3, 5, 7)}
    assert set(game.lines) == rows | columns | diagonals
    assert len(game.lines) == 8


def test_other_player_swaps_the_players():
    game = load_game()
    for player in game.players:
        assert game.other_player(player) != player
        assert game.other_player(game.other_player(player)) == player


def test_every_fact_of_the_file_is_read_in_order():
    names = [name for name, _ in read_facts()]
    assert names.count("cell") == 9
    assert names.count("line") == 8
    assert names[0] == "player"


def test_comments_and_quoted_atoms():
    text = "% a comment\nblank('-').  % trailing comment\n\nline(1, 2, 3).\n"
    assert parse_facts(text) == [("blank", ("-",)), ("line", (1, 2, 3))]


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("player(X).", 1),
        ("player(x)", 1),
        ("player(x).\nwins(S) :- line(S).", 2),
        ("line(1, 2, [3]).", 1),
    ],
)
def test_a_line_that_is_not_a_ground_fact_is_refused_with_its_number(text, line):
    with pytest.raises(FactsError, match=f"line {line}:"):
        parse_facts(text)


atoms = st.from_regex(r"[a-z][a-z0-9_]{0,8}", fullmatch=True)
arguments = st.one_of(st.integers(-999, 999), atoms)


@given(st.lists(st.tuples(atoms, st.lists(arguments, min_size=1, max_size=4)), max_size=10))
def test_written_facts_read_back_unchanged(facts):
    text = "\n".join(f"{name}({', '.join(map(str, args))})." for name, args in facts)
    assert parse_facts(text) == [(name, tuple(args)) for name, args in facts]


def test_the_symmetries_are_the_eight_that_keep_lines_lines():
    game = load_game()
    lines = {frozenset(line) for line in game.lines}
    permutations = set(game.symmetries.values())
    assert len(permutations) == len(game.symmetries) == 8
    for cells in permutations:
        assert sorted(cells) == list(game.cells)
        image = {frozenset(cells[cell - 1] for cell in line) for line in lines}
        assert image == lines
