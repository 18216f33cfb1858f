"""The documentation's examples, run as written: each `$ minimax-lab ...` line and its output.

Every ```console block of README.md and docs/*.md is replayed; a block whose output cannot be
fixed (timings, say) belongs in a ```text block instead.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
_BLOCK = re.compile(r"```console\n(.*?)```", re.DOTALL)


def examples() -> list[tuple[str, str]]:
    """(command, expected output) for every `$` line of the documents' console blocks."""
    found = []
    for document in DOCUMENTS:
        for block in _BLOCK.findall(document.read_text(encoding="utf-8")):
            for line in block.splitlines(keepends=True):
                if line.startswith("$ "):
                    found.append([line[2:].rstrip("\n"), ""])
                elif found:
                    found[-1][1] += line
    return [(command, output) for command, output in found]


def test_the_readme_has_examples():
    assert len(examples()) >= 6


@pytest.mark.parametrize(("command", "expected"), examples())
def test_readme_example(command, expected):
    shell_command = command.replace("minimax-lab", f"'{sys.executable}' -m logic")
    result = subprocess.run(
        shell_command, shell=True, capture_output=True, text=True, timeout=300,
        cwd=ROOT,
    )
    assert result.stdout + result.stderr == expected
