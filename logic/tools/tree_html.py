"""A game tree as one self-contained HTML page: the tree as the SVG pictures draw it, nodes that
fold, and a step control that replays the search call by call, alpha-beta's window and cuts
included, by hand or playing one step a second. No server, no network, nothing loaded from
elsewhere: it opens offline.
"""

from __future__ import annotations

import json
import math
from html import escape

from minimax_lab.logic.engines.minimax import reported
from minimax_lab.logic.errors import LabError
from minimax_lab.logic.state import BLANK, is_terminal, marks_made, result
from minimax_lab.logic.tools.explain import signed
from minimax_lab.logic.tools.tree import GameTree, Step, TreeNode, counted
from minimax_lab.logic.tools.tree_dot import legend, node_kind, value_text

PAGE_BYTES = 1_000_000
"""The largest page written: the default trees (as many plies as fit a slide) are far below."""
POLICY = ("default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
          "img-src data:")
"""The page's Content-Security-Policy: its own inline script and style, nothing fetched."""
PLAY_MS = 1000
"""How long each step is shown while the page plays the search."""


class PageTooBig(LabError, ValueError):
    """A page larger than `PAGE_BYTES`."""


def key(path: tuple[int, ...]) -> str:
    """A node's name on the page: `root`, or the cells played from the root (`3.6`)."""
    return ".".join(map(str, path)) if path else "root"


def step_texts(tree: GameTree) -> list[str]:
    """What the page says at each step: the call made, the cut and why, the value going up."""
    nodes = tree.paths()
    return [_say(tree, nodes, step) for step in tree.steps]


def window_text(tree: GameTree, step: Step) -> str:
    """Alpha-beta's window as a node shows it once entered: `α −∞ β +∞`; "" for minimax."""
    if step.alpha is None:
        return ""
    return f"\u03b1 {_bound(tree, step.alpha)} \u03b2 {_bound(tree, step.beta)}"


def tree_html(tree: GameTree) -> str:
    """The whole page; `PageTooBig` past `PAGE_BYTES`."""
    nodes = tree.paths()
    steps = [{"kind": step.kind, "node": key(step.path), "text": _say(tree, nodes, step)}
             for step in tree.steps]
    windows = {step.path: window_text(tree, step) for step in tree.steps if step.kind == "call"}
    data = json.dumps({"steps": steps, "play_ms": PLAY_MS}).replace("</", "<\\/")
    title = (f"{tree.search} below {tree.root.state}, {tree.player} to move: "
             f"{tree.counts.nodes} nodes visited")
    page = _PAGE.format(
        policy=POLICY, title=escape(title), style=_STYLE, legend=_legend(tree),
        tree=_node(tree, tree.root, (), {id(node) for node in tree.principal_variation()},
                   windows),
        data=data, script=_SCRIPT, count=len(steps))
    size = len(page.encode())
    if size > PAGE_BYTES:
        raise PageTooBig(f"the page of this tree has {size} bytes, more than {PAGE_BYTES}; "
                         "draw fewer plies (--plies N)")
    return page


def tree_html_frame(tree: GameTree) -> str:
    """The page inside an `<iframe>` of its own, for a notebook: its script runs there, apart
    from the notebook's."""
    height = min(900, 300 + 150 * tree.root.height())
    return (f'<iframe title="{escape(tree.search)} tree" sandbox="allow-scripts" '
            f'style="width:100%;box-sizing:border-box;height:{height}px;border:1px solid #ccc" '
            f'srcdoc="{escape(tree_html(tree), quote=True)}"></iframe>')


