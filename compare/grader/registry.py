"""The interfaces `grade --interface` knows: a new one is one module and one line here."""

from __future__ import annotations

from compare.grader.interface import Interface
from compare.grader.prolog_interface import PrologInterface
from compare.grader.python_interfaces import CS50Interface, FunctionInterface

INTERFACES: dict[str, type[Interface]] = {
    "prolog": PrologInterface,
    "cs50": CS50Interface,
    "function": FunctionInterface,
}
"""Each interface's name and its class."""
