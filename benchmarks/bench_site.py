"""Time the site (`minimax-lab site DIR`) in headless Chromium beside the command line: the
first load of the top level, the first answer to minimax_decision on the empty board, the
load of check my lab after it, a check of the solution in the lab's style on the same sample
of questions, and its whole check (every question `grade` asks) beside `minimax-lab grade` of
the same file.

    .venv/bin/python benchmarks/bench_site.py [--runs 3] [--sample 40] [--no-whole]

with the Python minimax-lab is installed in (and its test extra: selenium), Chromium and its
driver. Each browser run is a fresh Chromium with an empty cache, the site served from
loopback; each command-line run a fresh process. Both run in the same session, interleaved run
by run; the medians and their ratio are printed as Markdown rows for docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from datetime import date
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SOLUTION = ROOT / "tests" / "submissions" / "lab_style.pl"
EMPTY = "minimax_decision([-,-,-,-,-,-,-,-,-], x, A, V)."
BOUND = 600.0
"""Seconds any one measurement may take before the run is given up."""
sys.path.insert(0, str(ROOT))

from minimax_lab.logic.contain.cgroups import sandboxes_cpu_seconds  # noqa: E402


def browser() -> Any:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
                     "--disable-background-networking"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "chromedriver"),
                              options=options)
    driver.set_script_timeout(BOUND)
    return driver


def wait(driver: Any, script: str, seen: dict[str, float] | None = None) -> None:
    """Wait until `script` is true in the page; `seen` filled with the CPU seconds of
    Chromium's worker threads meanwhile (`worker_threads`), each as last seen."""
    deadline = time.monotonic() + BOUND
    while not driver.execute_script(script):
        if time.monotonic() > deadline:
            raise SystemExit(f"gave up after {BOUND:g} s waiting for: {script}")
        if seen is not None:
            seen.update(worker_threads())
        time.sleep(0.05)
    if seen is not None:
        seen.update(worker_threads())


def worker_threads() -> dict[str, float]:
    """The CPU seconds (user and system) of each of Chromium's worker threads now running
    (`DedicatedWorker`: the page's workers, each a thread of its renderer), by process and
    thread; read from /proc, so that a worker ended (the check's own SWI-Prologs) is counted
    as last seen."""
    found = {}
    tick = os.sysconf("SC_CLK_TCK")
    for task in Path("/proc").glob("[0-9]*/task/[0-9]*"):
        try:
            stat = (task / "stat").read_text()
        except OSError:
            continue
        name, fields = stat[stat.index("(") + 1:stat.rindex(")")], stat[stat.rindex(")") + 2:]
        if name.startswith("DedicatedWorker"):
            parts = fields.split()
            found[str(task)] = (int(parts[11]) + int(parts[12])) / tick
    return found


READY = "return document.getElementById('status').dataset.state === 'ready'"


def browser_run(address: str, sample: int, whole: bool) -> dict[str, float]:
    """One fresh Chromium: the top level's load and first answer, then the check on a sample
    and (if `whole`) on every question."""
    driver = browser()
    try:
        start = time.monotonic()
        driver.get(f"{address}/index.html")
        wait(driver, READY)
        loaded = time.monotonic() - start
        field = driver.find_element("id", "goal")
        field.clear()
        field.send_keys(EMPTY)
        start = time.monotonic()
        driver.find_element("id", "run").click()
        wait(driver, "return document.querySelectorAll('#transcript > div').length >= 2 && "
                     "document.getElementById('status').dataset.state === 'ready'")
        answered = time.monotonic() - start
        answer = driver.find_elements("css selector", "#transcript > div")[-1].text
        assert answer.startswith("A = [x,1]"), answer
        start = time.monotonic()
        driver.get(f"{address}/check.html")
        wait(driver, READY)
        ready = time.monotonic() - start
        driver.execute_script("document.getElementById('source').value = arguments[0];",
                              SOLUTION.read_text())
        times = {"load": loaded, "answer": answered, "ready": ready}
        for key, asked in (("check", sample), ("whole", 0))[:2 if whole else 1]:
            driver.execute_script(f"document.getElementById('sample').innerHTML = "
                                  f"'<option value=\"{asked}\">{asked}</option>';"
                                  "document.getElementById('summary').textContent = ''")
            before = worker_threads()
            seen: dict[str, float] = {}
            start = time.monotonic()
            driver.find_element("id", "check").click()
            wait(driver, "return document.getElementById('summary').textContent !== ''", seen)
            times[key] = time.monotonic() - start
            used = [cpu - before.get(thread, 0.0) for thread, cpu in seen.items()]
            times[f"{key} cpu"] = sum(used)
            times[f"{key} busiest"] = max(used, default=0.0)
            assert driver.find_element("id", "summary").get_attribute("data-right") == "true"
        return times
    finally:
        driver.quit()


