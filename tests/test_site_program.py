"""A student's own program at the site's top level (docs/site.md, "Your own program at the
top level"): the page's Prolog (`program.pl`) in SWI-Prolog, answering a student's file as the
lab's reference does, refusing halt, stopping a loop at its inference bound, tracing on
request, reading every goal with SWI-Prolog's own reader; then the page in headless Chromium,
its SWI-Prolog the site's own (the network cut off once it has loaded)."""

from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
import time
from importlib import resources
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from keys import Keys
from marks import needs_swipl
from test_site import ANSWER_SECONDS, START_SECONDS, requested, served, site  # noqa: F401

from minimax_lab.logic.commands.cli import main
from minimax_lab.logic.engines import make_engine
from minimax_lab.logic.site.build import tracer_script
from minimax_lab.logic.state import parse_state
from minimax_lab.logic.toplevel.repl import Session
from minimax_lab.logic.toplevel.stepper import OPTIONS, UNKNOWN, help_lines

SUBMISSIONS = Path(__file__).parent / "submissions"
ASSETS = resources.files("minimax_lab.logic.site") / "assets"
HELPER = resources.files("minimax_lab.logic.prolog") / "minimax_helper.pl"
STEPPING = resources.files("minimax_lab.logic.prolog") / "stepping.pl"
PROLOG_SECONDS = 60
"""Bound on one run of `swipl` with the page's Prolog (a load and a few goals)."""
LIMIT = 2_000_000
"""The inference bound the tests give the page's Prolog run natively (the page's is larger)."""
ENDS = {"answered", "consult", "trace", "step", "inferences", "syntax", "error"}

BOARDS = {
    "x to win at once":
        """ x | o | x
            o | x | o
            - | - | - """,
    "o blocks or loses":
        """ x | x | -
            o | - | -
            - | - | - """,
    "a draw ahead":
        """ x | o | x
            x | o | o
            o | x | - """,
}
"""Named positions, x to move, drawn as boards."""
X_HAS_WON = """ x | x | x
                o | o | -
                - | - | - """

DRIVER = """
:- initialization(main, main).
main :-
    current_prolog_flag(argv, [Page, File, Limit, Most | Goals]),
    atom_number(Limit, L), atom_number(Most, M),
    load_files(Page, [silent(true)]),
    page:page_load(File, L, Loaded), format("end: ~w~n", [Loaded]),
    forall(member(Goal, Goals),
           ( atom_string(Goal, Text), page:page_ask(Text, L, M, false, End),
             format("end: ~w~n", [End]) )).
"""
"""Loads a file with the page's Prolog and asks it each goal given, as program-worker.js does."""


def board_list(drawn: str) -> str:
    """The board drawn, as a Prolog list."""
    return "[" + ",".join(re.findall(r"[xo-]", drawn)) + "]"


def reference_value(drawn: str, player: str = "x") -> int:
    return make_engine("reference").max_value(parse_state(board_list(drawn)), player).value


def run_page(tmp_path: Path, program: str, goals: list[str], name: str = "mine.pl"
             ) -> list[tuple[str, str]]:
    """The page's Prolog in `swipl`: `program` loaded (beside the lab's helper), then each goal
    asked; what each printed and how it ended, the load's first."""
    (tmp_path / "driver.pl").write_text(DRIVER)
    (tmp_path / "program.pl").write_text((ASSETS / "program.pl").read_text())
    (tmp_path / "minimax_helper.pl").write_text(HELPER.read_text())
    (tmp_path / "stepping.pl").write_text(STEPPING.read_text())
    (tmp_path / name).write_text(program)
    done = subprocess.run(
        [shutil.which("swipl") or "swipl", "-q", str(tmp_path / "driver.pl"), "--",
         str(tmp_path / "program.pl"), str(tmp_path / name), str(LIMIT), "3", *goals],
        capture_output=False, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        timeout=PROLOG_SECONDS, check=False, cwd=tmp_path)
    said, printed = [], []
    for line in done.stdout.splitlines():
        if line.startswith("end: "):
            said.append(("\n".join(printed), line[5:]))
            printed = []
        else:
            printed.append(line)
    assert len(said) == len(goals) + 1, done.stdout
    return said


# --- the page's Prolog, in swipl ---------------------------------------------------------------

