"""`minimax-lab tree`: the game tree drawn by Graphviz, read back from the SVG (it is XML)."""

from __future__ import annotations

import colorsys
import os
import re
import shutil
import xml.etree.ElementTree as ElementTree

import pytest
from boards import board
from test_search import SMALL

from minimax_lab.logic import reference
from minimax_lab.logic.commands.cli import EXIT_FALSE, EXIT_OK, EXIT_USAGE, main
from minimax_lab.logic.engines.horizon import evaluate
from minimax_lab.logic.engines.minimax import count_nodes, reported
from minimax_lab.logic.engines.reference import ReferenceEngine
from minimax_lab.logic.engines.search import SearchEngine
from minimax_lab.logic.objective import LAB
from minimax_lab.logic.positions import all_positions
from minimax_lab.logic.state import BLANK
from minimax_lab.logic.tools.explain import principal_variation, signed
from minimax_lab.logic.tools.tree import TreeTooBig, build_tree
from minimax_lab.logic.tools.tree_dot import LEGEND, PRUNED_COLOUR, PV_COLOUR, legend, to_dot

SVG = "{http://www.w3.org/2000/svg}"
needs_dot = pytest.mark.skipif(
    shutil.which("dot") is None,
    reason="Graphviz's dot is not installed (apt-get install graphviz)",
)

# x to move, 4 blanks; the lab's line: x5 o9 x7 o3, a draw.
DRAW = board("""
    x o -
    o - x
    - o -
""")


def draw(capsys, tmp_path, state, player, *options, name="tree.svg"):
    out = tmp_path / name
    status = main(["tree", state, player, "--out", str(out), *options])
    output, err = capsys.readouterr()
    return status, output, err, out


def read_svg(path) -> dict[str, list[str]]:
    """Each node's and edge's group id, with the texts inside it."""
    groups = {}
    for group in ElementTree.parse(path).iter(f"{SVG}g"):
        if group.get("class") in ("node", "edge"):
            texts = ["".join(text.itertext()).strip() for text in group.iter(f"{SVG}text")]
            groups[group.get("id")] = [text for text in texts if text]
    return groups


def kind(group_id: str) -> str:
    return group_id.split("-")[0]


def node_states(state: str, player: str) -> dict[str, tuple[str, str]]:
    """Every node of the full game tree, by the name the picture gives it: (state, mover)."""
    found = {}

    def walk(name, state, mover):
        found[name] = (state, mover)
        if reference.terminal_state(state, mover) is None:
            for cell, next_state in reference.moves(state, mover):
                child = f"{name}{cell}" if name == "n" else f"{name}_{cell}"
                walk(child, next_state, reference.other_player(mover))

    walk("n", state, player)
    return found


@needs_dot
def test_a_minimax_tree_has_every_node_with_its_value(capsys, tmp_path):
    status, output, err, out = draw(capsys, tmp_path, DRAW, "x")
    assert (status, err) == (EXIT_OK, "")
    groups = read_svg(out)
    nodes = {group_id.split("-", 1)[1]: texts for group_id, texts in groups.items()
             if kind(group_id) in ("max", "min", "end")}
    expected = node_states(DRAW, "x")
    assert set(nodes) == set(expected)
    assert output == f"{out}: {len(expected)} nodes drawn; minimax visited {len(expected)}\n"
    marks = len(DRAW) - DRAW.count(BLANK)
    for name, (state, mover) in expected.items():
        ask = reference.max_value if mover == "x" else reference.min_value
        value = reported(LAB, ask(state, "x").value, marks)
        texts = nodes[name]
        assert texts[-1] == signed(value), name
        assert texts[1:-1] == [mark for mark in state if mark != BLANK], name


@needs_dot
def test_the_chosen_line_is_highlighted(capsys, tmp_path):
    _, _, _, out = draw(capsys, tmp_path, DRAW, "x")
    line = principal_variation(ReferenceEngine(), DRAW, "x")
    names, name = [], "n"
    for action, _ in line:
        name = f"{name}{action.cell}" if name == "n" else f"{name}_{action.cell}"
        names.append(name)
    assert [action.cell for action, _ in line] == [5, 9, 7, 3]
    highlighted = [group_id.removeprefix("pv-edge-") for group_id in read_svg(out)
                   if group_id.startswith("pv-edge-")]
    assert highlighted == names
    strokes = edge_strokes(out)
    assert {strokes[f"pv-edge-{name}"] for name in names} == {PV_COLOUR}
    assert PV_COLOUR not in {stroke for group_id, stroke in strokes.items()
                             if not group_id.startswith("pv-")}


