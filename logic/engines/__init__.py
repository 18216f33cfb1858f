"""The engines behind `--engine`: a registry that imports an engine only when it is named.

Every engine derives from `logic.engines.base.Engine`; a new one is added here, in `ENGINES`,
and every command can use it.
"""

from __future__ import annotations

import importlib

from logic.engines.base import Engine, EngineError
from logic.objective import LAB, Objective
from logic.state import Turn

__all__ = ["ENGINES", "Engine", "EngineError", "Turn", "engine_names", "make_engine"]

ENGINES: dict[str, str | type[Engine]] = {
    "logic": "logic.engines.datalog:LogicEngine",
    "logic-plain": "logic.engines.datalog:PlainLogicEngine",
    "reference": "logic.engines.reference:ReferenceEngine",
    "alphabeta": "logic.engines.search:AlphaBetaEngine",
    "prolog": "logic.engines.prolog:PrologEngine",
    "prolog-tabled": "logic.engines.prolog:TabledPrologEngine",
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


def make_engine(name: str, objective: Objective = LAB, program: str | None = None) -> Engine:
    """The engine called `name`, ready to answer for `objective`; with `program`, the `prolog`
    engine runs that student's program (`logic.engines.student`) instead of the lab's."""
    if program is not None:
        if name != "prolog":
            raise EngineError(f"--program {program}: a student's program runs as --engine "
                              f"prolog, not {name}")
        from logic.engines.student import StudentEngine

        return StudentEngine(program, objective)
    return engine_class(name)(objective)


def forget_reference_values() -> None:
    """Empty the reference's memo, and so end its sessions: the next answer starts cold."""
    from logic.engines.reference import forget_values

    forget_values()