@needs_swipl
def test_a_students_max_value_answers_the_references_value(tmp_path):
    goals = [f"max_value({board_list(drawn)}, x, sv(_, V)), !." for drawn in BOARDS.values()]
    loaded, *answers = run_page(tmp_path, (SUBMISSIONS / "lab_style.pl").read_text(), goals)
    assert loaded == ("", "loaded")
    for (printed, end), drawn in zip(answers, BOARDS.values(), strict=True):
        assert (printed, end) == (f"V = {reference_value(drawn)}.", "answered")


@needs_swipl
def test_halt_in_the_program_or_the_goal_is_refused_and_prolog_goes_on(tmp_path):
    program = "mine(1).\n:- halt.\nmine(2).\nstop :- halt(3).\n"
    loaded, *answers = run_page(tmp_path, program, ["halt.", "stop.", "mine(X)."])
    assert loaded[1] == "loaded" and "No permission to halt" in loaded[0]
    for printed, end in answers[:2]:
        assert end == "error" and "No permission to halt" in printed
    assert answers[2] == ("X = 1 ;\nX = 2.", "answered")  # the rest of the file was loaded


@needs_swipl
def test_shell_in_the_program_or_the_goal_is_refused_in_one_error(tmp_path):
    """shell/1 and shell/2 say the page runs no commands, where WebAssembly's SWI-Prolog
    would fail with a system error and answer true."""
    program = "mine(1).\nrun :- shell('ls', _).\n"
    loaded, *answers = run_page(tmp_path, program, ["shell('ls').", "run.", "mine(X)."])
    assert loaded == ("", "loaded")
    for printed, end in answers[:2]:
        assert end == "error" and "No permission to execute shell" in printed, printed
        assert "runs no commands" in printed
    assert answers[2] == ("X = 1.", "answered")


@needs_swipl
def test_a_goal_that_runs_out_of_memory_says_so_in_one_line_and_prolog_goes_on(tmp_path):
    program = "grow(L) :- length(L, 300000000).\n"  # more than SWI-Prolog's stacks hold
    _, grown, after = run_page(tmp_path, program, ["grow(L).", "X = 1."])
    assert grown == (f"% stopped: the goal ran out of Prolog's memory before {LIMIT:,} "
                     "inferences", "error")
    assert after == ("X = 1.", "answered")


@needs_swipl
def test_an_unknown_predicate_is_named_as_the_top_level_names_it(tmp_path):
    """Not as the page's Prolog calls it (`student:nope/1`, in a `call_cleanup/2` of its own)."""
    _, unknown, after = run_page(tmp_path, "p(1).\n", ["nope(1).", "p(X)."])
    assert unknown == ("ERROR: Unknown procedure: nope/1", "error")
    assert after == ("X = 1.", "answered")


@needs_swipl
def test_a_loop_stops_at_the_inference_bound_and_prolog_goes_on(tmp_path):
    _, looped, after = run_page(tmp_path, "loop :- loop.\n", ["loop.", "X is 6 * 7."])
    assert looped == (f"% stopped: the goal ran past {LIMIT:,} inferences", "inferences")
    assert after == ("X = 42.", "answered")


@needs_swipl
def test_a_program_whose_loading_loops_stops_at_the_bound(tmp_path):
    loaded, after = run_page(tmp_path, ":- repeat, fail.\nmine(1).\n", ["X is 1 + 1."])
    assert loaded[1] == "inferences"
    assert after == ("X = 2.", "answered")


@needs_swipl
def test_trace_then_a_goal_is_stepped_and_only_that_goal(tmp_path):
    goal = f"terminal_state({board_list(X_HAS_WON)}, x, V)."
    _, traced, stepped, again = run_page(
        tmp_path, (SUBMISSIONS / "lab_style.pl").read_text(), ["trace.", goal, goal])
    assert traced == ("% stepping through the next goal\ntrue.", "trace")
    assert stepped == ("", "step")
    assert again[1] == "answered" and again[0].endswith("V = 1.")  # the next goal only


def page_step(tmp_path: Path, program: str, goal: str, keys: list[str]) -> tuple[str, str]:
    """What the page's Prolog prints for `goal` stepped with `keys`, and how it ends."""
    return page_steps(tmp_path, program, goal, [keys])[0]


