"""Why the agent moves as it does: every legal move's value on the board, and the line of best play.

The principal variation is the lab's recurrence followed forward (docs/lab.md): the agent plays
`max_value`'s successor, its adversary `min_value`'s, each the lowest cell among equals, until
the game ends.
"""

from __future__ import annotations

from collections.abc import Mapping

from minimax_lab.logic.engines import Engine
from minimax_lab.logic.state import BLANK, State, board_rows, result, to_prolog
from minimax_lab.logic.terms import Action, Decision, Value

_WIDTH = 6


def draw_move_values(
    state: State, values: Mapping[int, Value], decision: int | None
) -> str:
    """The 3x3 board: marks where played, each legal move's value, `[v]` on the decision."""
    cells = []
    for number, mark in enumerate(state, start=1):
        if mark != BLANK:
            text = mark
        elif number in values:
            text = signed(values[number])
            if number == decision:
                text = f"[{text}]"
        else:
            text = str(number)
        cells.append(text.center(_WIDTH))
    rows = ["|".join(row).rstrip() for row in board_rows(cells)]
    return ("\n" + "+".join(["-" * _WIDTH] * len(rows)) + "\n").join(rows)


def signed(value: Value) -> str:
    """A value with its sign (`+1`, `-1`, `+4/9`); a draw's 0 has none."""
    return f"+{value}" if value > 0 else str(value)


def principal_variation(engine: Engine, state: State, player: str) -> list[tuple[Action, State]]:
    """The moves of best play from `state`, `player` first, to the end: (action, state after)."""
    line = []
    mover = player
    while engine.terminal_state(state, player) is None:
        if mover == player:
            best = engine.max_value(state, player)
        else:
            best = engine.min_value(state, player)
        action = engine.get_action(state, best.state)
        if action is None:
            break
        line.append((action, best.state))
        state, mover = best.state, engine.other_player(mover)
    return line


def draw_line(line: list[tuple[Action, State]]) -> str:
    """One row per move: its number, the action, the state after it in both notations."""
    width = len(str(len(line)))
    return "\n".join(
        f"{number:>{width}}. {action}  {state}  {to_prolog(state)}"
        for number, (action, state) in enumerate(line, start=1)
    )


def ending(state: State) -> str:
    """How the game at `state` ended, in a sentence."""
    ended = result(state)
    if ended is None:
        return "The game goes on."
    return "The board is full: a draw." if ended == "draw" else f"{ended}."


def explanation(engine: Engine, state: State, player: str, decision: Decision) -> str:
    """The valued board, the decision and the principal variation, for a game that goes on."""
    line = principal_variation(engine, state, player)
    end = line[-1][1] if line else state
    aim = ([] if engine.objective.mode == "win" else
           [f"{player} plays to lose, and assumes {engine.other_player(player)} tries to make "
            f"{player} win; the principal variation below is that play."])
    return "\n".join([
        f"{player} to move in {state} = {to_prolog(state)}",
        *aim,
        f"The value of each move, from {player}'s side; [v] marks the decision:",
        draw_move_values(state, engine.move_values(state, player), decision.action.cell),
        str(decision),
        "Principal variation (each side's decision in turn, to the end):",
        draw_line(line),
        ending(end),
    ])
