"""An assignment: each check's points, how partial credit is given and when students see it,
the limits of work and every other grading option (the tie rule, the main file, the course's
Python, a declared function's mapping), read from a TOML file (docs/grading-reference.md, "Scores");
each interface ships a default (`compare/grader/assignments/`). Every key is checked here, at
the boundary, into `Settings`, and `settled` is the one place where the options given to a
front end and the file's meet.
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from minimax_lab.compare.grader.interfaces.registry import INTERFACES, interface_options, takers
from minimax_lab.compare.grader.options.config import Settings, file_key
from minimax_lab.compare.grader.options.options import (
    OPTION,
    Option,
    Where,
    file_schema,
    options_at,
)
from minimax_lab.compare.judge.categories import Category
from minimax_lab.compare.judge.results import SubmissionGrade
from minimax_lab.compare.judge.scores import (
    CheckScore,
    Credit,
    Hints,
    Rule,
    Score,
    Visibility,
)
from minimax_lab.logic.errors import LabError
from minimax_lab.logic.quote import quoted

if TYPE_CHECKING:
    from jsonschema import ValidationError

SHIPPED = Path(__file__).resolve().parent
"""The default assignment of each interface, `NAME.toml`."""
OTHER_KEYS = {"name": "`name` must be a string",
              "python-packages": "python-packages must be a list of package names: "
                                 "[\"numpy\"]",
              "default": "[default] must be a table",
              "checks": "`checks` must be a table: [checks.NAME]"}
"""The keys of an assignment file that are not grading options, and what each must be."""


def schema() -> dict[str, Any]:
    """The JSON Schema of an assignment file, made from the options (`options.file_schema`)
    and the interfaces' own."""
    own = [file_key(name, how) for name, how in interface_options().items()]
    return file_schema(tuple(INTERFACES), [key for key in own if key])


class AssignmentError(LabError, ValueError):
    """An assignment file that cannot be read or followed."""


@dataclass(frozen=True)
class Assignment:
    """The checks that earn points, in report order, each with its rule; `default` gives the
    rule of a check the file does not name (None: such a check earns nothing); the grading
    options the file sets."""

    name: str
    checks: dict[str, Rule] = field(default_factory=dict)
    default: Rule | None = None
    settings: Settings = Settings()
    """The grading options it sets: the policy, the main file, the limits, a mapping..."""
    interface: str = "prolog"
    python_packages: tuple[str, ...] = ()
    """What the course's Python holds, for a platform that builds it (Gradescope's setup)."""

    def rules(self, graded: Sequence[str]) -> dict[str, Rule]:
        """The rule of every check that earns points: the file's, then those `graded`
        that only the default rule covers."""
        rules = dict(self.checks)
        if self.default is not None:
            rules.update({check: self.default for check in graded if check not in rules})
        return rules

    def hinted(self, given: Hints | None = None) -> Assignment:
        """The assignment with every check's hint level `given` (an option to `grade`, over
        the file's), if given."""
        if given is None:
            return self

        def settle(rule: Rule) -> Rule:
            return replace(rule, hints=given)

        return replace(self, checks={check: settle(rule) for check, rule in self.checks.items()},
                       default=None if self.default is None else settle(self.default))

    def score(self, grade: SubmissionGrade, asked: Sequence[str] | None = None) -> Score:
        """The submission's score: each check's questions are those judged and those left
        unasked, its right answers counted above what one constant answer gets right; a check
        not graded earns none of its points; one the run did not ask (not among `asked`,
        when given) is out of the maximum."""
        scores: list[CheckScore] = []
        left_out: list[CheckScore] = []
        for check, rule in self.rules(list(grade.checks)).items():
            result = grade.checks.get(check)
            if result is None and asked is not None and check not in asked:
                left_out.append(rule.unasked(check))
            elif result is None:
                scores.append(rule.unchecked(check))
            else:
                unasked = result.counts[Category.NOT_ASKED]
                scores.append(rule.score(check, result.correct, result.checked + unasked,
                                         unasked, result.base))
        return Score(tuple(scores), tuple(left_out))


def settled(given: Settings, assignment: Assignment | None) -> Settings:
    """Every grading option as it applies: given to a front end (not None), else the
    assignment's; what neither gives comes from the interface (its policy and its own
    options' defaults) and `compare.grader.options.config` (the guards and limits)."""
    return given if assignment is None else given.over(assignment.settings)


