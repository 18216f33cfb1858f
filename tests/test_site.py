"""The site (`minimax-lab site DIR`) in headless Chromium, served from loopback, the network
cut off once a page has loaded: its top level answers as `minimax-lab query` does, its stepper
steps to the end, and its check judges students' files as `grade` does (docs/site.md)."""

from __future__ import annotations

import functools
import http.server
import json
import re
import shutil
import threading
import time
from pathlib import Path

import pytest

from minimax_lab.compare.grader.config import WorkLimits
from minimax_lab.compare.grader.hosted import Sample
from minimax_lab.compare.grader.interface import Options
from minimax_lab.compare.grader.prolog import Judged, judged_questions
from minimax_lab.compare.grader.prolog_interface import PrologInterface
from minimax_lab.compare.grader.run import grade_submission
from minimax_lab.logic import api
from minimax_lab.logic.commands.cli import main
from minimax_lab.logic.site.build import SiteError, build_site
from minimax_lab.logic.site.parts import PartError
from minimax_lab.logic.state import marks_made, result
from minimax_lab.logic.tools.tree_html import step_texts

SUBMISSIONS = Path(__file__).parent / "submissions"
START_SECONDS = 180
"""Bound on a page's start (Pyodide, the lab's Python, SWI-Prolog) on a loaded machine."""
ANSWER_SECONDS = 240
"""Bound on one answer or one check in the page."""


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The site, written once; skipped when its pinned parts cannot be fetched."""
    folder = tmp_path_factory.mktemp("site") / "www"
    try:
        build_site(folder)
    except PartError as error:
        pytest.skip(f"the site's parts cannot be fetched: {error}")
    return folder


@pytest.fixture(scope="module")
def served(site):
    """The site on a loopback static server (as any static host serves it); its address."""
    handler = functools.partial(_Quiet, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - http.server's name
        pass


def open_offline(driver, url: str) -> None:
    """Open `url`, wait until its worker is ready, then cut the network off."""
    driver.get_log("performance")
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    driver.get(url)
    wait_for(driver, lambda: state(driver) in ("ready", "failed"), START_SECONDS)
    assert state(driver) == "ready", driver.find_element("id", "status").text
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": True, "latency": 0, "downloadThroughput": 0, "uploadThroughput": 0})


def state(driver) -> str:
    return driver.find_element("id", "status").get_attribute("data-state")


def wait_for(driver, condition, seconds: float) -> None:
    """Wait until `condition()` holds, at most `seconds`."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"waited {seconds} s; the page says: "
                        f"{driver.find_element('id', 'status').text}")
        time.sleep(0.2)


def requested(driver) -> list[str]:
    """The addresses the page asked for since it was opened."""
    messages = [json.loads(entry["message"])["message"] for entry in
                driver.get_log("performance")]
    return [message["params"]["request"]["url"] for message in messages
            if message["method"] == "Network.requestWillBeSent"]


# --- building ----------------------------------------------------------------------------------


def test_the_site_is_plain_files_with_its_pinned_parts(site):
    described = json.loads((site / "site.json").read_text())
    assert described["parts"] == {"pyodide": "0.29.3", "swipl-wasm": "8.0.5",
                                  "pyDatalog": "0.22.4"}
    for page in ("index.html", "check.html"):
        text = (site / page).read_text()
        assert "http://" not in text and "https://" not in text  # nothing from elsewhere
    assert (site / "pyodide" / "pyodide.asm.wasm").stat().st_size > 1e6
    assert (site / "swipl" / "swipl-web.wasm").stat().st_size > 1e6


