"""A class beyond one machine: `grade --shard K/N` grades one part, `gradebook merge` joins the
parts' JSON into the gradebook one run would have written; the JSON reads back as it was
written; parts that do not make one class are refused in one line."""

from __future__ import annotations

import argparse
import csv
import io
import json
import re
from pathlib import Path
from xml.etree import ElementTree

import pytest
from gradebooks import without_times
from hypothesis import given, settings
from hypothesis import strategies as st
from marks import needs_swipl
from quiet import quietly

from minimax_lab.compare.grader.outputs.results_json import class_from_json, class_json
from minimax_lab.logic.commands.cli import EXIT_USAGE, main
from minimax_lab.logic.commands.grade import shard
from minimax_lab.logic.quote import quoted

pytestmark = needs_swipl
ROOT = Path(__file__).resolve().parent.parent
SUBMISSIONS = ROOT / "tests" / "submissions"
CLASS = [SUBMISSIONS / f"{name}.pl" for name in
         ("wrong_side", "lab_style", "never_loads", "no_draw", "misspelt")]
QUICK = ["--predicates", "terminal_state,max_value", "--load-timeout", "1",
         "--inference-budget", "0.001", "--jobs", "2"]


def grade(paths: list[Path], *options: str) -> int:
    """`grade` run in this process, quietly; the exit status."""
    return quietly(["grade", *map(str, paths), *QUICK, *options])[0]


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """The class graded in one run (its paths in order), and in three parts merged."""
    folder = tmp_path_factory.mktemp("shards")
    whole = grade(sorted(CLASS), "--json", str(folder / "whole.json"), "--csv",
                  str(folder / "whole.csv"), "--junit", str(folder / "whole.xml"))
    parts = [grade(CLASS, "--shard", f"{part}/3", "--json", str(folder / f"part{part}.json"))
             for part in (1, 2, 3)]  # in another order: the parts sort the paths
    merged = main(["gradebook", "merge", *(str(folder / f"part{part}.json")
                                           for part in (3, 1, 2)),
                   "--json", str(folder / "merged.json"), "--csv", str(folder / "merged.csv"),
                   "--junit", str(folder / "merged.xml")])
    return folder, whole, parts, merged


def test_each_part_grades_its_share_of_the_class_in_a_stable_order(runs):
    folder, _, _, _ = runs
    names = [[submission["name"] for submission in
              json.loads((folder / f"part{part}.json").read_text())["submissions"]]
             for part in (1, 2, 3)]
    everyone = sorted(path.stem for path in CLASS)  # the paths' order, sorted
    assert names == [everyone[0::3], everyone[1::3], everyone[2::3]]


def test_the_merged_parts_are_the_one_runs_gradebook(runs):
    folder, whole, parts, merged = runs
    assert whole == merged == 1 and set(parts) == {1}
    one = json.loads((folder / "whole.json").read_text())
    joined = json.loads((folder / "merged.json").read_text())
    assert without_times(joined) == without_times(one)
    assert [row[:-1] for row in csv.reader(io.StringIO((folder / "merged.csv").read_text()))] \
        == [row[:-1] for row in csv.reader(io.StringIO((folder / "whole.csv").read_text()))]
    trees = [ElementTree.parse(folder / name).getroot() for name in ("whole.xml", "merged.xml")]
    for tree in trees:
        for element in tree.iter():
            element.attrib.pop("time", None)
    assert ElementTree.tostring(trees[0]) == ElementTree.tostring(trees[1])


def test_the_json_reads_back_as_it_was_written(runs):
    folder, _, _, _ = runs
    report = json.loads((folder / "whole.json").read_text())
    again = class_json(class_from_json(report))
    assert again == report
    assert any(submission["predicates"]["terminal_state"]["findings"]
               for submission in report["submissions"])  # findings were read back too


@pytest.mark.parametrize(("parts", "message"), [
    (["part1.json"], "part 2 of 3 is missing"),
    (["part1.json", "part1.json", "part2.json", "part3.json"],
     "part 1 of 3 is given twice (FOLDER/part1.json, FOLDER/part1.json)"),
    (["part1.json", "part1.json"],  # given twice, though part 2 and 3 are missing too
     "part 1 of 3 is given twice (FOLDER/part1.json, FOLDER/part1.json)"),
    (["whole.json"], "a report has no shard"),
])
def test_parts_that_do_not_make_one_class_are_refused(runs, capsys, parts, message):
    folder, _, _, _ = runs
    assert main(["gradebook", "merge", *(str(folder / part) for part in parts)]) == EXIT_USAGE
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith(f"minimax-lab: error: {message.replace('FOLDER', str(folder))}")


