"""Why the asking of a question stopped, as a contained program reports it (`logic.contain`: a
Prolog `Reply`'s end, a Python `Called`'s end), read once into one enum."""

from __future__ import annotations

from enum import StrEnum


class End(StrEnum):
    """How a question ended: with answers (or none), an exception, a limit, or a death."""

    EXHAUSTED = "exhausted"
    """Prolog: no more answers."""
    MORE = "more"
    """Prolog: as many answers as were asked for."""
    ERROR = "error"
    """Prolog: an exception."""
    INFERENCES = "inferences"
    """Prolog: the inference limit."""
    RETURNED = "returned"
    """Python: the call returned a value."""
    RAISED = "raised"
    """Python: the call raised."""
    CPU = "cpu"
    """The guard of CPU time, measured outside the program."""
    TIME = "time"
    """The wall-clock guard."""
    DIED = "died"
    """The program ended, or was killed."""

    @property
    def stopped(self) -> bool:
        """True for an end that is no answer of the program's: a limit, an exception, a
        death."""
        return self in _STOPPED


_STOPPED = frozenset({End.ERROR, End.INFERENCES, End.RAISED, End.CPU, End.TIME, End.DIED})
