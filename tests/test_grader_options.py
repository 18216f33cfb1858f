"""`grade`'s option table (`compare.grader.options.options`): every option reaches each place it may
be set (the command line, the assignment file's schema, the API, the site, the autograder) with
one name, one default and one check; a bad value is refused in one line wherever it is given."""

from __future__ import annotations

import inspect
import math
import tomllib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minimax_lab.compare.grader.assignments.assignment import (
    SHIPPED,
    AssignmentError,
    assignment_from,
    schema,
)
from minimax_lab.compare.grader.interfaces.interface import Options
from minimax_lab.compare.grader.interfaces.prolog_interface import PrologInterface
from minimax_lab.compare.grader.interfaces.registry import INTERFACES
from minimax_lab.compare.grader.options import options as table
from minimax_lab.compare.grader.options.config import DEFAULT_WORK, Settings, SettingsError
from minimax_lab.compare.grader.options.options import (
    OPTION,
    OPTIONS,
    Kind,
    Option,
    Where,
    defaults_at,
)
from minimax_lab.compare.grader.outputs.platforms import gradescope_autograder
from minimax_lab.logic import api
from minimax_lab.logic.commands.cli import UsageError, build_parser
from minimax_lab.logic.commands.grade import settings_from

LAB = INTERFACES["prolog"].checks


def _parser_actions() -> dict[str, object]:
    grade = build_parser("grade").commands.choices["grade"]
    return {action.dest: action for action in grade._actions}


def _at(where: Where) -> list[Option]:
    return [option for option in OPTIONS if where in option.where]


# --- every option reaches every place it may be set ------------------------------------------

@pytest.mark.parametrize("option", _at(Where.LINE), ids=lambda option: option.name)
def test_every_command_line_option_reaches_argparse_under_its_name(option):
    action = _parser_actions()[option.name]
    assert action.option_strings == [option.option]
    assert action.default is None  # not given: the assignment's, else the table's default
    if option.default is not None:
        assert f"else {option.default:g})" in action.help


@pytest.mark.parametrize("option", _at(Where.FILE), ids=lambda option: option.name)
def test_every_file_option_is_in_the_assignment_schema(option):
    properties = schema()["properties"]
    held = properties[option.group]["properties"] if option.group else properties
    assert held[option.key] == option.schema(tuple(INTERFACES))


@pytest.mark.parametrize("option", _at(Where.API), ids=lambda option: option.name)
def test_every_api_option_is_a_keyword_of_grade(option):
    parameter = inspect.signature(api.grade).parameters[option.argument]
    assert parameter.default is None


def test_the_apis_signature_is_made_from_the_table():
    assert inspect.signature(api.grade) == api.grade_signature()
    for option in _at(Where.API):
        assert option.argument in (api.grade.__doc__ or "") or option.default is None


def test_an_option_is_one_line_of_the_table(monkeypatch, tmp_path):
    """An option added to the table (a copy of it, as the module makes `OPTION` from it) is
    on the command line, in the assignment file's schema, in the API's signature and keywords,
    and in `Settings`, each with its one check."""
    extra = Option("patience", Kind.NUMBER, "how long to wait", 5.0, 100.0,
                   "a number of seconds", metavar="SECONDS", group="limits")
    monkeypatch.setattr(table, "OPTIONS", (*OPTIONS, extra))
    monkeypatch.setitem(OPTION, extra.name, extra)
    args = build_parser("grade").parse_args(["grade", "x.pl", "--patience", "3"])
    assert settings_from(args).given_value("patience") == 3.0
    with pytest.raises(UsageError, match="argument --patience: expected a number of seconds"):
        build_parser("grade").parse_args(["grade", "x.pl", "--patience", "101"])
    assert schema()["properties"]["limits"]["properties"]["patience"] == extra.schema()
    read = assignment_from({"limits": {"patience": 2}}, "prolog", LAB).settings
    assert read.given_value("patience") == 2.0
    with pytest.raises(AssignmentError, match=r"^\[limits\] patience must be a number above"):
        assignment_from({"limits": {"patience": 0}}, "prolog", LAB)
    assert api.grade_signature().parameters["patience"].default is None
    assert Settings(patience=4).chosen("patience") == 4.0
    assert Settings().chosen("patience") == 5.0
    with pytest.raises(SettingsError, match="^patience = -1: expected a number above 0"):
        Settings(patience=-1)
    from minimax_lab.compare.grader import pipeline
    from minimax_lab.compare.grader.outputs.graded import Graded

    runs = []
    monkeypatch.setattr(pipeline, "grade_run", lambda run, told: runs.append(run) or Graded([]))
    api.grade(tmp_path / "a.pl", patience=7)
    assert runs[0].settings.given_value("patience") == 7.0


