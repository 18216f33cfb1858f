"""logic.engines.minimax: node counts, alpha-beta and depth-limited search, held to the lab."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

import pytest
from boards import LAB_CASES, board

from minimax_lab.logic import reference
from minimax_lab.logic.engines import EngineError
from minimax_lab.logic.engines.horizon import evaluate, open_lines
from minimax_lab.logic.engines.minimax import Bound, Search, count_nodes, reported
from minimax_lab.logic.engines.reference import ReferenceEngine
from minimax_lab.logic.engines.search import SearchEngine
from minimax_lab.logic.objective import Objective
from minimax_lab.logic.positions import all_positions, reachable_states
from minimax_lab.logic.state import BLANK, EMPTY, PLAYERS, is_terminal

OBJECTIVES = [Objective(mode, scoring) for mode in ("win", "lose") for scoring in ("lab", "depth")]
OBJECTIVE_IDS = [f"{objective.mode}-{objective.scoring}" for objective in OBJECTIVES]

# o to move; x threatens 1 (1-4-7) and 9 (7-8-9), o wins at once at 9 (3-6-9):
SMALL = board("""
    - - o
    x - o
    x x -
""")


@pytest.fixture(scope="module")
def positions():
    return all_positions()


@pytest.fixture(scope="module", params=[
    objective if objective == Objective() else pytest.param(objective, marks=pytest.mark.slow)
    for objective in OBJECTIVES], ids=OBJECTIVE_IDS)
def objective(request):
    """Each objective; the default run checks the lab's (win, lab scoring) on every position,
    CI's slow step the other three."""
    return request.param


@pytest.fixture(scope="module")
def reference_table(positions, objective):
    return ReferenceEngine(objective).decisions(positions)


def test_counts_from_the_empty_board():
    plain, memo, pruning = Search("x"), Search("x"), Search("x")
    assert plain.minimax(EMPTY, "x") == (0, 1, Bound.EXACT)
    assert plain.counts.nodes == 549946
    memo.memo(EMPTY, "x")
    assert memo.counts.nodes == 5478 == len(reachable_states("x"))
    pruning.alphabeta(EMPTY, "x")
    assert pruning.counts.nodes < plain.counts.nodes // 10
    assert pruning.counts.alpha_cuts > 0 and pruning.counts.beta_cuts > 0


def test_counts_of_a_small_position_worked_by_hand():
    # minimax: o1 (9 nodes: x2 4, x5 3, x9 1), o2 (6), o5 (7), o9 (1), and the root: 24.
    # memo: o1 x2 o5 = o5 x2 o1 (with x9 after it) and o1 x5 o2 = o2 x5 o1: 24 - 3 = 21.
    # alpha-beta: under o1, x5 o2 wins for o (+1, no better for x than x2's +1): a beta cut
    # skips o9; x9 wins for x, o1 = -1 = alpha. Under o2 and o5, x1 wins for x at once:
    # -1 <= alpha, two alpha cuts. Nodes: root, o1 and its 7, o2 x1, o5 x1, o9: 14.
    counts = count_nodes(SMALL, "o")
    assert counts["minimax"].nodes == 24
    assert counts["memo"].nodes == 21
    assert counts["alphabeta"].nodes == 14
    assert (counts["alphabeta"].alpha_cuts, counts["alphabeta"].beta_cuts) == (2, 1)
    assert counts["minimax"].alpha_cuts == counts["minimax"].beta_cuts == 0


def test_a_terminal_state_is_one_node_for_every_search():
    for counts in count_nodes(board("x x x / o o - / - - -"), "o").values():
        assert (counts.nodes, counts.alpha_cuts, counts.beta_cuts) == (1, 0, 0)


def test_plain_alphabeta_decides_as_the_lab_on_every_position(positions, objective,
                                                              reference_table):
    for state, player in positions:
        value, cell, bound = Search(player, objective).alphabeta(state, player)
        decision = reference_table[state, player]
        marks = len(state) - state.count(BLANK)
        assert (cell, reported(objective, value, marks), bound) == (
            decision.action.cell, decision.value, Bound.EXACT), (state, player)


def test_the_alphabeta_engine_writes_the_reference_table(positions, objective, reference_table):
    assert SearchEngine(objective, "alphabeta").decisions(positions) == reference_table


@pytest.mark.parametrize("search", ["memo", "alphabeta"])
def test_a_depth_covering_the_game_equals_full_search(positions, objective, reference_table,
                                                      search):
    by_blanks = defaultdict(list)
    for state, player in positions:
        by_blanks[state.count(BLANK)].append((state, player))
    for blanks, group in by_blanks.items():
        answers = SearchEngine(objective, search, depth=blanks).decisions(group)
        assert answers == {position: reference_table[position] for position in group}


