"""The lab's Prolog in a Jupyter cell: after `%load_ext minimax_lab.logic.magics`, `%%prolog`
(a cell of goals and `:` commands) and `%prolog GOAL` answer as the `?-` top level does from a
pipe, the answers drawn as tables. One session per IPython shell keeps its engines between cells.

Options before the goals: `--engine NAME` (this cell's engine), `--program FILE` (a student's
Prolog program as the `prolog` engine) and `--trace [N]` (every goal of the cell traced, N
levels deep).
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, field
from html import escape

from minimax_lab.logic.api.views import Display, preformatted
from minimax_lab.logic.engines import engine_class_for, engine_names, make_engine
from minimax_lab.logic.errors import LabError
from minimax_lab.logic.toplevel.answers import Solution
from minimax_lab.logic.toplevel.repl import PROMPT, Session, converse

DEFAULT_ENGINE = "logic"
"""The engine that answers unless a cell names another, as at `minimax-lab repl`."""
OPTIONS = "--engine NAME, --program FILE, --trace [N]"


@dataclass
class Block:
    """What one goal or command printed, and the answers of a goal."""

    goal: str | None
    lines: list[str] = field(default_factory=list)
    answers: list[Solution] = field(default_factory=list)


@dataclass(repr=False)
class Transcript(Display):
    """A cell's goals and answers: its text is the top level's transcript from a pipe."""

    blocks: list[Block]

    def text(self) -> str:
        return "\n".join(line for block in self.blocks for line in
                         ([PROMPT + block.goal] if block.goal is not None else []) + block.lines)

    def html(self) -> str:
        parts = []
        for block in self.blocks:
            if block.goal is not None:
                parts.append(f'<div class="goal"><code style="{_WRAP}">'
                             f"{escape(PROMPT + block.goal)}</code></div>")
            answer_lines = {answer.line for answer in block.answers}
            rest = [line for line in block.lines if line not in answer_lines]
            if rest:
                parts.append(preformatted(escape(chr(10).join(rest))))
            parts.append(_answers_table(block.answers))
        return "".join(parts)


_WRAP = "white-space:pre-wrap;overflow-wrap:anywhere"
"""A value wider than the output area wraps rather than being cut."""


def _answers_table(answers: list[Solution]) -> str:
    """The answers of one goal as a table, a column per variable; nothing if none binds one."""
    columns = list(dict.fromkeys(name for answer in answers for name, _ in answer.bindings))
    if not columns:
        return ""
    head = "".join(f"<th>{escape(name)}</th>" for name in columns)
    rows = []
    for answer in answers:
        values = dict(answer.bindings)
        rows.append("<tr>" + "".join(f'<td><code style="{_WRAP}">'
                                     f"{escape(values.get(name, ''))}</code></td>"
                                     for name in columns) + "</tr>")
    return (f'<table class="answers"><thead><tr>{head}</tr></thead>'
            f"<tbody>{''.join(rows)}</tbody></table>")


class NotebookSession(Session):
    """A top-level session whose output is kept, block by block, for a cell to show."""

    def __init__(self, engine_name: str = DEFAULT_ENGINE, program: str | None = None) -> None:
        super().__init__(engine_name, io.StringIO(), None, program)
        self.blocks: list[Block] = []
        self.trace_all = False
        self.trace_depth: int | None = None

    def write(self, text: str) -> None:
        self.line_open = False
        for line in text.split("\n"):
            if line.startswith(PROMPT):
                self.blocks.append(Block(line[len(PROMPT):]))
            elif self.blocks:
                self.blocks[-1].lines.append(line)
            else:
                self.blocks.append(Block(None, [line]))

    def answered(self, answer: Solution) -> None:
        if not self.blocks:
            self.blocks.append(Block(None))
        self.blocks[-1].answers.append(answer)

    def handle(self, line: str) -> bool:
        traced_by_option = self.trace_all and not line.strip().startswith(":")
        if traced_by_option:
            self.trace_next, self.trace_levels = True, self.trace_depth
        # how to see more, in the words of what asked for the trace: the cell's option or :trace
        self.trace_more = (f"{'--trace' if traced_by_option else ':trace'} N shows N levels; "
                           "lab.trace(STATE, PLAYER, max_calls=N) shows more calls")
        return super().handle(line)

    def cell(self, text: str) -> Transcript:
        """Answer the cell's goals and commands as the top level does from a pipe."""
        self.blocks = []
        converse(self, io.StringIO(text), interactive=False, wake=False)
        return Transcript(self.blocks)


