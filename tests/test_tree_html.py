"""The stepped page of a game tree (`minimax-lab tree --html`): its steps are the search's calls,
its nodes and values the tree's, read back from the page; then the page in a real headless
Chromium, its step control clicked through a search, making no network request."""

from __future__ import annotations

import html
import json
import math
import os
import re
import shutil
from html.parser import HTMLParser

import pytest
from boards import TACTICS, board

from logic.commands.cli import EXIT_OK, EXIT_USAGE, main
from logic.tools import tree_html as page_module
from logic.tools.tree import GameTree, build_tree
from logic.tools.tree_dot import value_text
from logic.tools.tree_html import (
    PAGE_BYTES,
    POLICY,
    PageTooBig,
    key,
    step_texts,
    tree_html,
    tree_html_frame,
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


class Page(HTMLParser):
    """What a page holds: each node's path, kind and value; the chosen line; the pruned boxes;
    the steps' data; the policy."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.nodes: dict[str, str] = {}
        self.values: dict[str, str] = {}
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
        if tag == "script" and named.get("type") == "application/json":
            self._in = ("data", "")

    def handle_data(self, data):
        if self._in is None:
            return
        what, path = self._in
        if what == "value":
            self.values[path] = data
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


def test_the_page_fetches_nothing():
    text = tree_html(build_tree(CUTS, "x", search="alphabeta"))
    assert Page(text).policy == POLICY and "default-src 'none'" in POLICY
    assert not re.search(r"https?:|\bsrc=|<link|@import|url\(", text)


def test_a_subtree_drawn_as_one_box_exits_with_the_count_below_it():
    tree = build_tree("---------", "x", plies=1)
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
        assert len(tree_html(build_tree("---------", "x", search=search, fit=True)).encode()) \
            < PAGE_BYTES
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

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
PAGE_SECONDS = 30


@pytest.fixture(scope="module")
def browser():
    """A headless Chromium driven by Selenium, every wait bounded, quit at the end."""
    webdriver = pytest.importorskip("selenium.webdriver",
                                    reason="selenium is not installed (pip install '.[test]')")
    if CHROMIUM is None or CHROMEDRIVER is None:
        pytest.skip("Chromium or its driver is missing (apt-get install chromium "
                    "chromium-driver)")
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--window-size=1400,900", "--disable-gpu",
                     "--no-first-run", "--disable-background-networking"):
        options.add_argument(argument)
    if os.geteuid() == 0:
        options.add_argument("--no-sandbox")
    options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    try:
        driver.set_page_load_timeout(PAGE_SECONDS)
        driver.set_script_timeout(PAGE_SECONDS)
        yield driver
    finally:
        driver.quit()


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
