"""A game to click as one self-contained page, for a notebook (`lab.game()`) or a file: every
answer the game can ask for, computed when the page is made by the functions the site's game
asks at each click (`logic/tools/game.py`), so that the page plays with no kernel and no
network. The board and its controls are the site's (`game.js`).

What it holds: for every board the game can reach with this setup (the agent's moves are its
engine's, the human's any), what a click on each cell makes of it; each move's value where
the human is to move; and the page of the search of each of the agent's moves (`tree_html`),
all the pages in one deflated string, inflated by the browser on the first click.
"""

from __future__ import annotations

import base64
import json
import zlib
from html import escape
from importlib import resources
from typing import Any

from minimax_lab.logic.engines import Engine
from minimax_lab.logic.state import SIZE
from minimax_lab.logic.tools import game
from minimax_lab.logic.tools.game import Setup
from minimax_lab.logic.tools.tree_html import tree_html

POLICY = ("default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
          "img-src data:; frame-src about: data:")
"""The page's Content-Security-Policy: its own inline script and style, nothing fetched."""


def game_script() -> str:
    """The board and its controls, shared with the site's game page."""
    return (resources.files("minimax_lab.logic.tools") / "game.js").read_text(encoding="utf-8")


def game_table(setup: Setup, engine: Engine) -> dict[str, Any]:
    """Every answer of the game: `turns` (each distinct one once), `at` (for each board
    reached, the turn a click on each cell 1..9 makes), `values` (where the human moves),
    `searches` (for each board the agent moved from, its page's number) and `pages`."""
    turns: list[dict[str, Any]] = []
    numbers: dict[str, int] = {}

    def numbered(turn: game.Turn) -> int:
        text = json.dumps(turn.to_json(), sort_keys=True)
        if text not in numbers:
            numbers[text] = len(turns)
            turns.append(turn.to_json())
        return numbers[text]

    opening = game.start(setup, engine)
    at: dict[str, list[int]] = {}
    values: dict[str, Any] = {}
    searched: dict[str, int] = {}
    pages: list[str] = []
    waiting = [opening]
    while waiting:
        turn = waiting.pop()
        if turn.agent_from is not None and turn.agent_from not in searched:
            searched[turn.agent_from] = len(pages)
            pages.append(tree_html(game.search(setup, turn.agent_from)))
        if turn.error is not None or turn.state in at:
            continue
        clicks = [game.click(setup, engine, turn.state, cell) for cell in range(1, SIZE + 1)]
        at[turn.state] = [numbered(made) for made in clicks]
        if turn.to_move is not None:
            values[turn.state] = game.values(setup, engine, turn.state)
        waiting += [made for made in clicks if made.error is None]
    return {"setup": setup.described(), "start": numbered(opening), "turns": turns, "at": at,
            "values": values, "searches": searched, "pages": _deflated("\0".join(pages))}


def _deflated(text: str) -> str:
    return base64.b64encode(zlib.compress(text.encode("utf-8"), 9)).decode("ascii")


def game_html(setup: Setup, engine: Engine) -> str:
    """The whole page."""
    data = json.dumps(game_table(setup, engine)).replace("</", "<\\/")
    return _PAGE.format(policy=POLICY, title=escape(setup.described()),
                        data=data, game=game_script(), script=_SCRIPT)


def game_html_frame(setup: Setup, engine: Engine) -> str:
    """The page inside an `<iframe>` of its own, for a notebook: its script runs there, apart
    from the notebook's."""
    return ('<iframe title="a game against the agent" sandbox="allow-scripts" '
            'style="width:100%;box-sizing:border-box;height:760px;border:1px solid #ccc" '
            f'srcdoc="{escape(game_html(setup, engine), quote=True)}"></iframe>')


_SCRIPT = """
const table = JSON.parse(document.getElementById("table").textContent);
let pages = null;
const turn = (number) => table.turns[number];
async function inflated() {
  const bytes = Uint8Array.from(atob(table.pages), (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"));
  return (await new Response(stream).text()).split("\\0");
}
const brain = {
  start: async () => ({...turn(table.start), setup: table.setup}),
  click: async (state, cell) => turn(table.at[state][cell - 1]),
  values: async (state) => table.values[state],
  search: async (state) => {
    pages = pages || await inflated();
    const page = pages[table.searches[state]];
    const frame = document.createElement("iframe");
    frame.setAttribute("sandbox", "allow-scripts");
    frame.title = "the search of the agent's last move";
    frame.srcdoc = page;
    return {html: frame.outerHTML};
  },
};
playGame(document.getElementById("game"), brain).newGame();
"""

_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{policy}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title></head>
<body style="font-family:sans-serif">
<div id="game"></div>
<script type="application/json" id="table">{data}</script>
<script>{game}</script>
<script>{script}</script>
</body></html>
"""
