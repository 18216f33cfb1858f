"""The grader's interface (`compare.grader.interfaces.interface`) is enough: a fourth interface,
written here in a few lines on the shared Python session and added to the registry, is graded by the
one ask-all loop, scored and reported by `grade` like the other three."""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest
from marks import needs_bwrap

from minimax_lab.compare.grader.interfaces.python import PythonCheck, Question
from minimax_lab.compare.grader.interfaces.python_interfaces import PythonInterface
from minimax_lab.compare.grader.interfaces.registry import INTERFACES
from minimax_lab.compare.grader.options.config import own, text
from minimax_lab.logic.commands.cli import main
from minimax_lab.logic.positions import fullest_first, reachable_states, to_move
from minimax_lab.logic.state import PLAYERS, winner

RIGHT = """
LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
def who_won(board):
    won = [board[a] for a, b, c in LINES if board[a] != "-" and board[a] == board[b] == board[c]]
    return won[0] if won else ""
"""
NO_DIAGONALS = RIGHT.replace(", (0, 4, 8), (2, 4, 6)", "")
ROWS_AND_COLUMNS = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8)]


def won_on(state: str, lines: list[tuple[int, int, int]]) -> bool:
    return any(state[a] != "-" and state[a] == state[b] == state[c] for a, b, c in lines)


# --- the toy interface, all it writes: a check (its questions, the right answer) and its name

class WhoWon(PythonCheck):
    name = "who_won"

    def questions(self):
        states = sorted(reachable_states(PLAYERS[0]), key=fullest_first)
        return [Question(self.name, state, to_move(state)) for state in states]

    def expected(self, question):
        return winner(question.state) or ""


class WinnerInterface(PythonInterface):
    name, checks = "winner", ("who_won",)

    def functions(self, path, copy):
        return {"who_won": WhoWon()}, None


# --- and with an option of its own: a field that says how it is given -----------------------

class Blanked(WhoWon):
    def __init__(self, blank):
        self.blank = blank

    def arguments(self, question):
        return [question.state.replace("-", self.blank)]


@dataclass(frozen=True)
class BlankedInterface(PythonInterface):
    blank: str = own("-", "is for the toy interface", "the blank's mark", text, metavar="MARK")
    name, checks = "blanked", ("who_won",)

    def functions(self, path, copy):
        return {"who_won": Blanked(self.blank)}, None


@pytest.fixture
def registered(monkeypatch):
    monkeypatch.setitem(INTERFACES, "winner", WinnerInterface)
    monkeypatch.setitem(INTERFACES, "blanked", BlankedInterface)


@needs_bwrap
def test_a_fourth_interface_is_graded_and_reported_like_the_others(registered, tmp_path, capsys):
    (tmp_path / "right.py").write_text(RIGHT)
    (tmp_path / "no_diagonals.py").write_text(NO_DIAGONALS)
    report = tmp_path / "class.json"
    status = main(["grade", "--interface", "winner", "--json", str(report),
                   str(tmp_path / "right.py"), str(tmp_path / "no_diagonals.py")])
    out = capsys.readouterr().out
    subs = {sub["name"]: sub for sub in json.loads(report.read_text())["submissions"]}
    states = reachable_states(PLAYERS[0])
    won_on_a_diagonal_only = [state for state in states
                              if winner(state) and not won_on(state, ROWS_AND_COLUMNS)]
    assert status == 1
    assert subs["right"]["clean"]
    assert subs["right"]["predicates"]["who_won"]["correct"] == len(states)
    wrong = subs["no_diagonals"]["predicates"]["who_won"]
    assert wrong["checked"] == len(states)
    assert wrong["counts"]["wrong_answer"] == len(won_on_a_diagonal_only) > 0
    assert all(finding["state"] in won_on_a_diagonal_only for finding in wrong["findings"])
    assert "no_diagonals: load ok; who_won" in out


def test_a_fourth_interface_is_refused_options_it_does_not_take(registered, tmp_path, capsys):
    (tmp_path / "right.py").write_text(RIGHT)
    status = main(["grade", "--interface", "winner", "--set", "function=f",
                   str(tmp_path / "right.py")])
    assert status == 2
    assert ("--set declares a Python function or a Prolog predicate: use --interface "
            "function" in capsys.readouterr().err)


def test_an_unregistered_interface_is_a_usage_error(tmp_path, capsys):
    (tmp_path / "right.py").write_text(RIGHT)
    assert main(["grade", "--interface", "winner", str(tmp_path / "right.py")]) == 2
    assert "invalid choice: 'winner'" in capsys.readouterr().err


@needs_bwrap
def test_an_interfaces_own_option_is_given_as_the_others_are(registered, tmp_path, capsys):
    """Its field is all it takes: the command line offers --blank, the assignment file reads
    `blank`, and the other interfaces refuse it."""
    (tmp_path / "right.py").write_text(RIGHT)
    lines = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8),
             (2, 4, 6)]

    def answered(board: str) -> str:  # what RIGHT answers: the first line of one mark
        won = [board[a] for a, b, c in lines if board[a] != "-" and board[a] == board[b]
               == board[c]]
        return won[0] if won else ""

    misread = [state for state in reachable_states(PLAYERS[0])
               if answered(state.replace("-", ".")) != (winner(state) or "")]
    report = tmp_path / "class.json"
    assert main(["grade", "--interface", "blanked", "--json", str(report),
                 str(tmp_path / "right.py")]) == 0
    assert main(["grade", "--interface", "blanked", "--blank", ".", "--json", str(report),
                 str(tmp_path / "right.py")]) == 1  # three blanks read as a line of "."
    (sub,) = json.loads(report.read_text())["submissions"]
    assert sub["predicates"]["who_won"]["counts"]["wrong_answer"] == len(misread) > 0
    (tmp_path / "a.toml").write_text('interface = "blanked"\nblank = "."\n[default]\n')
    assert main(["grade", "--assignment", str(tmp_path / "a.toml"), "--json", str(report),
                 str(tmp_path / "right.py")]) == 1
    capsys.readouterr()
    assert main(["grade", "--interface", "cs50", "--blank", ".", str(tmp_path / "right.py")]) == 2
    assert "--blank is for the toy interface: use --interface blanked" in capsys.readouterr().err
