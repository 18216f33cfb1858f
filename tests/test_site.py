"""The site (`minimax-lab site DIR`) in headless Chromium, served from loopback, the network
cut off once a page has loaded: its top level answers as `minimax-lab query` does, its stepper
steps to the end, and its check judges students' files as `grade` does (docs/site.md)."""

from __future__ import annotations

import contextlib
import functools
import http.server
import io
import json
import re
import shlex
import socket
import subprocess
import threading
import time
import urllib.parse
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from hosts import PipedSwiplHost, SwiplFresh, SwiplHost
from hypothesis import given, settings
from hypothesis import strategies as st
from keys import Keys
from marks import needs_swipl

from minimax_lab.compare.grader.interfaces.interface import Options
from minimax_lab.compare.grader.interfaces.probes import PROBES, probes
from minimax_lab.compare.grader.interfaces.prolog import PREDICATES, Judged, judged_questions
from minimax_lab.compare.grader.interfaces.prolog_interface import PrologInterface
from minimax_lab.compare.grader.options.config import WorkLimits
from minimax_lab.compare.grader.outputs.text import submission_report
from minimax_lab.compare.grader.running.hosted import Every, HostedSession, Sample, check_hosted
from minimax_lab.compare.grader.running.run import grade_submission
from minimax_lab.compare.judge.scores import DEFAULT_HINTS, Hints
from minimax_lab.logic import api
from minimax_lab.logic.commands.cli import main
from minimax_lab.logic.contain.contained import Died
from minimax_lab.logic.contain.harness import Reply
from minimax_lab.logic.contain.hosted import HostedProgram, _line
from minimax_lab.logic.site import browser as site_python
from minimax_lab.logic.site import parts
from minimax_lab.logic.site.build import SiteError, build_site
from minimax_lab.logic.site.parts import PartError, default_cache
from minimax_lab.logic.state import marks_made, result
from minimax_lab.logic.tools.tree_html import step_texts
from minimax_lab.logic.toplevel.prolog_terms import quote_atom
from minimax_lab.logic.toplevel.repl import Session

ROOT = Path(__file__).resolve().parent.parent
SUBMISSIONS = Path(__file__).parent / "submissions"
START_SECONDS = 180
"""Bound on a page's start (Pyodide, the lab's Python, SWI-Prolog) on a loaded machine."""
ANSWER_SECONDS = 240
"""Bound on one answer or one check in the page."""
WHOLE_SECONDS = 900
"""Bound on the whole check of the lab's solution (about a minute on an idle machine)."""


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
    with serving(site) as address:
        yield address


@contextlib.contextmanager
def serving(folder: Path) -> Iterator[str]:
    """`folder` on a loopback static server, while the block runs; its address."""
    handler = functools.partial(_Quiet, directory=str(folder))
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


def test_the_site_says_its_checks_hint_level(site, tmp_path):
    assert json.loads((site / "site.json").read_text())["hints"] == DEFAULT_HINTS.value
    try:
        build_site(tmp_path / "www", hints=Hints.CLAUSE)
    except PartError as error:
        pytest.skip(f"the site's parts cannot be fetched: {error}")
    assert json.loads((tmp_path / "www" / "site.json").read_text())["hints"] == "clause"
    assert "self.site.hints" in (tmp_path / "www" / "check-worker.js").read_text()


def test_a_folder_holding_other_files_is_refused(tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("mine")
    assert main(["site", str(tmp_path)]) == 2
    assert "is not empty and holds no site" in capsys.readouterr().err
    assert (tmp_path / "notes.txt").read_text() == "mine"
    with pytest.raises(SiteError):
        build_site(tmp_path / "notes.txt")


def no_fetching(monkeypatch) -> None:
    """Any fetch fails the test: the npm registry's and pip's."""
    def fetched(*args, **kwargs):
        pytest.fail(f"fetched {args}")
    monkeypatch.setattr(parts.urllib.request, "urlopen", fetched)
    monkeypatch.setattr(parts.subprocess, "run", fetched)


def test_offline_names_each_missing_part_in_one_line_and_fetches_nothing(tmp_path, capsys,
                                                                          monkeypatch):
    no_fetching(monkeypatch)
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / parts.PYODIDE.tarball).write_bytes(b"not checked before the others are there")
    status = main(["site", str(tmp_path / "www"), "--cache", str(cache), "--offline"])
    said = capsys.readouterr()
    assert status == 2 and said.out == ""
    (line,) = said.err.splitlines()
    assert line.startswith(f"minimax-lab: error: --offline and the cache {cache} lacks "
                           "swipl-wasm 8.0.5 (swipl-wasm-8.0.5.tgz, from "
                           f"{parts.SWIPL_WASM.url}), pyDatalog 0.22.4 (pydatalog-0.22.4.tar.gz")
    assert "pyodide" not in line and "--cache DIR" in line
    assert not (tmp_path / "www").exists()


def test_a_part_that_cannot_be_fetched_is_named_with_how_to_supply_it(tmp_path, capsys,
                                                                       monkeypatch):
    def unreachable(url, timeout):
        raise OSError("no route to host")
    monkeypatch.setattr(parts.urllib.request, "urlopen", unreachable)
    cache = tmp_path / "cache"
    assert main(["site", str(tmp_path / "www"), "--cache", str(cache)]) == 2
    said = capsys.readouterr()
    assert said.out == ""
    assert said.err.splitlines() == [
        "fetching pyodide 0.29.3 from registry.npmjs.org ... failed",
        f"minimax-lab: error: cannot fetch {parts.PYODIDE.url}: no route to host; to supply "
        f"pyodide 0.29.3, put pyodide-0.29.3.tgz (from {parts.PYODIDE.url}) in {cache}, or "
        "name a cache that holds it with --cache DIR"]
    assert not (tmp_path / "www").exists() and not cache.exists()