def test_a_reports_folder_is_made_fresh_or_refused(tmp_path, capsys):
    reports = tmp_path / "reports"
    one = ["--predicates", "terminal_state", "--inference-budget", "0.001", "--jobs", "1",
           "--reports", str(reports)]
    main(["grade", str(SUBMISSIONS / "no_draw.pl"), str(SUBMISSIONS / "lab_style.pl"), *one])
    assert sorted(path.name for path in reports.iterdir() if not path.name.startswith(".")) == [
        "lab_style.log", "lab_style.txt", "no_draw.log", "no_draw.txt"]
    main(["grade", str(SUBMISSIONS / "lab_style.pl"), *one])  # the class is now one student
    assert sorted(path.name for path in reports.iterdir() if not path.name.startswith(".")) == [
        "lab_style.log", "lab_style.txt"]  # no report of an earlier run is left behind
    (reports / "my notes.txt").write_text("the teacher's own\n")
    capsys.readouterr()
    assert main(["grade", str(SUBMISSIONS / "lab_style.pl"), *one]) == EXIT_USAGE
    (line,) = capsys.readouterr().err.splitlines()
    assert line == (f"minimax-lab: error: the reports folder {quoted(str(reports))} holds files "
                    "grade did "
                    "not write (my notes.txt): give a new or empty folder")
    assert (reports / "my notes.txt").read_text() == "the teacher's own\n"
    assert (reports / "lab_style.txt").exists()  # nothing removed before the refusal


def test_the_parts_of_a_split_class_share_a_reports_folder(tmp_path, capsys):
    reports = tmp_path / "reports"
    for part in (1, 2):
        main(["grade", *map(str, CLASS[:2]), "--predicates", "terminal_state",
              "--inference-budget", "0.001", "--jobs", "1", "--shard", f"{part}/2",
              "--reports", str(reports)])
    written = sorted(path.stem for path in reports.glob("*.txt"))
    assert written == sorted(path.stem for path in CLASS[:2])


@given(st.text(max_size=12))
def test_any_shard_text_is_a_part_or_a_usage_error(text):
    try:
        part, parts = shard(text, {})
    except argparse.ArgumentTypeError as error:
        assert "expected K/N" in str(error) or text == "slurm" or text.startswith("kubernetes/")
    else:
        assert 1 <= part <= parts and text == f"{text.split('/')[0]}/{text.split('/')[1]}"


def slurm(index: int, first: int, last: int, count: int, step: int | None = None) -> dict:
    """What Slurm tells a task of a job array."""
    told = {"SLURM_ARRAY_TASK_ID": index, "SLURM_ARRAY_TASK_MIN": first,
            "SLURM_ARRAY_TASK_MAX": last, "SLURM_ARRAY_TASK_COUNT": count}
    if step is not None:
        told["SLURM_ARRAY_TASK_STEP"] = step
    return {name: str(value) for name, value in told.items()}


@pytest.mark.parametrize(("environ", "part"), [
    (slurm(0, 0, 2, 3), (1, 3)),  # --array=0-2, as Slurm tells it (a step of 1 too)
    (slurm(2, 0, 2, 3, 1), (3, 3)),
    (slurm(1, 1, 4, 4), (1, 4)),  # --array=1-4
    (slurm(4, 1, 4, 4, 1), (4, 4)),
    (slurm(6, 2, 10, 3, 4), (2, 3)),  # --array=2-10:4: 2, 6 and 10
    (slurm(5, 5, 5, 1), (1, 1)),
])
def test_shard_slurm_is_the_tasks_place_in_its_array(environ, part):
    assert shard("slurm", environ) == part


