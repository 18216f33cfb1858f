"""A game to click (logic/tools/game.py): each click's turn, refusals that leave the game as it
was, the notebook's page of every answer (`lab.game()`), and that page clicked to the end in
headless Chromium against each mode, the agent's moves checked against the reference engine's
decisions computed here."""

from __future__ import annotations

import json
import random
import time

import pytest
from boards import board
from hypothesis import given, settings
from hypothesis import strategies as st

from minimax_lab.logic import api
from minimax_lab.logic.engines import make_engine
from minimax_lab.logic.engines.search import SearchEngine
from minimax_lab.logic.state import BLANK, EMPTY, SIZE, mark, result
from minimax_lab.logic.tools import game
from minimax_lab.logic.tools.game import Setup, SetupError, setup_from
from minimax_lab.logic.tools.game_html import game_table

# x (the human) to move; cell 5 taken by x, cell 1 by o.
OPENED = board("""
    o - -
    - x -
    - - -
""")
# o has won along the top row.
WON = board("""
    o o o
    - x -
    x - x
""")

MODES = {
    "win": Setup(),
    "lose": Setup(mode="lose"),
    "depth-limited": Setup(depth=2),
}
"""A setup of each mode the agent plays: to win, to lose, a few plies ahead."""
CHEAP = {"depth-limited"}
"""The modes whose page the default run clicks through (the others' take seconds to make)."""


def reference_for(setup: Setup):
    """The reference engine, fresh, for the setup's objective and depth: the judge here."""
    if setup.depth is None:
        return make_engine("reference", setup.objective)
    return SearchEngine(setup.objective, "minimax", setup.depth)


def agent_cell(setup: Setup, state: str) -> int:
    decision = reference_for(setup).minimax_decision(state, setup.agent)
    assert decision is not None
    return decision.action.cell


# --- a click's turn -------------------------------------------------------------------------------

@pytest.mark.parametrize("name", MODES)
def test_a_click_is_played_and_the_agent_replies_with_the_references_decision(name):
    setup = MODES[name]
    engine = api.get_engine("reference", setup.objective, depth=setup.depth)
    opened = game.start(setup, engine)
    assert opened.state == EMPTY and opened.to_move == setup.human and opened.said == ()
    turn = game.click(setup, engine, EMPTY, 5)
    before = mark(EMPTY, 5, setup.human)
    assert turn.state == mark(before, agent_cell(setup, before), setup.agent)
    assert turn.agent_from == before and turn.to_move == setup.human
    assert turn.said[0] == f"{setup.human} plays 5."
    assert turn.said[1].startswith(f"{setup.agent} plays {agent_cell(setup, before)}")


def test_the_agent_opens_when_it_is_asked_to():
    setup = Setup(human="o", first="agent")
    opened = game.start(setup, api.get_engine("reference", setup.objective))
    assert opened.agent_from == EMPTY
    assert opened.state == mark(EMPTY, agent_cell(setup, EMPTY), "x")
    assert opened.to_move == "o"


@pytest.mark.parametrize(("state", "cell", "said"), [
    (OPENED, 5, "cell 5 is taken by x; choose a blank cell"),
    (OPENED, 1, "cell 1 is taken by o; choose a blank cell"),
    (OPENED, 0, "there is no cell '0'; the cells are 1 to 9"),
    (OPENED, "5", "there is no cell '5'; the cells are 1 to 9"),
    (WON, 4, "the game is over (o wins): start a new game to play again"),
])
def test_a_click_that_cannot_be_played_is_refused_in_one_line(state, cell, said):
    setup = Setup()
    turn = game.click(setup, api.get_engine("reference", setup.objective), state, cell)
    assert turn.error == said and turn.to_json() == {"error": said}


def test_a_click_on_the_agents_turn_is_refused():
    setup = Setup(first="agent")
    turn = game.click(setup, api.get_engine("reference", setup.objective), EMPTY, 5)
    assert turn.error == "it is o's move, not yours"


def test_the_last_move_ends_the_game_with_its_result():
    setup = Setup(human="o", first="agent")
    state = board("x o x / x o o / - x -")  # o to move; o at 8 is taken, 7 and 9 are open
    turn = game.click(setup, api.get_engine("reference", setup.objective), state, 7)
    assert turn.result == result(turn.state) and turn.to_move is None
    assert turn.said[-1] == f"Result: {turn.result}."


def test_each_moves_value_is_explains():
    setup = Setup(scoring="lab")
    shown = game.values(setup, api.get_engine("reference", setup.objective), OPENED)
    explained = api.explain(OPENED, "x")
    assert shown["best"] == explained.decision
    assert shown["values"] == {str(cell): ("+" if value > 0 else "") + str(value)
                               for cell, value in explained.values.items()}