def test_a_fetch_interrupted_ends_its_line_first(tmp_path, monkeypatch):
    def interrupted(url, timeout):
        raise KeyboardInterrupt
    monkeypatch.setattr(parts.urllib.request, "urlopen", interrupted)
    report = io.StringIO()
    with pytest.raises(KeyboardInterrupt):
        parts.npm_files(parts.SWIPL_WASM, tmp_path, report)
    assert report.getvalue() == "fetching swipl-wasm 8.0.5 from registry.npmjs.org ... stopped\n"
    assert list(tmp_path.iterdir()) == []


def test_pyDatalog_that_pip_cannot_fetch_is_named_with_how_to_supply_it(tmp_path, monkeypatch):
    asked = []

    def pip(argv, **kwargs):
        asked.append(argv)
        return subprocess.CompletedProcess(argv, 1, "", "ERROR: No matching distribution "
                                           "found for pyDatalog==0.22.4\n")
    monkeypatch.setattr(parts.subprocess, "run", pip)
    report = io.StringIO()
    with pytest.raises(PartError) as raised:
        parts.pydatalog_modules(tmp_path, report)
    assert report.getvalue() == \
        "fetching pyDatalog 0.22.4 from the package index (pip) ... failed\n"
    assert str(raised.value) == (
        "pip could not fetch pyDatalog==0.22.4: ERROR: No matching distribution found for "
        "pyDatalog==0.22.4; to supply pyDatalog 0.22.4, put pydatalog-0.22.4.tar.gz (from the "
        "package index: pip download --no-deps --no-binary pyDatalog pyDatalog==0.22.4) in "
        f"{tmp_path}, or name a cache that holds it with --cache DIR")
    (argv,) = asked  # only pyDatalog as source: its build dependencies (Cython) as wheels
    assert argv[argv.index("--no-binary") + 1] == "pyDatalog" and ":all:" not in argv


def npm_unreachable() -> str | None:
    """Why the npm registry cannot be reached, or None if it answers a connection."""
    host = urllib.parse.urlsplit(parts.NPM).hostname or ""
    try:
        socket.create_connection((host, 443), timeout=10).close()
    except OSError as error:
        return f"{host} cannot be reached: {error}"
    return None


@pytest.mark.slow
def test_the_site_builds_from_an_empty_cache_then_offline_from_it(tmp_path, monkeypatch):
    """From nothing but the registries: each part fetched, a line each; then again with
    --offline from that cache, nothing fetched, the same site."""
    unreachable = npm_unreachable()
    if unreachable:
        pytest.skip(f"no network to the package registries: {unreachable}")
    cache = tmp_path / "cache"
    report = io.StringIO()
    first = build_site(tmp_path / "www", cache, report=report)
    lines = report.getvalue().splitlines()
    assert [line.split(" ... ")[0] for line in lines] == [
        "fetching pyodide 0.29.3 from registry.npmjs.org",
        "fetching swipl-wasm 8.0.5 from registry.npmjs.org",
        "fetching pyDatalog 0.22.4 from the package index (pip)"]
    assert all(re.fullmatch(r".* \.\.\. done \(\d+\.\d MB, \d+\.\d s\)", line) for line in lines)
    assert sorted(path.name for path in cache.iterdir()) == sorted(
        part.tarball for part in parts.PARTS)
    no_fetching(monkeypatch)
    report = io.StringIO()
    again = build_site(tmp_path / "www", cache, offline=True, report=report)
    assert report.getvalue().splitlines() == [
        "pyodide 0.29.3: from the cache", "swipl-wasm 8.0.5: from the cache",
        "pyDatalog 0.22.4: from the cache"]
    assert again.sizes == first.sizes and "pyDatalog/pyEngine.py" in zipfile.ZipFile(
        tmp_path / "www" / "pydatalog.zip").namelist()


# --- publishing it -----------------------------------------------------------------------------


def pages_workflow() -> dict:
    """The GitHub Pages workflow docs/site.md gives, read as YAML."""
    text = (ROOT / "docs" / "site.md").read_text()
    block = re.search(r"```yaml\n(# \.github/workflows/site\.yml\n.*?)```", text, re.DOTALL)
    assert block is not None, "docs/site.md gives no workflow"
    return yaml.safe_load(block[1])


