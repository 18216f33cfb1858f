"""Modes and scorings: what the agent plays for, on both engines."""

from __future__ import annotations

import pytest
from boards import SCORING_CASES, TACTICS

from minimax_lab.logic.engines import make_engine
from minimax_lab.logic.objective import LAB, Objective, ObjectiveError
from minimax_lab.logic.state import EMPTY
from minimax_lab.logic.terms import Action, Decision

WIN_DEPTH = Objective("win", "depth")
LOSE_LAB = Objective("lose", "lab")
LOSE_DEPTH = Objective("lose", "depth")


@pytest.fixture(scope="module", params=["reference", "logic"])
def engines(request):
    """One engine per objective, all of the same kind."""
    objectives = (LAB, WIN_DEPTH, LOSE_LAB, LOSE_DEPTH)
    return {objective: make_engine(request.param, objective) for objective in objectives}


def decide(engine, state, player):
    """The engine's decision, asked as a batch of one: a logic engine then needs no session,
    so tests that switch objectives do not solve every class again at each switch."""
    return engine.decisions([(state, player)]).get((state, player))


def test_unknown_modes_and_scorings_are_refused():
    with pytest.raises(ObjectiveError, match="unknown mode 'draw'"):
        Objective("draw")
    with pytest.raises(ObjectiveError, match="unknown scoring 'fast'"):
        Objective("win", "fast")


@pytest.mark.parametrize("plies", range(1, 10))
def test_a_win_in_d_plies_is_reported_as_10_minus_d(plies):
    root_marks = 9 - plies
    utility = WIN_DEPTH.utility(1, root_marks + plies)
    assert WIN_DEPTH.reported(utility, root_marks) == 10 - plies
    assert WIN_DEPTH.reported(WIN_DEPTH.utility(-1, root_marks + plies), root_marks) == plies - 10
    assert WIN_DEPTH.reported(WIN_DEPTH.utility(0, 9), root_marks) == 0


def test_lose_mode_reports_values_from_the_players_side():
    assert LOSE_LAB.utility(1, 5) == -1
    assert LOSE_LAB.reported(LOSE_LAB.utility(1, 5), 4) == 1
    assert LOSE_DEPTH.reported(LOSE_DEPTH.utility(-1, 6), 4) == -8


def test_depth_scoring_takes_the_immediate_win(engines):
    state = SCORING_CASES["o can win at once"]
    assert decide(engines[LAB], state, "o") == Decision(Action("o", 1), 1)
    assert decide(engines[WIN_DEPTH], state, "o") == Decision(Action("o", 3), 9)


def test_depth_scoring_prefers_the_quicker_fork(engines):
    state = SCORING_CASES["o can fork now or win later"]
    assert decide(engines[LAB], state, "o") == Decision(Action("o", 1), 1)
    assert decide(engines[WIN_DEPTH], state, "o") == Decision(Action("o", 4), 7)


@pytest.mark.parametrize("objective", [LOSE_LAB, LOSE_DEPTH])
def test_the_lose_agent_does_not_complete_its_own_line(engines, objective):
    state, player, winning_cell, _ = TACTICS["x completes the top row"]
    decision = decide(engines[objective], state, player)
    assert decision is not None
    assert decision.action.cell != winning_cell


@pytest.mark.parametrize("objective", [LOSE_LAB, LOSE_DEPTH])
def test_the_lose_agent_need_not_win_from_the_empty_board(engines, objective):
    for player in ("x", "o"):
        decision = decide(engines[objective], EMPTY, player)
        assert decision is not None and decision.value <= 0
