"""The game tree below a position, as a search walks it: the lab's partial game tree.

Every node the search visits down to `plies` below the root is kept with its board and value
(from the root player's side); alpha-beta's skipped moves are kept with the node that skipped
them; below `plies` each subtree is one count of the nodes the search visited there. The
search itself may stop `depth` plies below the root (depth-limited minimax), where each state
is worth the horizon's evaluation. With `only_best`, only the chosen line is expanded, each
other move one box with its count. With no `plies`, a tree is drawn as deep as fits a slide;
a tree too big for the `plies` asked is refused, with the number of plies that would fit.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from minimax_lab.logic import reference
from minimax_lab.logic.engines.minimax import Bound, Counts, Enter, Search, Visit
from minimax_lab.logic.errors import LabError
from minimax_lab.logic.objective import LAB, Objective
from minimax_lab.logic.state import SIZE, Player, State
from minimax_lab.logic.terms import Value

TREE_SEARCHES = ("minimax", "alphabeta")
NODE_LIMIT = 200
SLIDE_BOXES = 26
"""Boxes side by side in a picture that fits a slide (docs/commands.md gives its width)."""


class TreeTooBig(LabError, ValueError):
    """A tree with more nodes to draw than the limit."""


@dataclass
class TreeNode:
    """One visited node: its board, who moves, its value and how it was reached."""

    state: State
    mover: Player
    value: Value
    bound: Bound
    best_cell: int | None
    children: list[TreeNode] = field(default_factory=list)
    pruned: tuple[int, ...] = ()
    hidden: int = 0
    """How many nodes the search visited below this one that are not drawn."""
    size: int = 1
    """How many nodes the search visited in this subtree, this one included."""

    @property
    def is_leaf(self) -> bool:
        """True at the end of the game or at the search's horizon."""
        return self.best_cell is None

    def collapse(self) -> None:
        """Draw this node alone, its subtree one box with its count."""
        self.hidden, self.children, self.pruned = self.size - 1, [], ()

    def height(self) -> int:
        """The plies drawn below this node."""
        return 1 + max(child.height() for child in self.children) if self.children else 0

    def chosen(self) -> TreeNode | None:
        """The child whose move gives this node its value, if it is drawn."""
        return next((child for child in self.children if self.cell_of(child) == self.best_cell),
                    None)

    def cell_of(self, child: TreeNode) -> int:
        """The cell marked between this node and `child`."""
        action = reference.get_action(self.state, child.state)
        assert action is not None
        return action.cell


@dataclass(frozen=True)
class Step:
    """One step of the search, as the stepped page replays it: the node at `path` (the cells
    played from the root) entered (`call`), its other moves pruned (`cut`), its value going
    back up (`exit`); alpha-beta's window at that moment; at the exit of a node drawn alone,
    the nodes searched below it and the moves pruned there, neither drawn."""

    kind: str
    path: tuple[int, ...]
    alpha: Value | float | None = None
    beta: Value | float | None = None
    pruned: tuple[int, ...] = ()
    below: int = 0


@dataclass
class GameTree:
    """The tree one search walked below a position, and what it counted."""

    root: TreeNode
    player: Player
    objective: Objective
    search: str
    plies: int | None
    counts: Counts
    drawn: int
    """The boxes of the picture: nodes drawn, a box of pruned moves, collapsed subtrees."""
    depth: int | None = None
    """The plies the search looked ahead (None: to the end of the game)."""
    only_best: bool = False
    steps: tuple[Step, ...] = ()
    """The search call by call, for the drawn nodes only."""

    def paths(self) -> dict[tuple[int, ...], TreeNode]:
        """Every drawn node by its path: the cells played from the root to reach it."""
        found: dict[tuple[int, ...], TreeNode] = {}
        pending: list[tuple[tuple[int, ...], TreeNode]] = [((), self.root)]
        while pending:
            path, node = pending.pop()
            found[path] = node
            pending += [((*path, node.cell_of(child)), child) for child in node.children]
        return found

    def principal_variation(self) -> list[TreeNode]:
        """The drawn nodes of the chosen line, the root first."""
        line = [self.root]
        while (child := line[-1].chosen()) is not None:
            line.append(child)
        return line


class _Shape:
    """How many boxes a picture of the tree would hold for each number of plies drawn."""

    def __init__(self) -> None:
        self.visited = [0] * (SIZE + 1)
        self.pruned = [0] * (SIZE + 1)
        self.expanded = [0] * (SIZE + 1)

    def add(self, visit: Visit) -> None:
        self.visited[visit.ply] += 1
        if visit.best_cell is not None:
            self.expanded[visit.ply] += 1
            self.pruned[visit.ply] += bool(visit.pruned)

    def _last(self, plies: int | None) -> int:
        deepest = max(ply for ply, count in enumerate(self.visited) if count)
        return deepest if plies is None else min(plies, deepest)

    def boxes(self, plies: int | None) -> int:
        """Nodes drawn down to `plies`, a pruned box per node above it, one box per subtree
        below it."""
        last = self._last(plies)
        drawn = sum(self.visited[ply] for ply in range(last + 1))
        return drawn + sum(self.pruned[ply] for ply in range(last)) + self.expanded[last]

    def widest(self, plies: int | None) -> int:
        """The most boxes side by side in the picture drawn `plies` deep."""
        last = self._last(plies)
        ranks = [self.visited[ply] + (self.pruned[ply - 1] if ply else 0)
                 for ply in range(last + 1)]
        return max(*ranks, self.expanded[last])

    def fitting_plies(self, limit: int, width: int | None = None) -> int:
        """The most plies whose picture has at most `limit` boxes (and, given `width`, at most
        that many side by side)."""
        plies = 0
        while plies < SIZE and self.boxes(plies + 1) <= limit and (
                width is None or self.widest(plies + 1) <= width):
            plies += 1
        return plies