def test_the_pages_workflow_is_the_readmes_commands_with_what_pages_needs(monkeypatch):
    workflow = pages_workflow()
    triggers = workflow.get("on", workflow.get(True))  # YAML 1.1 reads a bare `on` as true
    assert triggers["push"] == {"branches": ["main"]} and "workflow_dispatch" in triggers
    assert workflow["permissions"] == {"contents": "read", "pages": "write", "id-token": "write"}
    (job,) = workflow["jobs"].values()
    assert job["environment"]["name"] == "github-pages"
    steps = job["steps"]
    used = {step["uses"].split("@")[0]: step for step in steps if "uses" in step}
    assert list(used) == ["actions/checkout", "actions/setup-python", "actions/cache",
                          "actions/upload-pages-artifact", "actions/deploy-pages"]
    assert all(re.fullmatch(r"[\w/-]+@v\d+", step["uses"]) for step in used.values())
    readme = (ROOT / "README.md").read_text()
    oldest = re.search(r"Python (3\.\d+) to 3\.\d+ are supported", readme)
    assert oldest is not None
    assert used["actions/setup-python"]["with"]["python-version"] == oldest[1]
    cache = used["actions/cache"]["with"]
    monkeypatch.delenv("MINIMAX_LAB_CACHE", raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    assert Path(cache["path"].replace("~", str(Path.home()), 1)) == default_cache()
    hashed = re.findall(r"hashFiles\('([^']+)'\)", cache["key"])
    assert hashed == ["logic/site/parts.py"] and (ROOT / hashed[0]).is_file()
    (run,) = [step["run"] for step in steps if "run" in step]
    install, build = (shlex.split(command) for command in run.split("&&"))
    assert install == ["pip", "install", "."] and "pip install -q . &&" in readme
    assert build[:2] == ["minimax-lab", "site"] and "minimax-lab site " in readme
    assert used["actions/upload-pages-artifact"]["with"]["path"] == build[2]


def test_the_workflows_build_writes_a_site_pages_takes(tmp_path, monkeypatch, capsys):
    """The workflow's `minimax-lab site` run as it is, where it runs: a site with its pages,
    no hidden file and no link (upload-pages-artifact leaves out the one, refuses the other)."""
    (run,) = [step["run"] for step in next(iter(pages_workflow()["jobs"].values()))["steps"]
              if "run" in step]
    monkeypatch.chdir(tmp_path)
    arguments = shlex.split(run.split("&&")[-1])[1:]
    status = main(arguments)
    said = capsys.readouterr().err
    if status != 0 and "cannot fetch" in said:
        pytest.skip(f"the site's parts cannot be fetched: {said.strip()}")
    assert status == 0, said
    written = tmp_path / arguments[-1]
    assert (written / "index.html").is_file() and (written / "check.html").is_file()
    assert not [path for path in written.rglob("*")
                if path.is_symlink() or path.name.startswith(".")]


# --- the top level and the pictures --------------------------------------------------------

GOALS = (
    "minimax_decision([o,-,x,-,x,-,o,-,-], o, A, V).",  # the page's example is benchmarked
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


def test_trace_then_a_goal_steps_it_key_by_key_in_the_page(top_level):
    """`trace.` then a goal: the page waits at each port for a key typed in the goal's box or
    a port's button clicked, and shows what the page's Python shows for those keys (which
    `test_the_page_steps_a_goal_as_the_terminal_does` holds to the terminal's)."""
    driver = top_level
    assert ask(driver, "trace.", "reference") == "% the next goal is traced\ntrue."
    ask(driver, STEPPED_GOAL, "reference")
    ports = driver.find_element("id", "ports")
    assert ports.is_displayed()
    stepped = driver.find_elements("css selector", "#transcript > div")[-1]
    field = driver.find_element("id", "goal")
    typed = ""
    for key in "ccs":
        typed += key
        field.send_keys(key)
        expected = page_transcript(STEPPED_GOAL, typed)[0].rstrip("\n")
        wait_for(driver, lambda shown=expected: stepped.get_attribute("textContent") == shown,
                 ANSWER_SECONDS)
    for key in "n.":  # nodebug: on to the answer; then no more answers
        if not page_transcript(STEPPED_GOAL, typed)[1]:
            break
        typed += key
        ports.find_element("css selector", f'button[data-key="{key}"]').click()
    expected, waiting = page_transcript(STEPPED_GOAL, typed)
    first = json.loads(site_python.query(STEPPED_GOAL, "reference"))["out"].splitlines()[0]
    answer = first.removesuffix(" ;").removesuffix(".")
    assert not waiting and expected.splitlines()[-1] in (f"{answer}.", f"{answer} .")
    wait_for(driver, lambda: stepped.get_attribute("textContent") == expected.rstrip("\n"),
             ANSWER_SECONDS)
    assert not ports.is_displayed()
    assert ask(driver, "X is 6 * 7.") == "X = 42."


def test_keys_typed_at_once_in_a_stepped_goal_are_taken_in_turn_and_the_rest_is_the_next_goal(
        top_level):
    """Keys typed faster than the page answers a stepped goal: nodebug runs on to the first
    answer, `;` asks for the next, `.` ends them, each in turn as the page's Python takes
    them; what follows waits in the goal's box as the next goal, and no error is shown."""
    driver = top_level
    goal, keys = "member(X, [a,b,c]).", "n;."
    assert ask(driver, "trace.", "reference") == "% the next goal is traced\ntrue."
    ask(driver, goal, "reference")
    stepped = driver.find_elements("css selector", "#transcript > div")[-1]
    errors = len(driver.find_elements("css selector", "#transcript > div.error"))
    field = driver.find_element("id", "goal")
    field.send_keys(keys + "X is 6 * 7.")
    wait_for(driver, lambda: field.get_attribute("value") == "X is 6 * 7.", ANSWER_SECONDS)
    expected, waiting = page_transcript(goal, keys)
    assert not waiting and expected.rstrip("\n").endswith("X = b .")
    assert stepped.get_attribute("textContent") == expected.rstrip("\n")
    assert len(driver.find_elements("css selector", "#transcript > div.error")) == errors
    assert not driver.find_element("id", "ports").is_displayed()
    assert ask(driver, "X is 6 * 7.") == "X = 42."


SPY = "spy(terminal_state)."
TYPED = "\nc ccccc" + "sxhlfrca"
"""Typed in the goal's box at the spy point: Enter, c and space creep to a Redo port, then
skip, an unknown key, help, leap, fail, retry, creep, abort."""
CLICKED = "crcfchsln."
"""The port buttons clicked at the spy point: creep, retry, creep, fail, creep, help, skip,
leap, nodebug, then no more answers."""


def key_in_page(driver, key: str) -> None:
    """`key` typed in the goal's box (Enter submits its form), or its port button clicked
    when it is given as `("click", key)`."""
    from selenium.webdriver.common.keys import Keys

    if isinstance(key, tuple):
        driver.find_element("css selector", f'#ports button[data-key="{key[1]}"]').click()
    else:
        driver.find_element("id", "goal").send_keys(Keys.ENTER if key == "\n" else key)


def step_in_page(driver, before: list[str], goal: str, keys: list) -> str:
    """`goal` asked at the page's top level (reference engine), then each key given, the page
    held after each to the terminal's transcript for the same keys; the last transcript."""
    stepped = driver.find_elements("css selector", "#transcript > div")[-1]
    typed = ""
    for key in keys:
        typed += key[1] if isinstance(key, tuple) else key
        key_in_page(driver, key)
        expected = terminal_until_waiting(before, goal, typed)[0].removesuffix("\n")
        wait_for(driver, lambda shown=expected: stepped.get_attribute("textContent") == shown,
                 ANSWER_SECONDS)
    return stepped.get_attribute("textContent")


@pytest.mark.slow  # about 5 s in Chromium; its default sibling is the test above
def test_every_port_and_command_steps_in_the_page_as_on_a_terminal(top_level):
    """At a spy point, every command of the tracer typed in the goal's box (Enter, c and space
    creep; skip, leap, retry, fail, abort, help, an unknown key) and clicked on its port button
    (nodebug, no more answers too), then a leap once the spy point is removed: the page shows,
    key by key, what the terminal shows for the same keys, Call, Exit, Redo and Fail ports."""
    driver = top_level
    assert ask(driver, SPY, "reference").endswith("true.")
    ports = driver.find_element("id", "ports")
    shown = []
    for keys in ([*TYPED], [("click", key) for key in CLICKED]):
        first = ask(driver, STEPPED_GOAL, "reference")
        assert first == terminal_until_waiting([SPY], STEPPED_GOAL, "")[0]
        shown.append(step_in_page(driver, [SPY], STEPPED_GOAL, keys))
        assert not ports.is_displayed()
    assert shown[0].endswith("% Execution Aborted")
    unspied = [SPY, "nospy(terminal_state).", "trace."]
    ask(driver, unspied[1], "reference")  # its answer waits for a key, in debug mode
    step_in_page(driver, [SPY], unspied[1], ["."])
    ask(driver, unspied[2], "reference")
    ask(driver, STEPPED_GOAL, "reference")
    shown.append(step_in_page(driver, unspied, STEPPED_GOAL, ["l", ";"]))
    ports_seen = {line.split(":")[0].strip(" *") for text in shown for line in text.splitlines()
                  if re.match(r"^ [ *] \w+: \(\d+\)", line)}
    assert ports_seen == {"Call", "Exit", "Redo", "Fail"}
    commands = {line.rsplit(" ? ", 1)[1] for text in shown for line in text.splitlines()
                if " ? " in line}
    assert {"creep", "skip", "leap", "retry", "fail", "abort", "nodebug", "help"} <= commands
    assert "Unknown option (h for help)" in shown[0]
    assert not ports.is_displayed()
    assert ask(driver, "X is 6 * 7.") == "X = 42."


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


@pytest.mark.slow  # one of the default run's costliest: CI's slow step runs it
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
    wait_for(driver, lambda: driver.find_element("id", "check").is_enabled(), ANSWER_SECONDS)
    driver.find_element("css selector", f"#sample option[value='{sample}']").click()
    driver.find_element("id", "check").click()
    wait_for(driver, lambda: driver.find_element("id", "summary").text
             or "stopped" in driver.find_element("id", "report").text
             or "nothing to check" in driver.find_element("id", "report").text, ANSWER_SECONDS)
    return {"summary": driver.find_element("id", "summary").text,
            "right": driver.find_element("id", "summary").get_attribute("data-right"),
            "report": driver.find_element("id", "report").text}


def test_the_page_says_nothing_leaves_the_machine(check_page):
    note = check_page.find_element("css selector", ".note").text
    assert "Nothing leaves your machine" in note and "not your grade" in note


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
    options = Options(PrologInterface(judged="clauses", end_to_end=0), PREDICATES,
                      budget=300, work=WorkLimits(budget_ratio=0.005))
    return grade_submission(name, SUBMISSIONS / f"{name}.pl", options)


@pytest.mark.slow
@needs_swipl
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


def first_wrong_calls(report: str) -> set[str]:
    """The first wrong calls the check's report names, as the searches beside name them."""
    return {f"{name}({board.replace(',', '')}, {player})" for name, board, player in
            re.findall(r"first wrong call: (\w+)\(\[([xo,-]+)\], ([xo])", report)}


def marked(driver) -> list[str]:
    """The calls the check page's searches mark as where they first differ."""
    return [node.text.split(":")[0] for node in driver.find_elements(
        "css selector", '#beside [data-differs="true"] > div > code')]


@contextlib.contextmanager
def _back_to(driver, url: str) -> Iterator[None]:
    """The block, then `url` opened again, for the tests after it."""
    try:
        yield
    finally:
        open_offline(driver, url)


@pytest.mark.slow
@needs_swipl
def test_the_check_draws_the_search_beside_the_labs_only_where_it_shows_the_labs_answers(
        check_page, served, tmp_path):
    """At the site's hint level (below `expected`) the check draws no search beside the lab's;
    built at `expected`, it draws them under the report, the first wrong call marked in both."""
    assert not DEFAULT_HINTS.gives(Hints.EXPECTED)
    checked = check(check_page, "min_moves_agent.pl")
    assert checked["right"] == "false" and first_wrong_calls(checked["report"])
    assert check_page.find_element("id", "beside").get_attribute("innerHTML") == ""
    try:
        build_site(tmp_path / "www", hints=Hints.EXPECTED)
    except PartError as error:
        pytest.skip(f"the site's parts cannot be fetched: {error}")
    with serving(tmp_path / "www") as address, _back_to(check_page, f"{served}/check.html"):
        open_offline(check_page, f"{address}/check.html")
        checked = check(check_page, "min_moves_agent.pl")
        named = first_wrong_calls(checked["report"])
        drawn = marked(check_page)
        assert named and drawn and set(drawn) <= named, (drawn, checked["report"])
        assert len(drawn) == 2 * len(set(drawn))  # in both trees
        columns = check_page.find_elements("css selector", "#beside .beside-tree")
        student, lab = ({code.text for code in column.find_elements("css selector", "code")}
                        for column in columns[:2])
        assert student - lab  # the program's own calls below, not the lab's
        assert "your search beside the lab's" in check_page.find_element("id", "beside").text


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


LAB_STYLE_CHECKS = ("terminal_state", "max_value", "min_value", "minimax_decision")
"""The predicates lab_style.pl defines (the lab's helper answers successor/3)."""


def whole_check_asks() -> dict[str, int]:
    """How many questions `grade` asks of each of lab_style.pl's predicates, end to end
    included: what the whole check asks."""
    asked: dict[str, int] = {}
    for question in judged_questions(LAB_STYLE_CHECKS, Judged.CLAUSES, 1):
        asked[question.check] = asked.get(question.check, 0) + 1
    return asked


def start_whole_check(driver, name: str) -> None:
    driver.execute_script("document.getElementById('source').value = arguments[0];"
                          "document.getElementById('file').value = '';"
                          "document.getElementById('summary').textContent = '';",
                          (SUBMISSIONS / name).read_text())
    driver.find_element("css selector", "#sample option[value='0']").click()
    driver.find_element("id", "check").click()


def asked_so_far(driver) -> tuple[int, int] | None:
    shown = re.fullmatch(r"asked (\d+) of (\d+) questions",
                         driver.find_element("id", "asked").text)
    return (int(shown[1]), int(shown[2])) if shown else None


@pytest.mark.slow  # one of the default run's costliest: CI's slow step runs it
def test_a_whole_check_shows_its_progress_and_stops(check_page):
    """The whole check asks every question `grade` asks, says how far it got as it goes, and
    Stop ends it; the page then checks again."""
    driver = check_page
    start_whole_check(driver, "lab_style.pl")
    wait_for(driver, lambda: asked_so_far(driver) is not None, ANSWER_SECONDS)
    first = asked_so_far(driver)
    assert first is not None and first[1] == sum(whole_check_asks().values())
    assert not driver.find_element("id", "check").is_enabled()  # one check at a time
    wait_for(driver, lambda: (asked_so_far(driver) or first)[0] > first[0], ANSWER_SECONDS)
    driver.find_element("id", "stop").click()
    wait_for(driver, lambda: "stopped" in driver.find_element("id", "report").text, 10)
    assert driver.find_element("id", "asked").text.endswith("when it was stopped")
    assert driver.find_element("id", "summary").text == ""
    wait_for(driver, lambda: state(driver) == "ready", START_SECONDS)  # afresh, offline
    checked = check(driver, "no_draw.pl")
    assert checked["right"] == "false" and "first wrong call" in checked["report"]


def test_nothing_to_check_says_so(check_page):
    checked = check(check_page, "", text="  \n")
    assert checked["report"] == "nothing to check: pick your minimax.pl or paste it above"
    assert checked["summary"] == ""


@pytest.mark.slow
@pytest.mark.timeout(WHOLE_SECONDS + 60)
def test_the_whole_check_asks_every_question_grade_asks(check_page):
    """The lab's solution, checked on every question `grade` asks: right on each, as many of
    each predicate as `grade` asks."""
    driver = check_page
    start_whole_check(driver, "lab_style.pl")
    wait_for(driver, lambda: driver.find_element("id", "summary").text, WHOLE_SECONDS)
    summary = driver.find_element("id", "summary").text
    assert driver.find_element("id", "summary").get_attribute("data-right") == "true", summary
    for predicate, asked in whole_check_asks().items():
        assert f"{predicate} {asked}/{asked}" in summary
    assert driver.find_element("id", "asked").text == ""


@pytest.mark.slow
@needs_swipl
@pytest.mark.parametrize(("query", "where"), [("", "in a worker of its own meanwhile"),
                                              ("?one-worker", "after the rest")])
def test_the_pages_end_to_end_sample_is_asked_of_a_fresh_swi_prolog(check_page, served,
                                                                    tmp_path, query, where):
    """In Chromium the fresh SWI-Prolog is a worker of its own, or with `?one-worker` a second
    one in the check's worker (as in a browser without stack switching): either way
    keeps_the_lab.pl's end-to-end sample is judged in the page as a fresh `swipl` judges it,
    not from the lab's answers it kept; a second check (its fresh worker made offline) too."""
    apart, _, _ = checked_in_swipl(SUBMISSIONS / "hostile" / "keeps_the_lab.pl", tmp_path, 20,
                                   fresh=True)
    if query:
        open_offline(check_page, f"{served}/check.html{query}")
    try:
        for _ in range(2):
            checked = check(check_page, "hostile/keeps_the_lab.pl", sample=20)
            assert end_to_end(checked["report"]) == end_to_end(apart)
            said = check_page.find_element("id", "fresh").text
            assert f"({end_to_end(apart)[1]} questions) asked of a fresh SWI-Prolog, {where}" \
                in said
    finally:
        if query:
            open_offline(check_page, f"{served}/check.html")


class _Counting:
    """A hosted program that answers no question, and keeps each batch it was sent."""

    given_up = None

    def __init__(self) -> None:
        self.batches: list[list[str]] = []

    def ask_many(self, asks, seconds):
        self.batches.append([ask.goal for ask in asks])
        return [Reply((), "exhausted") for _ in asks]

    def send_ahead(self, asks) -> None:
        """Nothing to send them to: no fresh SWI-Prolog beside it."""


@pytest.mark.parametrize("selection", [Sample(9), Every()], ids=["sample", "every"])
def test_a_hosted_session_sends_the_questions_it_asks_and_tells_how_far_it_got(selection):
    """Its batches hold the questions its selection keeps, in order, and no other; its
    progress counts them against how many it plans."""
    told: list[tuple[int, int]] = []
    program = _Counting()
    session = HostedSession(program, 3, Options(PrologInterface()), selection,
                            progress=lambda asked, planned: told.append((asked, planned)))
    chosen = session.questions(LAB_STYLE_CHECKS)
    asked = chosen[:300]
    for question in asked:
        session.ask(question, 1.0, session.work_limit(question))
    sent = [goal for batch in program.batches for goal in batch]
    assert sent == [question.goal for question in chosen[:len(sent)]]
    assert len(asked) <= len(sent) <= len(asked) + 200  # a batch runs ahead of the asking
    assert told and told[0] == (1, len(chosen))
    if asked == chosen:
        assert told[-1] == (len(chosen), len(chosen))


@pytest.mark.parametrize("per_check", [9, 20, 40])
def test_the_sample_asks_every_kind_of_board_and_no_more_than_asked(per_check):
    """The check's sample takes `per_check` questions of each check (never fewer than the
    probes), a kind of board at a time (blanks, won, drawn or open), so a drawn full board,
    rare among them, is always asked; a larger sample holds a smaller one, the probes that
    name a bug as `grade` names it among them."""
    asked = judged_questions(("terminal_state", "max_value"), Judged.CLAUSES, 1)
    chosen = Sample(per_check).select(asked)
    for check in ("terminal_state", "max_value"):
        mine = [question for question in chosen if question.check == check and not question.sample]
        assert len(mine) == max(per_check, PROBES) == len(set(mine))
        assert all(marks_made(question.state) >= 2 for question in mine)
    drawn = [question for question in chosen
             if question.check == "terminal_state" and result(question.state) == "draw"]
    assert drawn
    assert [question for question in chosen if question.sample] == [
        question for question in asked if question.sample and marks_made(question.state) >= 2]
    order = {question: number for number, question in enumerate(asked)}
    assert [order[question] for question in chosen] == sorted(order[q] for q in chosen)
    assert probes(asked) <= set(chosen) <= set(Sample(per_check + 20).select(asked))


# --- the pages' input surfaces, without a browser ---------------------------------------------


@settings(max_examples=500, deadline=None)
@given(st.one_of(st.text(max_size=200), st.from_regex(r"[\\/.]*([^/\\]*[\\/])*\.*\w*(\.pl|\.pro)?",
                                                       fullmatch=True)))
def test_the_picked_files_name_is_safe_in_the_pages_file_system(picked):
    """Whatever name a student's browser gives the file picked (a path, dots, quotes, nothing),
    the name it gets in SWI-Prolog's file system is a plain `.pl` file in the check's folder,
    safe inside a quoted Prolog atom, and the same when given again."""
    name = site_python.file_name(picked)
    assert re.fullmatch(r"[A-Za-z0-9_-][A-Za-z0-9_.-]*\.pl", name), name
    assert len(name) <= 63
    assert site_python.file_name(name) == name


@settings(max_examples=200, deadline=None)
@given(st.from_regex(r"[a-z][a-z0-9_]{0,40}", fullmatch=True), st.sampled_from([".pl", ".pro"]))
def test_a_plain_file_name_is_kept(stem, suffix):
    assert site_python.file_name(f"C:\\Users\\me\\{stem}{suffix}") == f"{stem}.pl"
    assert site_python.file_name(f"/home/me/{stem}{suffix}") == f"{stem}.pl"


NOT_SPYING = {"spied": [], "debugging": False}
"""The page's spy points where none is set, as each reply says them."""


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=80), st.sampled_from(["[{}].", "consult({}).", "[{}, other]."]))
def test_loading_a_file_at_the_pages_top_level_says_where_to_check_it_in_one_line(name, form):
    """`[file].` in the page: one plain line, worded as the command line words its errors,
    that names no folder of the page's Python (it has none of the student's), and `consult`
    telling the page to load the file picked into its SWI-Prolog instead."""
    answered = json.loads(site_python.query(form.format(quote_atom(name))))
    assert answered == {"status": 2, "out": "", "consult": True, "spying": NOT_SPYING,
                        "err": f"minimax-lab: error: {site_python.NO_FILES}\n"}
    assert json.loads(site_python.query("X is 1."))["consult"] is False


