"""A student's Prolog program as an engine (`--engine prolog --program FILE`): every command
that names an engine can ask it, contained as `grade` contains it (`logic/contain/harness.py`).

It answers with its own predicates: the lab's objective only, the first answer of each goal.
What it cannot answer (an exception, no answer in time, an answer that is not a term of the
lab) is an `EngineError` naming the goal.
"""

from __future__ import annotations

from pathlib import Path

from minimax_lab.logic.contain.harness import ProgramError, Proof, Reply, StudentProgram, is_integer
from minimax_lab.logic.contain.lab_goals import lab_goal, read_decision, read_states, read_sv
from minimax_lab.logic.contain.loading import LoadReport
from minimax_lab.logic.engines.base import Engine, EngineError
from minimax_lab.logic.objective import LAB, Objective
from minimax_lab.logic.quote import quoted
from minimax_lab.logic.state import Player, State, to_prolog
from minimax_lab.logic.terms import SV, Action, Decision

QUESTION_SECONDS = 60.0
"""How long one goal may take before the engine gives up on it."""
LOAD_SECONDS = 30.0
"""How long loading the program may take."""


def _engine_error(message: str) -> Exception:
    return EngineError(message)


class StudentEngine(Engine):
    """A student's program, loaded once in its sandbox, answering the lab's predicates."""

    objectives = (LAB,)
    tracing = "prolog"
    any_board = True

    def __init__(self, program: str, objective: Objective = LAB) -> None:
        self.name = f"prolog ({Path(program).name})"
        super().__init__(objective)
        try:
            self._program = StudentProgram([Path(program)], load_seconds=LOAD_SECONDS)
        except ProgramError as error:
            raise _engine_error(f"--program {quoted(program)}: {error}") from None
        report = self._program.load()
        if report.problem is not None:
            self._program.close()
            raise _engine_error(f"--program {quoted(program)}: {report.problem}")

    def close(self) -> None:
        """Stop the program and remove its workspace."""
        self._program.close()

    @property
    def report(self) -> LoadReport:
        """How loading went: its messages and the predicates the program defines."""
        assert self._program.report is not None
        return self._program.report

    @property
    def loaded_file(self) -> Path:
        """The program's file as it was loaded: its copy in the workspace."""
        return self._program.main

    def ask_goal(self, goal: str, template: str, most: int) -> Reply:
        """Any goal of the program's predicates: at most `most` answers, each the value of
        `template` (for the top level, which asks the program's own helper predicates)."""
        return self._program.ask(goal, template, most, QUESTION_SECONDS)

    def _first(self, goal: str) -> Proof | None:
        reply = self._program.ask(goal, "A", 1, QUESTION_SECONDS)
        if reply.answers:
            return reply.answers[0]
        if reply.end == "exhausted":
            return None
        why = {"time": f"no answer within {QUESTION_SECONDS:g} s"}.get(
            reply.end, reply.error or reply.end)
        raise _engine_error(f"the program could not answer {goal}: {why}")

    def _unreadable(self, goal: str, proof: Proof) -> Exception:
        return _engine_error(f"the program answered {goal} with {proof.text}, "
                             "which is not what the lab's predicate answers")

    def other_player(self, player: Player) -> Player:
        goal = f"other_player({player}, A)"
        proof = self._first(goal)
        if proof is None or proof.term not in ("x", "o"):
            raise self._unreadable(goal, proof or Proof(None, "no answer"))
        return proof.term

    def successor(self, state: State, player: Player) -> list[State]:
        goal = lab_goal("successor", state, player)
        proof = self._first(goal)
        states = read_states(proof.term) if proof else None
        if states is None:
            raise self._unreadable(goal, proof or Proof(None, "no answer"))
        return states

    def terminal_state(self, state: State, player: Player) -> int | None:
        goal = lab_goal("terminal_state", state, player)
        proof = self._first(goal)
        if proof is None:
            return None
        if not is_integer(proof.term):
            raise self._unreadable(goal, proof)
        return proof.term

    def max_value(self, state: State, player: Player) -> SV:
        return self._sv("max_value", state, player)

    def min_value(self, state: State, player: Player) -> SV:
        return self._sv("min_value", state, player)

    def _sv(self, predicate: str, state: State, player: Player) -> SV:
        goal = lab_goal(predicate, state, player)
        proof = self._first(goal)
        read = read_sv(proof.term) if proof else None
        if read is None:
            raise self._unreadable(goal, proof or Proof(None, "no answer"))
        return SV(*read)

    def minimax_decision(self, state: State, player: Player) -> Decision | None:
        goal = lab_goal("minimax_decision", state, player)
        proof = self._first(goal)
        if proof is None:
            return None
        read = read_decision(proof.term)
        if read is None:
            raise self._unreadable(goal, proof)
        mark, position, value = read
        return Decision(Action(mark, position), value)

    def get_action(self, from_state: State, to_state: State) -> Action | None:
        goal = f"get_action({to_prolog(from_state)}, {to_prolog(to_state)}, A)"
        proof = self._first(goal)
        if proof is None:
            return None
        term = proof.term
        if isinstance(term, list) and len(term) == 2 and is_integer(term[1]):
            return Action(str(term[0]), term[1])
        raise self._unreadable(goal, proof)


