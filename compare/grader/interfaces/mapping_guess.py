"""A mapping guessed for a Prolog program (`minimax-lab mapping guess`): its candidate
predicates read from its text (`logic.contain.harness.clause_heads`), each asked, contained as
the predicate interface asks it, on a few probe positions under a bounded list of common
encodings; the encoding whose answers explain the most probes is proposed, with how sure.

A probe is a position where exactly one move does not lose (the other side threatens one line
and the mover has no win of its own): any program that looks one move ahead answers it, so the
probes tell encodings apart without asking the program to be right.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from itertools import product
from pathlib import Path

from minimax_lab.compare.grader.interfaces.mappings import (
    FREE,
    Board,
    Mapping,
    MappingError,
    Positions,
    Result,
    Side,
    checked_mapping,
    words_in,
)
from minimax_lab.compare.grader.interfaces.prolog import Question as LabQuestion
from minimax_lab.compare.grader.interfaces.prolog import lab_cost
from minimax_lab.compare.grader.interfaces.prolog_mapping import goal, read_answer
from minimax_lab.compare.grader.options.config import DEFAULT_WORK
from minimax_lab.compare.judge.truth import truth
from minimax_lab.logic.contain.harness import (
    PROLOG_SUFFIXES,
    Ask,
    Reply,
    StudentProgram,
    atom_names,
    clause_heads,
    module_exports,
)
from minimax_lab.logic.contain.submission import read_prefix
from minimax_lab.logic.contain.swipl import require
from minimax_lab.logic.errors import EXIT_FALSE
from minimax_lab.logic.objective import LAB
from minimax_lab.logic.positions import all_positions, to_move
from minimax_lab.logic.quote import quoted
from minimax_lab.logic.state import BLANK, PLAYERS, SIZE, Player, State, mark, winner

PREFERRED = ("minimax", "best_move", "best", "move", "play", "choose", "decide", "negamax",
             "alphabeta", "minimax_decision")
"""Names a decision predicate often has, most likely first."""
MOST_CANDIDATES = 3
"""Candidate predicates asked at most, the likeliest first."""
TEMPLATES: dict[int, tuple[tuple[object, ...], ...]] = {
    2: (("board", "result"),),
    3: (("board", "player", "result"), ("player", "board", "result"),
        (("player", "play", "board"), "result", "value")),
    4: (("board", "player", "result", "value"), ("board", "depth", "player", "result"),
        ("board", "player", "depth", "result"), ("depth", "board", "player", "result")),
}
"""The argument orders tried for each arity (a position `[Player, play, Board]` is
Bratko's)."""
MARKS: tuple[tuple[object, object, tuple[object, ...]], ...] = (
    ("x", "o", ("-", FREE, 0, "e", "b", " ", "empty")),
    ("X", "O", ("-", FREE, 0, "e", "b", " ", "empty")),
    (1, 2, (0,)),
)
"""x's mark, o's and the blanks tried with them; a one-letter atom of the program's text is
tried as a blank of letters too."""
PROBE_DEPTH = 2
"""The depth a program told one is asked the probes at: a block needs two plies seen (the
move, and the threat it stops); the least depth that explains as many is proposed."""
MOST_SURVIVORS = 24
"""Encodings asked every probe at most, of those whose first answer reads as a legal move."""
SECONDS = 20.0
"""The wall-clock guard of a question, against a program that waits; work counts inferences."""
FIRST = 6
"""Questions a candidate is asked before it is given up as one that loops, floods or halts
whatever it is asked."""
STOPPED = ("inferences", "cpu", "time", "died")
"""How a reply ends when the program ran into a limit or died."""
UNASKED = Reply((), "died", "not asked: every answer before it ran into a limit")
EXIT_NOTHING_FITS = EXIT_FALSE
"""The exit status when no encoding reads a legal move from any probe."""


@dataclass(frozen=True)
class NothingFits:
    """No encoding of any candidate reads a legal move from the probes: why, in one line
    (an answer, like `false.`, not an error: exit status `EXIT_NOTHING_FITS`)."""

    said: str


@dataclass(frozen=True)
class Probe:
    """A position where only `cell` does not lose; `value`, that move's value for the mover."""

    state: State
    player: Player
    cell: int
    value: int

    def __str__(self) -> str:
        return f"{self.state} {self.player}"


def probes(per_player: int = 3) -> list[Probe]:
    """`per_player` probes for each player, x moving first: a board of 4 to 6 blanks where the
    other side threatens one line, the mover has no win, and every move but the block loses;
    valued blocks first (they show the value scale), then in text order."""
    found: dict[Player, list[Probe]] = {player: [] for player in PLAYERS}
    for state, player in all_positions():
        if player != to_move(state) or not 4 <= state.count(BLANK) <= 6:
            continue
        other = PLAYERS[1 - PLAYERS.index(player)]
        blanks = [cell for cell in range(1, SIZE + 1) if state[cell - 1] == BLANK]
        threats = [cell for cell in blanks if winner(mark(state, cell, other)) == other]
        wins = [cell for cell in blanks if winner(mark(state, cell, player)) == player]
        if len(threats) != 1 or wins:
            continue
        values = truth(LAB).move_values((state, player))
        if values[threats[0]] >= 0 and all(value < 0 for cell, value in values.items()
                                           if cell != threats[0]):
            found[player].append(Probe(state, player, threats[0], values[threats[0]]))
    chosen = []
    for player in PLAYERS:
        ranked = sorted(found[player], key=lambda probe: (probe.value == 0, probe.state))
        chosen += ranked[:per_player - 1] + [p for p in ranked if p.value == 0][:1]
    return chosen


@dataclass(frozen=True)
class Candidate:
    """A predicate the program defines: its name, arity, file and module (if it exports it)."""

    name: str
    arity: int
    file: Path
    module: str | None = None

    def rank(self) -> tuple[int, int, str]:
        named = PREFERRED.index(self.name) if self.name in PREFERRED else len(PREFERRED)
        return (self.module is None, named, self.name)


def prolog_files(paths: Sequence[Path]) -> list[Path]:
    """The Prolog files among `paths` (a folder: the Prolog files in it); `MappingError` for a
    missing path, a Python file, or no Prolog."""
    files: list[Path] = []
    for path in paths:
        if not path.exists():
            raise MappingError(f"no file or folder {quoted(str(path))}")
        inside = sorted(path.rglob("*")) if path.is_dir() else [path]
        files += [file for file in inside if file.is_file() and file.suffix in PROLOG_SUFFIXES
                  and not file.name.startswith(".")]
        if not path.is_dir() and path.suffix == ".py":
            raise MappingError("mapping guess reads Prolog programs; for Python see "
                               "docs/compare.md")
        if not path.is_dir() and path.suffix not in PROLOG_SUFFIXES:
            raise MappingError(f"{quoted(str(path))} is not a Prolog file (.pl, .p, .pro)")
    if not files:
        raise MappingError(f"no Prolog file (.pl, .p, .pro) in {quoted(str(paths[0]))}")
    return files


def candidates(files: Sequence[Path]) -> list[Candidate]:
    """The predicates of arity 2 to 4 the files define, likeliest first: a module's exports,
    then the usual names of a decision."""
    found: dict[tuple[str, int], Candidate] = {}
    for file in files:
        text = read_prefix(file)
        module, exports = module_exports(text)
        for name, arity in clause_heads(text):
            if 2 <= arity <= 4 and (name, arity) not in found and (
                    module is None or (name, arity) in exports):
                found[name, arity] = Candidate(name, arity, file, module)
    if not found:
        raise MappingError("no candidate: no predicate of arity 2 to 4 is defined (or exported) "
                           f"in {', '.join(quoted(str(file)) for file in files)}")
    return sorted(found.values(), key=Candidate.rank)[:MOST_CANDIDATES]


def letters(files: Sequence[Path]) -> tuple[str, ...]:
    """The one-letter atoms of the files' text other than x and o: blanks worth a try."""
    seen = [name for file in files for name in atom_names(read_prefix(file))
            if len(name) == 1 and name.islower() and name not in ("x", "o")]
    return tuple(dict.fromkeys(seen))[:4]


def calls(candidate: Candidate, extra_blanks: tuple[str, ...]) -> list[dict[str, object]]:
    """The encodings that change the goal asked (arguments, board, marks; positions for a board
    of facts), as mapping keys, for `candidate`."""
    encodings: list[dict[str, object]] = []
    for args in TEMPLATES[candidate.arity]:
        base: dict[str, object] = {"predicate": f"{candidate.name}/{candidate.arity}",
                                   "args": list(_listed(args))}
        if "depth" in words_in(args):
            base.update(depth=PROBE_DEPTH)
        for x, o, blanks in MARKS:
            for plays in _plays(args, x, o):
                more = extra_blanks if isinstance(x, str) and x.islower() else ()
                for board, blank in product((Board.FLAT, Board.ROWS), (*blanks, *more)):
                    encodings.append({**base, **plays, "board": board.value, "x": x, "o": o,
                                      "blank": blank})
                for positions in Positions:
                    encodings.append({**base, **plays, "board": Board.FACTS.value, "x": x,
                                      "o": o, "positions": positions.value})
    return encodings


def _plays(args: tuple[object, ...], x: object, o: object) -> list[dict[str, object]]:
    """The side a program told no player plays: x's, o's, or the one to move."""
    if "player" in words_in(args):
        return [{}]
    return [{"plays": x}, {"plays": o}, {}]


def _listed(args: tuple[object, ...]) -> list[object]:
    return [_listed(item) if isinstance(item, tuple) else item for item in args]


def readings(call: dict[str, object]) -> list[dict[str, object]]:
    """How an answer may be read under `call`: each result kind, and positions where the
    call leaves them open."""
    open_positions = call["board"] != Board.FACTS.value
    found: list[dict[str, object]] = []
    for result in Result:
        if result is Result.MOVE_VALUE and _names_value(call["args"]):
            continue
        if result is Result.BOARD or not open_positions:
            found.append({"result": result.value})
        else:
            found += [{"result": result.value, "positions": positions.value}
                      for positions in Positions]
    return found


def _names_value(args: object) -> bool:
    return args == "value" or isinstance(args, list) and any(map(_names_value, args))


@dataclass
class Fit:
    """An encoding (`mapping`) and what it read from each probe asked: the cell (None:
    unreadable) and the value."""

    mapping: Mapping
    asked: list[Probe]
    cells: list[int | None] = field(default_factory=list)
    values: list[object] = field(default_factory=list)
    answers: list[str] = field(default_factory=list)

    @property
    def right(self) -> int:
        return sum(cell == probe.cell for cell, probe in zip(self.cells, self.asked, strict=True))

    @property
    def legal(self) -> int:
        return sum(cell is not None and probe.state[cell - 1] == BLANK
                   for cell, probe in zip(self.cells, self.asked, strict=True))

    def score(self) -> tuple[float, int, float]:
        asked = max(len(self.asked), 1)
        return self.right / asked, self.right, self.legal / asked


@dataclass(frozen=True)
class Guess:
    """The mapping proposed, its fit, and the fits tied with it."""

    fit: Fit
    tied: int
    rivals: tuple[Mapping, ...] = ()

    @property
    def word(self) -> str:
        """How sure: sure (every probe asked explained, no other encoding as good), likely
        (every probe with a tie, or most of them), unsure (half or fewer)."""
        fit = self.fit
        if 2 * fit.right <= len(fit.asked):
            return "unsure"
        return "sure" if self.tied == 0 and fit.right == len(fit.asked) else "likely"


class Prober:
    """One candidate file's program, contained, asked goals in batches."""

    def __init__(self, paths: Sequence[Path], main: Path) -> None:
        self.program = StudentProgram(list(paths), main.name)
        report = self.program.load()
        if report.problem is not None:
            self.program.close()
            raise MappingError(f"{main.name}: {report.problem}")

    def answers(self, asks: list[tuple[Mapping, Probe]], first: int | None = None
                ) -> list[Reply]:
        """Each goal's reply, in order, a program that stopped started again for the rest;
        sent `first` at a time where told, the rest left unasked (`UNASKED`) once every
        reply so far ran into a limit or killed the program (a program that loops, floods
        or halts whatever it is asked costs no more than `first` questions)."""
        lines = []
        for mapping, probe in asks:
            text, template = goal(mapping, probe.state, probe.player)
            limit = round(DEFAULT_WORK.ratio * lab_cost(LabQuestion(
                "minimax_decision", probe.state, probe.player)))
            lines.append(Ask(text, template, 1, limit))
        replies: list[Reply] = []
        while len(replies) < len(lines):
            if first is not None and len(replies) >= first and all(
                    reply.end in STOPPED for reply in replies):
                return replies + [UNASKED] * (len(lines) - len(replies))
            end = len(lines) if first is None or len(replies) >= first else first
            got = self.program.ask_many(lines[len(replies):end], SECONDS)
            replies += got or [Reply((), "died")]
        return replies[:len(lines)]

    def close(self) -> None:
        self.program.close()


def fit_of(mapping: Mapping, asked: list[Probe], replies: list[Reply]) -> Fit:
    """What `mapping` reads from the replies to `asked`."""
    fit = Fit(mapping, asked)
    for probe, reply in zip(asked, replies, strict=True):
        cell, value, text = None, None, reply.end
        if reply.answers:
            text = reply.answers[0].text
            try:
                cell, value = read_answer(mapping, probe.state, probe.player,
                                          reply.answers[0].term)
            except (TypeError, ValueError):
                cell = None
        fit.cells.append(cell)
        fit.values.append(value)
        fit.answers.append(text)
    return fit


def guess(paths: Sequence[Path]) -> Guess | NothingFits:
    """The mapping the program at `paths` most likely follows, or `NothingFits`;
    `MappingError` for a program that cannot be read or loaded."""
    files = prolog_files(paths)
    found = candidates(files)
    require("mapping guess")
    extra = letters(files)
    asked_probes = probes()
    fits: list[Fit] = []
    probers: dict[Path, Prober] = {}
    try:
        for candidate in found:  # the likeliest first, until one explains every probe
            if candidate.file not in probers:
                probers[candidate.file] = Prober(paths, candidate.file)
            fits += _fits(probers[candidate.file], candidate, extra, asked_probes,
                          len(files) > 1)
            if any(fit.right == len(fit.asked) for fit in fits):
                break
    finally:
        for prober in probers.values():
            prober.close()
    fits = [fit for fit in fits if fit.legal]
    if not fits:
        names = ", ".join(f"{candidate.name}/{candidate.arity}" for candidate in found)
        return NothingFits(f"nothing fits: no encoding of {names} answers a legal move on any "
                          f"of {len(asked_probes)} probes")
    fits.sort(key=lambda fit: fit.score(), reverse=True)
    fits = _keypad_first(fits, files)
    best = fits[0]
    if best.mapping.depth is not None:
        prober = Prober(paths, next(c.file for c in found if c.name == best.mapping.name))
        try:
            best = _with_depth(prober, best)
        finally:
            prober.close()
    best = _settled(best)
    rivals = [fit for fit in fits[1:] if fit.score() == fits[0].score()
              and core(fit.mapping) != core(fits[0].mapping)]
    return Guess(best, len(rivals), tuple(fit.mapping for fit in rivals))


KEYPAD_ROW = re.compile(r"7\s*,\s*8\s*,\s*9")
CELL_ROW = re.compile(r"1\s*,\s*2\s*,\s*3")


def _keypad_first(fits: list[Fit], files: Sequence[Path]) -> list[Fit]:
    """`fits` with a keypad numbering first where it ties with 1..9 on a board of facts (the
    one is the other mirrored, so probes cannot tell them apart) and the program's text lists
    7, 8, 9 before 1, 2, 3."""
    best = fits[0]
    if best.mapping.board is not Board.FACTS or best.mapping.positions is not Positions.CELL1:
        return fits
    text = "".join(read_prefix(file) for file in files)
    keypad, cells = KEYPAD_ROW.search(text), CELL_ROW.search(text)
    if keypad is None or (cells is not None and cells.start() < keypad.start()):
        return fits
    mirrored = replace(best.mapping, positions=Positions.NUMPAD)
    for at, fit in enumerate(fits):
        if fit.mapping == mirrored and fit.score() == best.score():
            return [fit, *fits[:at], *fits[at + 1:]]
    return fits


def _fits(prober: Prober, candidate: Candidate, extra: tuple[str, ...], asked: list[Probe],
          name_file: bool) -> list[Fit]:
    """The fits of `candidate`'s encodings: each asked its first probe, the few whose answer
    some reading takes for a legal move then asked every probe."""
    own: dict[str, object] = {"module": candidate.module} if candidate.module else {}
    named: dict[str, object] = ({"file": candidate.file.name}
                                if name_file or candidate.file.suffix != ".pl" else {})
    encodings = []
    for call in calls(candidate, extra):
        try:
            mapping = checked_mapping({**call, **own, **named})
        except MappingError:
            continue
        probes_asked = [probe for probe in asked if probe.player in mapping.movers()]
        if mapping.reads_the_mover:
            probes_asked = [probe for probe in probes_asked if probe.player == to_move(probe.state)]
        if probes_asked:
            encodings.append((call, mapping, probes_asked))
    first = prober.answers([(mapping, probes_asked[0]) for _, mapping, probes_asked in encodings],
                           FIRST)
    survivors = []
    for (call, mapping, probes_asked), reply in zip(encodings, first, strict=True):
        best = _best_reading(call, own, named, probes_asked[:1], [reply])
        if best is not None and best.legal:
            survivors.append((call, mapping, probes_asked))
    fits = []
    for call, mapping, probes_asked in survivors[:MOST_SURVIVORS]:
        replies = prober.answers([(mapping, probe) for probe in probes_asked])
        best = _best_reading(call, own, named, probes_asked, replies)
        if best is not None:
            fits.append(best)
    return fits


def _best_reading(call: dict[str, object], own: dict[str, object], named: dict[str, object],
                  asked: list[Probe], replies: list[Reply]) -> Fit | None:
    best: Fit | None = None
    for reading in readings(call):
        try:
            mapping = checked_mapping({**call, **reading, **own, **named})
        except MappingError:
            continue
        fit = fit_of(mapping, asked, replies)
        if best is None or fit.score() > best.score():
            best = fit
    return best


def _with_depth(prober: Prober, fit: Fit) -> Fit:
    """The fit at the least depth that explains as many probes as a search to the end: a
    depth guessed from shallow probes, and a search cut there counted a heuristic's."""
    for depth in range(1, fit.mapping.depth or SIZE):
        mapping = replace(fit.mapping, depth=depth, heuristic=True)
        shallow = fit_of(mapping, fit.asked, prober.answers([(mapping, p) for p in fit.asked]))
        if shallow.score() >= fit.score():
            return shallow
    return replace(fit, mapping=replace(fit.mapping, heuristic=True))


def _settled(fit: Fit) -> Fit:
    """The fit with its value side and scale read from its values (where it gives values)."""
    if not fit.mapping.gives_values and "value" not in words_in(fit.mapping.args):
        return fit
    numbers = [value for value in fit.values if type(value) is int]
    scale = max((abs(value) for value in numbers), default=1) or 1
    sides = {}
    for side in Side:
        sides[side] = sum(
            cell == probe.cell and value == _expected(probe, side) * scale
            for cell, value, probe in zip(fit.cells, fit.values, fit.asked, strict=True))
    side = max(Side, key=lambda s: (sides[s], s is Side.MOVER))
    return replace(fit, mapping=replace(fit.mapping, value_side=side, win_value=scale))


def _expected(probe: Probe, side: Side) -> int:
    return probe.value if side is Side.MOVER or probe.player == PLAYERS[0] else -probe.value


CORE = ("predicate", "args", "board", "x", "o", "blank", "positions", "result", "plays", "depth")
"""The keys that decide which move a mapping reads: those a guess is held to."""


def core(mapping: Mapping) -> tuple[object, ...]:
    """The mapping's `CORE` keys that matter for it (positions not for a board read back)."""
    shown = as_table(mapping)
    return tuple(shown.get(key) for key in CORE)


def as_table(mapping: Mapping) -> dict[str, object]:
    """The keys of a Prolog mapping that say something, in the order a reader wants them."""
    defaults = checked_mapping({"predicate": "p/3"})
    table: dict[str, object] = {"predicate": mapping.predicate}
    order = ("module", "file", "args", "result", "board", "fact", "x", "o", "blank",
             "positions", "plays", "value_side", "win_value", "depth", "heuristic")
    reads_positions = mapping.board is Board.FACTS or mapping.result is not Result.BOARD
    valued = mapping.gives_values or "value" in words_in(mapping.args)
    for key in order:
        value = getattr(mapping, key)
        if key == "positions" and not reads_positions:
            continue
        if key == "blank" and mapping.board is Board.FACTS:
            continue
        if key in ("value_side", "win_value") and not valued:
            continue
        if key in ("args", "board", "x", "o", "blank", "result", "value_side") or value != getattr(
                defaults, key):
            table[key] = _listed(value) if isinstance(value, tuple) else value
    return table


def _plain(value: object) -> object:
    return _listed(value) if isinstance(value, tuple) else value


def to_toml(value: object) -> str:
    """A TOML value: a string, a whole number, a truth value or a list of them."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):  # JSON escapes the control characters but DEL, which TOML bars
        return json.dumps(value, ensure_ascii=False).replace("\x7f", "\\u007f")
    if isinstance(value, list):
        return "[" + ", ".join(to_toml(item) for item in value) + "]"
    raise TypeError(f"no TOML for {value!r}")


def report(found: Guess) -> str:
    """The proposal as TOML, its confidence and its probes as comments."""
    fit = found.fit
    tied = found.tied
    lines = [f"# guessed by minimax-lab mapping guess: {found.word}: {fit.right} of "
             f"{len(fit.asked)} probes agree"
             + (f"; {tied} other encoding{'s' * (tied > 1)} explain{'s' * (tied == 1)} as many"
                if tied else "")]
    for rival in found.rivals[:3]:
        differ = [f"{key} = {to_toml(_plain(getattr(rival, key)))}" for key in CORE
                  if getattr(rival, key) != getattr(fit.mapping, key) and key != "depth"]
        lines.append(f"#   as well: {', '.join(differ)}")
    lines.append("# each probe: a board where one move does not lose, and what was answered")
    for probe, cell, answer in zip(fit.asked, fit.cells, fit.answers, strict=True):
        verdict = "agrees" if cell == probe.cell else "does not agree"
        lines.append(f"#   {probe} (only cell {probe.cell} does not lose): {answer}, "
                     f"{verdict}")
    lines += [f"{key} = {to_toml(value)}" for key, value in as_table(fit.mapping).items()]
    return "\n".join(lines) + "\n"
