"""The interfaces `grade --interface` knows: a new one is one module and one line here."""

from __future__ import annotations

from minimax_lab.compare.grader.interfaces.interface import Interface
from minimax_lab.compare.grader.interfaces.predicate_interface import PredicateInterface
from minimax_lab.compare.grader.interfaces.prolog_interface import PrologInterface
from minimax_lab.compare.grader.interfaces.python_interfaces import CS50Interface, FunctionInterface
from minimax_lab.compare.grader.options.config import Own, own_options

INTERFACES: dict[str, type[Interface]] = {
    "prolog": PrologInterface,
    "cs50": CS50Interface,
    "function": FunctionInterface,
    "predicate": PredicateInterface,
}
"""Each interface's name and its class."""


def interface_options() -> dict[str, Own]:
    """Every option of a registered interface's own, by name (the first interface's say)."""
    found: dict[str, Own] = {}
    for kind in INTERFACES.values():
        for name, how in own_options(kind).items():
            found.setdefault(name, how)
    return found


def takers(name: str) -> list[str]:
    """The registered interfaces that take the option `name`."""
    return [interface for interface, kind in INTERFACES.items() if name in own_options(kind)]
