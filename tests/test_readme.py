"""The documentation's examples, run as written: each `$ minimax-lab ...` line and its output,
each `>>>` line of Python and what it prints.

Every ```console block of README.md and docs/*.md is replayed, and every ```pycon block run as
a doctest, a document's blocks in one namespace in order; a block whose output cannot be fixed
(timings, say) belongs in a ```text block instead.
"""

from __future__ import annotations

import contextlib
import doctest
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from marks import needs_bwrap, needs_swipl

from minimax_lab.logic.commands.cli import main

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
_BLOCK = re.compile(r"```console\n(.*?)```", re.DOTALL)
_PYTHON = re.compile(r"```pycon\n(.*?)```", re.DOTALL)
NEEDS_SWIPL = "--engine prolog"
"""An example whose command says this runs SWI-Prolog: skipped without `swipl`."""
MAPPED = "--mapped"
"""An example that runs a program through its mapping, contained, on every position: slow,
and skipped without `swipl` and bwrap (its usage errors are neither)."""
USAGE_ERROR = "minimax-lab: error: "
GUESS = "mapping guess"
"""An example that guesses a program's mapping: runs it contained in SWI-Prolog."""


def examples() -> list[Any]:
    """(command, expected output) for every `$` line of the documents' console blocks, marked
    with what it needs."""
    found = []
    for document in DOCUMENTS:
        for block in _BLOCK.findall(document.read_text(encoding="utf-8")):
            for line in block.splitlines(keepends=True):
                if line.startswith("$ "):
                    found.append([line[2:].rstrip("\n"), ""])
                elif found:
                    found[-1][1] += line
    return [pytest.param(command, output, marks=_marks(command, output))
            for command, output in found]


def _marks(command: str, output: str) -> list[Any]:
    """What an example needs, and whether it is slow."""
    if MAPPED in command and not output.startswith(USAGE_ERROR):
        return [needs_swipl, needs_bwrap, pytest.mark.slow]
    return [needs_swipl] if NEEDS_SWIPL in command or GUESS in command else []


def test_the_readme_has_examples():
    assert len(examples()) >= 6


READS_INPUT = ("repl", "play")
"""Commands that read standard input: always run in a process of their own."""


def in_process(command: str) -> list[str] | None:
    """The arguments of a plain `minimax-lab ...` line (no pipe, redirection or other shell
    syntax, no command that reads standard input), which the test runs through the command
    line's own `main` in this process, sparing a Python start per example; None for the rest,
    run by a shell."""
    lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    words = list(lexer)
    if (len(words) < 2 or words[0] != "minimax-lab" or words[1] in READS_INPUT
            or any(word and set(word) <= set("|&;<>()") for word in words)):
        return None
    return words[1:]


@pytest.mark.parametrize(("command", "expected"), examples())
def test_readme_example(command, expected, capsys, monkeypatch):
    arguments = in_process(command)
    if arguments is not None:
        monkeypatch.chdir(ROOT)
        with contextlib.suppress(SystemExit):  # a usage error: argparse has printed it
            main(arguments)
        printed = capsys.readouterr()
        assert printed.out + printed.err == expected
        return
    shell_command = command.replace("minimax-lab", f"'{sys.executable}' -m minimax_lab")
    result = subprocess.run(
        shell_command, shell=True, capture_output=True, text=True, timeout=300,
        cwd=ROOT,
    )
    assert result.stdout + result.stderr == expected


@pytest.mark.parametrize("command", [
    "minimax-lab decide x-o-x---- o", "minimax-lab query 'X is 1 + 1.'",
    "minimax-lab table | minimax-lab compare --against -", "minimax-lab repl",
    "printf 'x' | minimax-lab repl", "minimax-lab query 'a.' > out.txt"])
def test_only_a_plain_line_runs_in_process(command):
    expected = {"minimax-lab decide x-o-x---- o": ["decide", "x-o-x----", "o"],
                "minimax-lab query 'X is 1 + 1.'": ["query", "X is 1 + 1."]}
    assert in_process(command) == expected.get(command)


@pytest.mark.parametrize("document", [document for document in DOCUMENTS
                                      if _PYTHON.search(document.read_text(encoding="utf-8"))],
                         ids=lambda document: document.name)
def test_python_examples(document, tmp_path, monkeypatch):
    """The document's Python sessions, as doctests run in a scratch folder."""
    monkeypatch.chdir(tmp_path)
    text = "\n".join(_PYTHON.findall(document.read_text(encoding="utf-8")))
    test = doctest.DocTestParser().get_doctest(text, {}, document.name, str(document), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    failures = []
    runner.run(test, out=failures.append)
    assert test.examples and runner.failures == 0, "".join(failures)
