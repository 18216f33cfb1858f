"""`:listing PRED` (or `PRED/ARITY`, and SWI-Prolog's `listing(PRED).`): a predicate of the
lab three ways, one after another (`logic/tools/listing.py`), three columns not fitting a
terminal; and `listing.` with no program loaded: every predicate of the lab's program, as
SWI-Prolog running it lists them."""

from __future__ import annotations

from importlib import resources

from minimax_lab.logic.tools.listing import SOURCES, ListingError, prolog_clauses
from minimax_lab.logic.tools.listing import listing as _listing
from minimax_lab.logic.toplevel.clauses import lab_program
from minimax_lab.logic.toplevel.errors import ToplevelError

__all__ = ["LAB_PROGRAM", "lab_listing", "listing", "prolog_clauses"]

LAB_PROGRAM = "the lab's program (facts/game.pl, logic/prolog/lab.pl)"
"""What `listing.` lists where no program of the student's is loaded."""


def listing(name: str) -> str:
    """The three statements of the lab's predicate `name`; `ToplevelError` for another name."""
    try:
        return _listing(name)
    except ListingError as error:
        raise ToplevelError(str(error)) from None


def lab_listing() -> str:
    """Every predicate of the program the top level runs (`facts/game.pl` and
    `logic/prolog/lab.pl`), each as its file writes it, in the order the files define them:
    what `listing.` lists where no program of the student's is loaded."""
    texts = [(resources.files(package) / file).read_text(encoding="utf-8")
             for _, package, file in reversed(SOURCES)]
    names = dict.fromkeys(name for name, _ in lab_program().predicates)
    return "\n\n".join(clauses for name in names
                        for text in texts if (clauses := prolog_clauses(text, name)))
