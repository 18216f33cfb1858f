"""Parameters of which the default run takes a few and CI's slow run takes the rest: the
default run stays short, every case is still run in CI."""

from __future__ import annotations

import shutil
from collections.abc import Iterable
from typing import Any

import pytest

from minimax_lab.logic.contain import sandbox


def few_by_default(cases: Iterable[Any], default: Iterable[Any]) -> list[Any]:
    """`cases` as parameters, each not in `default` marked slow (a case is a value or a tuple
    of values, and is named by its first)."""
    kept = set(default)
    return [case if (case[0] if isinstance(case, tuple) else case) in kept
            else pytest.param(*(case if isinstance(case, tuple) else (case,)),
                              marks=pytest.mark.slow)
            for case in cases]


needs_swipl = pytest.mark.skipif(
    shutil.which("swipl") is None,
    reason="swipl is not installed (Debian package swi-prolog-nox); .ci/run installs it")
"""What needs SWI-Prolog's `swipl`: skipped without it (CI installs it, and fails without)."""

needs_bwrap = pytest.mark.skipif(
    not sandbox.bwrap_works(),
    reason="bwrap cannot make a sandbox here (Debian package bubblewrap); .ci/run installs it")
"""What grades a class through the pipeline, which refuses to without a working bwrap (and
no --unsandboxed), or tests the sandbox itself: skipped without it."""