def _node(tree: GameTree, node: TreeNode, path: tuple[int, ...], chosen: set[int],
          windows: dict[tuple[int, ...], str]) -> str:
    """One node's list item: its box, then what is drawn below it."""
    kind = node_kind(tree, node)
    header = {"max": f"MAX: {node.mover}", "min": f"MIN: {node.mover}",
              "horizon": "horizon"}.get(kind) or result(node.state) or ""
    cell = path[-1] if path else None
    move = f'<div class="move">[{_mover_of(tree, path)},{cell}]</div>' if path else ""
    toggle = ('<button class="toggle" aria-expanded="true" title="fold or unfold">'
              "&#9662;</button>" if node.children else "")
    board = "".join(
        f'<span class="{"last" if number == cell else ""}">'
        f"{escape(mark) if mark != BLANK else '&#160;'}</span>"
        for number, mark in enumerate(node.state, start=1))
    window = windows.get(path, "")
    shown_window = (f'<div class="window" title="alpha and beta as the search entered this '
                    f'node">{escape(window)}</div>' if window else "")
    value = escape(value_text(tree, node, entities=False))
    box = (f'<div class="node {kind}" data-path="{key(path)}">{move}'
           f'<div class="head">{toggle}{escape(header)}</div><div class="board">{board}</div>'
           f'{shown_window}'
           f'<div class="value"><span class="v">{value}</span><span class="q">?</span></div>'
           "</div>")
    below = [_node(tree, child, (*path, node.cell_of(child)), chosen, windows)
             for child in node.children]
    if node.pruned:
        moves = " ".join(f"[{node.mover},{pruned}]" for pruned in node.pruned)
        below.append(f'<li class="pruned" data-of="{key(path)}"><div class="box">'
                     f"{len(node.pruned)} pruned: {moves}</div></li>")
    if node.hidden and not node.children:
        below.append(f'<li class="more"><div class="box">{counted(node.hidden, "more node")}'
                     "</div></li>")
    children = f"<ul>{''.join(below)}</ul>" if below else ""
    on_line = " pv" if id(node) in chosen else ""
    return f'<li class="item{on_line}">{box}{children}</li>'


def _mover_of(tree: GameTree, path: tuple[int, ...]) -> str:
    """Who made the last move of `path`: the root's player on odd plies, else the other."""
    other = next(mark for mark in ("x", "o") if mark != tree.player)
    return tree.player if len(path) % 2 else other


def _say(tree: GameTree, nodes: dict[tuple[int, ...], TreeNode], step: Step) -> str:
    """The sentence of one step."""
    node = nodes[step.path]
    name = "max_value" if node.mover == tree.player else "min_value"
    where = ("the root" if not step.path else
             "the board after " + " ".join(f"[{_mover_of(tree, step.path[:ply])},{cell}]"
                                 for ply, cell in enumerate(step.path, start=1)))
    window = (f"alpha = {_bound(tree, step.alpha)}, beta = {_bound(tree, step.beta)}"
              if step.alpha is not None else "")
    moves = " ".join(f"[{node.mover},{cell}]" for cell in step.pruned)
    are = "is" if len(step.pruned) == 1 else "are"
    if step.kind == "call":
        return f"{name} is called on {where}" + (f", with {window}" if window else "")
    if step.kind == "cut":
        side, other = ("MAX", "MIN") if node.mover == tree.player else ("MIN", "MAX")
        return (f"{name} stops on {where}: alpha ({_bound(tree, step.alpha)}) is at least "
                f"beta ({_bound(tree, step.beta)}), so {other} above has a move already as "
                f"good for it as anything {side} finds here; {moves} {are} not searched")
    value = value_text(tree, node, entities=False)
    why = ""
    if step.below or step.pruned:
        why = f", from the {counted(step.below, 'node')} searched below it (not drawn)"
        if step.pruned:
            why += f"; a cut there leaves {moves} unsearched"
    elif node.is_leaf:
        why = (f" ({result(node.state)})" if is_terminal(node.state)
               else " (the horizon, rated by open lines)")
    up = "" if not step.path else ("; the value goes back up" if step.pruned or step.below
                                   else ", and the value goes back up")
    return f"{name} exits on {where} with value {value}{why}{up}"


def _bound(tree: GameTree, value) -> str:
    """Alpha or beta as the values read: from the root player's side (when it plays to win)."""
    if value in (math.inf, -math.inf):
        return "+\u221e" if value > 0 else "-\u221e"
    if tree.objective.sign < 0:
        return signed(value)
    return signed(reported(tree.objective, value, marks_made(tree.root.state)))