def edge_strokes(path) -> dict[str, str]:
    return {group.get("id"): group.find(f"{SVG}path").get("stroke")
            for group in ElementTree.parse(path).iter(f"{SVG}g") if group.get("class") == "edge"}


@needs_dot
def test_alphabeta_collapses_the_moves_it_pruned_into_one_grey_box_per_node(capsys, tmp_path):
    # Worked by hand in tests/test_search.py: 14 nodes; under o1, x5's o2 wins and prunes o9;
    # x1 wins at once under o2 and o5, pruning x5 and x9, and x2 and x9.
    status, output, _, out = draw(capsys, tmp_path, SMALL, "o", "--search", "alphabeta")
    groups = read_svg(out)
    pruned = {group_id: texts for group_id, texts in groups.items()
              if group_id.startswith("pruned-n")}
    assert pruned == {"pruned-n1_5": ["1 pruned: [o,9]"], "pruned-n2": ["2 pruned: [x,5] [x,9]"],
                      "pruned-n5": ["2 pruned: [x,2] [x,9]"]}
    visited = [group_id for group_id in groups if kind(group_id) in ("max", "min", "end")]
    assert len(visited) == 14
    assert output == f"{out}: 17 nodes drawn; alphabeta visited 14\n"
    strokes = edge_strokes(out)
    assert {strokes[group_id] for group_id in strokes if group_id.startswith("pruned-")} == {
        PRUNED_COLOUR}
    # o2 and o5 stop at x1's -1: at most -1; x5 stops at o2's +1: at least +1; o1 is exact.
    assert groups["min-n2"][-1] == "≤ -1" and groups["min-n5"][-1] == "≤ -1"
    assert groups["max-n1_5"][-1] == "≥ +1"
    assert groups["min-n1"][-1] == "-1" and groups["max-n"][-1] == "+1"
    assert [group_id for group_id in groups if group_id.startswith("pv-edge-")] == ["pv-edge-n9"]


@needs_dot
def test_below_the_depth_each_subtree_is_one_box_with_its_count(capsys, tmp_path):
    _, output, _, out = draw(capsys, tmp_path, DRAW, "x", "--plies", "1")
    groups = read_svg(out)
    boxes = {group_id: texts for group_id, texts in groups.items() if group_id.startswith("more-n")}
    full = node_states(DRAW, "x")
    below = {cell: sum(name.startswith(f"n{cell}_") for name in full) for cell in (3, 5, 7, 9)}
    assert boxes == {f"more-n{cell}": [f"{count} more nodes"] for cell, count in below.items()}
    assert output == f"{out}: 9 nodes drawn; minimax visited {len(full)}\n"


def test_a_tree_too_big_for_the_plies_asked_is_refused_with_plies_that_fit(capsys, tmp_path):
    status, output, err, out = draw(capsys, tmp_path, "---------", "x", "--plies", "9")
    assert (status, output) == (EXIT_USAGE, "")
    assert err == (
        "minimax-lab: error: the tree below --------- has 549946 nodes to draw, more than "
        "200; draw 2 plies with --plies 2 (154 nodes), or raise --max-nodes\n"
    )
    assert not out.exists()


def svg_width_px(path) -> float:
    width = ElementTree.parse(path).getroot().get("width")
    assert width.endswith("pt")
    return float(width[:-2]) * 4 / 3


def svg_height_px(path) -> float:
    height = ElementTree.parse(path).getroot().get("height")
    assert height.endswith("pt")
    return float(height[:-2]) * 4 / 3


@needs_dot
@pytest.mark.parametrize("options", [
    ("o-x------", "o", "--search", "alphabeta"), ("-x--o----", "o", "--search", "alphabeta"),
    ("xx-oo----", "x", "--search", "alphabeta"), ("xo--x-o--", "x"),
    pytest.param(("---------", "x", "--only-best"), marks=pytest.mark.slow),  # dot takes long
    ("o-x------", "o", "--search", "alphabeta", "--rankdir", "LR"),
    ("o-x------", "o", "--depth", "2"),
])
def test_every_default_picture_fits_a_slide_as_dot_lays_it_out(capsys, tmp_path, options):
    status, output, _, out = draw(capsys, tmp_path, *options)
    assert status == EXIT_OK
    assert svg_width_px(out) <= 2000 and svg_height_px(out) <= 2000, output


