"""A program's search drawn beside the lab's: one neutral tree of calls (a predicate or a
function, its board and player, its answer, the calls it makes below), the same for a Prolog
or a Python program and for the lab; a pure alignment of two such trees that finds the first
node, in preorder, where they differ; and both trees drawn side by side in HTML, that node
marked (docs/grading-reference.md, "The student's search beside the lab's").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, replace
from html import escape

from minimax_lab.logic.state import Player, State, draw_board

MOST_NODES = 64
"""Nodes a tree keeps at most, in preorder; the rest are cut, and the tree says so."""


@dataclass(frozen=True)
class Call:
    """One call of a search: `predicate` asked on `state` for `player`, its `answer` as the
    two trees compare it (the lab's words where the judge found the program's answer right),
    what it `said` (as shown; its answer where not given), and the calls it made below."""

    predicate: str
    state: State
    player: Player
    answer: str
    children: tuple[Call, ...] = ()
    said: str = ""
    cut: bool = False
    """True when calls below it were left out (`bounded`)."""

    @property
    def key(self) -> tuple[str, State, Player]:
        """What names the call, its answer aside."""
        return (self.predicate, self.state, self.player)

    @property
    def shown(self) -> str:
        """The answer as drawn."""
        return self.said or self.answer

    def __str__(self) -> str:
        return f"{self.predicate}({self.state}, {self.player})"


Path = tuple[int, ...]
"""A node's place in its tree: the index of each child taken from the root."""


@dataclass(frozen=True)
class Difference:
    """Where two trees first differ: the node in each (`student`, `lab`), why (`answer`,
    `call`: another call in its place, or `below`: other calls below it), and the calls below
    it that one makes and the other does not (for `answer` too)."""

    student: Path
    lab: Path
    why: str
    missing: tuple[str, ...] = ()
    """Calls the lab makes below the node that the program does not."""
    extra: tuple[str, ...] = ()
    """Calls the program makes below the node that the lab does not."""

    def words(self) -> str:
        """The difference in one line."""
        if self.why == "call":
            return "first difference: another call"
        parts = ([f"missing {', '.join(self.missing)}"] if self.missing else []) + (
            [f"not in the lab's search {', '.join(self.extra)}"] if self.extra else [])
        below = f"the calls below differ ({'; '.join(parts)})" if parts else ""
        if self.why == "answer":
            return "first difference: the answers differ" + (f"; {below}" if below else "")
        return f"first difference: {below}"


def first_difference(student: Call, lab: Call, at: tuple[Path, Path] = ((), ())
                     ) -> Difference | None:
    """The first node, in preorder, where `student` and `lab` differ (None: nowhere): another
    call, another answer, or other calls below (compared as a multiset, and named for another
    answer too; each of the program's children is then aligned with the lab's first unmatched
    child of the same call)."""
    mine, its = at
    if student.key != lab.key:
        return Difference(mine, its, "call")
    made = Counter(child.key for child in student.children)
    wanted = Counter(child.key for child in lab.children)
    missing = tuple(_named(key) for key in (wanted - made).elements())
    extra = tuple(_named(key) for key in (made - wanted).elements())
    if student.answer != lab.answer:
        return Difference(mine, its, "answer", missing, extra)
    if made != wanted:
        return Difference(mine, its, "below", missing, extra)
    taken: set[int] = set()
    for index, child in enumerate(student.children):
        match = next(number for number, other in enumerate(lab.children)
                     if number not in taken and other.key == child.key)
        taken.add(match)
        found = first_difference(child, lab.children[match], ((*mine, index), (*its, match)))
        if found is not None:
            return found
    return None


def _named(key: tuple[str, State, Player]) -> str:
    predicate, state, player = key
    return f"{predicate}({state}, {player})"


def bounded(tree: Call, most: int = MOST_NODES) -> Call:
    """`tree` with its first `most` nodes in preorder (at least its root); a node whose calls
    below were left out is marked `cut`."""
    left = [most - 1]

    def keep(node: Call) -> Call:
        children: list[Call] = []
        for child in node.children:
            if left[0] <= 0:
                return replace(node, children=tuple(children), cut=True)
            left[0] -= 1
            children.append(keep(child))
        return replace(node, children=tuple(children))

    return keep(tree)


def nodes(tree: Call, path: Path = ()) -> Iterator[tuple[Path, Call]]:
    """Each node of `tree` with its path, in preorder."""
    yield path, tree
    for index, child in enumerate(tree.children):
        yield from nodes(child, (*path, index))


def beside_html(student: Call, lab: Call, difference: Difference | None) -> str:
    """The two trees side by side, each with its legend, the first difference marked in both
    (an HTML fragment, styled inline, that a page or a notebook shows as it is)."""
    said = difference.words() if difference is not None else "the two searches agree"
    return ('<div class="beside" style="display:flex;gap:2em;align-items:flex-start">'
            + _column("your program's search", STUDENT_LEGEND, student,
                      None if difference is None else difference.student)
            + _column("the lab's search", LAB_LEGEND, lab,
                      None if difference is None else difference.lab)
            + f'</div><p class="beside-difference"><b>{escape(said)}</b></p>')


STUDENT_LEGEND = ("below the first wrong call, the calls your program made where they were "
                  "recorded, else those the grader asked it, each with the answer it got; red: "
                  "the first node where it differs from the lab's")
LAB_LEGEND = ("the same call as the lab makes it, with the lab's answers; red: the node "
              "that your program's differs from")


def _column(title: str, legend: str, tree: Call, marked: Path | None) -> str:
    return (f'<div class="beside-tree"><h4>{escape(title)}</h4>'
            f'<p style="font-size:smaller">{escape(legend)}</p>'
            f'<ul style="list-style:none;padding-left:0">{_node(tree, (), marked)}</ul></div>')


def _node(node: Call, path: Path, marked: Path | None) -> str:
    differs = path == marked
    style = "border:2px solid #c00" if differs else "border:1px solid #999"
    board = escape(draw_board(node.state))
    below = "".join(_node(child, (*path, index), marked)
                    for index, child in enumerate(node.children))
    cut = "<li>(more calls left out)</li>" if node.cut else ""
    nested = (f'<ul style="list-style:none;padding-left:1.5em">{below}{cut}</ul>'
              if below or cut else "")
    mark = ' data-differs="true"' if differs else ""
    return (f'<li{mark}><div style="{style};display:inline-block;margin:2px;padding:2px 6px">'
            f"<code>{escape(str(node))}</code>: {escape(node.shown)}"
            f'<pre style="margin:0">{board}</pre></div>{nested}</li>')
