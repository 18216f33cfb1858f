"""The site's game (game.html, docs/site.md): the Python its page asks at each click, and the
page in headless Chromium, served from loopback with the network cut off once it has loaded,
clicked to its end against each mode, the agent's moves (computed in the browser, in Pyodide)
checked against the reference engine's decisions computed here."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_game import MODES, agent_cell, play_to_the_end, settled
from test_site import open_offline, requested, served, site  # noqa: F401

from minimax_lab.logic.site import browser as site_python
from minimax_lab.logic.state import EMPTY, mark
from minimax_lab.logic.tools.game import Setup
from minimax_lab.logic.tools.game_html import game_script

CLICK_SECONDS = 240
"""Bound on one answer in the page (a search in Pyodide, on a loaded machine)."""


def fields(setup: Setup, engine: str = "reference") -> str:
    return json.dumps({"human": setup.human, "first": setup.first, "mode": setup.mode,
                       "scoring": setup.scoring, "depth": setup.depth, "search": setup.search,
                       "engine": engine})


# --- the Python the page asks ---------------------------------------------------------------------

def test_a_click_is_answered_with_the_references_decision():
    setup = MODES["lose"]
    turn = json.loads(site_python.game_click(fields(setup), EMPTY, 5))
    after = mark(EMPTY, 5, setup.human)
    assert turn["state"] == mark(after, agent_cell(setup, after), setup.agent)
    assert turn["agent_from"] == after


def test_a_new_game_says_its_setup_and_the_agent_opens_when_asked():
    setup = Setup(human="o", first="agent", mode="lose")
    turn = json.loads(site_python.game_start(fields(setup)))
    assert turn["setup"] == setup.described()
    assert turn["state"] == mark(EMPTY, agent_cell(setup, EMPTY), "x")


def test_the_values_and_the_search_are_drawn_for_the_board_given():
    setup = MODES["depth-limited"]
    shown = json.loads(site_python.game_values(fields(setup), "----x----"))
    assert shown["best"] in range(1, 10) and "5" not in shown["values"]
    page = json.loads(site_python.game_search(fields(setup), "----x----"))["html"]
    assert page.startswith("<iframe") and "minimax below ----x----, o to move" in page


@pytest.mark.parametrize(("setup", "said"), [
    ("[]", "a game's setup is a JSON object"),
    ("not json", "a game's setup is a JSON object"),
    ('{"engine": "prolog"}', "unknown engine 'prolog'; the engines are logic, reference"),
    ('{"engine": "logic", "depth": 2}', "looking 2 plies ahead needs the reference engine: the "
                                        "logic engine looks to the end of the game only"),
    ('{"first": "both"}', "the game is opened by human or agent, not 'both'"),
])
def test_a_setup_the_page_cannot_play_is_one_line(setup, said):
    answer = json.loads(site_python.game_click(setup, EMPTY, 5))
    assert answer["error"].startswith(said) and "\n" not in answer["error"]


@settings(max_examples=40, deadline=None)
@given(st.one_of(st.text(max_size=12), st.none(), st.integers()),
       st.one_of(st.integers(-1, 10), st.text(max_size=2), st.none()))
def test_any_board_and_click_the_page_sends_is_played_or_refused_in_one_line(state, cell):
    answer = json.loads(site_python.game_click(fields(Setup(depth=1)), state, cell))
    assert set(answer) == {"error"} and "\n" not in answer["error"] or answer["state"]


def test_the_site_ships_the_notebooks_board(site):  # noqa: F811
    assert (site / "game.js").read_text(encoding="utf-8") == game_script()
    assert "game.html" in (site / "index.html").read_text(encoding="utf-8")


# --- clicked in a browser -------------------------------------------------------------------------

@pytest.fixture(scope="module")
def game_page(browser, served):  # noqa: F811
    open_offline(browser, f"{served}/game.html")
    return browser


def choose(driver, setup: Setup) -> None:
    """Set the page's form to `setup` and start a new game."""
    values = {"human": setup.human, "first": setup.first, "mode": setup.mode,
              "scoring": setup.scoring, "depth": "" if setup.depth is None else str(setup.depth),
              "engine": "reference", "search": setup.search}
    for name, value in values.items():
        driver.find_element("css selector", f'#{name} option[value="{value}"]').click()
    driver.find_element("id", "game-new").click()


@pytest.mark.slow
@pytest.mark.parametrize("name", MODES)
def test_the_sites_game_is_clicked_to_its_end_against_each_mode(game_page, served, name):  # noqa: F811
    driver = game_page
    setup = MODES[name]
    choose(driver, setup)
    play_to_the_end(driver, setup, seed=len(name), seconds=CLICK_SECONDS)
    driver.find_element("id", "game-search").click()
    settled(driver, CLICK_SECONDS)
    assert driver.find_elements("css selector", "#game-view iframe")
    assert all(url.startswith(served) for url in requested(driver))
