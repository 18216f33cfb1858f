"""The Python the site runs in Pyodide, in its workers: the top level answers as `minimax-lab
query` does, the tools draw as the notebook does, and the check judges a student's file as
`grade` does, in SWI-Prolog compiled to WebAssembly, and the game's agent answers each click
(`logic.tools.game`). Each call takes and gives JSON text."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Sequence
from importlib import resources
from typing import Any, Protocol, cast

from minimax_lab.compare.grader.options.options import Where, defaults_at
from minimax_lab.compare.grader.outputs.beside_page import searches_html
from minimax_lab.compare.grader.outputs.students import student_view
from minimax_lab.compare.grader.outputs.text import (
    OUTPUT_APART,
    output_log,
    submission_report,
    summary_line,
)
from minimax_lab.compare.grader.running.hosted import Every, Progress, Sample, check_hosted
from minimax_lab.compare.judge.scores import Hints
from minimax_lab.logic import api
from minimax_lab.logic.contain.contained import new_id
from minimax_lab.logic.engines import Engine
from minimax_lab.logic.errors import LabError
from minimax_lab.logic.quote import escaped
from minimax_lab.logic.site.stepped import Stepped, stepped
from minimax_lab.logic.tools import game
from minimax_lab.logic.toplevel.errors import ANSWER_ERRORS, ToplevelError
from minimax_lab.logic.toplevel.prolog_terms import Term
from minimax_lab.logic.toplevel.repl import Session, print_answers
from minimax_lab.logic.toplevel.stepper import SpyPoints

ENGINES = ("logic", "reference")
"""The engines the site's top level answers with (no Prolog engine: SWI-Prolog in the page
is the check's)."""
VIEWS = ("board", "explain", "trace", "tree")
FOLDER, HARNESS = "/submission", "/harness"
NO_FILES = ("the lab's Python loads no file: pick yours under Your program (or type it there), "
            "and [file]. loads it into SWI-Prolog in this page")
"""What `[file].` and `consult/1` say when the page has no file picked to load instead."""


class PageSession(Session):
    """The top level's session in the page: as the command line's, but with no folder to load
    a student's file from (`[file].`, `consult/1`, `make.`): `consulted` says one was asked,
    and the page loads the file picked into its SWI-Prolog instead (make.: again)."""

    consulted = False

    def __init__(self, engine_name: str, out: io.StringIO) -> None:
        super().__init__(engine_name, out)
        self.spies = SPIES

    def stops_at_ports(self) -> bool:
        """The page steps a goal key by key (`logic.site.stepped`), as a terminal does."""
        return True

    def knows(self, name: str, arity: int | None) -> bool:
        """The lab's top level's predicates, and those of the program loaded in the page's
        SWI-Prolog (`program_loaded`), whose goals leap to the page's spy points too."""
        return super().knows(name, arity) or any(
            own == name and arity in (None, own_arity) for own, own_arity in _program)

    def consult(self, files: list[Term]) -> None:
        self.consulted = True
        raise ToplevelError(NO_FILES)

    def make(self) -> None:
        self.consult([])


SPIES = SpyPoints()
"""The page's spy points, one set for its sessions (as a terminal's session keeps its own
whatever the engine) and for the program loaded in its SWI-Prolog (`spying`)."""
_program: frozenset[tuple[str, int]] = frozenset()
"""The predicates of the program loaded in the page's SWI-Prolog."""
_sessions: dict[str, PageSession] = {}
_stepping: dict[str, Stepped] = {}
HALTED = "% halt. ends the command line's top level; this page's goes on\n"


def query(goal: str, engine: str = "logic") -> str:
    """`goal` answered at the top level of `engine`: {"status", "out", "err"}, as `minimax-lab
    query GOAL --engine ENGINE` prints them and exits; after `trace.` (or with spy points in
    debug mode) the goal is stepped as on a terminal, and `waiting` says it waits for a key
    (`key`)."""
    if engine not in ENGINES:
        return _json(status=2, out="", err=f"unknown engine {engine!r}")
    _stepping.pop(engine, None)
    out, err = io.StringIO(), io.StringIO()
    if engine not in _sessions:
        _sessions[engine] = PageSession(engine, out)
    session = _sessions[engine]
    if stepped(session, goal) and not goal.strip().startswith(":"):
        _stepping[engine] = Stepped.ask(session, goal)
        return _stepped_answer(engine, _stepping[engine].run())
    session.out = out
    session.consulted = False
    status = print_answers(goal, session, out, err)
    if not out.getvalue() and not err.getvalue():  # halt.: the command line ends in silence
        out.write(HALTED)
    return _json(status=status, out=out.getvalue(), err=err.getvalue(),
                 consult=session.consulted, spying=spying())