def test_make_in_the_page_asks_the_page_to_load_the_file_picked_again():
    answered = json.loads(site_python.query("make."))
    assert answered == {"status": 2, "out": "", "consult": True, "spying": NOT_SPYING,
                        "err": f"minimax-lab: error: {site_python.NO_FILES}\n"}


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=30).filter(lambda engine: engine not in site_python.ENGINES))
def test_an_unknown_engine_is_one_line(engine):
    answered = json.loads(site_python.query("X is 1.", engine))
    assert answered["status"] == 2 and answered["out"] == ""
    assert answered["err"].count("\n") == 0 and repr(engine) in answered["err"]


@settings(max_examples=200, deadline=None)
@given(st.sampled_from([*site_python.VIEWS, "nothing"]), st.text(max_size=30),
       st.text(max_size=4))
def test_a_picture_of_bad_input_is_a_one_line_message(kind, position, player):
    """The pictures' fields take any text: a picture, or one line saying what is wrong."""
    shown = json.loads(site_python.view(kind, position, player))
    assert set(shown) in ({"html"}, {"error"})
    if "error" in shown:
        assert shown["error"] and "\n" not in shown["error"] and "Traceback" not in shown["error"]


class _Replying:
    """A host whose SWI-Prolog replies `text` to everything."""

    folder = "/submission"

    def __init__(self, text: str) -> None:
        self.text = text

    def load(self, number: int) -> str:
        return self.text

    def answer(self, question: str) -> str:
        return self.text


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=80), st.builds(json.dumps, st.one_of(
    st.integers(), st.lists(st.integers()), st.dictionaries(st.text(max_size=5), st.text())))))
