"""The options that declare a program's own function or predicate by a mapping, shared by
`--interface function` and `--interface predicate`: a file, keys over it, the assignment's
table (`config.own` fields)."""

from __future__ import annotations

from typing import Any

from minimax_lab.compare.grader.interfaces.mappings import MAPPING_FILE
from minimax_lab.compare.grader.options.config import own, table, text, texts

MAPPING_SAID = "declares a Python function or a Prolog predicate"
"""Why a mapping's options go with the interfaces that take one."""


def mapping_option() -> Any:
    """`--mapping FILE`: the TOML file of the mapping."""
    return own(None, MAPPING_SAID, "--interface function or predicate: the TOML file that "
               f"declares the function or predicate (default: the submission's own "
               f"{MAPPING_FILE})", text, metavar="FILE", key="")


def mapping_set_option() -> Any:
    """`--set KEY=VALUE`: one key of the mapping over the file's."""
    return own((), MAPPING_SAID, "--interface function or predicate: one key of the mapping, "
               "over the file's; repeatable", texts, metavar="KEY=VALUE", flag="--set",
               many=True, key="")


def mapping_table_option() -> Any:
    """The assignment's `[mapping]` table."""
    return own(None, MAPPING_SAID, "the assignment's table of the mapping", table, line=False,
               key="mapping", table=True)
