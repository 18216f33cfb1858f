"""The grader's interface protocol (`compare.grader.interface`) is enough: a fourth interface,
written here in a few lines and added to the registry, is graded by the one ask-all loop and
reported by `grade` like the other three."""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest

from compare.grader.interface import refuse_python_options
from compare.grader.registry import INTERFACES
from compare.judge.categories import Category
from compare.judge.results import Problem, Verdict
from logic.commands.cli import main
from logic.contain.python_program import PythonProgram, taken
from logic.positions import fullest_first, reachable_states, to_move
from logic.state import PLAYERS, winner

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


@dataclass(frozen=True)
class Asked:
    check: str
    state: str
    player: str

    def __str__(self) -> str:
        return f"{self.check}({self.state!r})"


class WinnerSession:
    work_unit = "CPU seconds"

    def __init__(self, program):
        self.program = program

    def work_limit(self, question):
        return 10.0

    def work_budget(self, questions):
        return 60.0

    def plan(self, checks, defined):
        return checks, []

    def defines(self, check, defined):
        return check in defined

    def undefined(self, check, defined):
        return (Problem(Category.UNDEFINED_FUNCTION, f"{check}() is not defined", check),
                Verdict(Category.UNDEFINED_FUNCTION, f"{check}() is not defined"))

    def questions(self, checks):
        states = sorted(reachable_states(PLAYERS[0]), key=fullest_first)
        return [Asked(check, state, to_move(state)) for check in checks for state in states]

    def ask(self, question, seconds, work):
        return self.program.call(question.check, [question.state], seconds, work)

    def judge(self, question, reply, policy):
        expected = winner(question.state) or ""
        if reply.end != "returned":
            return Verdict(Category.EXCEPTION, reply.error or reply.end)
        if reply.value != expected:
            return Verdict(Category.WRONG_ANSWER, f"answers {reply.value!r}, not {expected!r}")
        return Verdict(Category.RIGHT)

    def ask_again(self, question, reply):
        return False

    def same(self, reply, again):
        return True

    def problem(self, question, reply, verdict, defined):
        return None

    def calls_below(self, question):
        return []

    def said(self, reply):
        return repr(reply.value)

    def clause(self, check):
        return ""


class WinnerInterface:
    name, checks, check_noun, load_label = "winner", ("who_won",), "function", "import"

    @classmethod
    def from_args(cls, args):
        refuse_python_options(args, cls.name)
        return cls()

    def open(self, path, options):
        copy = taken(path)
        return WinnerSession(PythonProgram(copy, copy.folder / path.name, options.limits,
                                           options.load_seconds))


@pytest.fixture
def registered(monkeypatch):
    monkeypatch.setitem(INTERFACES, "winner", WinnerInterface)


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
    assert "--mapping and --set declare a Python function" in capsys.readouterr().err


def test_an_unregistered_interface_is_a_usage_error(tmp_path, capsys):
    (tmp_path / "right.py").write_text(RIGHT)
    assert main(["grade", "--interface", "winner", str(tmp_path / "right.py")]) == 2
    assert "invalid choice: 'winner'" in capsys.readouterr().err