def test_a_host_that_replies_anything_gives_up_with_a_message(text):
    """Whatever comes back from the page's SWI-Prolog in place of the harness's line (a crash's
    message, other JSON), the check never raises; what is no line of the harness's gives the
    program up, with a message."""
    program = HostedProgram(_Replying(text))
    report = program.load()
    reply = program.ask("terminal_state([x,x,x,o,o,-,-,-,-], x, V)", "V", 1, 1.0, 1000)
    if not isinstance(_json_or_none(text), dict):
        assert report.problem and report.problem.startswith("the program ")
        assert program.given_up == report.problem
        assert reply.end == "died" and reply.error == report.problem
        with pytest.raises(Died):
            _line(text)


class _Recording(SwiplHost):
    """A host that keeps each question it was asked."""

    def __init__(self, path: Path, folder: Path) -> None:
        super().__init__(path, folder)
        self.asked: list[str] = []

    def answer(self, question: str) -> str:
        self.asked.append(question)
        return super().answer(question)


def end_to_end(report: str) -> tuple[int, int]:
    """How many of the end-to-end sample's questions a report says are right, of how many."""
    found = re.search(r"end to end: (\d+) of (\d+) right", report)
    assert found is not None, report
    return int(found[1]), int(found[2])


def checked_in_swipl(path: Path, folder: Path, per_check: int, fresh: bool):
    """A check of `path` in a `swipl` standing for the page's SWI-Prolog, the whole program's
    questions asked of a second, fresh one if `fresh`: its report and the SWI-Prologs."""
    host = _Recording(path, folder)
    second = SwiplFresh(path, folder) if fresh else None
    try:
        grade = check_hosted(path.stem, host, Sample(per_check), fresh=second)
    finally:
        host.close()
        if second is not None:
            second.close()
    return submission_report(grade), host, second