def test_the_search_of_the_agents_move_is_the_trees():
    setup = Setup(search="alphabeta", depth=3)
    drawn = game.search(setup, OPENED)
    assert drawn.search == "alphabeta" and drawn.depth == 3 and drawn.player == "o"
    assert drawn.plies == game.SEARCH_PLIES


def test_a_board_the_setup_cannot_reach_is_refused():
    with pytest.raises(ValueError, match="o opens it"):
        game.board_of(Setup(first="agent"), "----x----")
    with pytest.raises(ValueError, match="illegal state"):
        game.board_of(Setup(), "xxx------")


@pytest.mark.parametrize(("fields", "said"), [
    ({"human": "y"}, "you play x or o, not 'y'"),
    ({"first": "nobody"}, "the game is opened by human or agent, not 'nobody'"),
    ({"mode": "draw"}, "unknown mode 'draw'; the modes are win, lose"),
    ({"depth": 0}, "the agent searches 1 to 8 plies deep, or to the end, not '0'"),
    ({"depth": "2"}, "the agent searches 1 to 8 plies deep, or to the end, not '2'"),
    ({"colour": "red"}, "unknown setting 'colour'"),
    ({"human": 1}, "human is a word, not '1'"),
])
def test_a_setup_that_cannot_be_played_is_one_line(fields, said):
    with pytest.raises(SetupError if "mode" not in fields else ValueError) as raised:
        setup_from(fields)
    assert str(raised.value).startswith(said) and "\n" not in str(raised.value)


@settings(max_examples=30, deadline=None)
@given(st.dictionaries(st.sampled_from(["human", "first", "mode", "scoring", "depth", "search",
                                        "other"]),
                       st.one_of(st.none(), st.integers(-3, 12), st.text(max_size=8),
                                 st.sampled_from(["x", "o", "human", "agent", "win", "lose",
                                                  "lab", "depth", "minimax"]))))
def test_any_setup_is_played_or_refused_in_one_line(fields):
    try:
        setup = setup_from(fields)
    except ValueError as error:
        assert str(error) and "\n" not in str(error)
    else:
        assert setup.agent != setup.human


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet="xo-", min_size=SIZE, max_size=SIZE),
       st.one_of(st.integers(-2, 12), st.text(max_size=3), st.none()))
def test_any_click_on_any_board_is_played_or_refused_in_one_line(state, cell):
    setup = Setup(depth=1)
    engine = api.get_engine("reference", setup.objective, depth=1)
    try:
        known = game.board_of(setup, state)
    except ValueError as error:
        assert "\n" not in str(error)
        return
    turn = game.click(setup, engine, known, cell)
    if turn.error is not None:
        assert "\n" not in turn.error
    else:
        assert turn.state[cell - 1] == setup.human and known[cell - 1] == BLANK


# --- the notebook's page --------------------------------------------------------------------------

def test_the_table_answers_every_click_on_every_board_the_game_reaches():
    setup = MODES["depth-limited"]
    engine = api.get_engine("reference", setup.objective, depth=setup.depth)
    table = game_table(setup, engine)
    assert table["turns"][table["start"]]["state"] == EMPTY
    for state, made in table["at"].items():
        assert len(made) == SIZE
        for cell, number in enumerate(made, start=1):
            assert table["turns"][number] == game.click(setup, engine, state, cell).to_json()
    human_boards = {state for state, made in table["at"].items()
                    if setup.to_move(state) == setup.human}
    assert set(table["values"]) == human_boards
    agent_moves = {turn["agent_from"] for turn in table["turns"] if turn.get("agent_from")}
    assert set(table["searches"]) == agent_moves


def test_a_game_prints_its_setup_and_saves_as_a_page(tmp_path):
    played = api.game(human="o", first="agent", depth=1)
    assert str(played).startswith("You play o; the agent plays x, to win (depth scoring), "
                                  "looking 1 ply ahead; x opens.")
    page = played.save(tmp_path / "game.html").read_text(encoding="utf-8")
    assert "Content-Security-Policy" in page and "playGame(" in page


def test_a_game_of_bad_options_is_one_line():
    with pytest.raises(ValueError, match="^unknown mode 'draw'"):
        api.game(mode="draw")
    with pytest.raises(ValueError, match="only the reference engine searches to a depth"):
        api.game(engine="logic", depth=2)


# --- clicked in a browser -------------------------------------------------------------------------

CLICK_SECONDS = 30


