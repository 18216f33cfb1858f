"""The stepped page of a game tree (`minimax-lab tree --html`): its steps are the search's calls,
its nodes and values the tree's, read back from the page; then the page in a real headless
Chromium at a projector's 1024x768, stepped to the end for a set of boards and options (every
board and option in the slow run), played and paused, folded, making no network request."""

from __future__ import annotations

import html
import json
import math
import os
import re
from functools import cache
from html.parser import HTMLParser

import pytest
from boards import LAB_CASES, TACTICS, board
from conftest import PAGE_SECONDS, PROJECTOR

from minimax_lab.logic.commands.cli import EXIT_OK, EXIT_USAGE, main
from minimax_lab.logic.objective import Objective
from minimax_lab.logic.predicates import lab_predicates
from minimax_lab.logic.state import is_terminal
from minimax_lab.logic.tools import tree_html as page_module
from minimax_lab.logic.tools.tree import GameTree, build_tree
from minimax_lab.logic.tools.tree_dot import value_text
from minimax_lab.logic.tools.tree_html import (
    PAGE_BYTES,
    POLICY,
    PageTooBig,
    key,
    step_texts,
    tree_html,
    tree_html_frame,
    window_text,
)

# x to move, alpha-beta cuts at three of the root's four moves.
CUTS = board("""
    x o -
    x o -
    o - -
""")
SMALL = {
    "alpha-beta cuts": (CUTS, "x"),
    "x to move, 4 blanks": (board("""
        x o -
        o - x
        - o -
    """), "x"),
    **{name: TACTICS[name][:2] for name in ("o must block cell 2", "the last blank cell, a draw",
                                            "x completes the top row")},
}
SEARCHES = ("minimax", "alphabeta")


# The trees the stepped pages are tried on: a board, its player, and the tree's options.
STALLED = {  # the searches whose page stopped at a cut of a subtree it does not draw
    "empty board, alpha-beta 2 plies ahead, the chosen line": (
        "---------", "x", {"search": "alphabeta", "depth": 2, "only_best": True}),
    "x-o-x-o--, alpha-beta, the chosen line": (
        board("x - o / - x - / o - -"), "x", {"search": "alphabeta", "only_best": True}),
    "xo-------, alpha-beta, the chosen line": (
        board("x o - / - - - / - - -"), "x", {"search": "alphabeta", "only_best": True}),
}
PAGES = {
    **STALLED,
    "alpha-beta cuts": (CUTS, "x", {"search": "alphabeta"}),
    "the lecture's alpha-beta": (board("x o - / x o - / o - -"), "x", {"search": "alphabeta"}),
    "the lecture's minimax": (board("x o - / x o - / o - -"), "x", {"search": "minimax"}),
    "x-o-x-o--, alpha-beta, as deep as fits": (board("x - o / - x - / o - -"), "x",
                                               {"search": "alphabeta"}),
    "x-------- minimax, 1 ply": ("x--------", "o", {"search": "minimax", "plies": 1}),
    "alpha-beta 3 plies ahead, 2 drawn": (board("x - - / - o - / - - -"), "x",
                                          {"search": "alphabeta", "depth": 3, "plies": 2}),
    "alpha-beta playing to lose": (CUTS, "x", {"search": "alphabeta",
                                               "objective": Objective("lose", "lab")}),
}
OPTIONS = {
    "minimax": {"search": "minimax"},
    "alphabeta": {"search": "alphabeta"},
    "minimax, the chosen line": {"search": "minimax", "only_best": True},
    "alphabeta, the chosen line": {"search": "alphabeta", "only_best": True},
    "alphabeta, 2 plies ahead": {"search": "alphabeta", "depth": 2},
    "minimax, 2 plies ahead, the chosen line": {"search": "minimax", "depth": 2,
                                                "only_best": True},
    "alphabeta, 1 ply drawn": {"search": "alphabeta", "plies": 1},
    "minimax, 2 plies drawn": {"search": "minimax", "plies": 2},
}
EVERY_PAGE = {f"{name}: {option}": (state, player, options)
              for name, (state, player, *_) in {**LAB_CASES, **TACTICS}.items()
              for option, options in OPTIONS.items()}


def page_tree(state: str, player: str, options: dict) -> GameTree:
    """The tree a page draws: as deep as fits a slide unless its plies are given."""
    return build_tree(state, player, limit=2000, fit="plies" not in options, **options)