def spying() -> dict[str, Any]:
    """The page's spy points as the program's worker takes them: {"spied": [Name/Arity...],
    "debugging"} (a goal of the program leaps to them, in debug mode at once)."""
    return {"spied": SPIES.written(), "debugging": SPIES.debugging}


def program_loaded(defined: str) -> str:
    """The program loaded in the page's SWI-Prolog defines `defined` (JSON: its predicates,
    Name/Arity, each name as it is): spy/1 may name them. {"status"}."""
    global _program
    found = set()
    for spec in json.loads(defined):
        name, _, arity = str(spec).rpartition("/")
        if name and arity.isdigit():
            found.add((name, int(arity)))
    _program = frozenset(found)
    return _json(status=0)


def key(typed: str, engine: str = "logic") -> str:
    """The stepped goal of `engine` given one more key (a port's command, or `;`, Enter after
    an answer): {"status", "out", "waiting"}, `out` the goal's whole transcript so far."""
    if engine not in _stepping:
        return _json(status=2, out="", err="no goal is being stepped: trace. then a goal steps it",
                     waiting=False)
    return _stepped_answer(engine, _stepping[engine].typed(typed))


def _stepped_answer(engine: str, out: str) -> str:
    goal = _stepping[engine]
    if goal.done:
        del _stepping[engine]
    if goal.ended_session:
        out += HALTED
    return _json(status=0, out=out, err="", waiting=not goal.done, spying=spying())


def view(kind: str, position: str, player: str, search: str = "minimax") -> str:
    """The notebook's picture of `kind` (board, explain, trace, tree) for the position:
    {"html"}, or {"error"} in one line."""
    try:
        if kind == "board":
            shown: Any = api.board(position, player or None)
        elif kind == "explain":
            shown = api.explain(position, player or None, engine="reference")
        elif kind == "trace":
            shown = api.trace(position, player or None, more="the command line's trace shows "
                              "more: minimax-lab trace STATE PLAYER --max-calls N")
        elif kind == "tree":
            shown = api.tree(position, player or None, search=search)
        else:
            return _json(error=f"unknown view {kind!r}; the views are {', '.join(VIEWS)}")
        return _json(html=shown.html())
    except (LabError, ValueError, *ANSWER_ERRORS) as error:
        return _json(error=escaped(str(error)))


def game_start(setup: str) -> str:
    """A new game of `setup` (JSON: `logic.tools.game.Setup`'s fields and the engine, logic or
    reference): its first turn, and the setup in words (`setup`)."""
    try:
        rules, engine = _game(setup)
        return _json(**game.start(rules, engine).to_json(), setup=rules.described())
    except (LabError, ValueError) as error:
        return _json(error=escaped(str(error)))


def game_click(setup: str, state: str, cell: object) -> str:
    """The human's click on `cell` of the board `state`, and the agent's reply, computed here;
    a click that cannot be played is refused in one line ({"error"}), the game unchanged."""
    try:
        rules, engine = _game(setup)
        return _json(**game.click(rules, engine, game.board_of(rules, state), cell).to_json())
    except (LabError, ValueError) as error:
        return _json(error=escaped(str(error)))


def game_values(setup: str, state: str) -> str:
    """Each move's value on the board `state` for the player to move: {"values", "best"}."""
    try:
        rules, engine = _game(setup)
        return _json(**game.values(rules, engine, game.board_of(rules, state)))
    except (LabError, ValueError) as error:
        return _json(error=escaped(str(error)))


def game_search(setup: str, state: str) -> str:
    """The stepped page of the search of the agent's move from `state`: {"html"}."""
    from minimax_lab.logic.tools.tree_html import tree_html_frame

    try:
        rules, _ = _game(setup)
        return _json(html=tree_html_frame(game.search(rules, game.board_of(rules, state))))
    except (LabError, ValueError) as error:
        return _json(error=escaped(str(error)))


def _game(setup: str) -> tuple[game.Setup, Engine]:
    """A game's setup from the page's JSON, and its agent's engine (one of `ENGINES`)."""
    try:
        fields = json.loads(setup)
    except json.JSONDecodeError:
        fields = None
    if not isinstance(fields, dict):
        raise game.SetupError("a game's setup is a JSON object")
    engine = fields.pop("engine", "reference")
    if engine not in ENGINES:
        raise game.SetupError(f"unknown engine {engine!r}; the engines are {', '.join(ENGINES)}")
    rules = game.setup_from(fields)
    if rules.depth is not None and engine != "reference":
        raise game.SetupError(f"looking {rules.reach} needs the reference engine: the "
                              f"{engine} engine looks to the end of the game only")
    return rules, api.get_engine(engine, rules.objective, depth=rules.depth)


