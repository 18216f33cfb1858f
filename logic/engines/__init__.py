"""The engines behind `--engine`: a registry that imports an engine only when it is named.

Every engine derives from `logic.engines.base.Engine`; a new one is added here, in `ENGINES`,
and every command can use it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, overload

from minimax_lab.logic.engines.base import Engine, EngineError
from minimax_lab.logic.objective import LAB, Objective
from minimax_lab.logic.state import Turn

if TYPE_CHECKING:
    from minimax_lab.logic.engines.student import StudentEngine

__all__ = ["ENGINES", "Engine", "EngineError", "Turn", "engine_class", "engine_class_for",
           "engine_names", "make_engine", "program_for"]

ENGINES: dict[str, str | type[Engine]] = {
    "logic": "minimax_lab.logic.engines.datalog:LogicEngine",
    "logic-plain": "minimax_lab.logic.engines.datalog:PlainLogicEngine",
    "reference": "minimax_lab.logic.engines.reference:ReferenceEngine",
    "alphabeta": "minimax_lab.logic.engines.search:AlphaBetaEngine",
    "prolog": "minimax_lab.logic.engines.prolog:PrologEngine",
    "prolog-tabled": "minimax_lab.logic.engines.prolog:TabledPrologEngine",
}
"""Each engine's name and its class, as `module:Class` until it is first named."""


def engine_names() -> list[str]:
    """The names of the engines, for help texts and error messages."""
    return list(ENGINES)


def engine_class(name: str) -> type[Engine]:
    """The class of the engine called `name`, imported now if need be."""
    try:
        entry = ENGINES[name]
    except KeyError:
        raise EngineError(
            f"unknown engine {name!r}; the engines are {', '.join(engine_names())}"
        ) from None
    if isinstance(entry, str):
        module, _, cls = entry.partition(":")
        entry = ENGINES[name] = getattr(importlib.import_module(module), cls)
    return entry


@overload
def engine_class_for(name: str, program: None = None) -> type[Engine]: ...
@overload
def engine_class_for(name: str, program: str) -> type[StudentEngine]: ...
def engine_class_for(name: str, program: str | None = None) -> type[Engine]:
    """The class that answers for `--engine name --program program`: with a program, the
    student's engine (`logic.engines.student`), if the engine named takes one."""
    named = engine_class(name)
    if program is None:
        return named
    if not named.takes_program:
        takers = [other for other in ENGINES if engine_class(other).takes_program]
        raise EngineError(f"--program {program}: a student's program runs as --engine "
                          f"{' or '.join(takers)}, not {name}")
    from minimax_lab.logic.engines.student import StudentEngine

    return StudentEngine


def program_for(name: str, program: str | None) -> str | None:
    """`program` if the engine called `name` runs a student's program, else None: for the
    commands that name several engines beside one `--program` (compare, the top level)."""
    return program if program is not None and engine_class(name).takes_program else None


def make_engine(name: str, objective: Objective = LAB, program: str | None = None) -> Engine:
    """The engine called `name`, ready to answer for `objective`; with `program`, the engine
    that runs that student's program instead of the lab's."""
    if program is None:
        return engine_class_for(name)(objective)
    return engine_class_for(name, program)(program, objective)


def forget_reference_values() -> None:
    """Empty the reference's memo, and so end its sessions: the next answer starts cold."""
    from minimax_lab.logic.engines.reference import forget_values

    forget_values()
