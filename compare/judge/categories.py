"""Every category an answer is judged into, by `compare` and `grade` alike, and what it means:
right, a fault, a note (reported, never a fault) or not asked.

A category is its own words (`"wrong value"`), so reports, counts and JSON keys read it as text.
"""

from __future__ import annotations

from enum import Enum, StrEnum


class Kind(Enum):
    """What a category says of an answer."""

    RIGHT = "right"
    FAULT = "fault"
    NOTE = "note"
    UNASKED = "unasked"


class Category(StrEnum):
    """One category: its words, and its kind (`Category.kind`)."""

    RIGHT = "right"
    # a move or a value that is not the reference's (compare and grade)
    SUBOPTIMAL = "suboptimal move"
    WRONG_VALUE = "wrong value"
    OTHER_OPTIMAL = "other optimal move"
    ILLEGAL_MOVE = "illegal move"
    # a source's rows (compare)
    MISSING = "missing"
    DUPLICATE = "duplicated row"
    ILLEGAL_POSITION = "illegal or terminal position"
    UNPARSABLE = "unparsable row"
    FAILED = "command failed"
    # a program's answers (grade)
    NO_ANSWER = "no answer"
    ANSWER_NOT_OVER = "answers where the game goes on"
    UNREADABLE = "unreadable answer"
    NOT_A_SUCCESSOR = "not a successor"
    SUCCESSOR_OF_OTHER_VALUE = "successor of another value"
    OTHER_OPTIMAL_SUCCESSOR = "other optimal successor"
    WRONG_SUCCESSORS = "wrong successors"
    WRONG_ORDER = "successors out of cell order"
    WRONG_ANSWER = "wrong answer"
    MUTATES = "changes its argument"
    NO_EXCEPTION = "no exception for an illegal action"
    OVER_ANSWERED = "a move on a finished board"
    EXCEPTION = "exception"
    INFERENCE_LIMIT = "inference limit"
    CPU_LIMIT = "CPU time limit"
    TIME_LIMIT = "time limit"  # of the wall clock: a guard against a program that waits
    DIED = "program died"
    UNDEFINED = "undefined predicate"
    UNDEFINED_FUNCTION = "undefined function"
    WRONG_ON_BACKTRACKING = "wrong answer on backtracking"
    FAILS_ON_BACKTRACKING = "exception or time limit on backtracking"
    LOST_GAME = "lost game"  # the play check's: ends worse than the game's value
    NOT_ASKED = "not asked"
    # notes
    TIE_BREAK = "broke only the lab's tie rule"
    SAME_AGAIN = "same answer again"
    OTHER_OPTIMAL_AGAIN = "another optimal answer"
    NOT_REPEATABLE = "answers differ when asked again"

    @property
    def kind(self) -> Kind:
        """Right, a fault, a note or not asked."""
        return _KINDS[self]

    @property
    def on_backtracking(self) -> bool:
        """True for a note on the answers a Prolog goal gives on backtracking."""
        return self in (Category.SAME_AGAIN, Category.OTHER_OPTIMAL_AGAIN)

    @property
    def key(self) -> str:
        """The category as a JSON key: `wrong_value`."""
        return self.value.replace(" ", "_")


_NOTES = frozenset({Category.TIE_BREAK, Category.SAME_AGAIN, Category.OTHER_OPTIMAL_AGAIN,
                    Category.NOT_REPEATABLE})
_KINDS = {category: Kind.RIGHT if category is Category.RIGHT
          else Kind.UNASKED if category is Category.NOT_ASKED
          else Kind.NOTE if category in _NOTES else Kind.FAULT for category in Category}
"""Each category's kind, looked up: judging a class asks it millions of times."""
DISAGREEMENTS = (Category.SUBOPTIMAL, Category.WRONG_VALUE, Category.OTHER_OPTIMAL,
                 Category.ILLEGAL_MOVE)
"""How a move and value can differ from the reference's decision."""
SOURCE_FAULTS = (Category.MISSING, Category.DUPLICATE, Category.ILLEGAL_POSITION,
                 Category.UNPARSABLE, Category.FAILED)
"""What can be wrong with a source's rows besides its decisions (`compare`)."""
LIMITS = frozenset({Category.INFERENCE_LIMIT, Category.CPU_LIMIT, Category.TIME_LIMIT})
"""No answer within a bound the program ran into: asked again, it runs into it again."""