@needs_dot
@pytest.mark.parametrize(("state", "player"), [
    pytest.param("---------", "x", marks=pytest.mark.slow), ("o-x------", "o"), ("x--------", "o")])
def test_by_default_a_picture_fits_a_slide_and_says_how_deep_it_is(capsys, tmp_path, state,
                                                                   player):
    status, output, _, out = draw(capsys, tmp_path, state, player)
    assert status == EXIT_OK and svg_width_px(out) <= 2000
    assert "deep, to fit a slide; --plies N for more" in output
    groups = read_svg(out)
    counted = sum(int(texts[0].split()[0]) for group_id, texts in groups.items()
                  if group_id.startswith("more-n"))
    shown = sum(kind(group_id) in ("max", "min", "end") for group_id in groups)
    assert counted + shown == count_nodes(state, player)["minimax"].nodes


@needs_dot
def test_a_depth_limited_search_draws_its_horizon_with_the_evaluation(capsys, tmp_path):
    status, output, _, out = draw(capsys, tmp_path, "o-x------", "o", "--depth", "2",
                                  "--plies", "2")
    groups = read_svg(out)
    horizon = {group_id: texts for group_id, texts in groups.items()
               if kind(group_id) == "horizon"}
    assert status == EXIT_OK and len(horizon) == 7 * 6
    search = SearchEngine(LAB, "minimax", 2)
    for group_id, texts in horizon.items():
        cells = [int(cell) for cell in group_id.removeprefix("horizon-n").split("_")]
        state = "o-x------"
        for cell, mover in zip(cells, "ox", strict=True):
            state = state[:cell - 1] + mover + state[cell:]
        assert texts[0] == "horizon"
        assert texts[-1] == signed(evaluate(state, "o", LAB)), group_id
    assert groups["max-n"][-1] == signed(search.minimax_decision("o-x------", "o").value)
    assert "searched 2 plies ahead" in "".join(ElementTree.parse(out).getroot().itertext())


@needs_dot
def test_only_best_expands_the_chosen_line_alone(capsys, tmp_path):
    status, output, _, out = draw(capsys, tmp_path, DRAW, "x", "--only-best")
    groups = read_svg(out)
    line = ["n5", "n5_9", "n5_9_7", "n5_9_7_3"]
    assert [g.removeprefix("pv-edge-") for g in groups if g.startswith("pv-edge-")] == line
    children = [group_id.removeprefix("move-edge-") for group_id in groups
                if group_id.startswith("move-edge-")]
    expanded = {child.rsplit("_", 1)[0] if "_" in child else "n" for child in children}
    assert expanded <= {"n", *line}
    full = node_states(DRAW, "x")
    for group_id, texts in groups.items():
        name = group_id.split("-", 1)[1]
        if kind(group_id) in ("max", "min") and name not in ["n", *line]:
            below = sum(other.startswith(f"{name}_") for other in full)
            assert texts[0].endswith(f"(+{below})"), group_id


@needs_dot
def test_rankdir_lr_puts_the_root_at_the_left(capsys, tmp_path):
    _, _, _, top = draw(capsys, tmp_path, DRAW, "x", "--plies", "1", name="top.svg")
    _, _, _, left = draw(capsys, tmp_path, DRAW, "x", "--plies", "1", "--rankdir", "LR",
                         name="left.svg")
    for path, across in ((top, 0), (left, 1)):  # children beside each other: x, or y
        places = text_places(path)
        root, children = places["max-n"], [places[f"min-n{cell}"] for cell in (3, 5, 7, 9)]
        assert all(child[1 - across] > root[1 - across] for child in children)
        assert len({round(child[across]) for child in children}) == 4


def text_places(path) -> dict[str, tuple[float, float]]:
    """Where each node's first text is, (x, y), by the node's group id."""
    places = {}
    for group in ElementTree.parse(path).iter(f"{SVG}g"):
        text = next(group.iter(f"{SVG}text"), None)
        if group.get("class") == "node" and text is not None:
            places[group.get("id")] = (float(text.get("x")), float(text.get("y")))
    return places


def test_the_suggested_depth_is_the_deepest_that_fits():
    # Two plies below x in a corner: the root, 8 and 56 boards, and a box under each of the 56.
    assert build_tree("x--------", "o", plies=2).drawn == 1 + 8 + 56 + 56
    with pytest.raises(TreeTooBig, match=r"with --plies 1 \(17 nodes\)"):
        build_tree("x--------", "o", plies=2, limit=100)