def shown(driver) -> dict:
    """The game as the page shows it: the board's data, the message, the moves in words."""
    return driver.execute_script("""
        const board = document.getElementById('game-board');
        if (!board) return null;
        return {state: board.dataset.state, toMove: board.dataset.toMove,
                result: board.dataset.result, busy: board.dataset.busy,
                error: document.getElementById('game-error').textContent,
                said: [...document.querySelectorAll('#game-said li')].map(li => li.textContent),
                cells: [...document.querySelectorAll('.game-cell')].map(c => c.textContent)};""")


def settled(driver, seconds: float = CLICK_SECONDS) -> dict:
    """The game once the page is not waiting for an answer (at most `seconds`)."""
    deadline = time.monotonic() + seconds
    while True:
        now = shown(driver)
        if now is not None and now["busy"] == "false" and now["state"]:
            return now
        if time.monotonic() > deadline:
            pytest.fail(f"the game did not settle in {seconds} s: {now}")
        time.sleep(0.1)


def click(driver, cell: int, seconds: float = CLICK_SECONDS) -> dict:
    driver.find_element("id", f"game-cell-{cell}").click()
    return settled(driver, seconds)


def play_to_the_end(driver, setup: Setup, seed: int, seconds: float = CLICK_SECONDS) -> dict:
    """Click a game to its end, the human's cells drawn at random (with `seed`), a taken cell
    clicked before each move; each of the agent's moves checked against the reference."""
    chooser = random.Random(seed)
    now = settled(driver, seconds)
    while not now["result"]:
        state = now["state"]
        taken = [cell for cell in range(1, SIZE + 1) if state[cell - 1] != BLANK]
        if taken:
            refused = click(driver, chooser.choice(taken), seconds)
            assert refused["state"] == state and "is taken by" in refused["error"]
        cell = chooser.choice([cell for cell in range(1, SIZE + 1) if state[cell - 1] == BLANK])
        now = click(driver, cell, seconds)
        after = mark(state, cell, setup.human)
        assert now["error"] == ""
        if result(after) is None:
            assert now["state"] == mark(after, agent_cell(setup, after), setup.agent)
        else:
            assert now["state"] == after
    assert now["said"][-1] == f"Result: {now['result']}."
    ended = click(driver, 1, seconds)  # after the end: refused, the game unchanged
    assert ended["state"] == now["state"] and ended["error"].startswith("the game is over")
    return ended


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """The notebook's page of each mode, written once."""
    folder = tmp_path_factory.mktemp("games")

    def page(name: str):
        path = folder / f"{name}.html"
        if not path.exists():
            setup = MODES[name]
            api.game(setup.human, setup.first, setup.mode, setup.scoring, setup.depth).save(path)
        return path
    return page


def open_page(browser, path) -> None:
    browser.get_log("performance")
    browser.get(path.as_uri())


def clicked_through(browser, pages, name: str) -> None:
    open_page(browser, pages(name))
    ended = play_to_the_end(browser, MODES[name], seed=len(name))
    browser.find_element("id", "game-search").click()
    settled(browser)
    frame = browser.find_element("css selector", "#game-view iframe")
    browser.switch_to.frame(frame)
    try:
        title = browser.find_element("tag name", "h1").text
    finally:
        browser.switch_to.default_content()
    agent_moves = [line for line in ended["said"] if line.startswith(f"{MODES[name].agent} plays")]
    assert title.startswith("minimax below ") and agent_moves
    assert not [url for url in _requested(browser) if not url.startswith(("file:", "about:",
                                                                          "data:"))]


@pytest.mark.parametrize("name", sorted(CHEAP))
def test_the_notebooks_game_is_clicked_to_its_end(browser, pages, name):
    clicked_through(browser, pages, name)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(set(MODES) - CHEAP))
def test_the_notebooks_game_is_clicked_to_its_end_in_every_mode(browser, pages, name):
    clicked_through(browser, pages, name)


def test_the_notebooks_game_shows_each_moves_value_on_demand(browser, pages):
    setup = MODES["depth-limited"]
    open_page(browser, pages("depth-limited"))
    start = settled(browser)
    assert start["cells"] == [""] * SIZE
    browser.find_element("id", "game-values").click()
    valued = settled(browser)
    rated = game.values(setup, api.get_engine("reference", setup.objective, depth=2), EMPTY)
    assert valued["cells"] == [f"[{rated['values'][str(cell)]}]" if cell == rated["best"]
                               else rated["values"][str(cell)] for cell in range(1, SIZE + 1)]
    browser.find_element("id", "game-values").click()
    assert settled(browser)["cells"] == [""] * SIZE


def _requested(driver) -> list[str]:
    messages = [json.loads(entry["message"])["message"] for entry in
                driver.get_log("performance")]
    return [message["params"]["request"]["url"] for message in messages
            if message["method"] == "Network.requestWillBeSent"]