class Prolog(Protocol):
    """The page's SWI-Prolog (swipl-wasm), as its worker hands it over."""

    def write(self, path: str, text: str) -> None: ...

    def line(self, goal: str, text: str) -> str: ...


class WasmHost:
    """The harness in the page's SWI-Prolog, the student's file in `FOLDER`
    (`logic.contain.hosted.Host`); the harness is consulted first where it is not yet (a
    worker may make its SWI-Prolog ready ahead: `prepare`)."""

    folder = FOLDER

    def __init__(self, prolog: Prolog, name: str, text: str) -> None:
        self.prolog, self.name = prolog, name
        prepare(prolog)
        prolog.write(f"{FOLDER}/{name}", text)

    def load(self, number: int) -> str:
        return self.prolog.line(load_goal(self.name, number), "")

    def answer(self, question: str) -> str:
        return self.prolog.line(ANSWER_GOAL, question)


ANSWER_GOAL = "harness:host_answer(Text, Line)"
"""The goal that asks the harness one question, `Text`."""
CONSULT_GOAL = f"load_files('{HARNESS}/harness.pl', [silent(true)]), Line = \"\""
"""The goal that consults the harness, written in the SWI-Prolog's files (`harness_files`)."""


def load_goal(name: str, number: int) -> str:
    """The goal that loads the student's file `name` (in `FOLDER`) as question `number`."""
    return f"harness:host_load('{FOLDER}/{name}', '{HARNESS}/minimax_helper.pl', {number}, Line)"


def prepare(prolog: Prolog) -> None:
    """A SWI-Prolog made ready for a check (`WasmHost`): the harness and the lab's helpers
    written in its file system and the harness consulted, unless that is done already."""
    if prolog.line('(current_predicate(harness:host_answer/2) -> Line = "yes" ; Line = "")',
                   "") == "yes":
        return
    for path, text in harness_files().items():
        prolog.write(path, text)
    prolog.line(CONSULT_GOAL, "")


def harness_files() -> dict[str, str]:
    """The harness and the lab's helpers, by their paths in a page's SWI-Prolog."""
    lab = resources.files("minimax_lab.logic.prolog")
    return {f"{HARNESS}/{file}": (lab / file).read_text(encoding="utf-8")
            for file in ("harness.pl", "minimax_helper.pl")}


def harness_plan() -> str:
    """What a SWI-Prolog in a worker of its own (`ask-worker.js`) is sent to be made ready for
    a check, as `prepare` makes one here: the harness's files, and the goal that consults it
    (JSON)."""
    return _json(files=harness_files(), goals=[[CONSULT_GOAL, ""]])


class Worker(Protocol):
    """A SWI-Prolog in a worker of its own, as the check's worker hands it over
    (`ask-worker.js`): `post` sends it a message (JSON: files to write, goals to run) holding
    `goals` goals and gives the first's number; `since` is a promise of the lines (JSON) it
    gave from one goal (by its number) on: those come so far, at least one."""

    def post(self, message: str, goals: int) -> int: ...

    def since(self, number: int) -> Any: ...


class WorkerProlog:
    """A `Prolog` in a worker of its own: sent goals it runs in turn while this worker goes on
    (`post`), each line waited for with Pyodide's `run_sync` (WebAssembly's stack switching),
    every line come so far taken at each wait."""

    def __init__(self, worker: Worker) -> None:
        self.worker = worker
        self.lines: dict[int, str] = {}

    def write(self, path: str, text: str) -> None:
        self.worker.post(_json(files={path: text}), 0)

    def post(self, goals: Sequence[tuple[str, str]]) -> int:
        """Send `goals` (each a goal and its `Text`) to run in turn; the first's number."""
        return int(self.worker.post(_json(goals=[list(goal) for goal in goals]), len(goals)))

    def take(self, number: int) -> str:
        """The line the goal numbered `number` gave, waited for."""
        from pyodide.ffi import run_sync  # type: ignore[import-not-found]

        if number not in self.lines:
            given = json.loads(str(run_sync(self.worker.since(number))))
            self.lines.update(enumerate(given, number))
        return self.lines.pop(number)

    def line(self, goal: str, text: str) -> str:
        return self.take(self.post([(goal, text)]))


