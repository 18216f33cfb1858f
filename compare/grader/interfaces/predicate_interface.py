"""A Prolog program's own decision predicate, declared by a mapping (`mappings.Mapping` with
`predicate`): asked contained, as the lab's predicates are (`logic.contain.harness`), on every
position of a player it moves for, judged as a whole program by the moves (and values) it
answers; a program that searches to a depth (`depth`) has a suboptimal move within its horizon
told apart from a wrong one.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from collections.abc import Mapping as TableOf
from dataclasses import dataclass, replace
from functools import cache, cached_property, partial
from pathlib import Path
from typing import Any, ClassVar

from minimax_lab.compare.grader.interfaces.ends import End
from minimax_lab.compare.grader.interfaces.interface import Check, Interface, Options, Session
from minimax_lab.compare.grader.interfaces.mapping_options import (
    mapping_option,
    mapping_set_option,
    mapping_table_option,
)
from minimax_lab.compare.grader.interfaces.mappings import (
    MAPPING_FILE,
    Mapping,
    MappingError,
    Returns,
    read_mapping,
)
from minimax_lab.compare.grader.interfaces.prolog import LIMITS, lab_cost
from minimax_lab.compare.grader.interfaces.prolog import Question as LabQuestion
from minimax_lab.compare.grader.interfaces.prolog_mapping import (
    answer_text,
    called_position,
    goal,
    position_words,
    read_answer,
    recorded_term,
)
from minimax_lab.compare.grader.interfaces.python import (
    DeclaredFunction,
    Question,
    judge_function,
    lab_value,
    shown,
)
from minimax_lab.compare.grader.options.config import (
    DEFAULT_WORK,
    WorkLimits,
)
from minimax_lab.compare.judge.categories import Category
from minimax_lab.compare.judge.results import Problem, Verdict
from minimax_lab.compare.judge.truth import Policy, Ties, Values, truth
from minimax_lab.logic import reference
from minimax_lab.logic.contain.harness import PROLOG_SUFFIXES, Ask, Reply, StudentProgram
from minimax_lab.logic.contain.python_program import Called
from minimax_lab.logic.contain.submission import is_small_file
from minimax_lab.logic.contain.swipl import require
from minimax_lab.logic.objective import LAB
from minimax_lab.logic.positions import all_positions, fullest_first, to_move
from minimax_lab.logic.state import BLANK, SIDE, Player, State, mark, winner
from minimax_lab.logic.terms import Action, Decision
from minimax_lab.logic.tools.beside import MOST_NODES


class DeclaredPredicate(Check[Question, Reply]):
    """The decision predicate a mapping declares: asked for a move on every position of a
    player it moves for, judged as the same mapping's Python function would be on the move
    (and value) its answer names."""

    def __init__(self, mapping: Mapping) -> None:
        self.mapping = mapping
        self.name = mapping.name
        self.as_function = replace(mapping, function=mapping.name, returns=(
            Returns.ROW_COL_VALUE if mapping.gives_values else Returns.ROW_COL))
        """The mapping as the function it stands for, whose answers are (row, col[, value])."""

    @property
    def key(self) -> Hashable:
        return ("predicate", repr(self.mapping))

    def questions(self) -> Sequence[Question]:
        return predicate_questions(self.mapping)

    def judge(self, question: Question, reply: Reply, policy: Policy) -> Verdict:
        if not reply.answers:
            end = End(reply.end)
            if end in LIMITS:
                category, said = LIMITS[end]
                stopped = end in (End.INFERENCES, End.CPU, End.TIME)
                return Verdict(category, said if stopped else reply.error or said)
            return Verdict(Category.NO_ANSWER, "the goal fails")
        first = reply.answers[0]
        cell, value = read_answer(self.mapping, question.state, question.player, first.term)
        if cell is None:
            return Verdict(Category.UNREADABLE, f"answers {first.text}, not a move the mapping "
                           "reads")
        row_col: list[object] = [(cell - 1) // SIDE, (cell - 1) % SIDE]
        answer = [*row_col, value] if self.mapping.gives_values else row_col
        verdict = judge_function(question, Called(End.RETURNED, answer), self.as_function,
                                 policy, partial(position_words, self.mapping))
        detail = verdict.detail.replace(f"answers {shown(answer)}", f"answers {first.text}", 1)
        verdict = replace(verdict, detail=detail)
        if verdict.category is Category.SUBOPTIMAL:
            note = horizon_note(self.mapping, question.state, question.player, cell)
            verdict = replace(verdict, detail=verdict.detail + note)
        return verdict

    def right(self, question: Question, policy: Policy) -> frozenset[Hashable]:
        return DeclaredFunction(self.as_function).right(question, policy)


def predicate_questions(mapping: Mapping) -> list[Question]:
    """A move asked on every position of a game in progress of a player it moves for (x-first
    games only, where it reads the mover from the board)."""
    movers = mapping.movers()
    positions = [(state, player) for state, player in all_positions() if player in movers
                 and winner(state) is None and BLANK in state]
    if mapping.reads_the_mover:
        positions = [(state, player) for state, player in positions
                     if player == to_move(state)]
    positions.sort(key=lambda position: (fullest_first(position[0]), position[1]))
    return [Question(mapping.name, state, player) for state, player in positions]


def horizon_note(mapping: Mapping, state: State, player: Player, cell: int) -> str:
    """What a suboptimal move to `cell` is told where the mapping searches to a `depth` and
    the move is as good as the best within it (`grade`'s and `compare --mapped`'s note), else
    nothing."""
    if mapping.depth is None or not within_horizon(state, player, cell, mapping.depth):
        return ""
    return (f"; within its depth of {mapping.depth} it is as good as the best (a horizon, not "
            "a wrong search)")


def within_horizon(state: State, player: Player, cell: int, depth: int) -> bool:
    """True when the move to `cell` is worth as much as the best move, by a search of `depth`
    plies that counts a game not over at its horizon as a draw: a depth-limited search could
    not tell them apart."""
    values = {move: -_horizon(mark(state, move, player), reference.other_player(player),
                              depth - 1)
              for move in range(1, 10) if state[move - 1] == BLANK}
    return values[cell] == max(values.values())


@cache
def _horizon(state: State, player: Player, depth: int) -> int:
    """The value of `state` for `player`, to move, searched `depth` plies (0 at the horizon)."""
    won = winner(state)
    if won is not None:
        return 1 if won == player else -1
    if BLANK not in state or depth <= 0:
        return 0
    return max(-_horizon(mark(state, move, player), reference.other_player(player), depth - 1)
               for move in range(1, 10) if state[move - 1] == BLANK)


@dataclass(frozen=True)
class PredicateInterface(Interface):
    """A decision predicate of the program's own, declared by a mapping: `mapping` (a file),
    else the assignment's `mapping_table`, else the submission's own `minimax-lab.toml`;
    then the keys of `mapping_set` (`KEY=VALUE`) over it."""

    mapping: str | None = mapping_option()
    mapping_set: tuple[str, ...] = mapping_set_option()
    mapping_table: TableOf[str, object] | None = mapping_table_option()

    name: ClassVar[str] = "predicate"
    check_noun: ClassVar[str] = "predicate"
    load_label: ClassVar[str] = "loading"
    suffixes: ClassVar[tuple[str, ...]] = PROLOG_SUFFIXES
    policy: ClassVar[Policy] = Policy(Ties.ANY, Values.ALL)

    def ready(self, paths: Sequence[Path]) -> None:
        """The mapping, whole and right and a predicate's, before any grading; and `swipl`."""
        named = any(setting.partition("=")[0].strip() == "predicate"
                    for setting in self.mapping_set)
        if self.mapping is not None:
            _prolog(read_mapping(Path(self.mapping), list(self.mapping_set)))
        elif self.mapping_table is not None:
            _prolog(read_mapping(None, list(self.mapping_set), dict(self.mapping_table)))
        elif not named and not all(
                (path if path.is_dir() else path.parent).joinpath(MAPPING_FILE).is_file()
                for path in paths):
            raise MappingError("--interface predicate needs the predicate declared: --mapping "
                               "FILE, --set predicate=NAME/ARITY, an assignment's [mapping], "
                               f"or a {MAPPING_FILE} beside each program (see "
                               "docs/grading-reference.md)")
        else:
            read_mapping(None, [*self.mapping_set, *([] if named else ['predicate="p/3"'])])
        require("grade")

    def mapping_for(self, path: Path) -> Mapping:
        """How the submission at `path` is asked."""
        file = Path(self.mapping) if self.mapping else None
        if file is None and self.mapping_table is not None:
            return _prolog(read_mapping(None, list(self.mapping_set), dict(self.mapping_table)))
        if file is None:
            own_file = (path if path.is_dir() else path.parent) / MAPPING_FILE
            file = own_file if is_small_file(own_file) else None
        return _prolog(read_mapping(file, list(self.mapping_set)))

    def open(self, path: Path, options: Options) -> Session[Any, Any]:
        mapping = self.mapping_for(path)
        program = StudentProgram([path], options.main or mapping.file, options.limits,
                                 options.load_timeout)
        return PredicateSession(program, mapping, options.work)