@needs_swipl
def test_the_whole_programs_questions_go_to_a_fresh_swi_prolog_never_given_a_lab_answer(
        tmp_path):
    """keeps_the_lab.pl keeps the lab's answers its calls got: asked in the SWI-Prolog that gave
    them, its end-to-end sample gains from them; asked of a fresh one, as `grade` asks them of
    a fresh process, it answers from its own search alone."""
    path = SUBMISSIONS / "hostile" / "keeps_the_lab.pl"
    shared, _, _ = checked_in_swipl(path, tmp_path, 10, fresh=False)
    apart, host, fresh = checked_in_swipl(path, tmp_path, 10, fresh=True)
    assert fresh is not None
    right, asked = end_to_end(apart)
    assert len(fresh.sent) == len(fresh.lines) == asked > 0
    assert all(", memo)" in question and "below(" not in question for question in fresh.sent)
    assert host.asked and not any(", memo)" in question for question in host.asked)
    assert right < end_to_end(shared)[0]


def asked_in_order(host) -> list[str]:
    """The questions a host was asked, in order, their numbers left out."""
    return [re.sub(r"^ask\(\d+", "ask(N", question) for question in host.asked]


@needs_swipl
@pytest.mark.parametrize(("name", "per_check"), [
    ("no_draw", 20), pytest.param("loops", 20, marks=pytest.mark.slow),
    pytest.param("loops", 0, marks=pytest.mark.slow),
    pytest.param("lab_style", 0, marks=pytest.mark.slow)])
