"""The harness asked in a host (`logic.contain.hosted`, as the site's check asks it): a board's
answers below are sent once and kept (`same`) for the questions after it on the same harness,
whatever program (session) asks them, and the harness's JSON is the JSON library's."""

from __future__ import annotations

import json
import subprocess
from importlib import resources
from pathlib import Path

import pytest
from hosts import SwiplHost
from marks import needs_swipl

from minimax_lab.compare.grader.interfaces import prolog
from minimax_lab.compare.grader.interfaces.sample import Judged
from minimax_lab.logic.contain.harness import Ask, Reply
from minimax_lab.logic.contain.hosted import HostedProgram
from minimax_lab.logic.contain.lab_goals import lab_goal

SOLUTION = Path(__file__).resolve().parent / "submissions" / "lab_style.pl"
HARNESS = resources.files("minimax_lab.logic.prolog") / "harness.pl"


class Told:
    """A host that keeps the questions it is told and replies to each, with an "id" but where
    told not to (a line the harness could not read)."""

    folder = "/nowhere"

    def __init__(self) -> None:
        self.told: list[str] = []
        self.unread = False

    def load(self, number: int) -> str:
        return json.dumps({"event": "loaded", "id": number, "messages": [], "defined": []})

    def answer(self, question: str) -> str:
        self.told.append(question)
        number = None if self.unread else 1
        return json.dumps({"id": number, "answers": [], "end": "exhausted", "inferences": 0})


def asks(state: str) -> list[Ask]:
    """The questions on `state` judged on the program's own clauses, the lab's answers below."""
    return [Ask(lab_goal(check, state, player), "A", 3, 10**6,
                prolog.Question(check, state, player, Judged.CLAUSES).below)
            for check in ("max_value", "min_value") for player in "xo"]


def said_same(told: list[str]) -> list[bool]:
    return [question.endswith(", same)") for question in told]


def test_a_boards_answers_are_sent_once_for_every_program_asking_one_host():
    host = Told()
    first, second = HostedProgram(host), HostedProgram(host)
    board, other = asks("xo-------"), asks("x-o------")
    first.ask_many(board[:2], 1.0)
    second.ask_many(board[2:], 1.0)  # another session of the same check: the same harness
    first.ask_many(other[:1], 1.0)
    assert said_same(host.told) == [False, True, True, True, False]
    assert host.told[1].split(", ", 1)[1] == board[1].text(0, board[1].below).split(", ", 1)[1]


def test_after_a_line_the_harness_could_not_read_the_answers_are_sent_again():
    host = Told()
    program = HostedProgram(host)
    board = asks("xo-------")
    program.ask_many(board[:1], 1.0)
    host.unread = True
    program.ask_many(board[1:2], 1.0)
    host.unread = False
    program.ask_many(board[2:], 1.0)
    assert said_same(host.told) == [False, True, False, True]


@needs_swipl
def test_a_question_saying_same_is_answered_as_one_sent_its_answers(tmp_path):
    """The same questions, asked of one harness (each after the first saying `same`) and each
    of a fresh one (its answers sent): the same replies."""
    kept = asked(tmp_path, asks("xo-------"))
    sent = [reply for ask in asks("xo-------") for reply in asked(tmp_path, [ask])]
    assert [(r.answers, r.end, r.counted) for r in kept] == [
        (r.answers, r.end, r.counted) for r in sent]
    assert all(reply.answers and reply.end != "error" for reply in kept)


def asked(folder: Path, questions: list[Ask]) -> list[Reply]:
    """The replies to `questions` asked in turn of a fresh harness, after a board's questions
    that load what the harness and the program load as they first answer (counted then)."""
    host = SwiplHost(SOLUTION, folder)
    try:
        program = HostedProgram(host)
        program.load()
        program.ask_many(asks("x-o------"), 5.0)
        return program.ask_many(questions, 5.0)
    finally:
        host.close()


def json_mismatches(first: int, last: int) -> list[str]:
    """The characters from code `first` to `last` for which the harness's JSON of a string
    holding them differs from the JSON library's writer's (SWI-Prolog's own)."""
    goal = f"""
        load_files('{HARNESS}', [silent(true)]),
        forall(( between({first}, {last}, Code), \\+ between(0xD800, 0xDFFF, Code),
                 string_codes(String, [0'a, Code, 0'b]),
                 harness:json_line(String, Mine),
                 with_output_to(string(Library), json:json_write_string(current_output, String)),
                 Mine \\== Library ),
               format("~d~n", [Code])),
        format("checked~n"),
        halt(0)"""  # before the harness's own initialization would start it
    done = subprocess.run(["swipl", "-q", "-f", "none", "-g", goal],
                          capture_output=True, text=True, timeout=300, check=True)
    lines = done.stdout.split()
    assert lines[-1:] == ["checked"], done.stderr
    return lines[:-1]


@needs_swipl
def test_a_strings_json_is_the_json_librarys_for_the_first_characters():
    assert json_mismatches(0, 0x3000) == []


@needs_swipl
@pytest.mark.slow
def test_a_strings_json_is_the_json_librarys_for_every_character():
    assert json_mismatches(0, 0x10FFFF) == []
