"""The number options of the commands, each read by argparse into one clear error when wrong."""

from __future__ import annotations

import argparse

from minimax_lab.logic.quote import quoted

MAX_SECONDS = 1e6
"""The longest time limit `--timeout`, `--total-timeout` and the like take (about 11 days)."""


def whole_number(text: str, least: int, meaning: str) -> int:
    """`text` as a whole number of at least `least`; else an argparse error saying `meaning`."""
    try:
        number = int(text) if text.strip().isascii() else least - 1
    except ValueError:
        number = least - 1
    if number < least:
        raise argparse.ArgumentTypeError(f"{meaning}, not {quoted(text)}")
    return number


def plies(text: str) -> int:
    """`--depth` of a search: a whole number of plies, 1 or more."""
    return whole_number(text, 1, "a depth is a number of plies, 1 or more")


def drawn_plies(text: str) -> int:
    """`tree --plies`: a number of plies to draw, 0 or more."""
    return whole_number(text, 0, "a number of plies to show is 0 or more")


def call_levels(text: str) -> int:
    """`trace --levels`: how many levels of calls to show, 0 or more."""
    return whole_number(text, 0, "a number of levels of calls is 0 or more")


def node_limit(text: str) -> int:
    """`tree --max-nodes`: a number of nodes, 1 or more."""
    return whole_number(text, 1, "a node limit is a number of nodes, 1 or more")


def call_limit(text: str) -> int:
    """`trace --max-calls`: a number of calls, 1 or more."""
    return whole_number(text, 1, "a call limit is a number of calls, 1 or more")


def count(text: str) -> int:
    """A whole number, 0 or more."""
    return whole_number(text, 0, "expected a whole number, 0 or more")


def listing(text: str) -> int | None:
    """`--list`: a whole number, or `all` (None)."""
    if text == "all":
        return None
    return whole_number(text, 0, "expected a whole number or 'all'")


def jobs(text: str) -> int:
    """`--jobs`: a number of submissions graded at once, 1 or more."""
    return whole_number(text, 1, "a number of jobs is 1 or more")


def answers(text: str) -> int:
    """`--answers`: a number of answers asked of each question, 1 or more."""
    return whole_number(text, 1, "a number of answers is 1 or more")


def seconds(text: str) -> float:
    """A number of seconds, more than 0 and at most `MAX_SECONDS`."""
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not 0 < value <= MAX_SECONDS:
        raise argparse.ArgumentTypeError(
            f"expected a number of seconds above 0 and at most {MAX_SECONDS:g}, not {text!r}"
        )
    return value