def test_dot_text_needs_no_renderer(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr("minimax_lab.logic.tools.tree_dot.DOT_PROGRAM", "no-such-dot-program")
    status, _, _, out = draw(capsys, tmp_path, DRAW, "x", name="tree.dot")
    assert status == EXIT_OK
    text = out.read_text()
    assert text.startswith("digraph game_tree {") and text.count("pv-edge-") == 4


def test_a_missing_renderer_says_how_to_install_it(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr("minimax_lab.logic.tools.tree_dot.DOT_PROGRAM", "no-such-dot-program")
    status, output, err, _ = draw(capsys, tmp_path, DRAW, "x", name="tree.png")
    assert (status, output) == (EXIT_USAGE, "")
    assert "apt-get install graphviz" in err and err.count("\n") == 1


def test_a_terminal_state_has_no_tree(capsys, tmp_path):
    status, output, _, out = draw(capsys, tmp_path, "xxxoo----", "o")
    assert (status, output) == (EXIT_FALSE, "false.\n")
    assert not out.exists()


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--search", "memo"], "invalid choice: 'memo'"),
        (["--plies", "-1"], "0 or more, not '-1'"),
        (["--depth", "0"], "a depth is a number of plies, 1 or more, not '0'"),
        (["--rankdir", "BT"], "invalid choice: 'BT'"),
        (["--max-nodes", "many"], "a node limit is a number of nodes, 1 or more, not 'many'"),
    ],
)
def test_bad_options_are_one_line_and_status_2(capsys, tmp_path, options, message):
    status, output, err, _ = draw(capsys, tmp_path, DRAW, "x", *options)
    assert (status, output) == (EXIT_USAGE, "")
    assert message in err and err.count("\n") == 1


def test_bad_file_names_are_one_line_and_status_2(capsys, tmp_path):
    status, _, err, _ = draw(capsys, tmp_path, DRAW, "x", name="tree.gif")
    assert status == EXIT_USAGE and "must end in .svg, .png or .dot" in err
    status, _, err, _ = draw(capsys, tmp_path / "nowhere", DRAW, "x")
    assert status == EXIT_USAGE and "there is no directory" in err
    (tmp_path / "taken.dot").mkdir()
    status, _, err, _ = draw(capsys, tmp_path, DRAW, "x", name="taken.dot")
    assert (status, err.count("\n")) == (EXIT_USAGE, 1) and "Is a directory" in err


@needs_dot
def test_a_png_is_a_png(capsys, tmp_path):
    status, _, _, out = draw(capsys, tmp_path, SMALL, "o", name="tree.png")
    assert status == EXIT_OK
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@needs_dot
def test_in_the_lose_mode_bounds_face_the_values_shown(capsys, tmp_path):
    # x plays to lose and x3 loses (-1), the best x can do. At x5, o (who wants x to win)
    # first finds o3, a draw: x will not come here, and o can make it at least 0 for x.
    _, _, _, out = draw(capsys, tmp_path, DRAW, "x", "--search", "alphabeta", "--mode", "lose")
    groups = read_svg(out)
    assert groups["max-n"][-1] == "-1" and groups["min-n3"][-1] == "-1"
    assert groups["max-n5_3"][-1] == "0"
    assert groups["min-n5"][-1] == "≥ 0"
    assert [group_id for group_id in groups if group_id.startswith("pv-edge-")] == [
        "pv-edge-n3", "pv-edge-n3_5"]


def test_a_renderer_that_never_finishes_is_stopped_with_one_line(capsys, tmp_path, monkeypatch):
    slow = tmp_path / "bin" / "dot"
    slow.parent.mkdir()
    slow.write_text("#!/bin/sh\nexec sleep 60\n")
    slow.chmod(0o755)
    monkeypatch.setenv("PATH", f"{slow.parent}:{os.environ['PATH']}")
    monkeypatch.setattr("minimax_lab.logic.tools.tree_dot.DOT_SECONDS", 0.5)
    status, output, err, _ = draw(capsys, tmp_path, DRAW, "x", name="tree.svg")
    assert (status, output) == (EXIT_USAGE, "")
    assert "dot did not finish drawing" in err and "within 0.5 s" in err
    assert err.count("\n") == 1