class Page(HTMLParser):
    """What a page holds: each node's path, kind, value and alpha-beta window; the chosen line;
    the pruned boxes; the steps' data; the policy."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.nodes: dict[str, str] = {}
        self.values: dict[str, str] = {}
        self.windows: dict[str, str] = {}
        self.on_line: list[str] = []
        self.pruned: dict[str, str] = {}
        self.policy = ""
        self.data = ""
        self._item_pv: list[bool] = []
        self._in: tuple[str, str] | None = None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        named = dict(attrs)
        classes = (named.get("class") or "").split()
        if tag == "meta" and named.get("http-equiv") == "Content-Security-Policy":
            self.policy = named["content"]
        if tag == "li":
            self._item_pv.append("pv" in classes)
            if "pruned" in classes:
                self._in = ("pruned", named["data-of"])
        if tag == "div" and "node" in classes:
            self.nodes[named["data-path"]] = classes[1]
            self._node = named["data-path"]
            if self._item_pv[-1]:
                self.on_line.append(named["data-path"])
        if tag == "span" and "v" in classes:
            self._in = ("value", self._node)
        if tag == "div" and "window" in classes:
            self._in = ("window", self._node)
        if tag == "script" and named.get("type") == "application/json":
            self._in = ("data", "")

    def handle_data(self, data):
        if self._in is None:
            return
        what, path = self._in
        if what == "value":
            self.values[path] = data
        elif what == "window":
            self.windows[path] = data
        elif what == "pruned" and data.strip():
            self.pruned[path] = data
        elif what == "data":
            self.data += data

    def handle_endtag(self, tag):
        if tag in ("span", "script", "div") and self._in is not None and (
                self._in[0] != "pruned" or tag == "div"):
            self._in = None
        if tag == "li":
            self._item_pv.pop()


def chosen_paths(tree: GameTree) -> list[str]:
    """The names of the chosen line's nodes on the page, the root first."""
    line, path, names = tree.principal_variation(), (), ["root"]
    for parent, child in zip(line, line[1:], strict=False):
        path = (*path, parent.cell_of(child))
        names.append(key(path))
    return names


def preorder(tree: GameTree) -> list[tuple[int, ...]]:
    """The drawn nodes' paths, each node before its children, children in the search's order."""
    order, pending = [], [((), tree.root)]
    while pending:
        path, node = pending.pop()
        order.append(path)
        pending += reversed([((*path, node.cell_of(child)), child) for child in node.children])
    return order


@pytest.mark.parametrize("search", SEARCHES)
@pytest.mark.parametrize("name", list(SMALL))
def test_the_steps_are_the_searchs_calls_each_node_in_then_out(name, search):
    tree = build_tree(*SMALL[name], search=search, plies=9, limit=2000)
    calls = [step.path for step in tree.steps if step.kind == "call"]
    exits = [step.path for step in tree.steps if step.kind == "exit"]
    assert calls == preorder(tree) and len(calls) == tree.counts.nodes
    assert sorted(exits) == sorted(calls)
    at = {(step.kind, step.path): index for index, step in enumerate(tree.steps)}
    for path in calls:
        for child in (other for other in calls if other[:-1] == path and other):
            assert at["call", path] < at["call", child] < at["exit", child] < at["exit", path]


@pytest.mark.parametrize("name", list(SMALL))
def test_alphabetas_window_at_each_call_is_what_the_values_before_it_allow(name):
    """Replayed from the tree's values: a child of MAX is searched with alpha raised to the
    best of its earlier siblings, a child of MIN with beta lowered to theirs."""
    tree = build_tree(*SMALL[name], search="alphabeta", plies=9, limit=2000)
    nodes = tree.paths()
    windows = {step.path: (step.alpha, step.beta) for step in tree.steps if step.kind == "call"}
    assert windows[()] == (-math.inf, math.inf)
    for path, node in nodes.items():
        alpha, beta = windows[path]
        for child in node.children:
            assert windows[(*path, node.cell_of(child))] == (alpha, beta)
            if node.mover == tree.player:
                alpha = max(alpha, child.value)
            else:
                beta = min(beta, child.value)
    cuts = [step for step in tree.steps if step.kind == "cut"]
    assert {step.path: step.pruned for step in cuts} == {
        path: node.pruned for path, node in nodes.items() if node.pruned}
    assert all(step.alpha >= step.beta for step in cuts)
    assert len(cuts) == tree.counts.alpha_cuts + tree.counts.beta_cuts
    assert cuts or name != "alpha-beta cuts"


