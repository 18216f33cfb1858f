"""The harness's own cost per question (`logic/prolog/harness.pl`, `host_answer/2`, as the
site's check asks it): the whole check of the solution in the lab's style is recorded once
through `tests/hosts.py`'s `SwiplHost` (every question line and reply, and the CPU time of its
`swipl`), then its questions are replayed in one `swipl`, `host_answer/2` called on each line
in turn, and the CPU time of the calls measured inside it.

    .venv/bin/python benchmarks/bench_harness.py [--runs 3] [--harness PATH] [--full]

with the Python minimax-lab is installed in. `--harness` replays another copy of the harness
(an older one, to compare in one session); `--full` sends each question's answers below in
full, as the site's check did before it said `same`. The end-to-end sample's questions (`memo`)
are left out of the replay: their cost is the program's own search, not the harness's. Each
reply of the replay is compared with the recorded one, but for its "seconds"; a reply that
differs is counted (0 expected: the harness answers the same, whatever its cost).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
from importlib import resources
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOLUTION = ROOT / "tests" / "submissions" / "lab_style.pl"
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from hosts import SwiplHost  # noqa: E402

from minimax_lab.compare.grader.options.options import Where, defaults_at  # noqa: E402
from minimax_lab.compare.grader.running.hosted import Every, check_hosted  # noqa: E402

REPLAY = """
main :-
    current_prolog_flag(argv, [Harness, Main, Helper, Questions, Replies|_]),
    load_files(Harness, [silent(true)]),
    current_output(Out),
    stream_property(Error, alias(user_error)),
    harness:host_load(Main, Helper, 1, _),
    read_file_to_string(Questions, Text, []),
    split_string(Text, "\\n", "", Lines0),
    exclude(==(""), Lines0, Lines),
    garbage_collect,
    statistics(cputime, Start),
    maplist(harness:host_answer, Lines, Answers),
    statistics(cputime, Stop),
    Seconds is Stop - Start,
    setup_call_cleanup(open(Replies, write, Stream, [encoding(utf8)]),
                       forall(member(Line, Answers), format(Stream, "~s~n", [Line])),
                       close(Stream)),
    format(Out, "~6f~n", [Seconds]),
    flush_output(Out),
    set_stream(Out, alias(user_output)),  % the harness's capture, closed as SWI-Prolog halts
    set_stream(Error, alias(user_error)),
    halt(0).
:- initialization(main, main).
"""

QUESTION = re.compile(r"^(ask\(\d+, \(.*?\), \(.*?\), \d+, \w+, )(.*)\)$")


class Recording(SwiplHost):
    """A `SwiplHost` that keeps every question line and its reply."""

    def __init__(self, path: Path, folder: Path) -> None:
        super().__init__(path, folder)
        self.asked: list[tuple[str, str]] = []

    def answer(self, question: str) -> str:
        reply = super().answer(question)
        self.asked.append((question, reply.rstrip("\n")))
        return reply

    def cpu_seconds(self) -> float:
        """The CPU time its `swipl` took so far (Linux's /proc)."""
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def record(folder: Path) -> tuple[list[tuple[str, str]], float]:
    """The whole check's questions and replies, and its `swipl`'s CPU seconds."""
    host = Recording(SOLUTION, folder)
    grade = check_hosted("lab_style", host, Every(), None, **defaults_at(Where.SITE))
    seconds = host.cpu_seconds()
    host.close()
    if not grade.clean:
        raise SystemExit("the solution in the lab's style was not judged right")
    return host.asked, seconds


def full(lines: list[str]) -> list[str]:
    """`lines` with each `same` replaced by the answers below it, as sent before."""
    held, out = "none", []
    for line in lines:
        match = QUESTION.match(line)
        if match is None:
            raise SystemExit(f"not a question line: {line[:80]}")
        head, below = match.groups()
        if below == "same":
            below = held
        out.append(f"{head}{below})")
        held = below
    return out


def without_seconds(reply: str) -> object:
    read = json.loads(reply)
    read.pop("seconds", None)
    return read


def replay(harness: Path, questions: Path, replies: Path, driver: Path) -> float:
    lab = resources.files("minimax_lab.logic.prolog")
    done = subprocess.run(["swipl", "-q", "-f", "none", str(driver), "--", str(harness),
                           str(SOLUTION), str(lab / "minimax_helper.pl"), str(questions),
                           str(replies)], capture_output=True, text=True, timeout=600,
                          check=True)
    return float(done.stdout.split()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--harness", type=Path,
                        default=Path(str(resources.files("minimax_lab.logic.prolog")
                                         / "harness.pl")))
    parser.add_argument("--full", action="store_true")
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        asked, check_cpu = record(folder)
        kept = [(line, reply) for line, reply in asked if not line.endswith(", memo)")]
        lines = [line for line, _ in kept]
        if arguments.full:
            lines = full(lines)
        questions, replies, driver = folder / "questions", folder / "replies", folder / "r.pl"
        questions.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
        driver.write_text(REPLAY)
        seconds = [replay(arguments.harness, questions, replies, driver)
                   for _ in range(arguments.runs)]
        replayed = replies.read_text(encoding="utf-8").splitlines()
    differ = sum(without_seconds(mine) != without_seconds(theirs)
                 for mine, (_, theirs) in zip(replayed, kept, strict=True))
    said = sum(line.endswith(", same)") for line in lines)
    median = statistics.median(seconds)
    print(f"whole check through SwiplHost: {len(asked)} questions, swipl {check_cpu:.2f} CPU-s")
    print(f"replay of {len(lines)} questions ({said} saying same), {arguments.harness}: "
          f"median {median:.3f} CPU-s of {', '.join(f'{s:.3f}' for s in seconds)}, "
          f"{median / len(lines) * 1e6:.1f} us a question; replies differing: {differ}")


if __name__ == "__main__":
    main()