def situations(tree) -> dict[tuple, set]:
    """Each alpha-beta node's situation as its search met it (MAX or MIN, the window it was
    entered with, its children's values and bounds, how many moves it pruned), with the bounds
    the nodes in that situation got."""
    windows = {step.path: (step.alpha, step.beta) for step in tree.steps if step.kind == "call"}
    found: dict[tuple, set] = {}
    for path, node in tree.paths().items():
        if not node.children:
            continue
        children = tuple(sorted((child.value, child.bound.value) for child in node.children))
        situation = (node.mover == tree.player, windows[path], children, len(node.pruned))
        found.setdefault(situation, set()).add(node.bound)
    return found


@pytest.mark.parametrize(("state", "player"), [
    (board("x - o / - x - / o - -"), "x"), (board("x o - / - - - / - - -"), "x"),
    (board("x - - / - o - / - - -"), "x"), (DRAW, "x"), (SMALL, "o"),
    *[position for position in all_positions() if position[0].count(BLANK) == 6][::97]])
def test_nodes_that_alphabeta_searched_alike_are_bounded_alike(state, player):
    """A node's bound follows from what its search saw, not from the order its children came
    in: at x-o-x-o-- two MAX nodes entered with alpha = +1, one child exactly +1, both exact."""
    tree = build_tree(state, player, search="alphabeta", plies=9, limit=100_000)
    for situation, bounds in situations(tree).items():
        assert len(bounds) == 1, situation


# --- the legend --------------------------------------------------------------------------

LEGEND_TREES = {  # between them, every kind of thing a picture draws
    "alpha-beta 2 plies ahead: the horizon and pruned moves": (
        "x--------", "o", {"search": "alphabeta", "depth": 2}),
    "minimax to the end: the game over": (DRAW, "x", {"search": "minimax"}),
    "1 ply drawn: subtrees as boxes with their counts": (
        board("x o - / x o - / o - -"), "x", {"search": "minimax", "plies": 1}),
}


def drawn_in(dot: str) -> dict[str, set[str]]:
    """Each kind of thing the DOT text draws, with the colours it is drawn in: a node by its
    kind and fill, the chosen line's edges, the pruned boxes, the boxes of subtrees."""
    drawn: dict[str, set[str]] = {}
    patterns = {r'id="(max|min|end|horizon)-[^"]*", label=<<TABLE [^>]*BGCOLOR="(#\w+)"': None,
                r'id="(pv)-edge-[^"]*"[^\n]*color="(#\w+)"': None,
                r'id="(pruned)-n[^"]*"[^\n]*color="(#\w+)"': None,
                r'id="(more)-n[^"]*"(?![^\n]*color=)': "#000000"}
    for pattern, default in patterns.items():
        for match in re.finditer(pattern, dot):
            drawn.setdefault(match[1], set()).add(default or match[2].lower())
    return drawn


def colour_name(colour: str) -> str:
    """The everyday name of a colour, from its hue, lightness and saturation."""
    red, green, blue = (int(colour[index:index + 2], 16) / 255 for index in (1, 3, 5))
    hue, lightness, saturation = colorsys.rgb_to_hls(red, green, blue)
    if saturation < 0.15 or lightness > 0.97 or lightness < 0.05:
        return "white" if lightness > 0.97 else "black" if lightness < 0.05 else "grey"
    return min(((0.0, "red"), (0.08, "orange"), (0.17, "yellow"), (0.33, "green"),
                (0.6, "blue"), (0.8, "purple"), (1.0, "red")),
               key=lambda named: abs(named[0] - hue))[1]


@pytest.mark.parametrize("name", list(LEGEND_TREES))
def test_the_legend_tells_what_is_drawn_and_only_that(name):
    state, player, options = LEGEND_TREES[name]
    tree = build_tree(state, player, **options)
    dot = to_dot(tree)
    entries = legend(tree)
    assert "; ".join(entry.words for entry in entries) in dot.split("\n")[1]
    assert {entry.kind: {entry.colour.lower()} for entry in entries} == drawn_in(dot)
    for entry in entries:
        assert entry.words.split()[0].rstrip(":") == colour_name(entry.colour), entry


def test_the_legends_trees_draw_every_kind_the_legend_knows():
    drawn = set()
    for state, player, options in LEGEND_TREES.values():
        drawn |= set(drawn_in(to_dot(build_tree(state, player, **options))))
    assert drawn == {entry.kind for entry in LEGEND}
