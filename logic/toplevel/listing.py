"""`:listing PRED` (or `PRED/ARITY`, and SWI-Prolog's `listing(PRED).`): a predicate of the
lab three ways, one after another (`logic/tools/listing.py`), three columns not fitting a
terminal."""

from __future__ import annotations

from minimax_lab.logic.tools.listing import ListingError, prolog_clauses
from minimax_lab.logic.tools.listing import listing as _listing
from minimax_lab.logic.toplevel.errors import ToplevelError

__all__ = ["listing", "prolog_clauses"]


def listing(name: str) -> str:
    """The three statements of the lab's predicate `name`; `ToplevelError` for another name."""
    try:
        return _listing(name)
    except ListingError as error:
        raise ToplevelError(str(error)) from None
