"""How a class is graded, from the options given: the interface (given, else the assignment
file's, else prolog) configured with its own options, its checks, the assignment that scores
it, the policy, the guards and the limits (`Options`); every option refused, before anything
runs, in one line."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from minimax_lab.compare.grader.assignments.assignment import (
    default_assignment,
    interface_of,
    load_assignment,
    settled,
)
from minimax_lab.compare.grader.interfaces.interface import Interface, Options
from minimax_lab.compare.grader.interfaces.registry import INTERFACES, interface_options, takers
from minimax_lab.compare.grader.options.config import Settings, flag, own_options
from minimax_lab.compare.judge.truth import Policy
from minimax_lab.logic.errors import LabError
from minimax_lab.logic.quote import quoted

GUARDS = ("query_timeout", "budget", "load_timeout")
"""The options `Options` holds as they are (`compare.grader.options.options`)."""


class UnknownCheck(LabError, ValueError):
    """A check asked for that the interface does not know."""


def configure(given: Settings, assignment: str | None = None,
              paths: Sequence[Path] = ()) -> Options:
    """The options of a class graded with what was `given` and the assignment file at
    `assignment` (the interface's own when None), its submissions at `paths`; a `LabError`
    for anything that cannot be followed."""
    name = interface_of(assignment, given.given_value("interface"), tuple(INTERFACES))
    if name not in INTERFACES:
        raise LabError(f"unknown interface {quoted(name)}; the interfaces are "
                       f"{', '.join(INTERFACES)}")
    kind = INTERFACES[name]
    checks = checks_of(given.given_value("checks"), kind)
    if assignment is None:
        scoring = default_assignment(name, kind.checks)
    else:
        scoring = load_assignment(assignment, name, kind.checks)
        if given.given_value("checks") is None and scoring.default is None and kind.checks:
            checks = tuple(check for check in kind.checks if check in scoring.checks)
    scoring = scoring.hinted(given.given_value("hints"))
    chosen = settled(given, scoring)
    interface = configured(kind, chosen)
    interface.ready(paths)
    return Options(interface, checks, chosen.given_value("main"),
                   **{name: chosen.chosen(name) for name in GUARDS},
                   policy=Policy(chosen.given_value("ties") or kind.policy.ties,
                                 chosen.given_value("values") or kind.policy.values),
                   assignment=scoring, work=chosen.work,
                   unsandboxed=bool(chosen.given_value("unsandboxed")))


def checks_of(names: Sequence[str] | None, kind: type[Interface]) -> tuple[str, ...]:
    """The checks asked for, in the interface's order (all of them when None); an
    `UnknownCheck` for one it does not know."""
    known, noun = kind.checks, kind.check_noun
    if names is None:
        return known
    if not known:
        raise LabError(f"--predicates: a declared {noun} is the one {noun} checked")
    unknown = sorted(set(names) - set(known)) or ([] if names else [""])
    if unknown:
        raise UnknownCheck(f"unknown {noun} {quoted(unknown[0])}; the {noun}s are "
                           f"{', '.join(known)}")
    return tuple(name for name in known if name in names)


def configured(kind: type[Interface], settings: Settings) -> Interface:
    """The interface `kind` with the options of its own that `settings` give, each checked;
    a `LabError` for one it does not take, naming the interfaces that do."""
    takes = own_options(kind)
    known = interface_options()
    chosen: dict[str, Any] = {}
    for name, value in settings.own.items():
        if name not in known:
            raise LabError(f"unknown option {quoted(name)}; the interfaces' options are "
                           f"{', '.join(known)}")
        if name not in takes:
            raise LabError(f"{flag(name, known[name])} {known[name].said}: use --interface "
                           f"{' or '.join(takers(name))}")
        try:
            chosen[name] = takes[name].check(value)
        except ValueError as why:
            raise LabError(f"{name} = {value!r}: expected {why}") from None
    return kind(**chosen)