def test_a_folder_holding_other_files_is_refused(tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("mine")
    assert main(["site", str(tmp_path)]) == 2
    assert "is not empty and holds no site" in capsys.readouterr().err
    assert (tmp_path / "notes.txt").read_text() == "mine"
    with pytest.raises(SiteError):
        build_site(tmp_path / "notes.txt")


# --- the top level and the pictures --------------------------------------------------------

GOALS = (
    "minimax_decision([o,-,x,-,-,-,-,-,-], x, A, V).",
    "minimax_decision([x,o,x,o,x,o,-,-,-], o, Action, Value).",
    "successor([o,x,x,o,x,o,-,-,-], o, S).",
    "terminal_state([x,x,x,o,o,-,-,-,-], o, V).",
    "max_value([x,o,-,-,x,-,-,-,o], x, SV).",
    "terminal_state([x,-,-,-,-,-,-,-,-], x, V).",
    "minimax_decision([x,x,x,o,o,-,-,-,-], o, A, V).",
    "foo(.",
    "X is 6 * 7.",
)


@pytest.fixture(scope="module")
def top_level(browser, served):
    open_offline(browser, f"{served}/index.html")
    return browser


def ask(driver, goal: str, engine: str = "logic") -> str:
    """Ask `goal` at the page's top level; what the transcript shows for it."""
    driver.find_element("css selector", f'#engine option[value="{engine}"]').click()
    before = len(driver.find_elements("css selector", "#transcript > div"))
    field = driver.find_element("id", "goal")
    field.clear()
    field.send_keys(goal)
    driver.find_element("id", "run").click()
    wait_for(driver, lambda: state(driver) == "ready" and len(
        driver.find_elements("css selector", "#transcript > div")) > before + 1, ANSWER_SECONDS)
    shown = driver.find_elements("css selector", "#transcript > div")[before:]
    assert shown[0].text == f"?- {goal}"
    return "\n".join(line.get_attribute("textContent") for line in shown[1:])


@pytest.mark.parametrize("engine", ["logic", "reference"])
def test_the_top_level_answers_as_the_command_line(top_level, capsys, engine):
    for goal in GOALS:
        status = main(["query", goal, "--engine", engine])
        printed = capsys.readouterr()
        expected = (printed.out + printed.err).rstrip("\n")
        assert status in (0, 1, 2)
        assert ask(top_level, goal, engine) == expected, goal


def test_halt_says_the_page_goes_on(top_level):
    assert ask(top_level, "halt.") == ("% halt. ends the command line's top level; "
                                        "this page's goes on")
    assert ask(top_level, "X is 6 * 7.") == "X = 42."


def test_goals_asked_one_after_another_keep_their_answers_under_them(top_level, capsys):
    """A goal asked while the one before is still being answered gets its own answers below it,
    not below the goal asked last."""
    goals = ("minimax_decision([-,-,-,-,-,-,-,-,-], x, A, V).", "X is 2+3.")
    expected = []
    for goal in goals:
        main(["query", goal, "--engine", "reference"])
        expected += [f"?- {goal}", capsys.readouterr().out.rstrip("\n")]
    top_level.find_element("css selector", '#engine option[value="reference"]').click()
    before = len(top_level.find_elements("css selector", "#transcript > div"))
    field = top_level.find_element("id", "goal")
    for goal in goals:  # the second is sent before the first is answered
        field.clear()
        field.send_keys(goal)
        top_level.find_element("id", "run").click()
    wait_for(top_level, lambda: state(top_level) == "ready" and len(
        top_level.find_elements("css selector", "#transcript > div")) >= before + 4,
        ANSWER_SECONDS)
    shown = top_level.find_elements("css selector", "#transcript > div")[before:]
    assert [line.get_attribute("textContent") for line in shown] == expected


def test_nothing_left_the_machine_from_the_top_level(top_level, served):
    ask(top_level, "minimax_decision([o,-,x,-,-,-,-,-,-], x, A, V).")
    assert all(url.startswith(served) for url in requested(top_level))


def test_the_stepper_steps_to_the_end(top_level, monkeypatch):
    driver = top_level
    # no Graphviz in a browser
    monkeypatch.setattr("minimax_lab.logic.tools.tree_dot.measure", lambda dot: None)
    field = driver.find_element("id", "position")
    field.clear()
    field.send_keys("ox-xo----")
    driver.find_element("css selector", "#player option[value='o']").click()
    driver.find_element("id", "view-tree").click()
    wait_for(driver, lambda: driver.find_elements("css selector", "#view iframe"), ANSWER_SECONDS)
    steps = step_texts(api.tree("ox-xo----", "o").tree)  # as a notebook draws it
    driver.switch_to.frame(driver.find_element("css selector", "#view iframe"))
    try:
        driver.find_element("id", "first").click()
        for number in range(1, len(steps) + 1):
            driver.find_element("id", "next").click()
            text = driver.find_element("id", "step-text").text
            assert f"Step {number} of {len(steps)}" in text and steps[number - 1] in text
    finally:
        driver.switch_to.default_content()


SHOWN = {
    "board": lambda: [api.board("o-x------", "x").caption()],
    "explain": lambda: [line for line in api.explain("o-x------", "x").text().splitlines()
                        if "|" not in line and "+" not in line],  # the grid: a table there
    "trace": lambda: api.trace("o-x------", "x").text().splitlines()[:20],
}
"""What the notebook shows of each picture of `o-x------`, x to move, as text."""


@pytest.mark.parametrize("kind", SHOWN)
def test_the_pictures_are_the_notebooks(top_level, kind):
    driver = top_level
    field = driver.find_element("id", "position")
    field.clear()
    field.send_keys("o-x------")
    driver.find_element("css selector", "#player option[value='x']").click()
    driver.execute_script("document.getElementById('view').innerHTML = ''")
    driver.find_element("id", f"view-{kind}").click()
    wait_for(driver, lambda: state(driver) == "ready" and driver.find_element(
        "id", "view").get_property("innerHTML") not in ("", "working..."), ANSWER_SECONDS)
    visible = driver.find_element("id", "view").get_property("textContent")
    for line in SHOWN[kind]():
        assert line.strip() in visible, line
    if kind == "board":
        assert driver.find_elements("css selector", "#view svg")


def test_a_long_answer_can_be_stopped_and_the_top_level_goes_on(top_level):
    driver = top_level
    field = driver.find_element("id", "goal")
    field.clear()
    field.send_keys("between(1, 3000000, X), X < 0.")  # seconds on the command line
    driver.find_element("id", "run").click()
    wait_for(driver, lambda: state(driver) == "busy", 10)
    driver.find_element("id", "stop").click()
    wait_for(driver, lambda: "stopped" in driver.find_element("id", "transcript").get_property(
        "textContent"), 10)
    wait_for(driver, lambda: state(driver) == "ready", START_SECONDS)  # afresh, offline
    assert ask(driver, "X is 6 * 7.") == "X = 42."


# --- check my lab --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def check_page(browser, served):
    open_offline(browser, f"{served}/check.html")
    return browser


def check(driver, name: str, sample: int = 20, text: str | None = None) -> dict:
    """Paste a submission (or `text`) into the check and run it; its summary and report."""
    driver.execute_script("document.getElementById('source').value = arguments[0];"
                          "document.getElementById('file').value = '';"
                          "document.getElementById('summary').textContent = '';",
                          text if text is not None else (SUBMISSIONS / name).read_text())
    driver.find_element("css selector", f"#sample option[value='{sample}']").click()
    driver.find_element("id", "check").click()
    wait_for(driver, lambda: driver.find_element("id", "summary").text
             or "stopped" in driver.find_element("id", "report").text, ANSWER_SECONDS)
    return {"summary": driver.find_element("id", "summary").text,
            "right": driver.find_element("id", "summary").get_attribute("data-right"),
            "report": driver.find_element("id", "report").text}


def test_the_page_says_nothing_leaves_the_machine(check_page):
    note = check_page.find_element("css selector", ".note").text
    assert "Nothing leaves your machine" in note and "not your grade" in note


@pytest.mark.slow
def test_the_labs_solution_is_right_everywhere_checked(check_page, served):
    checked = check(check_page, "lab_style.pl")
    assert checked["right"] == "true", checked["report"]
    for predicate in ("terminal_state", "max_value", "min_value"):
        assert f"{predicate} 20/20" in checked["summary"]
    # judged on its own clauses, as grade is, and the whole program on a sample besides
    assert "judged: on its own clauses" in checked["report"]
    whole = re.search(r"end to end: (\d+) of (\d+) right", checked["report"])
    assert whole is not None and whole[1] == whole[2] and int(whole[2]) > 0, checked["report"]
    asked = re.search(r"minimax_decision (\d+)/(\d+)", checked["summary"])
    assert asked is not None and asked[1] == asked[2] == str(20 + int(whole[2]))
    assert all(url.startswith(served) for url in requested(check_page))


TYPICAL_BUGS = ("min_moves_agent", "no_draw", "wrong_side", "no_guard", "last_optimal")
"""The corpus's typical bugs (loops.pl, the looping one, is below)."""


def graded_here(name: str):
    """`grade`'s grade of a file of the corpus, on the command line's grader, judged on its own
    clauses (the fullest boards first, within a small budget: their faults come early)."""
    options = Options(PrologInterface(judged="clauses", end_to_end=0), PrologInterface.checks,
                      budget_seconds=300, work=WorkLimits(budget_ratio=0.005))
    return grade_submission(name, SUBMISSIONS / f"{name}.pl", options)


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("swipl") is None, reason="grade's side needs swipl")
@pytest.mark.parametrize("name", TYPICAL_BUGS)
def test_each_typical_bug_lands_in_its_predicate_as_grade_says(check_page, name):
    checked = check(check_page, f"{name}.pl")
    assert checked["right"] == "false"
    report = checked["report"]
    here = set(re.findall(r"first wrong call: (\w+)\(", report))
    graded = graded_here(name)
    said = {result.first_wrong.call.asked.split("(")[0]
            for result in graded.checks.values() if result.first_wrong is not None}
    assert here and here <= said, (report, said)
    if graded.hypotheses:
        assert "this looks like " in report  # grade's known bug


