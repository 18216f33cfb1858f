"""A host for `compare.grader.running.hosted` without a browser: the harness's `host_load/4` and
`host_answer/2` called in a `swipl` process, a line in and a line out, as the site's page
calls them in SWI-Prolog compiled to WebAssembly (`logic.site.browser.WasmHost`)."""

from __future__ import annotations

import subprocess
from importlib import resources
from pathlib import Path

DRIVER = """
main :-
    current_prolog_flag(argv, [Harness, Main, Helper|_]),
    load_files(Harness, [silent(true)]),
    current_input(In), current_output(Out),
    read_line_to_string(In, Number), number_string(N, Number),
    harness:host_load(Main, Helper, N, Loaded), say(Out, Loaded),
    serve(In, Out).
serve(In, Out) :-
    read_line_to_string(In, Text),
    (   Text == end_of_file -> true
    ;   harness:host_answer(Text, Line), say(Out, Line), serve(In, Out)
    ).
say(Out, Line) :- format(Out, "~s~n", [Line]), flush_output(Out).
:- initialization(main, main).
"""


class SwiplHost:
    """The harness in a `swipl` process of its own, the student's file `path` loaded by
    `host_load/4` (`logic.contain.hosted.Host`)."""

    def __init__(self, path: Path, folder: Path) -> None:
        self.folder = str(path.parent)
        driver = folder / "driver.pl"
        driver.write_text(DRIVER)
        lab = resources.files("minimax_lab.logic.prolog")
        self.path = path
        self.process = subprocess.Popen(
            ["swipl", "-q", "-f", "none", str(driver), "--", str(lab / "harness.pl"),
             str(path), str(lab / "minimax_helper.pl")],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, encoding="utf-8")

    def _line(self, text: str) -> str:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(text + "\n")
        self.process.stdin.flush()
        return self.process.stdout.readline()

    def load(self, number: int) -> str:
        return self._line(str(number))

    def answer(self, question: str) -> str:
        return self._line(question)

    def close(self) -> None:
        """End the process."""
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=30)


class SwiplFresh:
    """A fresh SWI-Prolog beside a host (`logic.contain.hosted.Fresh`) in a second `swipl`
    process, the same file loaded: it asks the questions sent to it in turn, each when its
    reply is first waited for (the page's asks them meanwhile, in a worker of its own)."""

    def __init__(self, path: Path, folder: Path) -> None:
        self.host = SwiplHost(path, folder)
        self.host.load(0)
        self.sent: list[str] = []
        self.lines: list[str] = []

    def send(self, questions: list[str]) -> None:
        self.sent.extend(questions)

    def reply(self, index: int) -> str:
        while len(self.lines) <= index:
            self.lines.append(self.host.answer(self.sent[len(self.lines)]))
        return self.lines[index]

    def close(self) -> None:
        """End the process."""
        self.host.close()


class PipedSwiplHost(SwiplHost):
    """A host that can be sent questions ahead (`logic.contain.hosted.PipedHost`), as the
    page's SWI-Prolog in a worker of its own: each asked, in the order sent, when its line or
    a later one is first taken, and before any asked with `answer` (as a worker asks what it
    is sent in turn); `asked` keeps every question in the order asked."""

    def __init__(self, path: Path, folder: Path) -> None:
        super().__init__(path, folder)
        self.queued: list[str] = []
        self.lines: list[str] = []
        self.asked: list[str] = []

    def post(self, questions: list[str]) -> int:
        self.queued.extend(questions)
        return len(self.queued) - len(questions)

    def take(self, number: int) -> str:
        while len(self.lines) <= number:
            self.lines.append(self._asked(self.queued[len(self.lines)]))
        return self.lines[number]

    def answer(self, question: str) -> str:
        if self.queued:
            self.take(len(self.queued) - 1)
        return self._asked(question)

    def _asked(self, question: str) -> str:
        self.asked.append(question)
        return super().answer(question)