def _legend(tree: GameTree) -> str:
    """What the page draws: the picture's legend (`tree_dot.legend`), the chosen line as a red
    border, and the page's own marks."""
    parts = [PAGE_WORDS.get(entry.kind, entry.words) for entry in legend(tree)]
    parts.append("yellow: the step's node")
    if tree.search == "alphabeta":
        parts.append("\u03b1 \u03b2: alpha and beta as the node was entered")
    values = f"values from {tree.player}'s side ({tree.objective})"
    return escape("; ".join(parts) + "; " + values)


PAGE_WORDS = {"pv": "red border: the chosen line (at the end of the replay)",
              "more": "dashed box: a subtree not drawn, with its count"}
"""What the page says of what it draws otherwise than the picture."""


_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{policy}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title><style>{style}</style></head>
<body>
<header><h1>{title}</h1><p class="legend">{legend}</p>
<nav aria-label="step through the search">
<button id="first" title="the start (Home)">|&#9664;</button>
<button id="back" title="one step back (left arrow)">&#9664; back</button>
<button id="play" title="play the search, one step a second (space)"
aria-pressed="false">&#9654; play</button>
<button id="next" title="one step on (right arrow)">next &#9654;</button>
<button id="last" title="the end (End)">&#9654;|</button>
<input id="slider" type="range" min="0" max="{count}" value="{count}" aria-label="step">
<span class="group"><button id="smaller" title="smaller (-)">&#8722;</button>
<button id="fit" title="the whole tree in the window (0)">fit</button>
<button id="bigger" title="bigger (+)">+</button></span>
<span class="group"><button id="unfold">unfold all</button>
<button id="fold">fold all</button></span>
</nav><p id="step-text" aria-live="polite"></p></header>
<main id="canvas"><ul class="tree" id="tree">{tree}</ul></main>
<script type="application/json" id="steps">{data}</script>
<script>{script}</script>
</body></html>
"""

_STYLE = """
body{font:16px/1.3 system-ui,sans-serif;margin:0;color:#222;background:#fff}
header{position:sticky;top:0;left:0;background:#fafafa;border-bottom:1px solid #ddd;
padding:.25em .6em;z-index:1}
h1{font-size:1em;margin:.1em 0}.legend{font-size:.72em;color:#555;margin:.1em 0}
nav{display:flex;flex-wrap:wrap;gap:.25em;align-items:center}
nav button{font-size:.95em;padding:.1em .5em;cursor:pointer}#slider{flex:1;min-width:6em}
nav .group{display:inline-flex;gap:.1em}
#play[aria-pressed=true]{background:#f1c40f}
#step-text{min-height:2.6em;margin:.2em 0;font-size:.95em}
#canvas{overflow:auto;padding:.6em}
.tree,.tree ul{display:flex;justify-content:center;margin:0;padding:0;position:relative}
.tree{width:max-content;margin:0 auto}
.tree.tiny *,.tree.tiny *::before,.tree.tiny *::after{border-width:0!important}
.tree ul{padding-top:14px}
.tree li{list-style:none;display:flex;flex-direction:column;align-items:center;
position:relative;padding:14px 3px 0}
.tree>li{padding-top:0}
.tree li::before,.tree li::after{content:"";position:absolute;top:0;right:50%;width:50%;
height:14px;border-top:1px solid #888}
.tree li::after{right:auto;left:50%;border-left:1px solid #888}
.tree li:only-child::before,.tree li:only-child::after,.tree>li::before,.tree>li::after{
display:none}
.tree li:only-child{padding-top:14px}
.tree li:first-child::before,.tree li:last-child::after{border:0 none}
.tree li:last-child::before{border-right:1px solid #888}
.tree ul ul::before,.tree li>ul::before{content:"";position:absolute;top:0;left:50%;
height:14px;border-left:1px solid #888}
li.folded>ul{display:none}
.node{border:1px solid #555;border-radius:4px;padding:1px 3px;text-align:center;
min-width:4em;background:#fff;transition:opacity .15s}
.node.max{background:#dbe9f7}.node.min{background:#fbe3d0}.node.horizon{background:#e8e8e8}
.move{font-size:.72em;color:#444;line-height:1.1}.head{font-size:.72em;white-space:nowrap}
.toggle{font-size:.8em;padding:0 .15em;margin-right:.15em;cursor:pointer}
li.folded>.node .toggle{transform:rotate(-90deg)}
.board{display:grid;grid-template-columns:repeat(3,1.1em);margin:1px auto;width:3.3em}
.board span{border:1px solid #999;height:1.1em;line-height:1.1em;font-weight:bold;
font-size:.9em;background:#fff}
.board span.last{background:#fff3a0}
.window{font-size:.72em;white-space:nowrap;color:#333}
.value{font-weight:bold}.value .q{display:none}
.box{border:1px dashed #777;border-radius:4px;padding:.15em .35em;font-size:.72em;
white-space:nowrap}
.pruned .box{color:#999;border-color:#aaa}
body:not(.replaying) li.pv>.node{border:3px solid #c0392b}
.replaying .node:not(.visited){opacity:.25}
.replaying .node:not(.visited) .window{visibility:hidden}
.replaying .node:not(.exited) .v{display:none}
.replaying .node:not(.exited) .q{display:inline}
.replaying .pruned:not(.cut){visibility:hidden}
.node.current{outline:4px solid #f1c40f;outline-offset:2px;opacity:1}
"""

_SCRIPT = """
(function () {
  var data = JSON.parse(document.getElementById("steps").textContent);
  var steps = data.steps, nodes = {}, pruned = {};
  document.querySelectorAll(".node").forEach(function (n) { nodes[n.dataset.path] = n; });
  document.querySelectorAll(".pruned").forEach(function (p) { pruned[p.dataset.of] = p; });
  var slider = document.getElementById("slider"), text = document.getElementById("step-text");
  var canvas = document.getElementById("canvas"), tree = document.getElementById("tree");
  var play = document.getElementById("play"), header = document.querySelector("header");
  var at = steps.length, timer = null, zoom = 1, READABLE = 0.75;
  function setZoom(z) {  // rounded down, so that a zoom that fits still fits
    zoom = Math.max(0.001, Math.min(2, Math.floor(z * 1000) / 1000));
    tree.style.zoom = zoom;
    tree.classList.toggle("tiny", zoom < 0.2);  // a line is a device pixel at least
  }
  function room() {  // the tree's room, and how much of it the tree takes at this zoom
    var pad = getComputedStyle(canvas);
    var across = parseFloat(pad.paddingLeft) + parseFloat(pad.paddingRight);
    var down = parseFloat(pad.paddingTop) + parseFloat(pad.paddingBottom);
    return {across: (canvas.clientWidth - across) / (canvas.scrollWidth - across),
            down: (window.innerHeight - header.getBoundingClientRect().height - down -
                   (canvas.offsetHeight - canvas.clientHeight)) /
                  tree.getBoundingClientRect().height};
  }
  function fitZoom() {  // the whole tree in the window, however large: shrunk until it fits
    var z = 1;
    for (var tries = 0; tries < 60; tries++) {  // borders and text shrink less than boxes
      setZoom(z);
      canvas.scrollLeft = 0;
      window.scrollTo(0, 0);
      var r = room(), ratio = Math.min(r.across, r.down);
      if (ratio >= 1) return zoom;
      z = zoom * Math.min(ratio * 0.995, 0.97);
    }
    return zoom;
  }
  function openingZoom() {  // as wide as the window, but never so small a board is unreadable
    setZoom(1);
    return Math.max(READABLE, Math.min(1, room().across));
  }
  function unfoldAbove(node) {
    var item = node.closest("li.folded");
    while (item) {
      fold(item, false);
      item = item.parentElement.closest("li.folded");
    }
  }
  function reveal(node) {
    var box = node.getBoundingClientRect(), view = canvas.getBoundingClientRect();
    var top = header.getBoundingClientRect().bottom;
    if (box.left < view.left || box.right > view.right) {
      canvas.scrollLeft += box.left - view.left - (view.width - box.width) / 2;
    }
    if (box.top < top || box.bottom > window.innerHeight) {
      window.scrollBy(0, box.top - top - (window.innerHeight - top - box.height) / 2);
    }
  }
  function show(k) {
    at = Math.max(0, Math.min(steps.length, k));
    document.body.classList.toggle("replaying", at < steps.length);
    Object.keys(nodes).forEach(function (p) {
      nodes[p].classList.remove("visited", "exited", "current");
    });
    Object.keys(pruned).forEach(function (p) { pruned[p].classList.remove("cut"); });
    for (var i = 0; i < at; i++) {
      var s = steps[i];
      if (s.kind === "call") nodes[s.node].classList.add("visited");
      else if (s.kind === "exit") nodes[s.node].classList.add("exited");
      else if (pruned[s.node]) pruned[s.node].classList.add("cut");
    }
    slider.value = at;
    if (at === 0) {
      text.textContent = "Step 0 of " + steps.length + ": press next (or the right arrow) " +
        "to start the search at the root, or play.";
      return;
    }
    var last = steps[at - 1], node = nodes[last.node];
    node.classList.add("current");
    text.textContent = "Step " + at + " of " + steps.length + ": " + last.text + "." +
      (at === steps.length ? " The search is done; the chosen line has a red border." : "");
    unfoldAbove(node);
    reveal(node);
  }
  function pause() {
    if (timer !== null) clearInterval(timer);
    timer = null;
    play.setAttribute("aria-pressed", "false");
    play.innerHTML = "&#9654; play";
  }
  function start() {
    if (at >= steps.length) show(0);
    play.setAttribute("aria-pressed", "true");
    play.innerHTML = "&#10074;&#10074; pause";
    timer = setInterval(function () {
      show(at + 1);
      if (at >= steps.length) pause();
    }, data.play_ms);
  }
  function go(k) { pause(); show(k); }
  document.getElementById("first").onclick = function () { go(0); };
  document.getElementById("back").onclick = function () { go(at - 1); };
  document.getElementById("next").onclick = function () { go(at + 1); };
  document.getElementById("last").onclick = function () { go(steps.length); };
  play.onclick = function () { if (timer === null) start(); else pause(); };
  slider.oninput = function () { go(Number(slider.value)); };
  document.getElementById("smaller").onclick = function () { setZoom(zoom / 1.25); };
  document.getElementById("bigger").onclick = function () { setZoom(zoom * 1.25); };
  document.getElementById("fit").onclick = function () { setZoom(fitZoom()); };
  document.addEventListener("keydown", function (e) {
    if (e.target === slider && e.key !== " ") return;
    var to = {ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: steps.length}[e.key];
    if (to !== undefined) { go(to); e.preventDefault(); }
    else if (e.key === " ") { play.click(); e.preventDefault(); }
    else if (e.key === "+" || e.key === "=") setZoom(zoom * 1.25);
    else if (e.key === "-") setZoom(zoom / 1.25);
    else if (e.key === "0") setZoom(fitZoom());
  });
  function fold(item, folded) {
    item.classList.toggle("folded", folded);
    var button = item.querySelector(":scope > .node .toggle");
    if (button) button.setAttribute("aria-expanded", String(!folded));
  }
  document.querySelectorAll(".toggle").forEach(function (button) {
    button.onclick = function () {
      var item = button.closest("li");
      fold(item, !item.classList.contains("folded"));
    };
  });
  document.getElementById("unfold").onclick = function () {
    document.querySelectorAll("li.folded").forEach(function (i) { fold(i, false); });
  };
  document.getElementById("fold").onclick = function () {
    document.querySelectorAll(".tree li li").forEach(function (i) {
      if (i.querySelector(":scope > ul")) fold(i, true);
    });
  };
  setZoom(openingZoom());
  show(steps.length);
})();
"""