@pytest.mark.parametrize(("environ", "message"), [
    ({}, "slurm: not a task of a Slurm job array (no SLURM_ARRAY_TASK_ID)"),
    (slurm(3, 1, 7, 3, 1), "slurm: the array's indices are not evenly spaced"),  # 1,3,7
    (slurm(4, 2, 10, 3, 4), "slurm: the array's indices are not evenly spaced"),
    (slurm(5, 1, 4, 4), "slurm: the array's indices are not evenly spaced"),
    ({**slurm(1, 1, 4, 4), "SLURM_ARRAY_TASK_COUNT": "x"},
     "slurm: expected whole numbers from Slurm"),
])
def test_shard_slurm_outside_an_evenly_spaced_array_is_a_usage_error(environ, message):
    with pytest.raises(argparse.ArgumentTypeError, match="^" + re.escape(message)):
        shard("slurm", environ)


@settings(deadline=None)
@given(st.integers(0, 9), st.integers(1, 9), st.integers(1, 3), st.data())
def test_every_task_of_an_array_has_a_part_of_its_own(first, count, step, data):
    indices = range(first, first + count * step, step)
    parts = [shard("slurm", slurm(index, first, indices[-1], count, step)) for index in indices]
    assert parts == [(part, count) for part in range(1, count + 1)]
    told = data.draw(st.fixed_dictionaries({name: st.text("0123456789x", max_size=2) for name in
                                            slurm(0, 0, 0, 0, 0)}))
    try:
        part, parts_told = shard("slurm", told)
    except argparse.ArgumentTypeError as error:
        assert str(error).startswith("slurm: ")
    else:
        assert 1 <= part <= parts_told == int(told["SLURM_ARRAY_TASK_COUNT"])


@pytest.mark.parametrize(("index", "part"), [("0", (1, 4)), ("3", (4, 4))])
def test_shard_kubernetes_is_the_pods_completion_index_counted_from_one(index, part):
    assert shard("kubernetes/4", {"JOB_COMPLETION_INDEX": index}) == part


@pytest.mark.parametrize(("environ", "message"), [
    ({}, "kubernetes/4: not a pod of a Kubernetes Indexed Job (no JOB_COMPLETION_INDEX)"),
    ({"JOB_COMPLETION_INDEX": "4"}, "kubernetes/4: expected JOB_COMPLETION_INDEX from 0 to 3"),
    ({"JOB_COMPLETION_INDEX": "-1"}, "kubernetes/4: expected JOB_COMPLETION_INDEX from 0 to 3"),
])
def test_shard_kubernetes_outside_its_job_is_a_usage_error(environ, message):
    with pytest.raises(argparse.ArgumentTypeError, match="^" + re.escape(message)):
        shard("kubernetes/4", environ)


def test_grade_reads_the_shard_from_the_environment(tmp_path, monkeypatch, capsys):
    two = [SUBMISSIONS / "no_draw.pl", SUBMISSIONS / "lab_style.pl"]
    monkeypatch.setenv("SLURM_ARRAY_TASK_ID", "1")  # the second task of --array=0-1
    assert main(["grade", *map(str, two), "--shard", "slurm"]) == EXIT_USAGE
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith("minimax-lab: error: argument --shard: slurm: expected whole numbers "
                           "from Slurm, not SLURM_ARRAY_TASK_ID='1', SLURM_ARRAY_TASK_MIN=''")
    for name, value in (("MIN", "0"), ("MAX", "1"), ("COUNT", "2")):
        monkeypatch.setenv(f"SLURM_ARRAY_TASK_{name}", value)
    main(["grade", *map(str, two), "--shard", "slurm", "--predicates", "terminal_state",
          "--inference-budget", "0.001", "--jobs", "1", "--json", str(tmp_path / "part.json")])
    part = json.loads((tmp_path / "part.json").read_text())
    assert part["shard"] == {"part": 2, "parts": 2}
    assert [submission["name"] for submission in part["submissions"]] == ["no_draw"]


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                    lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(st.sampled_from(["shard", "part", "parts", "policy",
                                                       "submissions", "index", "name"]),
                                      inner, max_size=4), max_leaves=10)


@settings(deadline=None)  # a verdict that never depends on the machine's load
@given(JSON)
def test_any_json_given_to_merge_is_merged_or_refused_in_one_line(tmp_path_factory, value):
    path = tmp_path_factory.mktemp("any") / "part.json"
    path.write_text(json.dumps(value))
    assert main(["gradebook", "merge", str(path)]) == EXIT_USAGE
