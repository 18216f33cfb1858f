"""The game tree below a position, as a search walks it: the lab's partial game tree.

Every node the search visits down to `plies` below the root is kept with its board and value
(from the root player's side); alpha-beta's skipped moves are kept as pruned children; below
`plies` each subtree is one count of the nodes the search visited there. Trees too big to read
are refused, with the number of plies that would fit.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from logic import reference
from logic.objective import LAB, Objective
from logic.state import SIZE, Player, State
from logic.tools.search import Bound, Counts, Search, Value, Visit

TREE_SEARCHES = ("minimax", "alphabeta")
NODE_LIMIT = 200


class TreeTooBig(ValueError):
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
    """How many nodes the search visited below this one that are not drawn (below `plies`)."""

    @property
    def is_leaf(self) -> bool:
        """True at the end of the game (the search expands every other node)."""
        return self.best_cell is None

    def chosen(self) -> TreeNode | None:
        """The child whose move gives this node its value, if it is drawn."""
        return next((child for child in self.children if self.cell_of(child) == self.best_cell),
                    None)

    def cell_of(self, child: TreeNode) -> int:
        """The cell marked between this node and `child`."""
        action = reference.get_action(self.state, child.state)
        assert action is not None
        return action.position


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
    """The boxes of the picture: visited nodes drawn, pruned moves, collapsed subtrees."""

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
            self.pruned[visit.ply] += len(visit.pruned)

    def boxes(self, plies: int | None) -> int:
        """Nodes drawn down to `plies`, pruned moves above it, one box per subtree below it."""
        deepest = max(ply for ply, count in enumerate(self.visited) if count)
        last = deepest if plies is None else min(plies, deepest)
        drawn = sum(self.visited[ply] for ply in range(last + 1))
        return drawn + sum(self.pruned[ply] for ply in range(last)) + self.expanded[last]

    def fitting_plies(self, limit: int) -> int:
        """The most plies whose picture has at most `limit` boxes."""
        plies = 0
        while plies < SIZE and self.boxes(plies + 1) <= limit:
            plies += 1
        return plies


class _Builder:
    """An observer of a search that keeps the nodes down to `plies` and counts the rest."""

    def __init__(self, plies: int | None, limit: int) -> None:
        self.plies = plies
        self.limit = limit
        self.shape = _Shape()
        self.pending: defaultdict[int, list[TreeNode]] = defaultdict(list)
        self.hidden = 0
        self.kept = 0

    def __call__(self, visit: Visit) -> None:
        self.shape.add(visit)
        if self.plies is not None and visit.ply > self.plies:
            self.hidden += 1
            return
        children = self.pending.pop(visit.ply + 1, [])
        if self.kept > self.limit:
            return
        self.kept += 1
        hidden = 0
        if visit.ply == self.plies:
            hidden, self.hidden = self.hidden, 0
        node = TreeNode(visit.state, visit.mover, visit.value, visit.bound, visit.best_cell,
                        children, visit.pruned, hidden)
        self.pending[visit.ply].append(node)


def build_tree(
    state: State,
    player: Player,
    objective: Objective = LAB,
    search: str = "minimax",
    plies: int | None = None,
    limit: int = NODE_LIMIT,
) -> GameTree:
    """The tree `search` walks below `state` with `player` (MAX) to move, drawn `plies` deep.

    Raises `TreeTooBig` if the picture would hold more than `limit` boxes.
    """
    if search not in TREE_SEARCHES:
        raise ValueError(f"unknown search {search!r}; the searches are {', '.join(TREE_SEARCHES)}")
    builder = _Builder(plies, limit)
    walk = Search(player, objective, observer=builder)
    walk.run(search, state, player)
    drawn = builder.shape.boxes(plies)
    if drawn > limit:
        fits = builder.shape.fitting_plies(limit)
        raise TreeTooBig(
            f"the tree below {state} has {drawn} nodes to draw, more than {limit}; "
            f"draw {fits} {'ply' if fits == 1 else 'plies'} with --depth {fits} "
            f"({builder.shape.boxes(fits)} nodes), "
            "or raise --max-nodes"
        )
    (root,) = builder.pending[0]
    return GameTree(root, player, objective, search, plies, walk.counts, drawn)