def _prolog(mapping: Mapping) -> Mapping:
    if not mapping.prolog:
        raise MappingError("--interface predicate needs a predicate: set predicate = "
                           "\"NAME/ARITY\" (a function is --interface function's)")
    return mapping


class PredicateSession(Session[Question, Reply]):
    """One Prolog program, its declared predicate asked within inference limits."""

    work_unit = "inferences"
    judged = "whole"

    def __init__(self, program: StudentProgram, mapping: Mapping,
                 work: WorkLimits = DEFAULT_WORK) -> None:
        check = DeclaredPredicate(mapping)
        super().__init__(program, {check.name: check}, work)
        self.student = program
        self.mapping = mapping
        self._record = False
        """True when the next question records the calls below it (`record_next`)."""

    @cached_property
    def asked(self) -> frozenset[tuple[State, Player]]:
        """The positions the declared predicate is asked: those its calls are drawn on."""
        return frozenset((question.state, question.player)
                         for question in predicate_questions(self.mapping))

    def work_limit(self, question: Question) -> float:
        return round(self.work.ratio * _cost(question))

    def work_budget(self, questions: Sequence[Question]) -> float:
        return round(self.work.budget_ratio * sum(_cost(question) for question in questions))

    def plan(self, checks: tuple[str, ...], defined: set[str]) -> tuple[tuple[str, ...],
                                                                         list[str]]:
        """The declared predicate: the one check its submission has."""
        return checks or tuple(self.checks), []

    def defines(self, check: str, defined: set[str]) -> bool:
        """Defined in the main file, or in a module it loads (whose names the load does not
        list): asked, and an undefined predicate's error said by its answers."""
        return True

    def ask(self, question: Question, seconds: float, work: float) -> Reply:
        asked, template = goal(self.mapping, question.state, question.player)
        record, self._record = self._record, False
        return self.student.ask_many([Ask(asked, template, 1, round(work),
                                          record=MOST_NODES if record else 0,
                                          recorded=recorded_term(self.mapping) if record
                                          else "")], seconds)[0]

    def walks(self, question: Question) -> bool:
        """Always: the walk asks nothing below the declared predicate (which calls it makes
        is the program's own choice), so its first wrong answer is its first wrong call,
        whose own calls are recorded (`made`)."""
        return True

    records_calls = True

    def record_next(self) -> None:
        """The next question records the calls of the declared predicate its own clauses
        make directly below it (`Ask.recorded`): the harness keeps nothing of one question for
        the next, so the program is not started afresh."""
        self._record = True

    def made(self, question: Question, reply: Reply) -> list[tuple[Question, str | None]]:
        """The calls of the declared predicate the program's own clauses made directly below
        `question`, each read back through the mapping as the lab's board and player, each
        once, with the first answer it got; a call on anything the mapping does not read as
        a board and a player, or on a position the predicate is not asked (a finished game,
        a player it does not move for), is left out."""
        calls: dict[Question, str | None] = {}
        for call in reply.made_terms:
            position = (called_position(self.mapping, call.args)
                        if call.call == self.mapping.name else None)
            if position is not None and position in self.asked:
                calls.setdefault(Question(self.mapping.name, *position),
                                 answer_text(self.mapping, call.answer))
        return list(calls.items())

    def searched_below(self, question: Question) -> list[Question]:
        """The lab's decision, drawn beside the program's own calls of its predicate: the
        same question on each successor in cell order, for the other player, where the
        predicate is asked there (the game goes on, the mapping moves for that player)."""
        other = reference.other_player(question.player)
        return [Question(question.check, after, other)
                for after in reference.successor(question.state, question.player)
                if (after, other) in self.asked]

    def said(self, reply: Reply) -> str:
        return f"answers {reply.answers[0].text}" if reply.answers else "no answer"

    def problem(self, question: Question, reply: Reply, verdict: Verdict,
                defined: set[str]) -> Problem | None:
        if verdict.category not in (Category.EXCEPTION, Category.DIED) or not reply.error:
            return None
        return Problem(reply.error_term or verdict.category, reply.error, str(question))


