"""`minimax-lab mapping guess`: a Prolog program's mapping guessed by asking it probe positions,
contained. The probes are checked against the reference; the guesses for the corpus of
tests/submissions/mapped/ are held to its hand-written mappings (and, slow, to the grades they
give); bad input gets one line and its exit status; a hostile program costs only the guess.

The guesses are made once per module (`guessed`); by default two programs of the corpus are
guessed and graded on a sample, every program in the slow tests.
"""

from __future__ import annotations

import os
import tomllib
from collections import Counter
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from marks import needs_bwrap, needs_swipl
from sampled import SampledPredicate

from minimax_lab.compare.grader.interfaces.interface import Options
from minimax_lab.compare.grader.interfaces.mapping_guess import (
    Guess,
    as_table,
    candidates,
    core,
    guess,
    probes,
    report,
    to_toml,
)
from minimax_lab.compare.grader.interfaces.mappings import (
    MAPPING_FILE,
    Mapping,
    checked_mapping,
    read_mapping,
)
from minimax_lab.compare.grader.running.run import grade_submission
from minimax_lab.compare.judge.categories import Category
from minimax_lab.compare.judge.truth import truth
from minimax_lab.logic.commands.cli import EXIT_FALSE, EXIT_USAGE, main
from minimax_lab.logic.contain.harness import atom_names, module_exports
from minimax_lab.logic.objective import LAB
from minimax_lab.logic.positions import to_move
from minimax_lab.logic.state import PLAYERS, mark, winner

CORPUS = Path(__file__).parent / "submissions" / "mapped"
PROGRAMS = sorted(path.name for path in CORPUS.iterdir() if path.is_dir())
CHEAP = ("bratko", "ten_points")
"""The programs guessed by default: a module in two files, and a side played with an odd
blank."""
STEP = 200
"""The default grade asks every STEP-th question."""


def own_mapping(name: str) -> Mapping:
    return read_mapping(CORPUS / name / MAPPING_FILE, [])


@cache
def guessed(name: str) -> Guess:
    """The guess for a program of the corpus, made once."""
    found = guess([CORPUS / name])
    assert isinstance(found, Guess), found
    return found


# --- the probes ------------------------------------------------------------------------------

def test_each_probe_is_a_block_the_only_move_that_does_not_lose():
    found = probes()
    assert {probe.player for probe in found} == set(PLAYERS) and len(found) >= 4
    for probe in found:
        state, player = probe.state, probe.player
        other = PLAYERS[1 - PLAYERS.index(player)]
        assert player == to_move(state) and winner(state) is None
        assert winner(mark(state, probe.cell, other)) == other  # it blocks a line
        worths = truth(LAB).move_values((state, player))
        assert [cell for cell, value in worths.items() if value >= 0] == [probe.cell]
        assert worths[probe.cell] == probe.value
    assert any(probe.value != 0 for probe in found)  # a value shows its side and scale


# --- reading the program's text -----------------------------------------------------------

def test_a_modules_export_is_the_first_candidate_and_its_file_the_main_one():
    files = sorted((CORPUS / "bratko").glob("*.pl"))
    first = candidates(files)[0]
    assert (first.name, first.arity, first.module, first.file.name) == (
        "minimax", 3, "minimax", "minimax.pl")


_ATOM = st.from_regex(r"[a-z][a-z0-9_]{0,8}", fullmatch=True)


@given(st.tuples(_ATOM, st.lists(st.tuples(_ATOM, st.integers(0, 9)), max_size=5)),
       st.sampled_from(["", "% a comment\n", "/* a */ "]))
@settings(max_examples=25, deadline=None)
def test_module_exports_reads_back_any_module_declaration(declared, before):
    name, exports = declared
    listed = ", ".join(f"{export}/{arity}" for export, arity in exports)
    text = f"{before}:- module({name}, [{listed}]).\nfoo(a, b).\n"
    assert module_exports(text) == (name, exports)


