"""`minimax-lab tree STATE PLAYER --out FILE`: a picture of the game tree below a position;
`--html FILE`: the page that steps through the search."""

from __future__ import annotations

import argparse
from pathlib import Path

from minimax_lab.logic.commands.cli import (
    EXIT_FALSE,
    EXIT_OK,
    UsageError,
    add_objective_options,
    add_position_arguments,
    objective_from,
)
from minimax_lab.logic.commands.options import drawn_plies, node_limit, plies
from minimax_lab.logic.files import check_writable, write_whole
from minimax_lab.logic.objective import Objective
from minimax_lab.logic.state import Player, State, is_terminal, parse_position
from minimax_lab.logic.tools.tree import NODE_LIMIT, TREE_SEARCHES, GameTree, build_tree
from minimax_lab.logic.tools.tree_dot import RANKDIRS, render, slide_tree, to_dot
from minimax_lab.logic.tools.tree_html import tree_html


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "tree",
        help="draw the game tree below a position, with minimax values (SVG, PNG or DOT)",
        description="Draw the game tree below STATE with PLAYER (MAX) to move: each node's "
        "board and minimax value, the chosen line in red, alpha-beta's pruned moves in grey. "
        "By default the picture fits a slide: it is drawn as many plies deep as fit, deeper "
        "subtrees one box with their count. Needs Graphviz's dot program for .svg and .png. "
        "--html FILE writes a page that replays the search call by call (at least one of "
        "--out and --html).",
    )
    add_position_arguments(parser)
    parser.add_argument("--out", metavar="FILE",
                        help="where to write the picture: FILE.svg, FILE.png or FILE.dot")
    parser.add_argument("--html", metavar="FILE",
                        help="where to write the page that steps through the search: one "
                        "self-contained HTML file, no network needed (needs no Graphviz)")
    parser.add_argument("--search", choices=TREE_SEARCHES, default="minimax",
                        help="the search to draw (default: minimax)")
    parser.add_argument("--plies", type=drawn_plies, metavar="N",
                        help="draw N plies below the position; each deeper subtree becomes one "
                        "box with its node count (values still come from the whole search; "
                        "default: as many as fit a slide)")
    parser.add_argument("--depth", type=plies, metavar="N",
                        help="search only N plies ahead (depth-limited minimax): the horizon's "
                        "states are rated by open lines, a fraction between -1 and 1")
    parser.add_argument("--only-best", action="store_true",
                        help="expand only the chosen line; every other move is one box with "
                        "its count")
    parser.add_argument("--rankdir", choices=RANKDIRS, default="TB",
                        help="TB: the root at the top (default); LR: the root at the left")
    parser.add_argument("--max-nodes", type=node_limit, default=NODE_LIMIT, metavar="N",
                        help=f"refuse to draw more than N nodes (default: {NODE_LIMIT})")
    add_objective_options(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Write the picture; say where, and how many nodes it shows."""
    if args.out is None and args.html is None:
        raise UsageError("say where to write the tree: --out FILE.svg|.png|.dot (a picture) "
                         "or --html FILE (the stepped page), or both")
    check_writable(args.html)
    objective = objective_from(args)
    state, player = parse_position(args.state, args.player)
    if is_terminal(state):
        print("false.")
        return EXIT_FALSE
    tree = _tree(args, state, player, objective)
    written = []
    if args.out is not None:
        render(to_dot(tree, args.rankdir), Path(args.out))
        written.append(args.out)
    if args.html is not None:
        write_whole(args.html, tree_html(tree))
        written.append(args.html)
    fitted = ""
    if args.plies is None and tree.plies is not None:
        deep = f"{tree.plies} ply" if tree.plies == 1 else f"{tree.plies} plies"
        more = (f"--plies {args.depth} draws down to the search's horizon"
                if args.depth is not None and tree.plies < args.depth else "--plies N for more")
        fitted = f" ({deep} deep, to fit a slide; {more})"
    print(f"{', '.join(written)}: {tree.drawn} nodes drawn{fitted}; {args.search} visited "
          f"{tree.counts.nodes}")
    return EXIT_OK


def _tree(args: argparse.Namespace, state: State, player: Player,
          objective: Objective) -> GameTree:
    """The tree to draw: `--plies` deep if given, else as deep as fits a slide, as `dot` lays
    it out (or, without `dot`, as its boxes side by side say); the page and the picture alike."""
    def built(plies: int | None, fit: bool = False) -> GameTree:
        return build_tree(state, player, objective, args.search, plies, args.max_nodes,
                          args.depth, args.only_best, fit=fit)

    if args.plies is not None:
        return built(args.plies)
    return slide_tree(built, args.rankdir)