def test_a_host_sent_the_next_questions_ahead_is_asked_the_same_in_the_same_order(
        tmp_path, name, per_check):
    """The page's SWI-Prolog in a worker of its own is sent the next batch while the last is
    judged: it is asked the same questions in the same order as one asked a batch at a time,
    a budget that runs out (loops.pl) included, and the report is the same."""
    path = SUBMISSIONS / f"{name}.pl"
    hosts = [_Recording(path, tmp_path), PipedSwiplHost(path, tmp_path)]
    reports = []
    for host in hosts:
        try:
            selection = Every() if per_check == 0 else Sample(per_check)
            reports.append(submission_report(check_hosted(name, host, selection)))
        finally:
            host.close()
    assert reports[1] == reports[0]
    assert asked_in_order(hosts[1]) == asked_in_order(hosts[0])
    assert hosts[1].queued  # some were sent ahead


def test_a_fresh_swi_prolog_in_the_checks_own_worker_loads_the_file_once_and_asks_in_turn():
    """Where the page's Python cannot wait for a worker of its own, the fresh SWI-Prolog is a
    second one in the check's worker (`PrologFresh`): the harness consulted and the file
    written when it is made, loaded at the first reply wanted, each question asked as sent."""
    goals: list[tuple[str, str]] = []
    written: dict[str, str] = {}

    class Prolog:
        def write(self, path: str, text: str) -> None:
            written[path] = text

        def line(self, goal: str, text: str) -> str:
            goals.append((goal, text))
            return f"line {len(goals)}"

    fresh = site_python.PrologFresh(Prolog(), "mine.pl", "my text")
    assert written[f"{site_python.FOLDER}/mine.pl"] == "my text"
    assert goals[-1] == (site_python.CONSULT_GOAL, "")
    made = len(goals)
    fresh.send(["first", "second"])
    fresh.send(["third"])
    assert len(goals) == made and fresh.count == 3  # nothing asked until a reply is wanted
    assert fresh.reply(1) == f"line {made + 2}"
    assert goals[made][0].startswith("harness:host_load('/submission/mine.pl'")
    assert goals[made + 1] == (site_python.ANSWER_GOAL, "second")
    fresh.reply(2)
    assert goals[made + 2:] == [(site_python.ANSWER_GOAL, "third")]  # loaded once


def _json_or_none(text: str) -> object:
    try:
        return json.loads(text)
    except ValueError:
        return None


@needs_swipl
def test_the_check_tells_where_and_no_answer_or_clause_of_the_labs(check_page):
    report = check(check_page, "constant.pl")["report"]
    assert "first wrong call: " in report and "---+---+---" in report  # where, drawn
    graded = graded_here("constant")
    lab = [text for result in graded.checks.values()
           for text in ([found.lab for found in result.findings if found.lab]
                        + ([line.strip() for line in result.first_wrong.clause.splitlines()
                            if line.strip()] if result.first_wrong else []))]
    assert lab and not [text for text in lab if text in report], report
    assert not re.search(r"--[a-z]|bwrap|cgroup|containment", report), report