def read_table(path: str) -> dict[str, Any]:
    """The TOML table of the assignment file at `path`."""
    try:
        return tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as error:
        raise AssignmentError(f"cannot read the assignment {quoted(path)}: "
                              f"{error.strerror or error}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise AssignmentError(f"assignment {quoted(path)} is not TOML: {error}") from None


def interface_of(path: str | None, given: str | None, known: Sequence[str]) -> str:
    """The interface a class is graded with: `given` (`--interface`), else the one the
    assignment file at `path` names, else `prolog`; `known` are the interfaces there are."""
    if given is not None or path is None:
        return given or "prolog"
    named = read_table(path).get("interface", "prolog")
    if named not in known:
        raise AssignmentError(f"assignment {quoted(path)}: interface = "
                              f"{quoted(str(named))}: expected one of {', '.join(known)}")
    return str(named)


def load_assignment(path: str, interface: str, known: Sequence[str],
                    validate: bool = True) -> Assignment:
    """The assignment in the TOML file at `path`, for `interface`, whose checks are `known`
    (any name, when `known` is empty); held to the schema unless not `validate`."""
    table = read_table(path)
    try:
        return assignment_from(table, interface, known, validate)
    except AssignmentError as error:
        raise AssignmentError(f"assignment {quoted(path)}: {error}") from None


def default_assignment(interface: str, known: Sequence[str]) -> Assignment:
    """The assignment shipped for `interface`; a point a check, in proportion, if none is."""
    shipped = SHIPPED / f"{interface}.toml"
    if not shipped.is_file():
        return Assignment(interface, {check: Rule() for check in known}, Rule())
    return load_assignment(str(shipped), interface, known, validate=False)  # tested


def assignment_from(table: dict[str, Any], interface: str, known: Sequence[str],
                    validate: bool = True) -> Assignment:
    """An assignment from its parsed TOML: `name`, `interface`, `[default]`, `[checks.NAME]`,
    the grading options; held to the file's schema first (`schema`), unless not `validate`
    (a shipped file, which the tests hold to it: jsonschema is slow to import)."""
    if validate:
        _validate(table)
    wanted = table.get("interface", interface)
    if wanted != interface:
        raise AssignmentError(f"it is for --interface {quoted(str(wanted))}, not "
                              f"{quoted(interface)}")
    checks = table.get("checks", {})
    unknown = [name for name in checks if known and name not in known]
    if unknown:
        raise AssignmentError(f"unknown check {quoted(unknown[0])}; the checks of "
                              f"{interface} are {', '.join(known)}")
    default = table.get("default")
    order = [name for name in known if name in checks] + [n for n in checks if n not in known]
    name = table.get("name", interface)
    settings = {**_settings(table), "own": _own(table, interface)}
    packages = table.get("python-packages", [])
    if not (isinstance(packages, list) and all(isinstance(item, str) and item.strip()
                                               and not item.startswith("-")
                                               for item in packages)):
        raise AssignmentError("python-packages must be a list of package names: "
                              "[\"numpy\"]")
    if packages and not str(settings["own"].get("python", "")).endswith(("/bin/python",
                                                                          "/bin/python3")):
        raise AssignmentError("python-packages needs python = \"/opt/NAME/bin/python\": the "
                              "virtual environment a platform makes to hold them")
    hints = settings.get("hints")  # a check's own level, else the file's
    return Assignment(name, {check: _rule(checks[check], f"checks.{check}", hints)
                             for check in order},
                      None if default is None else _rule(default, "default", hints),
                      Settings(**settings), interface, tuple(packages))


def _settings(table: dict[str, Any]) -> dict[str, Any]:
    """The grading options the file sets, each as its option holds it (`Option.check`, the
    one check; the schema has said it already, but for what JSON has not, such as nan)."""
    settings: dict[str, Any] = {}
    for option in options_at(Where.FILE):
        held = table.get(option.group, {}) if option.group else table
        if option.key in held and option.name != "interface":  # read apart: `interface_of`
            try:
                settings[option.name] = option.check(held[option.key])
            except ValueError as why:
                raise AssignmentError(_must(option, option.group, held[option.key],
                                            str(why))) from None
    return settings


def _validate(table: dict[str, Any]) -> None:
    """`table` held to the assignment file's schema (`schema`): its first fault, in one line
    saying what the key must be."""
    from jsonschema import Draft202012Validator  # slow to import: only for a file read

    faults = sorted(Draft202012Validator(schema()).iter_errors(table),
                    key=lambda fault: [str(part) for part in fault.absolute_path])
    if not faults:
        return
    fault = faults[0]
    path = [str(part) for part in fault.absolute_path]
    if path[:1] == ["default"] or (path[:1] == ["checks"] and len(path) > 1):
        raise AssignmentError(_rule_fault(fault, path))
    if fault.validator == "additionalProperties":
        allowed = fault.schema["properties"]
        unknown = [key for key in fault.instance if key not in allowed]
        where = f"[{path[0]}]" if path else "the file"
        raise AssignmentError(f"unknown key {quoted(unknown[0])} in {where}; the keys are "
                              f"{', '.join(allowed)}")
    if len(path) == 1 and path[0] in OTHER_KEYS:
        raise AssignmentError(OTHER_KEYS[path[0]])
    group, key = (path[0], path[1]) if len(path) > 1 else ("", path[0])
    if group and group not in _option_groups():
        raise AssignmentError(OTHER_KEYS.get(group, f"[{group}] is not as expected"))
    if not group and key in _option_groups():
        raise AssignmentError(f"[{key}] must be a table")
    option = OPTION[key.replace("-", "_")]
    words = fault.schema.get("enum")  # the interfaces, which the option does not know
    expected = option.expected if words is None else f"one of {', '.join(words)}"
    raise AssignmentError(_must(option, group, fault.instance, expected))


def _rule_fault(fault: ValidationError, path: list[str]) -> str:
    """What is wrong with a rule, `[default]` or `[checks.NAME]`, in one line."""
    where, rest = ("default", path[1:]) if path[0] == "default" else (f"checks.{path[1]}",
                                                                      path[2:])
    key = rest[0] if rest else ""
    if "then" in fault.schema_path or "else" in fault.schema_path:
        return f"[{where}] thresholds go with credit = \"thresholds\", and it needs them"
    if fault.validator == "type" and not rest:
        return f"[{where}] must be a table"
    if fault.validator == "additionalProperties":
        keys = fault.schema["properties"]
        unknown = [name for name in fault.instance if name not in keys]
        return f"unknown key {quoted(str(unknown[0]))} in [{where}]; the keys are " \
               f"{', '.join(keys)}"
    if key == "thresholds":
        return PAIRS_SAID.format(where)
    if "enum" in fault.schema:
        return (f"[{where}] {key} must be one of {', '.join(fault.schema['enum'])}, not "
                f"{quoted(str(fault.instance))}")
    return POINTS_SAID.format(where)


POINTS_SAID = "[{}] points must be a number, 0 or more"
PAIRS_SAID = ("[{}] thresholds must be pairs [share right, share of the points], each from 0 "
              "to 1: [[1.0, 1.0], [0.9, 0.5]]")
"""What a rule's points and thresholds must be, at `[WHERE]`."""


def _option_groups() -> set[str]:
    """The assignment file's tables of options: `[limits]`."""
    return {option.group for option in options_at(Where.FILE) if option.group}


def _must(option: Option, group: str, value: object, expected: str) -> str:
    """What the option's key must be, in one line."""
    where = f"[{group}] " if group else ""
    return f"{where}{option.key} must be {expected}, not {quoted(str(value))}"


def _own(table: dict[str, Any], interface: str) -> dict[str, object]:
    """The interface's own options the file sets (`[mapping]`, `python`...), each checked; an
    option of another interface's refused, naming those that take it."""
    own: dict[str, object] = {}
    for name, how in interface_options().items():
        key = file_key(name, how)
        if not key or key not in table:
            continue
        shown = f"[{key}]" if how.table else key
        if interface not in takers(name):
            raise AssignmentError(f"{shown} {how.said} (interface "
                                  f"{' or '.join(takers(name))})")
        try:
            own[name] = (how.in_file or how.check)(table[key])
        except ValueError as why:
            raise AssignmentError(f"{shown} must be {why}") from None
    return own


def _rule(table: dict[str, Any], where: str, hints: Hints | None = None) -> Rule:
    """A check's rule from its table, held to `rule_schema` already; a number JSON takes but
    a rule cannot (nan), refused here."""
    points = table.get("points", 1)
    thresholds = tuple((float(right), float(given))
                       for right, given in table.get("thresholds", []))
    if math.isnan(points):
        raise AssignmentError(POINTS_SAID.format(where))
    if any(math.isnan(number) for number in sum(thresholds, ())):
        raise AssignmentError(PAIRS_SAID.format(where))
    return Rule(float(points), Credit(table.get("credit", Credit.PROPORTIONAL.value)),
                thresholds, Visibility(table.get("visibility", Visibility.VISIBLE.value)),
                Hints(table["hints"]) if "hints" in table else hints)