class _Builder:
    """An observer of a search that keeps the nodes down to `plies` and counts the rest."""

    def __init__(self, plies: int | None, limit: int, only_best: bool = False) -> None:
        self.plies = plies
        self.limit = limit
        self.only_best = only_best
        self.shape = _Shape()
        self.pending: defaultdict[int, list[TreeNode]] = defaultdict(list)
        self.hidden = 0
        self.kept = 0
        self.steps: list[Step] = []
        self.trail: list[tuple[State, tuple[int, ...]]] = []

    def _shown(self, ply: int) -> bool:
        """True for a node whose steps are kept: drawn, and the tree not yet too big."""
        return (self.plies is None or ply <= self.plies) and (
            self.kept <= self.limit or self.only_best)

    def enter(self, enter: Enter) -> None:
        """A node entered: its `call` step, under its path from the root."""
        if not self._shown(enter.ply):
            return
        del self.trail[enter.ply:]
        path: tuple[int, ...] = ()
        if self.trail:
            above, trail = self.trail[-1]
            path = (*trail, next(cell for cell in range(1, SIZE + 1)
                                 if above[cell - 1] != enter.state[cell - 1]))
        self.trail.append((enter.state, path))
        self.steps.append(Step("call", path, enter.alpha, enter.beta))

    def __call__(self, visit: Visit) -> None:
        self.shape.add(visit)
        if self._shown(visit.ply):
            path = self.trail[visit.ply][1]
            if visit.pruned:
                self.steps.append(Step("cut", path, visit.alpha, visit.beta, visit.pruned))
            self.steps.append(Step("exit", path, visit.alpha, visit.beta))
        if self.plies is not None and visit.ply > self.plies:
            self.hidden += 1
            return
        children = self.pending.pop(visit.ply + 1, [])
        if self.kept > self.limit and not self.only_best:
            return
        self.kept += 1
        hidden = 0
        if visit.ply == self.plies:
            hidden, self.hidden = self.hidden, 0
        size = 1 + hidden + sum(child.size for child in children)
        node = TreeNode(visit.state, visit.mover, visit.value, visit.bound, visit.best_cell,
                        children, visit.pruned, hidden, size)
        if self.only_best:  # the chosen line from here on goes through the best move only
            for child in children:
                if node.cell_of(child) != visit.best_cell:
                    child.collapse()
        self.pending[visit.ply].append(node)


def build_tree(
    state: State,
    player: Player,
    objective: Objective = LAB,
    search: str = "minimax",
    plies: int | None = None,
    limit: int = NODE_LIMIT,
    depth: int | None = None,
    only_best: bool = False,
    fit: bool = False,
) -> GameTree:
    """The tree `search` walks below `state` with `player` (MAX) to move, drawn `plies` deep;
    the search stops `depth` plies below the root (None: at the end of the game)."""
    if search not in TREE_SEARCHES:
        raise ValueError(f"unknown search {search!r}; the searches are {', '.join(TREE_SEARCHES)}")
    # with fit and no plies: as many plies deep as fit `limit` boxes and a slide's width
    if fit and plies is None and not only_best:
        probe = _Builder(0, 0)
        Search(player, objective, depth, observer=probe, on_enter=probe.enter).run(
            search, state, player)
        if probe.shape.boxes(None) > limit or probe.shape.widest(None) > SLIDE_BOXES:
            plies = probe.shape.fitting_plies(limit, SLIDE_BOXES)
    builder = _Builder(plies, limit, only_best)
    walk = Search(player, objective, depth, observer=builder, on_enter=builder.enter)
    walk.run(search, state, player)
    roots = builder.pending[0]
    (root,) = roots if roots else (None,)
    drawn = _boxes(root) if only_best and root is not None else builder.shape.boxes(plies)
    if drawn > limit or root is None:
        fits = builder.shape.fitting_plies(limit)
        raise TreeTooBig(
            f"the tree below {state} has {drawn} nodes to draw, more than {limit}; "
            f"draw {fits} {'ply' if fits == 1 else 'plies'} with --plies {fits} "
            f"({builder.shape.boxes(fits)} nodes), "
            "or raise --max-nodes"
        )
    tree = GameTree(root, player, objective, search, plies, walk.counts, drawn, depth, only_best)
    tree.steps = _drawn_steps(builder.steps, tree.paths())
    return tree


def _drawn_steps(steps: list[Step], drawn: dict[tuple[int, ...], TreeNode]) -> tuple[Step, ...]:
    """The steps of the drawn nodes; a node drawn alone exits with the count of the nodes
    searched below it, and a cut whose pruned moves are not drawn (the node is drawn alone,
    as `only_best` draws the moves off the chosen line) is told at its exit."""
    kept = []
    cut_unseen: dict[tuple[int, ...], tuple[int, ...]] = {}
    for step in steps:
        node = drawn.get(step.path)
        if node is None:
            continue
        if step.kind == "cut" and not node.pruned:
            cut_unseen[step.path] = step.pruned
            continue
        if step.kind == "exit" and not node.children and (node.hidden or step.path in cut_unseen):
            step = Step("exit", step.path, step.alpha, step.beta,
                        cut_unseen.pop(step.path, ()), node.hidden)
        kept.append(step)
    return tuple(kept)


def counted(count: int, noun: str) -> str:
    """`1 node`, `2 nodes`: a count and its noun, plural where it is not one."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _boxes(node: TreeNode) -> int:
    """The boxes of an only-best picture below `node`: itself, its box of pruned moves, below."""
    return (1 + bool(node.pruned)
            + sum(_boxes(child) for child in node.children))