@pytest.mark.parametrize("depth", [1, 2, 3])
@pytest.mark.parametrize("search", ["minimax", "memo", "alphabeta"])
def test_depth_limited_engines_agree_with_plain_depth_limited_minimax(positions, search, depth):
    objective = Objective("lose", "depth") if depth == 2 else Objective()
    engine = SearchEngine(objective, search, depth)
    for state, player in positions[::7]:
        value, cell, _ = Search(player, objective, depth).minimax(state, player)
        assert engine.max_value(state, player).value == value
        assert engine.minimax_decision(state, player).action.cell == cell


def test_plain_minimax_decides_as_the_lab_where_the_game_is_short(positions, objective,
                                                                  reference_table):
    """`--search minimax` is minimax as the lab writes it, every node searched each time."""
    short = [(state, player) for state, player in positions if state.count(BLANK) <= 5]
    engine = SearchEngine(objective, "minimax")
    assert engine.decisions(short[::3]) == {turn: reference_table[turn] for turn in short[::3]}
    assert engine._tables == {"x": {}, "o": {}}


def test_depth_one_sees_only_open_lines():
    # o (cell 1) against x (cell 3) keeps its 5 lines that avoid cell 3 wherever it plays;
    # o5 leaves x only 7-8-9 and 3-6-9 (2), every other cell leaves x 4 or 3: o5, 5-2 = 3 of 9.
    state, player, position, value = LAB_CASES["lab: o takes cell 4 and wins"]
    decision = SearchEngine(Objective(), "alphabeta", 1).minimax_decision(state, player)
    assert (decision.action.cell, decision.value) == (5, Fraction(1, 3))
    assert (position, value) == (4, 1)


def test_small_depths_differ_from_full_search_somewhere(positions):
    shallow = SearchEngine(Objective(), "alphabeta", 1).decisions(positions)
    full = ReferenceEngine().decisions(positions)
    different = [position for position in positions
                 if shallow[position].action != full[position].action]
    assert 0 < len(different) < len(positions)


def test_open_lines_count_the_lines_without_an_opponent_mark():
    assert open_lines(EMPTY, "x") == open_lines(EMPTY, "o") == 8
    corner = board("x - - / - - - / - - -")
    assert (open_lines(corner, "x"), open_lines(corner, "o")) == (8, 5)


@pytest.fixture(scope="module")
def states():
    return reachable_states("x") | reachable_states("o")


def test_the_horizon_lies_strictly_between_every_loss_and_every_win(objective, states):
    utilities = [objective.utility(reference.terminal_state(state, player),
                                   len(state) - state.count(BLANK))
                 for state in states if is_terminal(state) for player in PLAYERS]
    best_loss = max(u for u in utilities if u < 0)
    worst_win = min(u for u in utilities if u > 0)
    evaluations = [evaluate(state, player, objective)
                   for state in states if not is_terminal(state) for player in PLAYERS]
    assert best_loss < min(evaluations) and max(evaluations) < worst_win


def test_a_horizon_value_is_reported_as_it_is_from_the_players_side():
    assert reported(Objective("win", "depth"), Fraction(4, 9), 3) == Fraction(4, 9)
    assert reported(Objective("lose", "lab"), Fraction(-4, 9), 3) == Fraction(4, 9)
    assert reported(Objective("win", "depth"), 7, 3) == 10


def test_alphabeta_bounds_are_true_at_every_node(positions):
    objective = Objective("win", "depth")
    for state, player in positions:
        if state.count(BLANK) > 5:
            continue
        visits = []
        Search(player, objective, observer=visits.append).alphabeta(state, player)
        for visit in visits:
            ask = reference.max_value if visit.mover == player else reference.min_value
            true = ask(visit.state, player, objective).value
            holds = {Bound.EXACT: true == visit.value, Bound.LOWER: true >= visit.value,
                     Bound.UPPER: true <= visit.value}[visit.bound]
            assert holds, (state, player, visit)


@pytest.mark.parametrize("objective", [Objective(), Objective("lose", "depth")],
                         ids=["win-lab", "lose-depth"])
def test_the_engine_answers_every_predicate_as_the_reference(positions, objective):
    engine, lab = SearchEngine(objective, "alphabeta"), ReferenceEngine(objective)
    for state, player in positions[::3]:
        assert engine.max_value(state, player) == lab.max_value(state, player)
        assert engine.min_value(state, player) == lab.min_value(state, player)
        assert engine.move_values(state, player) == lab.move_values(state, player)
    state = board("x x x / o o - / - - -")
    assert engine.max_value(state, "o") == lab.max_value(state, "o")
    assert engine.minimax_decision(state, "o") is None
    assert engine.move_values(state, "o") == {}


def test_engine_names_and_bad_settings():
    assert SearchEngine(search="alphabeta").name == "reference-alphabeta"
    assert SearchEngine(search="minimax", depth=3).name == "reference-minimax-depth3"
    assert SearchEngine(search="memo").name == "reference-memo"
    with pytest.raises(EngineError, match="unknown search 'beta'"):
        SearchEngine(search="beta")
    for depth in (0, -1, 2.5, True):
        with pytest.raises(EngineError, match="1 or more"):
            SearchEngine(depth=depth)