def test_minimax_has_no_window_and_no_cut():
    tree = build_tree(CUTS, "x", search="minimax", plies=9)
    assert {(step.alpha, step.beta) for step in tree.steps} == {(None, None)}
    assert not [step for step in tree.steps if step.kind == "cut"]


@pytest.mark.parametrize("search", SEARCHES)
@pytest.mark.parametrize("name", list(SMALL))
def test_the_page_holds_the_trees_nodes_values_chosen_line_and_steps(name, search):
    tree = build_tree(*SMALL[name], search=search, plies=9, limit=2000)
    page = Page(tree_html(tree))
    nodes = tree.paths()
    assert set(page.nodes) == {key(path) for path in nodes}
    assert page.values == {key(path): value_text(tree, node, entities=False)
                           for path, node in nodes.items()}
    assert page.on_line == chosen_paths(tree)
    assert set(page.pruned) == {key(path) for path, node in nodes.items() if node.pruned}
    steps = json.loads(page.data)["steps"]
    assert [step["text"] for step in steps] == step_texts(tree)
    assert [(step["kind"], step["node"]) for step in steps] == [
        (step.kind, key(step.path)) for step in tree.steps]


@pytest.mark.parametrize("name", list(PAGES))
def test_every_step_names_a_node_the_page_draws_and_every_cut_a_box_it_draws(name):
    state, player, options = PAGES[name]
    tree = page_tree(state, player, options)
    page, nodes = Page(tree_html(tree)), tree.paths()
    for step in tree.steps:
        assert key(step.path) in page.nodes
        if step.kind == "cut":
            assert key(step.path) in page.pruned
    for path, node in nodes.items():  # a cut below the drawing is told when its node exits
        if node.pruned:
            continue
        told = [step for step in tree.steps if step.path == path and step.pruned]
        assert all(step.kind == "exit" for step in told)
        for step, text in zip(tree.steps, step_texts(tree), strict=True):
            if step in told:
                cells = " ".join(f"[{node.mover},{cell}]" for cell in step.pruned)
                assert f"a cut there leaves {cells} unsearched" in text


def test_a_cut_off_the_chosen_line_is_told_at_its_nodes_exit():
    tree = page_tree(*STALLED["empty board, alpha-beta 2 plies ahead, the chosen line"])
    texts = dict(zip(tree.steps, step_texts(tree), strict=True))
    second = next(step for step in tree.steps if step.path == (2,) and step.kind == "exit")
    assert second.pruned == (3, 4, 5, 6, 7, 8, 9)
    assert texts[second] == ("min_value exits on the board after [x,2] with value \u2264 -1/9,"
                             " from the 1 node searched below it (not drawn); a cut there "
                             "leaves [o,3] [o,4] [o,5] [o,6] [o,7] [o,8] [o,9] unsearched; "
                             "the value goes back up")


# A step's sentence is clauses (split where one ends: ": ", "; ", ", so ", ", and "); each
# clause opens with its subject, one of the page's nouns, then a finite verb: "is" or "are",
# or a word in the third person singular (ending in s).
SUBJECT = (rf"(?:{'|'.join(lab_predicates(traced=True))}|the value|a cut there|"
           r"(?:alpha|beta) \([^)]*\)|(?:MAX|MIN) above|(?:\[[xo],\d\] ?)+)")
CLAUSE = re.compile(rf"{SUBJECT} (?:is|are|[a-z]+s)\b.*")
CLAUSE_END = re.compile(r": |; |, so |, and ")
SENTENCE_KINDS = {  # a tree for each kind of sentence a step says
    "call and exit, no window": ("minimax", board("x o - / x o - / o - -"), "x", {}),
    "call with a window, cut": ("alphabeta", CUTS, "x", {}),
    "exit from the nodes below, a cut there": ("alphabeta", "---------", "x",
                                              {"depth": 2, "only_best": True}),
    "exit at the horizon": ("alphabeta", board("x - - / - o - / - - -"), "x",
                            {"depth": 1}),
}


def sentence_kind(tree: GameTree, step) -> str:
    """What kind of sentence the step says: its kind, and for an exit what it tells of."""
    node = tree.paths()[step.path]
    if step.kind != "exit":
        return step.kind
    return ("exit at the root" if not step.path else "exit below, with a cut there"
            if step.pruned else "exit below, from the nodes searched" if step.below
            else "exit below, the game over" if node.is_leaf and is_terminal(node.state)
            else "exit below, at the horizon" if node.is_leaf else "exit below")