@pytest.mark.slow
@pytest.mark.parametrize("name, said", [
    ("halts.pl", "No permission to halt program"),
    ("loops.pl", "no answer within the inference limit")])
def test_a_file_that_halts_or_loops_ends_with_a_message(check_page, name, said):
    checked = check(check_page, name)
    assert checked["right"] == "false"
    assert said in checked["report"]
    assert state(check_page) == "ready"
    assert check(check_page, "lab_style.pl")["right"] == "true"  # and the page goes on


@pytest.mark.slow
def test_a_file_whose_loading_never_ends_is_stopped_and_the_page_goes_on(check_page):
    driver = check_page
    driver.execute_script("document.getElementById('source').value = arguments[0];",
                          ":- repeat, fail.\nterminal_state(_, _, 0).\n")
    driver.find_element("id", "check").click()
    wait_for(driver, lambda: state(driver) == "busy", 10)
    time.sleep(2)
    driver.find_element("id", "stop").click()
    wait_for(driver, lambda: "stopped" in driver.find_element("id", "report").text, 10)
    wait_for(driver, lambda: state(driver) == "ready", START_SECONDS)  # afresh, offline
    checked = check(driver, "lab_style.pl")
    assert checked["right"] == "true", checked["report"]
    assert "best value" in driver.find_element("id", "log").get_property("textContent")


@pytest.mark.parametrize("per_check", [9, 20, 40])
def test_the_sample_asks_every_kind_of_board_and_no_more_than_asked(per_check):
    """The check's sample takes `per_check` questions of each check, a kind of board at a time
    (blanks, won, drawn or open), so a drawn full board, rare among them, is always asked."""
    asked = judged_questions(("terminal_state", "max_value"), Judged.CLAUSES, 1)
    chosen = Sample(per_check).select(asked)
    for check in ("terminal_state", "max_value"):
        mine = [question for question in chosen if question.check == check and not question.sample]
        assert len(mine) == per_check == len(set(mine))
        assert all(marks_made(question.state) >= 2 for question in mine)
    drawn = [question for question in chosen
             if question.check == "terminal_state" and result(question.state) == "draw"]
    assert drawn
    assert [question for question in chosen if question.sample] == [
        question for question in asked if question.sample and marks_made(question.state) >= 2]
    order = {question: number for number, question in enumerate(asked)}
    assert [order[question] for question in chosen] == sorted(order[q] for q in chosen)
