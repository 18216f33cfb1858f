"""What the agent plays for: the mode (win or lose) and the scoring (lab or depth).

The lab's objective is `win` with `lab` scoring: terminal values 1, 0, -1. `depth` scoring
makes a win in d plies worth 10 - d and a loss -(10 - d), so the agent wins at once and
delays a loss. `lose` (an agent that plays to lose) negates the chosen scoring: the agent
plays for its worst outcome while its opponent plays to make it win. Both engines state the
same objective: the reference through `utility`, the pyDatalog program through the facts of
`facts`.

A win "in d plies" from the position asked is a win on a board of k marks when the position
has m marks, d = k - m. Both engines score terminal states by k alone (a win on k marks is
worth 10 - k), which orders every line of play exactly as 10 - d does, so values can be shared
between positions; `reported` shifts the root's value back to plies from that position.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import overload

from minimax_lab.logic.errors import LabError

MODES = ("win", "lose")
SCORINGS = ("lab", "depth")
DEPTH_BASE = 10


class ObjectiveError(LabError, ValueError):
    """A mode or scoring that is not known."""


@dataclass(frozen=True)
class Objective:
    """A mode and a scoring; the default is the lab's."""

    mode: str = "win"
    scoring: str = "lab"

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ObjectiveError(f"unknown mode {self.mode!r}; the modes are {', '.join(MODES)}")
        if self.scoring not in SCORINGS:
            raise ObjectiveError(
                f"unknown scoring {self.scoring!r}; the scorings are {', '.join(SCORINGS)}"
            )

    @property
    def sign(self) -> int:
        """1 when the agent plays to win, -1 when it plays to lose."""
        return 1 if self.mode == "win" else -1

    def utility(self, terminal_value: int, marks: int) -> int:
        """What the agent maximises at a terminal state of `marks` marks and the lab's value."""
        scale = DEPTH_BASE - marks if self.scoring == "depth" else 1
        return self.sign * terminal_value * scale

    @overload
    def reported(self, utility: int, root_marks: int) -> int: ...
    @overload
    def reported(self, utility: int | Fraction, root_marks: int) -> int | Fraction: ...
    def reported(self, utility: int | Fraction, root_marks: int) -> int | Fraction:
        """The value for the player at a root of `root_marks` marks, from the best utility.
        Always from the player's side (positive: the player wins), in the scoring's units."""
        value = self.sign * utility
        # depth: from DEPTH_BASE less the marks at the end to DEPTH_BASE less the plies to it
        if self.scoring == "depth" and value != 0:
            value += root_marks if value > 0 else -root_marks
        return value

    def __str__(self) -> str:
        return f"mode {self.mode}, scoring {self.scoring}"


LAB = Objective()