class PipedWasmHost(WasmHost):
    """A `WasmHost` whose SWI-Prolog is in a worker of its own
    (`logic.contain.hosted.PipedHost`): sent the next questions while the last are judged."""

    prolog: WorkerProlog

    def post(self, questions: Sequence[str]) -> int:
        return self.prolog.post([(ANSWER_GOAL, question) for question in questions])

    def take(self, number: int) -> str:
        return self.prolog.take(number)


class PrologFresh:
    """The check's fresh SWI-Prolog (`logic.contain.hosted.Fresh`), the student's file loaded
    in it: in a worker of its own, it is sent each question at once and asks them on another
    core meanwhile; else it asks each when its reply is wanted, after the rest."""

    def __init__(self, prolog: Prolog, name: str, text: str) -> None:
        self.host = WasmHost(prolog, name, text)
        self.apart = isinstance(prolog, WorkerProlog)
        self.sent: list[str] = []
        self.numbers: list[int] = []
        self.loaded = False

    @property
    def count(self) -> int:
        """How many questions it was sent."""
        return len(self.sent)

    def send(self, questions: Sequence[str]) -> None:
        self.sent.extend(questions)
        prolog = self.host.prolog
        if isinstance(prolog, WorkerProlog) and questions:
            self._load()
            first = prolog.post([(ANSWER_GOAL, question) for question in questions])
            self.numbers.extend(range(first, first + len(questions)))

    def reply(self, index: int) -> str:
        self._load()
        prolog = self.host.prolog
        if index < len(self.numbers) and isinstance(prolog, WorkerProlog):
            return prolog.take(self.numbers[index])
        return self.host.answer(self.sent[index])

    def _load(self) -> None:
        """The file loaded once, before its first question (what loading said is the
        check's own SWI-Prolog's to tell)."""
        if self.loaded:
            return
        self.loaded = True
        if isinstance(self.host.prolog, WorkerProlog):
            self.host.prolog.post([(load_goal(self.host.name, new_id()), "")])
        else:
            self.host.load(new_id())


def file_name(picked: str) -> str:
    """A safe name for the student's file in the page's file system, ending `.pl`."""
    stem = re.sub(r"[^A-Za-z0-9_.-]", "_", picked.rsplit("/", 1)[-1].rsplit("\\", 1)[-1])
    stem = stem.lstrip(".")[:60] or "minimax"
    return stem if stem.endswith(".pl") else f"{stem.removesuffix('.pro')}.pl"


def check(prolog: Prolog | Worker, picked: str, text: str, per_check: int = 40,
          progress: Progress | None = None, hints: str | None = None,
          fresh: Prolog | Worker | None = None, workers: bool = False) -> str:
    """The student's file `text` (named `picked`) checked as `grade` checks it, on a sample
    of `per_check` questions of each predicate, or on every question `grade` asks (the whole
    check) when `per_check` is 0; `progress` told how far it got: {"report", "summary",
    "right", "log", "beside", "fresh", "fresh_apart"}, as a student view tells it
    (`compare.grader.outputs.students`) at the hint level `hints` (the site's: `minimax-lab
    site --hints`; the default where none is given), `beside` its searches at each first
    wrong call drawn beside the lab's, as the report's page draws them ("" where none is
    drawn: below `expected`, or nothing wrong).
    The questions of the whole program (the end-to-end sample) are asked of `fresh`, a second
    SWI-Prolog never given a lab answer, as `grade` asks them of a fresh process: {"fresh"}
    how many, {"fresh_apart"} whether in a worker of its own. With `workers`, `prolog` and
    `fresh` are each in a worker of its own (`Worker`): the next questions are asked while
    the last are judged (Python waits with `run_sync`, so the call is entered as a promise)."""
    name = file_name(picked)
    if workers:
        prolog = WorkerProlog(cast(Worker, prolog))
        fresh = None if fresh is None else WorkerProlog(cast(Worker, fresh))
    host = (PipedWasmHost if workers else WasmHost)(cast(Prolog, prolog), name, text)
    second = None if fresh is None else PrologFresh(cast(Prolog, fresh), name, text)
    grade = check_hosted(name.removesuffix(".pl"), host,
                         Every() if per_check == 0 else Sample(per_check), progress, second,
                         **defaults_at(Where.SITE))
    shown = student_view(grade, hints=Hints(hints) if hints else None)
    report = submission_report(shown).replace(OUTPUT_APART, " (shown below the report)")
    return _json(report=report, summary=summary_line(shown), right=shown.clean,
                 log=output_log(shown), beside=searches_html(shown),
                 fresh=0 if second is None else second.count,
                 fresh_apart=second is not None and second.apart)


def _json(**fields: object) -> str:
    return json.dumps(fields)