def test_every_kind_of_step_sentence_has_a_subject_and_a_verb_in_each_clause():
    kinds: dict[str, str] = {}
    for search, state, player, options in SENTENCE_KINDS.values():
        tree = build_tree(state, player, search=search, plies=9, limit=2000, **options)
        for step, text in zip(tree.steps, step_texts(tree), strict=True):
            kinds.setdefault(sentence_kind(tree, step), text)
            for clause in CLAUSE_END.split(text):
                assert CLAUSE.fullmatch(clause), (clause, text)
    assert set(kinds) == {"call", "cut", "exit at the root", "exit below",
                          "exit below, with a cut there", "exit below, from the nodes searched",
                          "exit below, the game over", "exit below, at the horizon"}, kinds


@pytest.mark.parametrize("name", list(PAGES))
def test_each_node_shows_alphabetas_window_as_it_was_entered(name):
    state, player, options = PAGES[name]
    tree = page_tree(state, player, options)
    page = Page(tree_html(tree))
    calls = {key(step.path): step for step in tree.steps if step.kind == "call"}
    if tree.search == "minimax":
        assert page.windows == {}
        return
    assert page.windows == {path: window_text(tree, step) for path, step in calls.items()}
    assert page.windows["root"] == "\u03b1 -\u221e \u03b2 +\u221e"


def test_a_count_of_one_is_singular():
    tree = page_tree(*STALLED["empty board, alpha-beta 2 plies ahead, the chosen line"])
    text = tree_html(tree)
    assert "1 more node<" in text and "1 more nodes" not in text
    assert "from the 1 node searched" in " ".join(step_texts(tree))


def test_the_page_and_the_picture_of_a_position_draw_the_same_plies(tmp_path, capsys):
    state = board("x - o / - x - / o - -")
    for search in SEARCHES:
        assert main(["tree", state, "x", "--search", search, "--html",
                     str(tmp_path / "t.html")]) == EXIT_OK
        alone = capsys.readouterr().out.split(": ", 1)[1]
        assert main(["tree", state, "x", "--search", search, "--out", str(tmp_path / "t.dot")]) \
            == EXIT_OK
        assert capsys.readouterr().out.split(": ", 1)[1] == alone


@pytest.mark.parametrize(("umask", "mode"), [(0o022, 0o644), (0o027, 0o640), (0o077, 0o600)])
def test_the_page_is_written_with_the_users_umask(tmp_path, capsys, umask, mode):
    out = tmp_path / "tree.html"
    previous = os.umask(umask)
    try:
        assert main(["tree", CUTS, "x", "--html", str(out)]) == EXIT_OK
    finally:
        os.umask(previous)
    assert out.stat().st_mode & 0o777 == mode


def test_a_page_written_over_a_file_keeps_its_permissions(tmp_path, capsys):
    out = tmp_path / "tree.html"
    out.write_text("old")
    out.chmod(0o604)
    assert main(["tree", CUTS, "x", "--html", str(out)]) == EXIT_OK
    assert out.stat().st_mode & 0o777 == 0o604 and out.read_text().startswith("<!DOCTYPE")


def test_the_page_fetches_nothing():
    text = tree_html(build_tree(CUTS, "x", search="alphabeta"))
    assert Page(text).policy == POLICY and "default-src 'none'" in POLICY
    assert not re.search(r"https?:|\bsrc=|<link|@import|url\(", text)


@cache
def default_tree(search: str) -> GameTree:
    """The tree the page draws of the empty board by default (fit to the page), built once."""
    return build_tree("---------", "x", search=search, fit=True)


def test_a_subtree_drawn_as_one_box_exits_with_the_count_below_it():
    tree = default_tree("minimax")  # one ply drawn: each child a box for the search below it
    assert tree.plies == 1
    exits = {step.path: step.below for step in tree.steps if step.kind == "exit"}
    assert exits == {path: node.hidden for path, node in tree.paths().items()}
    assert sum(exits.values()) + len(exits) == tree.counts.nodes
    for step, text in zip(tree.steps, step_texts(tree), strict=True):
        if step.kind == "exit" and step.below:
            assert f"from the {step.below} nodes searched below it (not drawn)" in text


def test_only_the_chosen_line_has_steps_below_the_root_children():
    tree = build_tree("x--------", "o", search="alphabeta", only_best=True)
    drawn = tree.paths()
    assert {step.path for step in tree.steps} == set(drawn)
    for step in tree.steps:
        if step.kind == "exit" and not drawn[step.path].children:
            assert step.below == drawn[step.path].hidden


