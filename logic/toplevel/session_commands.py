"""The top level's `:` commands, a registry: each command registered once, above its handler,
with its usage, its help line and what Tab completes after it. The session (`repl.py`)
registers its handlers; `:help`, Tab completion and the unknown command's error read the
table."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Generic, TypeVar

S = TypeVar("S")
Handler = Callable[[S, str], "bool | None"]
"""A command's handler: the session and the text after the command's name; False ends the
session."""


@dataclass(frozen=True)
class Command(Generic[S]):
    """A `:` command: `:name usage`, what it does, its handler."""

    name: str
    usage: str
    help: str
    run: Handler[S]
    arguments: Callable[[], list[str]] | None = None
    """What Tab completes after the command's name, if anything."""

    @property
    def synopsis(self) -> str:
        """The command as `:help` shows it: `:board STATE`."""
        return f"{self.name} {self.usage}".rstrip()


class CommandTable(Generic[S]):
    """The `:` commands in the order `:help` lists them; `@table(name, usage, help)` above a
    handler registers it."""

    def __init__(self) -> None:
        self._commands: dict[str, Command[S]] = {}

    def __call__(self, name: str, usage: str, help: str,
                 arguments: Callable[[], list[str]] | None = None
                 ) -> Callable[[Handler[S]], Handler[S]]:
        def register(handler: Handler[S]) -> Handler[S]:
            if name in self._commands:
                raise ValueError(f"the command {name} is registered twice")
            self._commands[name] = Command(name, usage, help, handler, arguments)
            return handler
        return register

    def __iter__(self) -> Iterator[Command[S]]:
        return iter(self._commands.values())

    def get(self, name: str) -> Command[S] | None:
        return self._commands.get(name)
