"""A game tree as a Graphviz picture: DOT text written here, drawn by Graphviz's `dot` program.

Each node is a small board with who moves (MAX, the root's player, or MIN) and its minimax
value from the root player's side; alpha-beta's bounds read `>= v` or `<= v`. The chosen line
is red and bold, the moves alpha-beta pruned at a node one grey dashed box, collapsed subtrees
dashed boxes with their counts, a depth-limited search's horizon grey boards with the
evaluation.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from html import escape
from pathlib import Path

from minimax_lab.logic.engines.minimax import Bound, reported
from minimax_lab.logic.errors import LabError
from minimax_lab.logic.quote import quoted
from minimax_lab.logic.state import BLANK, SIDE, State, board_rows, is_terminal, marks_made, result
from minimax_lab.logic.tools.explain import signed
from minimax_lab.logic.tools.tree import GameTree, TreeNode, counted

DOT_PROGRAM = "dot"
DOT_SECONDS = 120
"""How long `dot` may take to draw one picture."""
FORMATS = ("svg", "png", "dot")
PV_COLOUR = "#c0392b"
PRUNED_COLOUR = "#a0a0a0"
GRID = "#555555"
FILL = {"max": "#dbe9f7", "min": "#fbe3d0", "end": "#ffffff", "horizon": "#e8e8e8"}
RANKDIRS = ("TB", "LR")
INSTALL_HINT = (
    "install Graphviz: apt-get install graphviz (Debian, Ubuntu), brew install graphviz "
    "(macOS), or see https://graphviz.org/download/; or write the DOT text with --out FILE.dot"
)


SLIDE_PX = 2000
"""The most pixels a picture that fits a slide is wide or high (PNG at Graphviz's 96 dpi)."""


class RenderError(LabError, RuntimeError):
    """The picture cannot be drawn: `dot` is missing, or it failed."""


def measure(dot_text: str) -> tuple[int, int] | None:
    """The width and height in pixels `dot` lays the picture out at; None without `dot`."""
    program = shutil.which(DOT_PROGRAM)
    if program is None:
        return None
    try:
        result = subprocess.run([program, "-Tsvg"], input=dot_text, capture_output=True,
                                text=True, timeout=DOT_SECONDS, check=False)
    except (subprocess.TimeoutExpired, OSError):
        return None
    size = re.search(r'<svg width="([\d.]+)pt" height="([\d.]+)pt"', result.stdout)
    if size is None:
        return None
    return round(float(size[1]) * 96 / 72), round(float(size[2]) * 96 / 72)


def fits_a_slide(dot_text: str) -> bool:
    """True unless `dot` lays the picture out wider or higher than `SLIDE_PX`."""
    size = measure(dot_text)
    return size is None or max(size) <= SLIDE_PX


def slide_tree(built: Callable[[int | None, bool], GameTree], rankdir: str = "TB") -> GameTree:
    """The tree `built(plies, fit)` makes, as many plies deep as fit a slide: first as its
    boxes side by side allow, then less deep until `dot` lays it out within `SLIDE_PX` (with
    no `dot`, as the boxes allow). The picture and the stepped page of a position both take
    it, so they draw the same plies."""
    tree = built(None, True)
    shown = tree.plies if tree.plies is not None else tree.root.height()
    while shown > 1 and not fits_a_slide(to_dot(tree, rankdir)):
        shown -= 1
        tree = built(shown, False)
    return tree


def to_dot(tree: GameTree, rankdir: str = "TB") -> str:
    """The DOT text of the tree, nodes named by the cells played from the root (`n`, `n5`...),
    the root at the top (`TB`) or at the left (`LR`)."""
    lines = [
        "digraph game_tree {",
        '  graph [ordering=out, nodesep=0.15, ranksep=0.45, labelloc=t, fontname="Sans", '
        f"rankdir={rankdir}, label={_quote(_title(tree))}];",
        '  node [shape=plain, fontname="Sans", fontsize=11];',
        '  edge [fontname="Sans", fontsize=10, arrowsize=0.6];',
    ]
    chosen = {id(node) for node in tree.principal_variation()}
    # SVG ids: each node's group `KIND-NAME` (KIND: max, min, end, horizon, pruned, more), each
    # edge's `STYLE-edge-CHILD` (STYLE: pv for the chosen line, move, pruned, more)
    _write(tree, tree.root, "n", 0, None, chosen, lines)
    lines.append("}")
    return "\n".join(lines) + "\n"


def render(dot_text: str, path: Path) -> None:
    """Write the picture to `path`, in the format its suffix names (`.dot`: the text itself)."""
    kind = path.suffix.lstrip(".").lower()
    if kind not in FORMATS:
        suffixes = [f".{name}" for name in FORMATS]
        raise RenderError(f"cannot draw {path}: the file name must end in "
                          f"{', '.join(suffixes[:-1])} or {suffixes[-1]}")
    if not path.parent.is_dir():
        raise RenderError(f"cannot write {path}: there is no directory {path.parent}")
    if kind == "dot":
        try:
            path.write_text(dot_text, encoding="utf-8")
        except OSError as error:
            raise RenderError(f"cannot write {path}: {error.strerror or error}") from None
        return
    program = shutil.which(DOT_PROGRAM)
    if program is None:
        raise RenderError(f"drawing {path} needs Graphviz's {DOT_PROGRAM!r} program; "
                          + INSTALL_HINT)
    try:
        result = subprocess.run(
            [program, f"-T{kind}", "-o", str(path)],
            input=dot_text, capture_output=True, text=True, timeout=DOT_SECONDS, check=False,
        )
    except subprocess.TimeoutExpired:
        raise RenderError(f"{DOT_PROGRAM} did not finish drawing {quoted(str(path))} within "
                          f"{DOT_SECONDS} s; draw fewer plies (--plies)") from None
    except OSError as error:
        raise RenderError(f"cannot run {DOT_PROGRAM}: {error.strerror or error}") from None
    if result.returncode != 0:
        detail = (result.stderr.strip().splitlines() or ["no message"])[-1]
        raise RenderError(f"{DOT_PROGRAM} could not draw {quoted(str(path))}: {quoted(detail)}")


def _title(tree: GameTree) -> str:
    player = tree.player
    drawn = "" if tree.plies is None else f", drawn {_plies(tree.plies)} deep"
    if tree.only_best:
        drawn += ", the chosen line expanded"
    if tree.depth is not None:
        drawn += f", searched {_plies(tree.depth)} ahead"
    return (
        f"{tree.search} below {tree.root.state}, {player} to move (MAX){drawn}: "
        f"{tree.counts.nodes} nodes visited; values from {player}'s side ({tree.objective})"
        + (f"; {player} plays to lose: MAX takes the lowest value, MIN the highest"
           if tree.objective.sign < 0 else "")
        + "\\n" + "; ".join(entry.words for entry in legend(tree))
    )


@dataclass(frozen=True)
class LegendEntry:
    """One thing the picture draws: its kind (a node's kind, `pv` for the chosen line,
    `pruned`, `more`), the colour it is drawn in, and what the legend says of it."""

    kind: str
    colour: str
    words: str


LEGEND = (
    LegendEntry("max", FILL["max"], "blue: MAX to move"),
    LegendEntry("min", FILL["min"], "orange: MIN to move"),
    LegendEntry("end", FILL["end"], "white: the game is over"),
    LegendEntry("horizon", FILL["horizon"], "grey board: the horizon, rated by open lines"),
    LegendEntry("pv", PV_COLOUR, "red: the chosen line"),
    LegendEntry("pruned", PRUNED_COLOUR, "grey dashed box: the moves alpha-beta pruned"),
    LegendEntry("more", "#000000", "black dashed box: a subtree not drawn, with its count"),
)
"""Everything a picture may draw, in the order its legend tells it."""


def legend(tree: GameTree) -> list[LegendEntry]:
    """The legend of the tree's picture: an entry for each kind of thing drawn in it."""
    drawn = set(_drawn_kinds(tree, tree.root))
    if len(tree.principal_variation()) > 1:
        drawn.add("pv")
    return [entry for entry in LEGEND if entry.kind in drawn]


def _drawn_kinds(tree: GameTree, node: TreeNode) -> Iterator[str]:
    """The kinds of everything drawn from `node` down, as `_write` draws them."""
    yield node_kind(tree, node)
    if node.hidden and not node.children and not tree.only_best:
        yield "more"
    if node.pruned:
        yield "pruned"
    for child in node.children:
        yield from _drawn_kinds(tree, child)


def _plies(count: int) -> str:
    return f"{count} ply" if count == 1 else f"{count} plies"


def _write(tree, node: TreeNode, name: str, ply: int, cell: int | None, chosen, lines) -> None:
    """The node `name`, its edges and, recursively, what is drawn below it."""
    kind = node_kind(tree, node)
    on_line = id(node) in chosen
    header = {"max": f"MAX: {node.mover}", "min": f"MIN: {node.mover}",
              "horizon": "horizon"}.get(kind) or result(node.state)
    if header is None:
        raise ValueError(f"{node.state} is drawn as the game's end, yet the game goes on")
    value = value_text(tree, node)
    if node.hidden and not node.children and tree.only_best:
        header += f" (+{node.hidden})"
    lines.append(f"  {name} [id={_quote(f'{kind}-{name}')}, label=<"
                 f"{_board(node.state, cell, header, value, FILL[kind], on_line)}>];")
    if node.hidden and not node.children and not tree.only_best:
        more = f"{name}_more"
        lines.append(f"  {more} [id={_quote(f'more-{name}')}, shape=box, style=dashed, "
                     f"label={_quote(counted(node.hidden, 'more node'))}];")
        lines.append(f"  {name} -> {more} [id={_quote(f'more-edge-{name}')}, style=dashed];")
        return
    for child in node.children:
        child_cell = node.cell_of(child)
        child_name = f"{name}{child_cell}" if name == "n" else f"{name}_{child_cell}"
        _write(tree, child, child_name, ply + 1, child_cell, chosen, lines)
        highlight = on_line and id(child) in chosen
        style = f', color="{PV_COLOUR}", penwidth=3' if highlight else ""
        prefix = "pv" if highlight else "move"
        lines.append(f"  {name} -> {child_name} [id={_quote(f'{prefix}-edge-{child_name}')}, "
                     f"label={_quote(f'[{node.mover},{child_cell}]')}{style}];")
    if node.pruned:
        pruned_name = f"{name}_pruned"
        moves = " ".join(f"[{node.mover},{cell}]" for cell in node.pruned)
        label = f"{len(node.pruned)} pruned: {moves}"
        lines.append(f"  {pruned_name} [id={_quote(f'pruned-{name}')}, shape=box, "
                     f'style=dashed, color="{PRUNED_COLOUR}", fontcolor="{PRUNED_COLOUR}", '
                     f"label={_quote(label)}];")
        lines.append(f"  {name} -> {pruned_name} [id={_quote(f'pruned-edge-{name}')}, "
                     f'style=dashed, color="{PRUNED_COLOUR}"];')


def node_kind(tree: GameTree, node: TreeNode) -> str:
    """`max` or `min` (who moves), `end` (the game is over) or `horizon` (the search stops)."""
    if node.is_leaf:
        return "end" if is_terminal(node.state) else "horizon"
    return "max" if node.mover == tree.player else "min"


def value_text(tree: GameTree, node: TreeNode, entities: bool = True) -> str:
    """The node's value from the root player's side; a bound shows which side it bounds
    (as an HTML entity for Graphviz, or with `entities` False the character itself)."""
    marks = marks_made(tree.root.state)
    text = signed(reported(tree.objective, node.value, marks))
    bound = node.bound
    # the search bounds the utility MAX maximises; in the lose mode that is the value negated,
    # so a bound on the utility from below bounds the value from above
    if tree.objective.sign < 0 and bound is not Bound.EXACT:
        bound = Bound.UPPER if bound is Bound.LOWER else Bound.LOWER
    at_least, at_most = ("&#8805;", "&#8804;") if entities else ("\u2265", "\u2264")
    if bound is Bound.LOWER:
        return f"{at_least} {text}"
    if bound is Bound.UPPER:
        return f"{at_most} {text}"
    return text


def _board(state: State, cell: int | None, header: str, value: str, fill: str,
           on_line: bool) -> str:
    """An HTML-like label: the header, the 3x3 board (the last move shaded), the value."""
    border, colour = ("3", PV_COLOUR) if on_line else ("1", GRID)
    rows = [f'<TR><TD COLSPAN="{SIDE}" COLOR="{GRID}">{escape(header)}</TD></TR>']
    cells = []
    for number, played in enumerate(state, start=1):
        text = "&#160;" if played == BLANK else f"<B>{played}</B>"
        shade = ' BGCOLOR="#fff3a0"' if number == cell else ""
        cells.append(f'<TD WIDTH="16" HEIGHT="16" COLOR="{GRID}"{shade}>{text}</TD>')
    rows += ["<TR>" + "".join(row) + "</TR>" for row in board_rows(cells)]
    if value:
        rows.append(f'<TR><TD COLSPAN="{SIDE}" COLOR="{GRID}"><B>{value}</B></TD></TR>')
    return (f'<TABLE BORDER="{border}" COLOR="{colour}" CELLBORDER="1" CELLSPACING="0" '
            f'CELLPADDING="2" BGCOLOR="{fill}">' + "".join(rows) + "</TABLE>")


def _quote(text: str) -> str:
    return '"' + text.replace('"', '\\"') + '"'