def test_the_default_trees_fit_the_page_limit_and_a_bigger_page_is_refused(monkeypatch):
    for search in SEARCHES:
        assert len(tree_html(default_tree(search)).encode()) < PAGE_BYTES
    monkeypatch.setattr(page_module, "PAGE_BYTES", 5000)
    with pytest.raises(PageTooBig, match="more than 5000; draw fewer plies"):
        tree_html(build_tree(CUTS, "x"))


def test_the_notebooks_frame_holds_the_page_whole():
    tree = build_tree(CUTS, "x", search="alphabeta")
    frame = tree_html_frame(tree)
    found = re.fullmatch(r'<iframe [^>]*sandbox="allow-scripts"[^>]* srcdoc="([^"]*)"></iframe>',
                         frame)
    assert found is not None and html.unescape(found.group(1)) == tree_html(tree)


def test_the_command_writes_the_page_without_graphviz(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))  # no dot to be found
    out = tmp_path / "tree.html"
    status = main(["tree", CUTS, "x", "--search", "alphabeta", "--html", str(out)])
    printed = capsys.readouterr().out
    tree = build_tree(CUTS, "x", search="alphabeta", fit=True)
    assert status == EXIT_OK and out.read_text() == tree_html(tree)
    assert printed == f"{out}: {tree.drawn} nodes drawn; alphabeta visited {tree.counts.nodes}\n"


@pytest.mark.parametrize(("options", "message"), [
    ([], "say where to write the tree: --out FILE.svg|.png|.dot (a picture) or --html FILE"),
    (["--html", "/no/such/folder/tree.html"], "cannot write '/no/such/folder/tree.html'"),
])
def test_bad_options_are_one_line_and_status_2(capsys, options, message):
    status = main(["tree", CUTS, "x", *options])
    err = capsys.readouterr().err
    assert status == EXIT_USAGE and message in err and err.count("\n") == 1