def test_settings_holds_the_table_and_nothing_else():
    good = {Kind.NUMBER: 1, Kind.CHOICE: None, Kind.SWITCH: True, Kind.TEXT: "game.pl",
            Kind.INTERFACE: "prolog", Kind.NAMES: ["successor"]}
    given = {option.name: good[option.kind] or option.words[0] for option in OPTIONS}
    settings = Settings(**given)
    assert settings.given() == {name: OPTION[name].check(value) for name, value in given.items()}
    assert Settings().given() == {} and Settings().given_value("budget") is None
    with pytest.raises(SettingsError) as refused:
        Settings(patience=3)
    assert str(refused.value).startswith("unknown option 'patience'; the options are ")
    with pytest.raises(KeyError):
        Settings().chosen("patience")


def test_the_defaults_are_the_tables():
    chosen = Options(PrologInterface())
    assert (chosen.query_timeout, chosen.budget, chosen.load_timeout) == tuple(
        OPTION[name].default for name in ("query_timeout", "budget", "load_timeout"))
    assert (DEFAULT_WORK.ratio, DEFAULT_WORK.budget_ratio, DEFAULT_WORK.cpu_seconds,
            DEFAULT_WORK.cpu_budget) == tuple(OPTION[name].default for name in (
                "inference_ratio", "inference_budget", "cpu_seconds", "cpu_budget"))
    assert Settings().work == DEFAULT_WORK
    assert Settings(budget=7.0).chosen("budget") == 7.0
    assert Settings().chosen("budget") == OPTION["budget"].default


def test_the_site_and_the_autograder_take_the_budget_from_the_table():
    assert defaults_at(Where.SITE) == {"budget": 1800.0}
    roomy = (OPTION["budget"].default + gradescope_autograder.MARGIN) / 60 * 3
    assert gradescope_autograder.budget(None, math.ceil(roomy)) is None
    cut = gradescope_autograder.budget(None, 5)
    assert cut is not None and cut < OPTION["budget"].default


# --- one check, one line, wherever the value comes from --------------------------------------

BAD: dict[Kind, list[object]] = {
    Kind.NUMBER: [0, -1, "ten", True, math.nan, 2e6],
    Kind.CHOICE: ["nope", 1, ""],
    Kind.SWITCH: ["yes", 1],
    Kind.TEXT: ["", "  ", 3],
    Kind.INTERFACE: ["lisp", 3],
}
BAD_FILE = [(option, value) for option in _at(Where.FILE) for value in BAD[option.kind]]


@pytest.mark.parametrize(("option", "value"), BAD_FILE,
                         ids=lambda item: item.name if isinstance(item, Option) else repr(item))
def test_the_assignment_file_refuses_each_bad_value_in_one_line(option, value):
    table: dict[str, object] = {option.key: value}
    if option.group:
        table = {option.group: table}
    with pytest.raises(AssignmentError) as refused:
        assignment_from(table, "prolog", LAB)
    said = str(refused.value)
    assert "\n" not in said
    where = f"[{option.group}] " if option.group else ""
    assert said.startswith(f"{where}{option.key} must be ")
    if option.kind is not Kind.INTERFACE:
        assert option.expected in said


@pytest.mark.parametrize("option", _at(Where.FILE), ids=lambda option: option.name)
def test_the_assignment_file_takes_each_option_in_its_range(option):
    good = {Kind.NUMBER: option.most, Kind.CHOICE: (option.words or ("",))[-1],
            Kind.SWITCH: True, Kind.TEXT: "game.pl", Kind.INTERFACE: "prolog"}[option.kind]
    table: dict[str, object] = {option.key: good}
    settings = assignment_from({option.group: table} if option.group else table, "prolog",
                               LAB).settings
    if option.name != "interface":
        assert settings.given_value(option.name) == good


