"""The `prolog` engines: the lab in this project's Prolog (`logic/prolog/lab.pl`) in SWI-Prolog.

Each engine starts one `swipl` process and keeps it for its lifetime (starting a new one if
that one dies or a query is interrupted), and talks to it as minimax-lab talks to every
SWI-Prolog it trusts (`logic.contain.swipl`; the protocol is in `logic/prolog/server.pl`).
`prolog` is the lab as written; `prolog-tabled` is the same program with `max_value` and
`min_value` tabled, whose tables live as long as the process. Both play the lab's objective
only.
"""

from __future__ import annotations

import os
from importlib import resources

from minimax_lab.logic.contain.swipl import Swipl, SwiplError, SwiplRefused, SwiplStopped
from minimax_lab.logic.engines.base import Engine, EngineError
from minimax_lab.logic.objective import LAB, Objective
from minimax_lab.logic.state import Player, State
from minimax_lab.logic.terms import SV, Action, Decision, Value

QUESTION_SECONDS = 600.0
"""How long one question may take before its `swipl` is stopped."""


def _engine_error(message: str) -> Exception:
    return EngineError(message)


def program_files(program: str) -> list[str]:
    """The files `swipl` loads, in order: the game's facts, the lab's program, the server."""
    prolog = resources.files("minimax_lab.logic.prolog")
    facts = resources.files("minimax_lab.facts")
    paths = [facts / "game.pl", prolog / program, prolog / "server.pl"]
    return [str(path) for path in paths]


class PrologEngine(Engine):
    """The lab's Prolog program, untabled, answering in one SWI-Prolog process."""

    name = "prolog"
    lab_file = "lab.pl"
    objectives = (LAB,)
    tracing = "prolog"
    takes_program = True
    any_board = True

    def __init__(self, objective: Objective = LAB) -> None:
        super().__init__(objective)
        try:
            self._swipl = Swipl(program_files(self.lab_file)[:2], os.getcwd(),
                                f"the {self.name} engine")
            self._swipl.start()
        except SwiplError as error:
            raise _engine_error(str(error)) from None

    @property
    def pid(self) -> int:
        """The process id of this engine's `swipl`."""
        assert self._swipl.process is not None
        return self._swipl.process.pid

    def close(self) -> None:
        """End the `swipl` process (it also ends when the engine is collected)."""
        self._swipl.close()

    def other_player(self, player: Player) -> Player:
        other = self._ask(f"other_player({player})")
        if other not in ("x", "o"):
            raise self._unreadable(other)
        return other

    def successor(self, state: State, player: Player) -> list[State]:
        states = self._ask(_query("successor", state, player))
        if not isinstance(states, list):
            raise self._unreadable(states)
        return [State(str(next_state)) for next_state in states]

    def terminal_state(self, state: State, player: Player) -> int | None:
        value = self._ask(_query("terminal_state", state, player))
        return None if value is None else _integer(value)

    def max_value(self, state: State, player: Player) -> SV:
        return self._sv(self._ask(_query("max_value", state, player)))

    def min_value(self, state: State, player: Player) -> SV:
        return self._sv(self._ask(_query("min_value", state, player)))

    def _sv(self, reply: object) -> SV:
        next_state, value = _pair(reply)
        return SV(State(str(next_state)), _integer(value))

    def minimax_decision(self, state: State, player: Player) -> Decision | None:
        reply = self._ask(_query("minimax_decision", state, player))
        if reply is False:
            return None
        cell, value = _pair(reply)
        return Decision(Action(player, _integer(cell)), _integer(value))

    def get_action(self, from_state: State, to_state: State) -> Action | None:
        reply = self._ask(_query("get_action", from_state, f"'{to_state}'"))
        if reply is None:
            return None
        player, cell = _pair(reply)
        return Action(str(player), _integer(cell))

    def move_values(self, state: State, player: Player) -> dict[int, Value]:
        pairs = self._ask(_query("move_values", state, player))
        if not isinstance(pairs, list):
            raise self._unreadable(pairs)
        return {_integer(cell): _integer(value) for cell, value in map(_pair, pairs)}

    def _ask(self, query: str) -> object:
        """Send one query; the value of its answer. A `swipl` found dead is started afresh,
        and a query it stopped on is asked once more."""
        try:
            try:
                return self._swipl.ask(query, QUESTION_SECONDS)
            except SwiplStopped:
                return self._swipl.ask(query, QUESTION_SECONDS)
        except SwiplStopped as stopped:
            raise _engine_error(f"the {self.name} engine stopped: {stopped}") from None
        except SwiplRefused as refused:
            raise _engine_error(f"the {self.name} engine failed on {query}: {refused}") from None

    def _unreadable(self, reply: object) -> Exception:
        return _engine_error(f"the {self.name} engine answered {reply!r}, which the lab never "
                             "answers")


class TabledPrologEngine(PrologEngine):
    """The lab's Prolog program with `max_value` and `min_value` tabled."""

    name = "prolog-tabled"
    lab_file = "lab_tabled.pl"
    takes_program = False


def _query(predicate: str, state: State, argument: str) -> str:
    return f"{predicate}('{state}', {argument})"


def _integer(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise _engine_error(f"the prolog engine answered {value!r} where the lab answers an "
                            "integer")
    return value


def _pair(value: object) -> tuple[object, object]:
    if not isinstance(value, list) or len(value) != 2:
        raise _engine_error(f"the prolog engine answered {value!r} where the lab answers a "
                            "pair")
    return value[0], value[1]
