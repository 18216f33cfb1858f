"""SWI-Prolog's built-ins that the top level answers, each as SWI-Prolog 9 answers it (the
tests ask SWI-Prolog the same goals), one module per family, each built-in registered there
once with its name, arity and help line (`registry.py`): `order` (unification and
comparison), `arithmetic`, `type_checks`, `lists`, `control` (`throw/1`, `findall/3`), `terms`,
`text` (atoms and strings), `output`, `session` (`help.`, `listing/1`, `trace.`, `[file].`,
`make.`, `halt.`). Importing the package registers them all."""

from minimax_lab.logic.toplevel.builtins import (  # noqa: F401  (each registers its family)
    arithmetic,
    control,
    lists,
    order,
    output,
    session,
    terms,
    text,
    type_checks,
)
from minimax_lab.logic.toplevel.builtins.control import error_term
from minimax_lab.logic.toplevel.builtins.registry import BUILTINS, ENTRIES, FAMILIES, Entry

__all__ = ["BUILTINS", "ENTRIES", "FAMILIES", "Entry", "error_term"]