BAD_LINE = [(option, value) for option in _at(Where.LINE) if option.kind is Kind.NUMBER
            for value in ("0", "-1", "ten", "nan", "inf", "2e6")]


@pytest.mark.parametrize(("option", "value"), BAD_LINE,
                         ids=lambda item: item.name if isinstance(item, Option) else item)
def test_the_command_line_refuses_the_same_values_in_one_line(option, value):
    with pytest.raises(UsageError) as refused:
        build_parser("grade").parse_args(["grade", "x.pl", option.option, value])
    said = str(refused.value)
    assert "\n" not in said and f"argument {option.option}: expected {option.noun} above 0" \
        in said


@pytest.mark.parametrize(("option", "value"), [
    (option, value) for option in _at(Where.API) for value in BAD.get(option.kind, [])
    if option.kind is not Kind.INTERFACE], ids=lambda item: getattr(item, "name", repr(item)))
def test_settings_refuse_the_same_values_in_one_line(option, value):
    with pytest.raises(SettingsError) as refused:
        Settings(**{option.name: value})
    said = str(refused.value)
    assert "\n" not in said and said.startswith(f"{option.name} = {value!r}: expected ")


def test_a_ratio_has_one_range_everywhere():
    most = OPTION["inference_ratio"].most
    with pytest.raises(UsageError):
        build_parser("grade").parse_args(["grade", "x.pl", "--inference-ratio", f"{most * 2:g}"])
    with pytest.raises(AssignmentError):
        assignment_from({"limits": {"inference-ratio": most * 2}}, "prolog", LAB)
    with pytest.raises(SettingsError):
        Settings(inference_ratio=most * 2)
    assert Settings(inference_ratio=most).given_value("inference_ratio") == most


def test_the_shipped_assignments_meet_the_schema():
    from jsonschema import Draft202012Validator  # slow to import: only here

    validator = Draft202012Validator(schema())
    for path in sorted(SHIPPED.glob("*.toml")):
        assert not list(validator.iter_errors(tomllib.loads(path.read_text()))), path.name


# --- the assignment file as an input surface -------------------------------------------------

KEYS = [option.key for option in _at(Where.FILE) if not option.group]
LIMITS = [option.key for option in _at(Where.FILE) if option.group == "limits"]
anything = st.none() | st.booleans() | st.integers(-5, 10**7) | st.floats() | st.text(
    max_size=8) | st.sampled_from(["lowest", "any", "all", "none", "where", "prolog", "a.pl"])


@given(st.dictionaries(st.sampled_from([*KEYS, "nope"]), anything, max_size=4),
       st.dictionaries(st.sampled_from([*LIMITS, "nope"]), anything | st.lists(anything),
                       max_size=3) | anything)
def test_any_options_give_settings_in_range_or_one_line(top, limits):
    table = {**top, "limits": limits}
    try:
        settings = assignment_from(table, "prolog", LAB).settings
    except AssignmentError as error:
        assert "\n" not in str(error)
    else:
        for option in OPTIONS:
            value = settings.given_value(option.name)
            if value is not None and option.kind is Kind.NUMBER:
                assert 0 < value <= option.most


# --- `--judged`, made from its enum ----------------------------------------------------------

def test_judged_is_declared_once_on_its_enum():
    from minimax_lab.compare.grader.interfaces.sample import JUDGED_DEFAULT, Judged, judged_check

    action = _parser_actions()["judged"]
    for judged in Judged:
        assert f"{judged.value} ({judged.said})" in action.help and judged.said
        assert judged_check(judged.value) == judged
    assert action.help.endswith(f"(default: the assignment's, else {JUDGED_DEFAULT.value})")
    for interface in INTERFACES.values():
        if hasattr(interface, "judged"):
            assert interface().judged == JUDGED_DEFAULT  # type: ignore[call-arg]
    with pytest.raises(ValueError, match=f"^{' or '.join(judged.value for judged in Judged)}$"):
        judged_check("nope")


@settings(deadline=None)
@given(st.text(max_size=10) | st.sampled_from(["clauses", "whole"]))
def test_judged_takes_its_enums_words_and_refuses_the_rest(word):
    from minimax_lab.compare.grader.interfaces.sample import Judged, judged_check

    if word in {judged.value for judged in Judged}:
        assert judged_check(word) == Judged(word)
    else:
        with pytest.raises(ValueError):
            judged_check(word)