def command_line_run(sample: int, whole: bool) -> dict[str, float]:
    """The same on the command line: `query` from a fresh process, the grader core asking
    the same sample of questions of the solution, contained as `grade` contains it, and (if
    `whole`) `minimax-lab grade` of the solution."""
    start = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "minimax_lab", "query", EMPTY],
                          capture_output=True,
                          text=True, timeout=BOUND, check=True)
    answered = time.monotonic() - start
    assert done.stdout.startswith("A = [x,1]"), done.stdout
    start = time.monotonic()
    right = subprocess.run([sys.executable, "-c", NATIVE_CHECK, str(SOLUTION), str(sample)],
                           capture_output=True, text=True, timeout=BOUND, check=True)
    checked = time.monotonic() - start
    assert right.stdout.strip() == "True", right.stdout + right.stderr
    times = {"load": 0.0, "answer": answered, "ready": 0.0, "check": checked}
    if whole:
        before, sandboxes = resource.getrusage(resource.RUSAGE_CHILDREN), sandboxes_cpu_seconds()
        start = time.monotonic()
        subprocess.run([sys.executable, "-m", "minimax_lab", "grade", str(SOLUTION)],
                       capture_output=True, text=True, timeout=BOUND, check=True)
        times["whole"] = time.monotonic() - start
        after, used = resource.getrusage(resource.RUSAGE_CHILDREN), sandboxes_cpu_seconds()
        times["whole cpu"] = (after.ru_utime - before.ru_utime) + (
            after.ru_stime - before.ru_stime) + (
            used - sandboxes if used is not None and sandboxes is not None else 0.0)
        times["whole busiest"] = 0.0
    return times


NATIVE_CHECK = """
import sys
from pathlib import Path
from minimax_lab.compare.grader.running.hosted import Sample, hosted_checks
from minimax_lab.compare.grader.interfaces.interface import Options
from minimax_lab.compare.grader.interfaces.prolog_interface import PrologInterface
from minimax_lab.compare.grader.running.run import grade_submission

class Sampled(PrologInterface):
    def open(self, path, options):
        session = super().open(path, options)
        every = session.questions

        def sampled(checks):  # as HostedSession asks: its batches hold the sample's only
            chosen = Sample(int(sys.argv[2])).select(every(checks))
            session._order, session._index = chosen, {q: n for n, q in enumerate(chosen)}
            return chosen

        session.questions = sampled
        return session

interface = Sampled()  # the page's checks: no play check, whose games ask far more
grade = grade_submission("lab_style", Path(sys.argv[1]), Options(
    interface, checks=hosted_checks(interface.checks), policy=interface.policy))
print(grade.clean)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--sample", type=int, default=40,
                        help="questions of each predicate the check asks (default: 40)")
    parser.add_argument("--no-whole", dest="whole", action="store_false",
                        help="leave out the whole check and grade (minutes each run)")
    args = parser.parse_args()
    from minimax_lab.logic.site.build import build_site

    with tempfile.TemporaryDirectory() as folder:
        written = build_site(Path(folder) / "site")
        handler = functools.partial(_Quiet, directory=str(written.folder))
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        address = f"http://127.0.0.1:{server.server_address[1]}"
        runs: dict[str, list[dict[str, float]]] = {"browser": [], "command line": []}
        for number in range(args.runs):
            runs["browser"].append(browser_run(address, args.sample, args.whole))
            runs["command line"].append(command_line_run(args.sample, args.whole))
            print(f"run {number + 1}: {runs['browser'][-1]} {runs['command line'][-1]}",
                  file=sys.stderr)
        server.shutdown()
    print(f"{date.today()}, {platform.python_version()}, {args.runs} runs, site "
          f"{written.total() / 1e6:.1f} MB (the top level loads "
          f"{(written.total() - written.total('swipl/')) / 1e6:.1f} MB)\n")
    print("| workload | browser median s | min s | max s | command line median s "
          "| x command line |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    names = {"load": "first load of the top level (Pyodide and the lab's Python)",
             "answer": f"first answer to `{EMPTY}` (logic engine)",
             "ready": "load of check my lab after the top level (its worker ready to check)",
             "check": f"check of lab_style.pl, {args.sample} questions of each predicate",
             "whole": "whole check of lab_style.pl (every question; command line: "
                      "`minimax-lab grade`)",
             "whole cpu": "its CPU seconds: the page's workers; `grade` and its sandboxes",
             "whole busiest": "its CPU seconds in the busiest worker (the check's Python)"}
    for key, name in names.items():
        if key not in runs["browser"][0]:
            continue
        seen = [run[key] for run in runs["browser"]]
        native = statistics.median(run[key] for run in runs["command line"])
        ratio = f"{statistics.median(seen) / native:.1f}" if native else "-"
        print(f"| {name} | {statistics.median(seen):.2f} | {min(seen):.2f} | {max(seen):.2f} "
              f"| {f'{native:.2f}' if native else NO_COMMAND_LINE.get(key, '-')} | {ratio} |")


NO_COMMAND_LINE = {"load": "- (in each answer)", "ready": "- (in each answer)"}
"""What the command line's column says where it has no figure of its own."""


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


if __name__ == "__main__":
    main()