BATCH = 100
"""Positions sent to a program at once by `MappedProgram`."""
QUESTION_SECONDS = 60.0
"""The wall-clock guard of each of `MappedProgram`'s questions, against a program that waits;
its work is bounded by inferences."""


class MappedProgram:
    """A Prolog program declared by a mapping, as a source `compare` asks for a decision on
    each position (`compare.sources.pipeline.Program`): contained and limited as `grade`
    contains it, asked only the positions of the players it moves for (the others are
    missing); its value the lab's (2, which never agrees, where it is unreadable), or where
    it gives none the move's own by the reference (compared with `--values none`)."""

    def __init__(self, path: Path, mapping: Mapping, work: WorkLimits = DEFAULT_WORK) -> None:
        self.name = f"program {path.name}"
        self.mapping = mapping
        self.work = work
        self.program = StudentProgram([path], mapping.file)
        report = self.program.load()
        if report.problem is not None:
            self.program.close()
            raise MappingError(f"{path}: {report.problem}")

    @property
    def gives_values(self) -> bool:
        """True when the program answers a value of its own."""
        return self.mapping.gives_values

    def decisions(self, positions: Iterable[tuple[State, Player]]) -> dict[
            tuple[State, Player], Decision]:
        """The decision the program answers on each position it is asked (none where it
        gives no move the mapping reads)."""
        asked = {(question.state, question.player) for question in predicate_questions(
            self.mapping)}
        wanted = [position for position in positions if position in asked]
        found: dict[tuple[State, Player], Decision] = {}
        while wanted:
            batch = wanted[:BATCH]
            asks = []
            for state, player in batch:
                text, template = goal(self.mapping, state, player)
                limit = round(self.work.ratio * _cost(Question("", state, player)))
                asks.append(Ask(text, template, 1, limit))
            replies = self.program.ask_many(asks, QUESTION_SECONDS)
            for (state, player), reply in zip(batch, replies, strict=False):
                decided = self._decision(state, player, reply)
                if decided is not None:
                    found[state, player] = decided
            wanted = wanted[max(len(replies), 1):]  # after a program stopped, the rest again
        return found

    def _decision(self, state: State, player: Player, reply: Reply) -> Decision | None:
        if not reply.answers:
            return None
        cell, raw = read_answer(self.mapping, state, player, reply.answers[0].term)
        if cell is None or state[cell - 1] != BLANK:
            return None
        value = (lab_value(raw, player, self.mapping) if self.gives_values
                 else truth(LAB).move_values((state, player))[cell])
        return Decision(Action(player, cell), 2 if value is None else value)

    def note(self, state: State, player: Player, cell: int) -> str:
        """The end of a suboptimal move's finding: the depth-limit note (`horizon_note`)."""
        return horizon_note(self.mapping, state, player, cell)

    def close(self) -> None:
        self.program.close()


def _cost(question: Question) -> int:
    """The lab's own cost of the decision: the measure of the inference limits."""
    return lab_cost(LabQuestion("minimax_decision", question.state, question.player))