def test_a_page_too_big_is_one_line_and_status_2(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr(page_module, "PAGE_BYTES", 5000)
    status = main(["tree", CUTS, "x", "--html", str(tmp_path / "t.html")])
    err = capsys.readouterr().err
    assert status == EXIT_USAGE and "draw fewer plies" in err and err.count("\n") == 1
    assert not (tmp_path / "t.html").exists()


# --- in a browser ----------------------------------------------------------------------------

SMALLEST_CELL_PX = 12
"""The smallest a board's cell may be drawn on the projector at the page's own zoom."""


@pytest.fixture(scope="module")
def opened(browser, tmp_path_factory):
    """The page of alpha-beta on the position with cuts, open in the browser, and its tree."""
    tree = build_tree(CUTS, "x", search="alphabeta")
    path = tmp_path_factory.mktemp("page") / "tree.html"
    path.write_text(tree_html(tree), encoding="utf-8")
    browser.get_log("performance")  # what came before this page
    browser.get(path.as_uri())
    return browser, tree, path


def shown(driver) -> dict:
    """What the page shows now, as a student sees it."""
    return driver.execute_script("""
        const current = document.querySelector('.node.current');
        const value = current && current.querySelector('.value');
        return {current: current && current.dataset.path,
                value: value && value.innerText.trim(),
                text: document.getElementById('step-text').innerText,
                visited: document.querySelectorAll('.node.visited').length,
                cuts: [...document.querySelectorAll('.pruned')]
                        .filter(p => getComputedStyle(p).visibility === 'visible')
                        .map(p => p.dataset.of),
                replaying: document.body.classList.contains('replaying')};""")


def test_the_step_control_replays_the_search_call_by_call(opened):
    driver, tree, _ = opened
    nodes, texts = tree.paths(), step_texts(tree)
    driver.find_element("id", "first").click()
    assert shown(driver)["current"] is None and shown(driver)["visited"] == 0
    for index, step in enumerate(tree.steps, start=1):
        driver.find_element("id", "next").click()
        now = shown(driver)
        assert now["current"] == key(step.path)
        assert texts[index - 1] in now["text"] and f"Step {index} of {len(texts)}" in now["text"]
        assert now["visited"] == sum(1 for done in tree.steps[:index] if done.kind == "call")
        assert now["value"] == (value_text(tree, nodes[step.path], entities=False)
                                if step.kind == "exit" else "?")
        assert sorted(now["cuts"]) == sorted(key(done.path) for done in tree.steps[:index]
                                             if done.kind == "cut")
    assert not shown(driver)["replaying"]
    driver.find_element("tag name", "body").send_keys("\ue012")  # the left arrow
    assert shown(driver)["current"] == key(tree.steps[-2].path)


def test_the_chosen_line_is_red_at_the_end(opened):
    driver, tree, _ = opened
    driver.find_element("id", "last").click()
    red = driver.execute_script("""
        return [...document.querySelectorAll('.node')]
          .filter(n => getComputedStyle(n).borderTopColor === 'rgb(192, 57, 43)')
          .map(n => n.dataset.path);""")
    assert red == chosen_paths(tree)


def test_a_node_folds_and_unfolds(opened):
    driver, tree, _ = opened
    first = next(child for child in tree.root.children if child.children)
    cell = tree.root.cell_of(first)
    below = [key((cell, first.cell_of(child))) for child in first.children]

    def visible() -> list[bool]:
        return [driver.find_element("css selector", f'.node[data-path="{path}"]').is_displayed()
                for path in below]

    assert all(visible())
    toggle = driver.find_element("css selector", f'.node[data-path="{cell}"] .toggle')
    toggle.click()
    assert not any(visible()) and toggle.get_attribute("aria-expanded") == "false"
    toggle.click()
    assert all(visible())
    driver.find_element("id", "fold").click()
    assert not any(visible())
    driver.find_element("id", "unfold").click()
    assert all(visible())


def test_the_page_makes_no_network_request(opened):
    driver, _, path = opened
    driver.find_element("id", "first").click()
    driver.find_element("id", "next").click()
    requested = [json.loads(entry["message"])["message"] for entry in
                 driver.get_log("performance")]
    urls = [message["params"]["request"]["url"] for message in requested
            if message["method"] == "Network.requestWillBeSent"]
    assert path.as_uri() in urls
    assert all(url == path.as_uri() or url.startswith("data:") for url in urls), urls


# --- every step of a search, in the browser --------------------------------------------------

STEP_ALL = """
const steps = JSON.parse(document.getElementById('steps').textContent).steps;
if (arguments[0]) document.getElementById('fold').click();
document.getElementById('first').click();
const header = document.querySelector('header').getBoundingClientRect().bottom;
const canvas = document.getElementById('canvas').getBoundingClientRect();
const seen = [];
for (let i = 0; i < steps.length; i++) {
  document.getElementById('next').click();
  const current = document.querySelectorAll('.node.current');
  const node = current[0], box = node.getBoundingClientRect();
  const cell = node.querySelector('.board span').getBoundingClientRect();
  seen.push({
    current: [...current].map(n => n.dataset.path),
    text: document.getElementById('step-text').innerText,
    value: node.querySelector('.value').innerText.trim(),
    visited: [...document.querySelectorAll('.node.visited')].map(n => n.dataset.path),
    windows: Object.fromEntries([...document.querySelectorAll('.node')]
      .filter(n => n.querySelector('.window') &&
                   getComputedStyle(n.querySelector('.window')).visibility === 'visible')
      .map(n => [n.dataset.path, n.querySelector('.window').innerText])),
    cuts: [...document.querySelectorAll('.pruned')]
      .filter(p => getComputedStyle(p).visibility === 'visible').map(p => p.dataset.of),
    inView: box.top >= header - 1 && box.bottom <= window.innerHeight + 1 &&
            box.left >= canvas.left - 1 && box.right <= canvas.right + 1 &&
            node.offsetParent !== null,
    cellPx: cell.height,
  });
}
return {seen: seen, errors: window.__errors || [], header: header,
        width: window.innerWidth, height: window.innerHeight};
"""


def step_all(driver, tree: GameTree, folder, folded: bool = False) -> dict:
    """Open the tree's page and press next through every step (first folding every subtree,
    if asked); what the page showed after each press."""
    path = folder / "tree.html"
    path.write_text(tree_html(tree), encoding="utf-8")
    driver.get(path.as_uri())
    return step_open_page(driver, folded)


def step_open_page(driver, folded: bool = False) -> dict:
    """Press next through every step of the page open in `driver` (or the frame it is in)."""
    driver.execute_script("window.__errors = []; window.addEventListener('error', "
                          "e => window.__errors.push(e.message));")
    return driver.execute_script(STEP_ALL, folded)


def assert_steps_as_the_search_went(tree: GameTree, shown: dict,
                                    viewport: tuple[int, int] | None = PROJECTOR) -> None:
    """After each step: the step's node highlighted and in view (on the projector, or in the
    frame a notebook shows the page in), the step's sentence, the node's value once it has
    come back, the nodes entered so far with the window they were entered with, the cuts made
    so far."""
    nodes, texts = tree.paths(), step_texts(tree)
    windows = {key(step.path): window_text(tree, step) for step in tree.steps
               if step.kind == "call"}
    assert shown["errors"] == []
    if viewport is not None:
        assert (shown["width"], shown["height"]) == viewport
    assert shown["header"] <= shown["height"] / 4
    assert len(shown["seen"]) == len(tree.steps)
    for index, (step, now) in enumerate(zip(tree.steps, shown["seen"], strict=True), start=1):
        where = (index, step)
        assert now["current"] == [key(step.path)], where
        assert now["text"].startswith(f"Step {index} of {len(texts)}: {texts[index - 1]}."), where
        exited = any(done.kind == "exit" and done.path == step.path
                     for done in tree.steps[:index])
        assert now["value"] == (value_text(tree, nodes[step.path], entities=False) if exited
                                else "?"), where
        entered = [key(done.path) for done in tree.steps[:index] if done.kind == "call"]
        assert sorted(now["visited"]) == sorted(entered), where
        assert now["windows"] == ({path: windows[path] for path in entered}
                                  if tree.search == "alphabeta" else {}), where
        assert sorted(now["cuts"]) == sorted(key(done.path) for done in tree.steps[:index]
                                             if done.kind == "cut"), where
        assert now["inView"], where
        assert now["cellPx"] >= SMALLEST_CELL_PX, where
    assert shown["seen"][-1]["text"].endswith("The search is done; the chosen line has a red "
                                              "border.")


@pytest.mark.parametrize("name", list(PAGES))
def test_every_step_of_the_search_in_the_browser(browser, tmp_path, name):
    state, player, options = PAGES[name]
    tree = page_tree(state, player, options)
    assert_steps_as_the_search_went(tree, step_all(browser, tree, tmp_path))


@pytest.mark.parametrize("name", list(STALLED))
def test_after_fold_all_every_step_still_shows_its_node(browser, tmp_path, name):
    state, player, options = STALLED[name]
    tree = page_tree(state, player, options)
    assert_steps_as_the_search_went(tree, step_all(browser, tree, tmp_path, folded=True))


@pytest.mark.slow
@pytest.mark.parametrize("name", list(EVERY_PAGE))
def test_every_step_of_every_board_and_option_in_the_browser(browser, tmp_path, name):
    state, player, options = EVERY_PAGE[name]
    tree = page_tree(state, player, options)
    assert_steps_as_the_search_went(tree, step_all(browser, tree, tmp_path))


def at_step(driver) -> int:
    return int(driver.find_element("id", "slider").get_attribute("value"))


def test_play_steps_on_by_itself_until_paused_and_stops_at_the_end(browser, tmp_path,
                                                                   monkeypatch):
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.support.ui import WebDriverWait

    monkeypatch.setattr(page_module, "PLAY_MS", 250)  # a quarter of a second a step, here
    tree = page_tree(CUTS, "x", {"search": "alphabeta"})
    path = tmp_path / "tree.html"
    path.write_text(tree_html(tree), encoding="utf-8")
    browser.get(path.as_uri())
    play = browser.find_element("id", "play")
    assert at_step(browser) == len(tree.steps)
    play.click()  # at the end, play starts again from the start
    assert play.get_attribute("aria-pressed") == "true"
    WebDriverWait(browser, PAGE_SECONDS).until(lambda driver: at_step(driver) >= 2)
    play.click()
    paused = at_step(browser)
    assert play.get_attribute("aria-pressed") == "false" and paused < len(tree.steps)
    with pytest.raises(TimeoutException):  # paused: it stays where it is
        WebDriverWait(browser, 2.5 * page_module.PLAY_MS / 1000).until(
            lambda driver: at_step(driver) != paused)
    assert shown(browser)["current"] == key(tree.steps[paused - 1].path)
    browser.find_element("id", "last").click()
    browser.find_element("id", "back").click()
    play.click()
    WebDriverWait(browser, PAGE_SECONDS).until(
        lambda driver: play.get_attribute("aria-pressed") == "false")
    assert at_step(browser) == len(tree.steps)
    browser.find_element("id", "play").click()
    browser.find_element("id", "next").click()  # stepping by hand pauses the play
    assert play.get_attribute("aria-pressed") == "false" and at_step(browser) == 1


def test_zoom_changes_the_boards_size_and_fit_keeps_a_zoom_that_fits(browser, tmp_path):
    tree = page_tree("---------", "x", {"search": "alphabeta", "plies": 1})
    path = tmp_path / "tree.html"
    path.write_text(tree_html(tree), encoding="utf-8")
    browser.get(path.as_uri())
    measure = """return [document.querySelector('.board span').getBoundingClientRect().height,
                         document.getElementById('tree').getBoundingClientRect().width,
                         document.getElementById('canvas').clientWidth];"""
    cell, width, room = browser.execute_script(measure)
    browser.find_element("id", "bigger").click()
    assert browser.execute_script(measure)[0] > cell
    browser.find_element("id", "smaller").click()
    browser.find_element("id", "smaller").click()
    assert browser.execute_script(measure)[0] < cell
    assert width <= room or cell >= SMALLEST_CELL_PX  # it opens readable
    browser.find_element("id", "fit").click()
    fitted_cell, fitted_width, _ = browser.execute_script(measure)
    assert fitted_width <= room
    assert fitted_cell == cell if width <= room else fitted_cell < cell


LARGEST = {  # the largest trees the page draws: the widest, the tallest, the biggest page
    "empty board, alpha-beta, 2 plies (the widest within the node limit)": (
        "---------", "x", {"search": "alphabeta", "plies": 2}),
    "empty board, alpha-beta 2 plies ahead, the chosen line": STALLED[
        "empty board, alpha-beta 2 plies ahead, the chosen line"],
    "empty board, alpha-beta, the chosen line to the end (the tallest)": (
        "---------", "x", {"search": "alphabeta", "only_best": True}),
}
LARGEST_SLOW = {  # minimax's, whose search of the empty board takes seconds
    "empty board, 2 plies": ("---------", "x", {"search": "minimax", "plies": 2}),
    "empty board, 3 plies (a page of 1090 boxes)": (
        "---------", "x", {"search": "minimax", "plies": 3, "limit": 5000}),
    "empty board, the chosen line to the end": (
        "---------", "x", {"search": "minimax", "only_best": True}),
}
FITTED = """
const header = document.querySelector('header').getBoundingClientRect().bottom;
const canvas = document.getElementById('canvas');
const room = canvas.getBoundingClientRect();
const drawn = [...document.querySelectorAll('.node, .box')].filter(b => b.offsetParent !== null)
  .map(b => b.getBoundingClientRect());
return {drawn: drawn.length, boxes: document.querySelectorAll('.node, .box').length,
        outside: drawn.filter(b => b.left < room.left - 1 || b.right > room.right + 1 ||
                                   b.top < header - 1 || b.bottom > window.innerHeight + 1)
                      .length,
        scrolls: [canvas.scrollWidth > canvas.clientWidth + 1,
                  document.documentElement.scrollHeight > window.innerHeight + 1],
        width: window.innerWidth, height: window.innerHeight};
"""


def assert_fit_shows_the_whole_tree(driver, folder, state, player, options) -> None:
    """After fit, every box of the tree's page is on the projector's screen, and the page
    scrolls neither way; one step bigger, some box is not."""
    tree = build_tree(state, player, **options)
    path = folder / "tree.html"
    path.write_text(tree_html(tree), encoding="utf-8")
    driver.get(path.as_uri())
    driver.find_element("id", "fit").click()
    fitted = driver.execute_script(FITTED)
    assert (fitted["width"], fitted["height"]) == PROJECTOR
    assert fitted["drawn"] == fitted["boxes"] > len(tree.root.children)
    assert fitted["outside"] == 0 and fitted["scrolls"] == [False, False], fitted
    driver.find_element("id", "bigger").click()
    assert driver.execute_script(FITTED)["outside"] > 0  # fit took all the room there was


@pytest.mark.parametrize("name", list(LARGEST))
def test_fit_shows_the_whole_tree_on_the_projector(browser, tmp_path, name):
    assert_fit_shows_the_whole_tree(browser, tmp_path, *LARGEST[name])


@pytest.mark.slow
@pytest.mark.parametrize("name", list(LARGEST_SLOW))
def test_fit_shows_the_whole_of_minimaxs_largest_trees(browser, tmp_path, name):
    assert_fit_shows_the_whole_tree(browser, tmp_path, *LARGEST_SLOW[name])