def answer_cell(session: NotebookSession, options: str, text: str) -> Transcript:
    """The transcript of `text` answered under the cell's `options`; a bad option is one
    `ERROR:` line, the session unchanged."""
    try:
        engine_name, program, trace = _options(options.split())
        if program is not None:  # a cell of its own session: the program's engine, then closed
            engine_class_for(engine_name or "prolog", program)  # one that runs a program
            own = NotebookSession(engine_name or "prolog", program)
        elif engine_name is not None and engine_name not in session.engines:
            session.engines[engine_name] = make_engine(engine_name)
    except LabError as error:
        return Transcript([Block(None, [f"ERROR: {error}"])])
    if program is not None:
        own.trace_all, own.trace_depth = trace is not False, trace or None
        try:
            return own.cell(text)
        finally:
            for engine in own.engines.values():
                engine.close()
    before = session.engine_name
    session.engine_name = engine_name or session.engine_name
    session.trace_all, session.trace_depth = trace is not False, trace or None
    try:
        return session.cell(text)
    finally:  # the cell's options hold for the cell; its `:` commands go on holding
        session.trace_all = False
        if engine_name is not None:
            session.engine_name = before


def _options(words: list[str]) -> tuple[str | None, str | None, int | None | bool]:
    """`--engine NAME`, `--program FILE`, `--trace [N]`: the engine, the program and the
    levels traced (None: all; False: no trace)."""
    engine_name = program = None
    trace: int | None | bool = False
    index = 0
    while index < len(words):
        word = words[index]
        following = words[index + 1] if index + 1 < len(words) else None
        if word == "--engine" and following is not None:
            if following not in engine_names():
                raise LabError(f"unknown engine {following!r}; the engines are "
                               f"{', '.join(engine_names())}")
            engine_name, index = following, index + 2
        elif word == "--program" and following is not None:
            program, index = following, index + 2
        elif word == "--trace":
            if following is not None and following.isdigit() and 0 < int(following) < 1000:
                trace, index = int(following), index + 2
            else:
                trace, index = None, index + 1
        else:
            raise LabError(f"unknown option {word!r}; the options are {OPTIONS}")
    return engine_name, program, trace


_OPTION = re.compile(r"\s*(--engine\s+\S+|--program\s+\S+|--trace(?:\s+\d+)?(?=\s|$)|--\S*)")


def _split_line(line: str) -> tuple[str, str]:
    """A line magic's options (first) and its goal."""
    options = []
    while (match := _OPTION.match(line)) is not None:
        options.append(match.group(1))
        line = line[match.end():]
    return " ".join(options), line.strip()


_SESSIONS: dict[int, NotebookSession] = {}


def _session(shell: object) -> NotebookSession:
    """The shell's session, made at its first cell."""
    if id(shell) not in _SESSIONS:
        _SESSIONS[id(shell)] = NotebookSession()
    return _SESSIONS[id(shell)]


def load_ipython_extension(ipython) -> None:
    """`%load_ext minimax_lab.logic.magics`: register `%prolog` and `%%prolog`."""

    def prolog(line: str, cell: str | None = None) -> Transcript:
        """%prolog GOAL, or %%prolog [--engine NAME] [--program FILE] [--trace [N]] and a
        cell of goals: answered as the ?- top level does."""
        session = _session(ipython)
        if cell is None:
            options, goal = _split_line(line)
            return answer_cell(session, options, goal)
        return answer_cell(session, line, cell)

    ipython.register_magic_function(prolog, magic_kind="line_cell", magic_name="prolog")