# --- the page's tracer that steps ---------------------------------------------------------------

# x to move, three blanks left
#  x | o | x
#  x | o | 6
#  o | 8 | 9
LATE = "xoxxo-o--"
STEPPED_GOAL = f"max_value({LATE}, x, V)."
PORT_KEYS = "cslrfnh;."


def terminal_transcript(goal: str, keys: str) -> str:
    """What the command line's top level prints for `goal` after `trace.`, the keys typed at
    a terminal as it asks for them (end of input past the last)."""

    session = Session("reference", io.StringIO(), Keys(keys))
    assert session.handle("trace.")
    session.out = io.StringIO()
    session.handle(goal)
    return session.out.getvalue()


def terminal_until_waiting(before: list[str], goal: str, keys: str) -> tuple[str, bool]:
    """What the command line's top level prints for `goal`, after the goals `before` (asked
    with no key typed), the keys typed at a terminal as it asks for them: up to where it
    waits for the next key, and whether it waits."""
    waited_at: list[int] = []

    class Typed:
        def __init__(self, keys: str) -> None:
            self.left = list(keys)

        @contextlib.contextmanager
        def answering(self):
            yield

        def read(self) -> str:
            if not self.left and not waited_at:
                waited_at.append(len(session.out.getvalue()))
            return self.left.pop(0) if self.left else ""

    session = Session("reference", io.StringIO(), Typed(""))
    for asked in before:
        assert session.handle(asked)
    waited_at.clear()
    session.out, session.keys = io.StringIO(), Typed(keys)
    session.handle(goal)
    printed = session.out.getvalue()
    return (printed[:waited_at[0]], True) if waited_at else (printed, False)


def page_transcript(goal: str, keys: str) -> tuple[str, bool]:
    """What the page's top level shows for `goal` after `trace.`, the keys typed one by one
    while it waits; and whether it still waits."""
    site_python.query("trace.", "reference")
    answered = json.loads(site_python.query(goal, "reference"))
    for key in keys:
        if not answered["waiting"]:
            break
        answered = json.loads(site_python.key(key, "reference"))
    return answered["out"], answered["waiting"]


@settings(max_examples=40, deadline=None)
@given(st.text(alphabet=PORT_KEYS + "\nx", max_size=14))
def test_the_page_steps_a_goal_as_the_terminal_does(keys):
    """Whatever keys are typed, the page shows what the terminal shows for them: the same
    ports, commands and answers, up to the port where it waits for the next key."""
    shown, waiting = page_transcript(STEPPED_GOAL, keys)
    terminal = terminal_transcript(STEPPED_GOAL, keys)
    if waiting:
        assert terminal.startswith(shown) and shown.endswith(" ")
    else:
        assert shown == terminal


def test_a_stepped_goal_creeps_to_its_answer_and_the_next_goal_runs_untraced():
    shown, waiting = page_transcript("other_player(x, O).", "cc;cc")
    assert not waiting
    assert [line.split(":")[0].strip() for line in shown.splitlines() if "(1)" in line] == [
        "Call", "Exit", "Redo", "Fail"]
    assert "O = o ;" in shown and shown.endswith("false.\n")
    assert json.loads(site_python.query("other_player(x, O).", "reference"))["out"] == "O = o.\n"


def test_a_spy_point_says_what_the_page_does_as_a_terminals_says():
    """The page stops at a spy point's ports, as a terminal does, and says so as one does."""
    said = json.loads(site_python.query("spy(terminal_state).", "reference"))["out"]
    terminal = io.StringIO()
    Session("reference", terminal, Keys("")).handle("spy(terminal_state).")
    site_python.query("nospyall.", "reference")
    site_python.query("nodebug.", "reference")
    assert said == terminal.getvalue() and "the tracer stops at its ports" in said


def test_a_spy_point_on_the_programs_predicate_is_the_pages_whatever_the_engine():
    """spy/1 may name a predicate of the program loaded in the page's SWI-Prolog, and the
    page's spy points are one set, told in each reply to the program's worker."""
    refused = json.loads(site_python.query("spy(len/2).", "reference"))
    assert "spy/1: no predicate len/2" in refused["err"]
    site_python.program_loaded(json.dumps(["len/2", "a b/1"]))
    try:
        said = json.loads(site_python.query("spy(len/2).", "reference"))
        assert said["out"].startswith("% Spy point on len/2")
        assert said["spying"] == {"spied": ["len/2"], "debugging": True}
        assert json.loads(site_python.query("spy('a b'/1).", "logic"))["spying"] == {
            "spied": ["'a b'/1", "len/2"], "debugging": True}  # one set for both engines
        off = json.loads(site_python.query("nodebug.", "reference"))["spying"]
        assert off == {"spied": ["'a b'/1", "len/2"], "debugging": False}
    finally:
        site_python.query("nospyall.", "reference")
        site_python.program_loaded("[]")
    assert json.loads(site_python.query("true.", "logic"))["spying"] == NOT_SPYING


def test_a_key_with_no_goal_stepped_is_one_line():
    site_python.query("true.", "reference")
    answered = json.loads(site_python.key("c", "reference"))
    assert answered["status"] == 2 and answered["err"].count("\n") == 0


def test_abort_and_halt_end_a_stepped_goal_and_the_page_goes_on():
    shown, waiting = page_transcript(STEPPED_GOAL, "ca")
    assert not waiting and shown.endswith("% Execution Aborted\n")
    site_python.query("trace.", "reference")
    assert json.loads(site_python.query("halt.", "reference"))["waiting"]  # at halt's Call
    halted = json.loads(site_python.key("c", "reference"))
    assert halted["out"].endswith(site_python.HALTED) and not halted["waiting"]
    assert json.loads(site_python.query("X is 1 + 1.", "reference"))["out"] == "X = 2.\n"
