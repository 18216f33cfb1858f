"""The README's examples, run as written: each `$ minimax-lab ...` line and the output below it."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"
_BLOCK = re.compile(r"```console\n(.*?)```", re.DOTALL)


def examples() -> list[tuple[str, str]]:
    """(command, expected output) for every `$` line of the README's console blocks."""
    found = []
    for block in _BLOCK.findall(README.read_text(encoding="utf-8")):
        for chunk in block.split("$ ")[1:]:
            command, _, output = chunk.partition("\n")
            found.append((command, output))
    return found


def test_the_readme_has_examples():
    assert len(examples()) >= 6


@pytest.mark.parametrize(("command", "expected"), examples())
def test_readme_example(command, expected):
    shell_command = command.replace("minimax-lab", f"'{sys.executable}' -m logic", 1)
    result = subprocess.run(
        shell_command, shell=True, capture_output=True, text=True, timeout=300,
        cwd=README.parent,
    )
    assert result.stdout + result.stderr == expected