def page_steps(tmp_path: Path, program: str, goal: str, runs: list[list[str]],
               spied: str = "", mode: str = "creep") -> list[tuple[str, str]]:
    """What the page's Prolog prints for `goal` stepped with the keys of each run, leaping to
    `spied` (as the worker gives them), starting in `mode`; and how each run ends."""
    run_page(tmp_path, program, [])  # the files in place
    asked = ", ".join(f'page:page_step_lines("{",".join(keys)}\\n{spied}\\n{mode}\\n{goal}", '
                      f"{LIMIT}, End{number}), format('end: ~w~n', [End{number}])"
                      for number, keys in enumerate(runs))
    done = subprocess.run(
        [shutil.which("swipl") or "swipl", "-q", "-g",
         f"load_files('program.pl', [silent(true)]), page:page_load('mine.pl', {LIMIT}, _), "
         f"{asked}", "-t", "halt"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=PROLOG_SECONDS,
        check=False, cwd=tmp_path)
    parts = done.stdout.split("end: ")  # each run's end begins the next part's first line
    assert len(parts) == len(runs) + 1, done.stdout
    said = [parts[0]] + [part.split("\n", 1)[1] if "\n" in part else "" for part in parts[1:]]
    ends = [part.split("\n", 1)[0].strip() for part in parts[1:]]
    return [(printed.rstrip("\n"), end) for printed, end in zip(said, ends, strict=False)]


STEPS = "len([], 0).\nlen([_|T], N) :- len(T, M), N is M + 1.\n"


@needs_swipl
def test_after_nodebug_the_next_answers_come_untraced(tmp_path):
    """`n` at a port, then `;` at each answer: the next answers, no Redo port (SWI-Prolog's
    nodebug); crept to the answer instead, `;` shows the Redo port."""
    program = "p(1).\np(2).\np(3).\n"
    runs = [["nodebug", "redo"], ["nodebug", "redo", "redo"], ["creep", "creep", "redo"]]
    assert page_steps(tmp_path, program, "p(X)", runs) == [
        ("X = 2", "answer"), ("X = 3", "answer"), ("   Redo: (1) p(X)", "wait")]


@needs_swipl
def test_a_stepped_goal_waits_at_each_port_then_answers(tmp_path):
    first, end = page_step(tmp_path, STEPS, "len([a], N)", [])
    assert (first, end) == ("   Call: (1) len([a], N)", "wait")  # the goal's own by name
    inner, end = page_step(tmp_path, STEPS, "len([a], N)", ["creep"])
    assert (inner, end) == ("   Call: (2) len([], _G1)", "wait")  # as the lab's stepping names
    skipped, end = page_step(tmp_path, STEPS, "len([a], N)", ["creep", "skip"])
    assert end == "wait" and skipped == "   Exit: (2) len([], 0)"
    answer, end = page_step(tmp_path, STEPS, "len([a], N)", ["nodebug"])
    assert (answer, end) == ("N = 1", "answer")
    failed, end = page_step(tmp_path, STEPS, "len([a], N)", ["nodebug", "redo"])
    assert (failed, end) == ("false.", "answered")


SPIED = """len([], 0).
len([_|T], N) :- len(T, M), N is M + 1.
three(L, D) :- X = 1, len(L, N), D is N + X.
"""
"""A program whose first call below the goal is not the one spied (len/2)."""


def worker_transcript(runs: list[tuple[str, str]], words: list[str]) -> str:
    """The transcript program-worker.js shows for the runs of a goal stepped with `words`,
    ended by Enter after its answer."""
    shown = ""
    for number, (printed, end) in enumerate(runs):
        shown += printed + {"wait": " ? ", "answer": " "}.get(end, "")
        if end == "answer":
            return shown + "."
        shown += words[number] + "\n"
    return shown


def terminal_transcript(tmp_path: Path, lines: list[str], keys: str) -> str:
    """What a terminal's top level shows for the last of `lines`, with SPIED loaded and `keys`
    typed at its ports and its answer."""
    path = tmp_path / "terminal" / "spied.pl"
    path.parent.mkdir()
    path.write_text(SPIED)
    out = io.StringIO()
    session = Session("reference", out, Keys(""), program=str(path))
    try:
        for line in lines[:-1]:
            assert session.handle(line)
        begun = len(out.getvalue())
        session.keys = Keys(keys)  # type: ignore[assignment]
        assert session.handle(lines[-1])
    finally:
        session.close()
    return out.getvalue()[begun:].rstrip("\n")


@needs_swipl
@pytest.mark.parametrize("traced", [True, False])
def test_a_leap_stops_at_the_spy_points_of_the_top_level_as_on_a_terminal(tmp_path, traced):
    """The page gives the program's stepped goal the top level's spy points: a leap stops at
    a spied predicate, and in debug mode (spy/1, no trace.) the goal leaps to it at once;
    what the page shows is what a terminal shows for the same keys."""
    words = ["creep", "leap", "leap", "nodebug"] if traced else ["leap", "nodebug"]
    goal = "three([a], D)"
    runs = page_steps(tmp_path, SPIED, goal, [words[:number] for number in range(len(words) + 1)],
                      "len/2", "creep" if traced else "leap")
    shown = worker_transcript(runs, words)
    assert shown == terminal_transcript(
        tmp_path, ["spy(len/2).", *(["trace."] if traced else []), goal + "."],
        "".join(word[0] for word in words) + "\r")
    assert re.search(r"^ \* Call: \(2\) len\(\[a\], _G\d\) \? leap\n \* Call: \(3\) len\(\[\], "
                     r"_G\d\) \? ", shown, re.MULTILINE) and shown.endswith("D = 2 .")


@needs_swipl
def test_consult_at_the_prompt_is_left_to_the_page(tmp_path):
    _, listed, called, made = run_page(tmp_path, "mine(1).\n",
                                       ["[minimax].", "consult('x.pl').", "make."])
    assert listed == called == made == ("", "consult")


HOSTILE = ["true), halt, (true", "true. halt.", "'), halt, ('", "halt", "X", "\"), halt.",
           "0'", "user:assertz(x), halt."]


@needs_swipl
@settings(max_examples=5, deadline=None)
@given(st.lists(st.text(max_size=40) | st.sampled_from(HOSTILE), min_size=1, max_size=8))
def test_any_goal_typed_is_read_by_prologs_reader_and_prolog_goes_on(tmp_path_factory, goals):
    """Whatever is typed ends in one of the page's ends, and the goal after it is answered:
    nothing typed breaks out of the goal read (no halt reaches SWI-Prolog)."""
    asked = [goal for goal in goals if "\x00" not in goal] + ["X is 6 * 7."]
    _, *answers = run_page(tmp_path_factory.mktemp("typed"), "mine(1).\n", asked)
    assert {end for _, end in answers} <= ENDS
    assert answers[-1] == ("X = 42.", "answered")


# --- the page, in headless Chromium ------------------------------------------------------------

def program_state(driver) -> str:
    return driver.find_element("id", "program-status").get_attribute("data-state")


def wait_until(driver, condition, seconds: float) -> None:
    """Wait until `condition()` holds, at most `seconds`."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"waited {seconds} s; the page says: "
                        f"{driver.find_element('id', 'loaded').text}")
        time.sleep(0.2)


def lines(driver) -> list:
    return driver.find_elements("css selector", "#transcript > div")


def ask_program(driver, goal: str) -> str:
    """Ask `goal` of the student's program at the page's top level; what the transcript shows."""
    driver.find_element("css selector", '#engine option[value="program"]').click()
    before = len(lines(driver))
    field = driver.find_element("id", "goal")
    field.clear()
    field.send_keys(goal)
    driver.find_element("id", "run").click()
    wait_until(driver, lambda: program_state(driver) == "ready"
               and len(lines(driver)) > before + 1, ANSWER_SECONDS)
    shown = lines(driver)[before:]
    assert shown[0].text == f"?- {goal}"
    return "\n".join(line.get_attribute("textContent") for line in shown[1:])


def assert_the_labs_top_level_answers(driver) -> None:
    """The lab's top level (the reference, in Python) answers a goal in the page."""
    driver.find_element("css selector", '#engine option[value="reference"]').click()
    wait_until(driver, lambda: driver.find_element("id", "status")
               .get_attribute("data-state") == "ready", START_SECONDS)
    before = len(lines(driver))
    driver.find_element("id", "goal").clear()
    driver.find_element("id", "goal").send_keys("X is 6 * 7.")
    driver.find_element("id", "run").click()
    wait_until(driver, lambda: len(lines(driver)) > before + 1, ANSWER_SECONDS)
    assert lines(driver)[before + 1].text == "X = 42."


@pytest.fixture(scope="module")
def program_page(browser, served, tmp_path_factory):  # noqa: F811
    """The top level with lab_style.pl picked and loaded, then the network cut off."""
    picked = tmp_path_factory.mktemp("picked") / "lab_style.pl"
    picked.write_text((SUBMISSIONS / "lab_style.pl").read_text())
    browser.get_log("performance")
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    browser.get(f"{served}/index.html")
    browser.find_element("id", "program-file").send_keys(str(picked))
    wait_until(browser, lambda: "minimax_decision" in browser.find_element("id", "program")
               .get_property("value"), 10)
    browser.find_element("id", "load").click()
    wait_until(browser, lambda: browser.find_element("id", "loaded").text
               == "lab_style.pl loaded", START_SECONDS)
    browser.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": True, "latency": 0, "downloadThroughput": 0, "uploadThroughput": 0})
    return browser


def test_the_picked_file_answers_the_references_value(program_page, served):  # noqa: F811
    driver = program_page
    drawn = BOARDS["o blocks or loses"]
    assert (ask_program(driver, f"max_value({board_list(drawn)}, x, sv(_, V)), !.")
            == f"V = {reference_value(drawn)}.")
    assert "Syntax error" in ask_program(driver, "true), halt, (true")
    assert all(url.startswith(served) for url in requested(driver))  # the site's SWI-Prolog


@pytest.mark.slow  # a loop runs SWI-Prolog in WebAssembly to 10 million inferences
def test_a_trace_a_loop_and_a_halt_end_and_the_page_answers_after(program_page):
    driver = program_page
    drawn = BOARDS["o blocks or loses"]
    assert ask_program(driver, "repeat, fail.") == (
        "% stopped: the goal ran past 10,000,000 inferences")
    assert "No permission to halt" in ask_program(driver, "halt.")
    assert ask_program(driver, "X is 6 * 7.") == "X = 42."
    assert ask_program(driver, "system:halt.").startswith(  # past the refusal: ended, afresh
        "% stopped: SWI-Prolog ended")
    drawn = BOARDS["x to win at once"]  # and the program is there again
    assert ask_program(driver, f"minimax_decision({board_list(drawn)}, x, _, V), !.").endswith(
        f"V = {reference_value(drawn)}.")
    assert ask_program(driver, "[lab_style].").endswith("% lab_style.pl loaded")
    assert_the_labs_top_level_answers(driver)


def test_the_docs_state_the_bounds_the_worker_sets():
    """docs/site.md's bounds are the ones program-worker.js gives SWI-Prolog."""
    worker = (ASSETS / "program-worker.js").read_text()
    bounds = {name: int(value) for name, value in
              re.findall(r"^const (LIMIT|MOST|LINES) = (\d+);", worker, re.MULTILINE)}
    assert set(bounds) == {"LIMIT", "MOST", "LINES"}
    docs = " ".join((Path(__file__).parent.parent / "docs" / "site.md").read_text().split())
    assert f"may take {bounds['LIMIT']:,} inferences".replace(",", " ") in docs
    assert f"% stopped: the goal ran past {bounds['LIMIT']:,} inferences" in docs
    assert f"at most {bounds['MOST']} of a goal" in docs
    assert f"At most {bounds['LINES']} lines" in docs


GENERIC = ["X = f(Y).", "member(X, [a, b]).", "fail.", "true.", "X = \"s\", Y = 'A b'.",
           "X is 6 * 7.", "length(L, 0)."]
"""Goals any program answers alike: the page's Prolog prints them as `minimax-lab query` does."""


@needs_swipl
def test_answers_are_printed_as_the_command_lines_top_level_prints_them(tmp_path, capsys):
    _, *answers = run_page(tmp_path, "mine(1).\n", GENERIC)
    for goal, (printed, _) in zip(GENERIC, answers, strict=True):
        main(["query", goal, "--engine", "reference"])
        assert printed == capsys.readouterr().out.rstrip("\n"), goal


def test_the_worker_takes_the_keys_and_shows_the_help_of_the_top_levels_tracer():
    """The program's worker reads its commands and `h`'s help from tracer.js, which the build
    writes from the top level's tracer: a terminal's help, line for line."""
    script = tracer_script()
    declared = dict(re.findall(r"^const (\w+) = (.*);$", script, re.MULTILINE))
    assert json.loads(declared["COMMANDS"]) == {key: option.word for option in OPTIONS
                                                for key in option.keys}
    assert json.loads(declared["HELP"]).split("\n") == help_lines()
    assert json.loads(declared["UNKNOWN"]) == UNKNOWN
    worker = (ASSETS / "program-worker.js").read_text()
    assert '"tracer.js"' in worker and not re.search(r"\bconst (COMMANDS|HELP|UNKNOWN)\b|"
                                                     r"Unknown option", worker)


@pytest.mark.slow  # SWI-Prolog in WebAssembly in Chromium, a run per key
@needs_swipl
def test_the_page_steps_a_goal_of_the_program_creep_skip_abort(program_page, tmp_path):
    driver = program_page
    goal = f"terminal_state({board_list(X_HAS_WON)}, x, V)"
    program = (SUBMISSIONS / "lab_style.pl").read_text()
    assert ask_program(driver, "trace.").startswith("% stepping")
    expected = page_step(tmp_path, program, goal, [])[0] + " ? "
    assert ask_program(driver, goal + ".") == expected  # _G names: the same in the page
    stepped = lines(driver)[-1]
    field = driver.find_element("id", "goal")
    keys: list[str] = []
    for key, word in (("c", "creep"), ("s", "skip")):
        field.send_keys(key)
        keys.append(word)
        expected += f"{word}\n" + page_step(tmp_path, program, goal, keys)[0] + " ? "
        wait_until(driver, lambda shown=expected: stepped.get_attribute("textContent")
                   == shown, ANSWER_SECONDS)
    driver.find_element("css selector", '#ports button[data-key="a"]').click()
    expected += "abort\n% Execution Aborted"
    wait_until(driver, lambda: stepped.get_attribute("textContent") == expected, ANSWER_SECONDS)
    assert not driver.find_element("id", "ports").is_displayed()
    assert ask_program(driver, "X is 6 * 7.") == "X = 42."


LONG = """
spin :- numlist(1, 200000, List), spin(List).
spin(List) :- msort(List, _), spin(List).
mine(42).
"""
"""A goal that runs for hours within the inference bound (each sort is one inference)."""


@pytest.mark.slow  # SWI-Prolog started afresh, the program loaded again, Python too
def test_a_goal_of_the_program_that_runs_long_is_stopped_and_both_top_levels_answer_after(
        program_page):
    """Stop ends a goal of the student's program that runs long: the page says so, loads the
    program again into a fresh SWI-Prolog (a goal asked at once waits for it), and the lab's
    top level answers too."""
    driver = program_page
    looping = (SUBMISSIONS / "lab_style.pl").read_text() + LONG
    driver.execute_script("document.getElementById('program').value = arguments[0];"
                          "document.getElementById('loaded').textContent = '';", looping)
    driver.find_element("id", "load").click()
    wait_until(driver, lambda: driver.find_element("id", "loaded").text
               == "lab_style.pl loaded", ANSWER_SECONDS)
    driver.find_element("css selector", '#engine option[value="program"]').click()
    before = len(lines(driver))
    driver.find_element("id", "goal").clear()
    driver.find_element("id", "goal").send_keys("spin.")
    driver.find_element("id", "run").click()
    wait_until(driver, lambda: program_state(driver) == "busy", 10)
    driver.find_element("id", "stop").click()
    assert driver.find_element("id", "loaded").text == "loading lab_style.pl again..."
    wait_until(driver, lambda: [line.text for line in lines(driver)[before:]] == [
        "?- spin.", "% stopped: SWI-Prolog starts afresh"], 10)
    drawn = BOARDS["a draw ahead"]  # asked at once: it waits for the program loaded again
    assert (ask_program(driver, f"max_value({board_list(drawn)}, x, sv(_, V)), !.")
            == f"V = {reference_value(drawn)}.")
    assert driver.find_element("id", "loaded").text == "lab_style.pl loaded"
    assert ask_program(driver, "mine(X).") == "X = 42."  # the program loaded is this one
    assert_the_labs_top_level_answers(driver)


def load_in_page(driver, program: str) -> None:
    """`program` typed under Your program and loaded (named as the file picked)."""
    driver.execute_script("document.getElementById('program').value = arguments[0];"
                          "document.getElementById('loaded').textContent = '';", program)
    driver.find_element("id", "load").click()
    wait_until(driver, lambda: driver.find_element("id", "loaded").text
               == "lab_style.pl loaded", ANSWER_SECONDS)


def type_keys(driver, stepped, keys: str, shown: str) -> None:
    """Type `keys` at a goal stepped in the page, one at a time, each run waited for; then
    wait until the goal's transcript is `shown`."""
    for key in keys:
        before = stepped.get_attribute("textContent")
        driver.find_element("id", "goal").send_keys(key)
        wait_until(driver, lambda before=before: stepped.get_attribute("textContent") != before
                   and program_state(driver) == "ready", ANSWER_SECONDS)
    wait_until(driver, lambda: stepped.get_attribute("textContent") == shown, ANSWER_SECONDS)


@pytest.mark.slow  # SWI-Prolog in WebAssembly in Chromium, a run per key
@needs_swipl
def test_the_page_leaps_to_the_top_levels_spy_point_in_the_program_as_a_terminal(
        program_page, tmp_path):
    """spy/1 typed in the page reaches a stepped goal of the program: the page's transcript
    for a leap is a terminal's for the same keys."""
    driver = program_page
    load_in_page(driver, SPIED)
    assert ask_program(driver, "spy(len/2).").startswith("% Spy point on len/2")
    try:
        assert ask_program(driver, "trace.").startswith("% stepping")
        goal = "three([a], D)"
        shown = terminal_transcript(tmp_path, ["spy(len/2).", "trace.", goal + "."], "clln\r")
        first = ask_program(driver, goal + ".")
        assert shown.startswith(first)
        type_keys(driver, lines(driver)[-1], "clln\n", shown)
    finally:  # in debug mode the Python top level steps nospyall. too: Enter ends it
        assert ask_program(driver, "nospyall.").startswith("% All spy points removed")
        if driver.find_element("id", "ports").is_displayed():
            driver.find_element("id", "run").click()
            wait_until(driver, lambda: not driver.find_element("id", "ports").is_displayed(),
                       ANSWER_SECONDS)
        assert ask_program(driver, "debugging.") == "% debug mode on; spy points: none\ntrue."


CRASH = """
crash :- deep(T), show(T).
deep(T) :- numlist(1, 100000, L), foldl([_, A, f(A)]>>true, L, a, T).
show(_).
mine(42).
"""
"""A goal whose port, once skipped to, shows a term 100 000 deep: writing it overruns
SWI-Prolog's C stack in WebAssembly, which is lost."""


@pytest.mark.slow  # SWI-Prolog in WebAssembly in Chromium, crashed and started afresh
def test_a_swi_prolog_lost_mid_step_is_started_afresh_and_the_next_goal_answers(program_page):
    driver = program_page
    load_in_page(driver, CRASH)
    assert ask_program(driver, "trace.").startswith("% stepping")
    assert ask_program(driver, "crash.") == "   Call: (1) crash ? "
    stepped = lines(driver)[-1]
    driver.find_element("id", "goal").send_keys("c")
    wait_until(driver, lambda: stepped.get_attribute("textContent").endswith(
        "deep(_G1) ? "), ANSWER_SECONDS)
    driver.find_element("id", "goal").send_keys("s")
    wait_until(driver, lambda: "% stopped" in stepped.get_attribute("textContent"),
               ANSWER_SECONDS)
    said = stepped.get_attribute("textContent").split("skip\n", 1)[1]
    assert re.fullmatch(r"% stopped: SWI-Prolog ended \(.+\); it starts afresh, your program "
                        r"loaded again", said), said
    assert not driver.find_element("id", "ports").is_displayed()
    assert ask_program(driver, "mine(X).") == "X = 42."  # the program, loaded again