@given(st.text(max_size=60))
@settings(max_examples=50, deadline=None)
def test_module_exports_never_fails_on_any_text(text):
    module, exports = module_exports(text)
    assert module is None or isinstance(exports, list)


# --- the TOML written ----------------------------------------------------------------------

@pytest.mark.parametrize("name", PROGRAMS)
def test_a_mapping_written_as_toml_reads_back_as_the_same_mapping(name):
    mapping = own_mapping(name)
    text = "\n".join(f"{key} = {to_toml(value)}" for key, value in as_table(mapping).items())
    assert core(checked_mapping(tomllib.loads(text))) == core(mapping)
    assert as_table(checked_mapping(tomllib.loads(text))) == as_table(mapping)


_VALUE = st.recursive(st.one_of(st.text(max_size=8), st.integers(-10**6, 10**6), st.booleans()),
                      lambda inner: st.lists(inner, max_size=4), max_leaves=8)


@given(_VALUE)
@example("\x7f")  # DEL: the one control character JSON leaves as it is
@settings(max_examples=50, deadline=None)
def test_to_toml_writes_any_value_toml_reads_back(value):
    assert tomllib.loads(f"v = {to_toml(value)}")["v"] == value


# --- the guesses ---------------------------------------------------------------------------

def _held_to_its_own(name: str) -> None:
    found, own = guessed(name), own_mapping(name)
    assert core(found.fit.mapping) == core(own), report(found)
    assert found.fit.right == len(found.fit.asked) and found.word in ("sure", "likely")
    assert found.word == "sure" or found.rivals
    written = tomllib.loads(report(found))
    assert checked_mapping(written) == found.fit.mapping  # the output is the mapping, as is


@needs_swipl
@pytest.mark.parametrize("name", CHEAP)
def test_the_guess_finds_the_mapping_the_corpus_declares(name):
    _held_to_its_own(name)


@pytest.mark.slow
@needs_swipl
@pytest.mark.parametrize("name", [name for name in PROGRAMS if name not in CHEAP])
def test_the_guess_finds_every_mapping_the_corpus_declares(name):
    _held_to_its_own(name)


def counts(name: str, mapping: Path, step: int) -> Counter[Category]:
    interface = SampledPredicate(mapping=str(mapping), step=step)
    grade = grade_submission(name, CORPUS / name, Options(interface, policy=interface.policy))
    assert grade.load.problem is None, grade.load
    [result] = grade.checks.values()
    return +result.counts


def _grades_alike(name: str, folder: Path, step: int) -> None:
    """The guess, written to a file, grades the program as its own mapping does; a program
    whose values are counted from another side than its mapping says gets its values right."""
    written = folder / "guessed.toml"
    written.write_text(report(guessed(name)), encoding="utf-8")
    by_guess, by_own = counts(name, written, step), counts(name, CORPUS / name / MAPPING_FILE, step)
    if guessed(name).fit.mapping.value_side == own_mapping(name).value_side:
        assert by_guess == by_own
    else:
        assert by_own[Category.WRONG_VALUE] and not by_guess[Category.WRONG_VALUE]
        assert by_guess[Category.SUBOPTIMAL] == by_own[Category.SUBOPTIMAL]


@needs_swipl
@needs_bwrap
def test_the_guessed_mapping_grades_as_the_corpus_mapping_on_a_sample(tmp_path):
    _grades_alike(CHEAP[1], tmp_path, STEP)


@pytest.mark.slow
@needs_swipl
@needs_bwrap
@pytest.mark.parametrize("name", PROGRAMS)
def test_the_guessed_mapping_grades_as_the_corpus_mapping_everywhere(name, tmp_path):
    _grades_alike(name, tmp_path, 1)


# --- the command line ----------------------------------------------------------------------

