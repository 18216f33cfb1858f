"""A call of a student's loaded program stepped by SWI-Prolog's own tracer, port by port: the
program, the lab's helper and `logic/prolog/stepping.pl` loaded in a `swipl` contained as
every untrusted one is (`logic.contain.swipl`, the `step` request of `logic/prolog/server.pl`).
Each key typed runs the call again from its start with all the keys so far (the replay of
`stepping.pl`), within `STEP_INFERENCES` inferences and `MAX_KEYS` keys."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from importlib import resources
from pathlib import Path

from minimax_lab.logic.contain import sandbox, submission
from minimax_lab.logic.contain.harness import HELPER, main_file
from minimax_lab.logic.contain.swipl import Swipl, SwiplError
from minimax_lab.logic.quote import quoted
from minimax_lab.logic.toplevel.errors import PrologError
from minimax_lab.logic.toplevel.prolog_terms import Atom, Struct
from minimax_lab.logic.toplevel.stepper import SpyPoints, Stepper

STEP_INFERENCES = 1_000_000
"""The most inferences one run of a stepped call may take (each key runs it again)."""
MAX_KEYS = 1000
"""The most keys typed in one stepped call of the program."""
SECONDS = 60.0
"""How long one run may take on the wall clock, a guard only: the inferences bound it."""
NEEDS = "stepping through a program"


class ProgramSteps:
    """The `swipl` a loaded program is stepped in: a copy of `loaded` (the file as it was
    loaded) with the lab's helper and `stepping.pl`, started at the first step."""

    def __init__(self, loaded: Path, inferences: int = STEP_INFERENCES) -> None:
        self.name = loaded.name
        self.inferences = inferences
        self.folder = submission.take([loaded]).folder
        prolog = resources.files("minimax_lab.logic.prolog")
        helper = submission.place(Path(str(prolog / HELPER)), self.folder / HELPER)
        stepping = submission.place(Path(str(prolog / "stepping.pl")),
                                    self.folder / ".stepping.pl")
        self.swipl = Swipl([helper, main_file(self.folder), stepping], self.folder, NEEDS,
                           sandbox.DEFAULT_LIMITS)

    def close(self) -> None:
        self.swipl.close()
        submission.remove_tree(self.folder)

    def run(self, goal: str, template: str, keys: list[str], spies: SpyPoints, mode: str,
            depth: int) -> tuple[str, str, str]:
        """One run of `goal` with `keys`, starting in `mode` (creep or leap): what happened
        (wait, answer, failed, limit, error), its text, and what the program wrote."""
        spied = ",".join(spies.written())
        request = (f"step(({goal}), ({template}), [{','.join(keys)}], [{spied}], {mode}, "
                   f"{depth}, {self.inferences})")
        try:
            value = self.swipl.ask(request, SECONDS)
        except SwiplError as error:
            raise PrologError(f"{self.name}: {error}",
                              Struct("system_error", (Atom("stepping"),))) from None
        if not (isinstance(value, list) and len(value) == 3
                and all(isinstance(part, str) for part in value)):
            raise PrologError(f"{self.name}: the stepper's reply is not the protocol's",
                              Struct("system_error", (Atom("stepping"),)))
        return value[0], value[1], value[2]

    def steps(self, goal: str, template: str, stepper: Stepper, depth: int,
              out: Callable[[str], None]) -> Iterator[str]:
        """The values of `template`, answer by answer, as the tracer steps `goal` at each of
        its ports below the call (at `depth`) and `stepper` asks for a key."""
        keys: list[str] = []
        written = 0
        mode = "leap" if stepper.mode == "leap" else "creep"  # leapt into, every run leaps
        while True:
            kind, text, output = self.run(goal, template, keys, stepper.spies, mode, depth)
            out(output[written:])  # the same program writes the same before the same port
            written = max(written, len(output))
            if kind == "wait":
                if len(keys) >= MAX_KEYS:
                    raise PrologError(f"{self.name}: more than {MAX_KEYS} keys typed in one "
                                      "stepped call; the tracer stops there",
                                      Struct("resource_error", (Atom("keys"),)))
                keys.append(stepper.choose(text))  # stepping.pl takes the commands' words
            elif kind == "answer":
                yield text
                keys.append("redo")
            elif kind == "failed":
                return
            elif kind == "limit":
                raise PrologError(f"{self.name}: {quoted(goal)} took more than "
                                  f"{self.inferences} inferences and was stopped (does it run "
                                  "on without end?)",
                                  Struct("resource_error", (Atom("inferences"),)))
            else:
                raise PrologError(f"{self.name}: {text.strip() or kind}",
                                  Struct("system_error", (Atom(kind),)))