def _ran(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(["mapping", "guess", *argv])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.slow
@needs_swipl
def test_the_command_prints_toml_the_grader_reads(capsys):
    """(By default the docs' example runs the command on a program of the corpus.)"""
    status, out, err = _ran([str(CORPUS / CHEAP[0])], capsys)
    assert status == 0 and err == ""
    assert checked_mapping(tomllib.loads(out)) == guessed(CHEAP[0]).fit.mapping
    assert out.startswith("# guessed by minimax-lab mapping guess: sure: ")


@pytest.mark.parametrize(("given_text", "suffix", "said"), [
    ("print(1)\n", ".py", "mapping guess reads Prolog programs; for Python see docs/compare.md"),
    ("just words\n", ".txt", "is not a Prolog file (.pl, .p, .pro)"),
    ("foo.\nbar(a).\n", ".pl", "no candidate: no predicate of arity 2 to 4"),
])
def test_bad_input_is_one_line_and_exit_status_2(tmp_path, capsys, given_text, suffix, said):
    path = tmp_path / f"program{suffix}"
    path.write_text(given_text, encoding="utf-8")
    status, out, err = _ran([str(path)], capsys)
    assert status == EXIT_USAGE and out == ""
    assert len(err.splitlines()) == 1 and said in err and "Traceback" not in err


@given(st.lists(st.text(min_size=1, max_size=20).filter(lambda text: "\0" not in text),
                min_size=0, max_size=3))
@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_any_arguments_that_name_no_program_get_one_line_and_status_2(capsys, words):
    if any(os.path.lexists(word) for word in words):
        return  # a path that is there is a program to guess, not bad input
    status, out, err = _ran(words, capsys)
    assert status == EXIT_USAGE and out == ""
    assert len(err.strip().splitlines()) == 1 and err.startswith("minimax-lab: error: ")


@needs_swipl
def test_nothing_fits_says_so_in_one_line_with_status_1(tmp_path, capsys):
    path = tmp_path / "echo.pl"
    path.write_text("echo(Board, Board).\n", encoding="utf-8")
    status, out, err = _ran([str(path)], capsys)
    assert status == EXIT_FALSE and out == ""
    assert err.splitlines() == [
        "minimax-lab: error: nothing fits: no encoding of echo/2 answers a legal move on any "
        f"of {len(probes())} probes"]


HOSTILE = """\
minimax(Board, Best) :- repeat, Board == Best.
best(_, _, _) :- halt.
play(_, _, Next) :- open('{written}', write, S), write(S, owned), close(S), Next = 1.
"""
FLOOD = "move(_, _, _, _) :- forall(between(1, 100000000, _), write(xxxxxxxxxxxxxxxxxxxx)).\n"


def _hostile(tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: str = "") -> None:
    written = tmp_path / "written"
    path = tmp_path / "hostile.pl"
    path.write_text(HOSTILE.format(written=written) + extra, encoding="utf-8")
    status, out, err = _ran([str(path)], capsys)
    assert status in (EXIT_FALSE, EXIT_USAGE) and out == ""
    assert len(err.splitlines()) == 1 and err.startswith("minimax-lab: error: ")
    assert not written.exists()


@needs_swipl
@needs_bwrap
def test_a_program_that_loops_halts_or_writes_files_costs_only_the_guess(tmp_path, capsys):
    _hostile(tmp_path, capsys)


@pytest.mark.slow
@needs_swipl
@needs_bwrap
def test_a_program_that_floods_its_output_costs_only_the_guess(tmp_path, capsys):
    _hostile(tmp_path, capsys, FLOOD)



@given(st.lists(_ATOM, max_size=6), st.text(max_size=30))
@settings(max_examples=30, deadline=None)
def test_atom_names_reads_the_atoms_of_a_clause_and_never_fails(atoms, text):
    clause = f"p({', '.join(atoms)}, 'quoted', X, 12) :- q(X). % {text}\n"
    assert atom_names(clause) == ["p", *atoms, "q"]
    assert isinstance(atom_names(text), list)
