"""The grader's side inside a student's Python sandbox: import the program, then call its
functions as asked, one question a line on descriptor 3, one JSON answer a line on descriptor 4,
each answer carrying its question's "id" (the first line read is the import's: `N.`).

Run contained by `logic.contain.python_program`, as a script that imports nothing of this
project. The program's output goes to its standard output, which the grader reads, caps and
counts itself; its standard input is empty. Values cross as JSON, with tuples, sets and other
objects tagged (`encode`); each answer carries the arguments as they are after the call, which
the grader compares with those it sent. A question judged on the program's own functions brings
the lab's answers on the successors of its board (`give`).

The program runs in this process and may replace any name: a module's (`json.dumps`,
`sys.stdout`, `copy.deepcopy`), a built-in's (`isinstance`, `repr`) or this script's own. So
once the program is imported the harness runs only closures that `hardened` made before it,
over what it bound then: built-ins, the built-in types' own methods, `os.write` and the
descriptors' numbers; none looks a name up (docs/grading-reference.md, "The harness's channel").
"""

import _signal  # type: ignore[import-not-found]  # typeshed: no stub for signal's C module
import ast
import contextlib
import functools
import gc
import importlib.machinery
import importlib.util
import io
import json
import math
import operator
import os
import signal
import sys
import traceback
import types
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from _typeshed import ReadableBuffer, StrPath

MAX_ITEMS = 200
"""Items of a returned container sent at most; a longer one is cut and marked."""
MAX_TEXT = 200
"""Characters of a returned string, or of an object's repr, sent at most."""
DEEPEST = 4
"""Levels of lists and tuples in an argument compared with the lab's answers' (a board of rows
has two)."""
CPU_AGAIN = 0.05
"""Seconds of CPU between two `CpuLimit`s raised into a program that catches them."""
MOST_MADE = 64
"""Calls a question's function makes to the wrapped functions that are kept, at most (as many
as the search drawn beside the lab's holds, `logic.tools.beside.MOST_NODES`)."""
QUESTIONS, ANSWERS, OUTPUT = 3, 4, 1
"""The descriptors of the questions, the answers and the program's output."""


class Unlike(Exception):
    """An argument that matches no answer of the lab's."""


class CpuLimit(BaseException):
    """A call used its CPU time: raised into the program by SIGPROF, again every
    `CPU_AGAIN` seconds of CPU should the program catch it."""


ESCAPES = {**{code: f"\\u{code:04x}" for code in range(0x20)},
           **{code: f"\\u{code:04x}" for code in range(0xD800, 0xE000)},
           ord('"'): '\\"', ord("\\"): "\\\\"}
"""JSON's escapes of a string's characters: control characters, quotes, backslashes, and lone
surrogates (which UTF-8 cannot carry)."""


class Tools(NamedTuple):
    """What `hardened` makes."""

    encode: Callable[[object], object]
    decode: Callable[[Any], Any]
    dump: Callable[[object], str]
    plain: Callable[[object], str]
    serve: Callable[[str, bool], None]


def hardened() -> Tools:
    """The harness's own tools, each a closure over what it uses, bound now: nothing the
    program replaces later changes them (a test reads their code for any name looked up).
    `encode(value)`, `decode(value)`, `dump(encoded)` (JSON text), `plain(args)`, and
    `serve(path, definitions_only)`, which imports the program and answers its questions."""
    type_of, issub, join, show, as_text = type, issubclass, str.join, repr, str
    as_int, int_text, as_float, float_text = int.__int__, int.__repr__, float.__float__, \
        float.__repr__
    finite, sub, cut, translate = math.isfinite, str.__getitem__, slice, str.translate
    split, starts, to_bytes, items_of = str.split, str.startswith, str.encode, dict.items
    named = type.__dict__["__name__"].__get__
    bases = ((list, list.__iter__), (tuple, tuple.__iter__), (set, set.__iter__),
             (frozenset, frozenset.__iter__))
    boolean, integer, real, text, listed, paired, mapping, unique, frozen = \
        bool, int, float, str, list, tuple, dict, set, frozenset
    order, escapes = sorted, dict(ESCAPES)
    unlike, limit, failure, anything = Unlike, CpuLimit, Exception, BaseException
    no_module, syntax, no_spec, too_long, mistake = ModuleNotFoundError, SyntaxError, \
        ImportError, ValueError, TypeError
    unwrappable = (AttributeError, TypeError)
    attributes, is_callable, set_to, get, wraps = vars, callable, setattr, getattr, \
        functools.wraps
    item_of = operator.getitem
    largest, most_items, most_text, deepest, again = 10**15, MAX_ITEMS, MAX_TEXT, DEEPEST, \
        CPU_AGAIN
    most_made, add_to, emptied, count = MOST_MADE, list.append, list.clear, list.__len__
    function_type, globals_of = types.FunctionType, types.FunctionType.__dict__[
        "__globals__"].__get__
    write, set_timer, prof, on_signal, sigprof = os.write, signal.setitimer, \
        signal.ITIMER_PROF, signal.signal, signal.SIGPROF
    mask, block, restore, every_signal = _signal.pthread_sigmask, _signal.SIG_BLOCK, \
        _signal.SIG_SETMASK, _signal.valid_signals()  # `signal`'s own make enums: slow
    gc_on, gc_off, gc_is_on, suppress = gc.enable, gc.disable, gc.isenabled, contextlib.suppress
    switch_interval, set_switch_interval = sys.getswitchinterval, sys.setswitchinterval
    parse = json.JSONDecoder().raw_decode
    extract_tb, spec_from_loader, module_from_spec = traceback.extract_tb, \
        importlib.util.spec_from_loader, importlib.util.module_from_spec
    source_loader, definitions_loader = importlib.machinery.SourceFileLoader, DefinitionsLoader
    folder_of, modules, search_path, system = os.path.dirname, sys.modules, sys.path, sys
    opened, text_stream, buffered, raw_file, no_input = open, io.TextIOWrapper, \
        io.BufferedWriter, io.FileIO, io.StringIO
    questions_fd, answers_fd, output_fd = QUESTIONS, ANSWERS, OUTPUT

    def type_name(value: object) -> str:
        """The name of `value`'s own type, whatever the type says of itself."""
        try:
            return sub(named(type_of(value)), cut(0, most_text))
        except failure:
            return "?"

    def text_of(value: object) -> str:
        """`value`'s repr, cut; `?` when the repr fails or is no text."""
        try:
            shown = show(value)
            return sub(shown, cut(0, most_text)) if issub(type_of(shown), text) else "?"
        except failure:
            return "?"

    def encode(value: Any, budget: list[int] | None = None) -> object:
        """`value` as JSON the grader reads back: tuples as {"tuple": [...]}, sets as
        {"set": [...]}, anything else not JSON as {"object": type, "repr": text}; each kind
        told by the value's own type and read through the built-in type's own methods."""
        budget = budget if budget is not None else [most_items]
        kind = type_of(value)
        if value is None or kind is boolean:
            return value
        if issub(kind, integer):
            number = as_int(value)
            if -largest < number < largest:
                return number
            try:
                return {"object": "int", "repr": sub(int_text(number), cut(0, most_text))}
            except too_long:  # more digits than Python writes
                return {"object": "int", "repr": "?"}
        if issub(kind, real):
            point = as_float(value)
            return point if finite(point) else {"object": "float", "repr": float_text(point)}
        if issub(kind, text):
            return sub(value, cut(0, most_text))
        kinds = [pair for pair in bases if issub(kind, pair[0])]
        if not kinds:
            return {"object": type_name(value), "repr": text_of(value)}
        base, walk = kinds[0]
        items: list[object] = []
        ordered: Any = walk(value)
        if base is unique or base is frozen:
            ordered = order(ordered, key=lambda item: dump(encode(item)))
        for item in ordered:
            budget[0] -= 1
            if budget[0] < 0:
                items.append({"object": "...", "repr": "(cut)"})
                break
            items.append(encode(item, budget))
        if base is listed:
            return items
        return {"tuple" if base is paired else "set": items}

    def decode(value: Any) -> Any:
        """An argument the grader sent: lists stay lists, {"tuple": [...]} becomes a
        tuple."""
        if type_of(value) is listed:
            return [decode(item) for item in value]
        if type_of(value) is mapping and "tuple" in value:
            return paired([decode(item) for item in value["tuple"]])
        return value

    def dump(value: Any) -> str:
        """The JSON text of what `encode` and the harness build (JSON's own types alone:
        anything else is the harness's mistake, a `TypeError`)."""
        kind = type_of(value)
        if value is None:
            return "null"
        if kind is boolean:
            return "true" if value else "false"
        if kind is integer or kind is real:
            return int_text(value) if kind is integer else float_text(value)
        if kind is text:
            return '"' + translate(value, escapes) + '"'
        if kind is listed:
            return "[" + join(", ", [dump(item) for item in value]) + "]"
        if kind is mapping:
            return "{" + join(", ", [dump(key) + ": " + dump(item)
                                     for key, item in items_of(value)]) + "}"
        raise mistake("the harness sends JSON's own types alone")

    def plain(value: Any, depth: int = 0) -> str:
        """An argument as the lab's answers are keyed: lists and tuples alike, each scalar of
        exactly a built-in type as Python writes it; `Unlike` for anything else (an object of
        the program's own could claim to equal any board)."""
        kind = type_of(value)
        if (kind is listed or kind is paired) and depth < deepest:
            return "[" + join(",", [plain(item, depth + 1) for item in value]) + "]"
        if value is None or kind is text or kind is integer or kind is real or kind is boolean:
            return show(value)
        raise unlike

    def error_text(error: BaseException) -> str:
        """`ValueError: cell taken`, on one line."""
        try:
            said = as_text(error)
            message = join(" ", split(said)) if issub(type_of(said), text) else ""
        except failure:
            message = ""
        message = sub(message, cut(0, most_text))
        return type_name(error) + (": " + message if message else "")

    answers: dict[str, object] = {}
    wrappers: dict[str, object] = {}
    made: list[str] = []
    values: list[list[object]] = []
    depth = [0]
    recording = [False]

    def wrapped(name: str, own: Any) -> Any:
        """The program's function `own`, answering from `answers` where it holds the call;
        while answers are given, or its own calls are recorded (`recording`), the calls the
        question's own call makes (one level below it) are kept in `made`, each by its key,
        the first `most_made`; recorded, with what each returned in `values`, `[index in
        made, value]`."""
        def wrapper(*args: "object", **kwargs: "object") -> "object":  # text: read no name
            kept = -1
            if (answers or recording[0]) and not kwargs:
                try:
                    key = name + plain(args)
                except unlike:
                    key = None
                if key is not None:
                    if depth[0] == 1 and made[most_made - 1:most_made] == []:
                        add_to(made, sub(key, cut(0, most_text)))
                        kept = count(made) - 1
                    if key in answers:
                        return answers[key]
            depth[0] += 1
            try:
                value = own(*args, **kwargs)
            finally:
                depth[0] -= 1
            if kept >= 0 and recording[0]:
                add_to(values, [kept, value])
            return value

        try:
            return wraps(own)(wrapper)
        except unwrappable:
            return wrapper

    def give(module: types.ModuleType | None, names: list[str],
             below: list[list[Any]]) -> None:
        """The lab's answers to the calls on the successors of the question's board, for the
        program's recursive functions: wrap `names` in `module` (if not wrapped), each in
        place of the program's function in its globals, answering a call whose arguments are
        those of an answer (lists and tuples alike, no keywords) and running the program's
        own function on any other; and hold `below`'s answers, each `[key, value]`, the key
        the function's name and its arguments as `plain` writes them. The answers are the
        current question's only: given with it, dropped when it ends."""
        answers.clear()
        if module is None:
            return
        for name in names:
            own = attributes(module).get(name)
            if is_callable(own) and own is not wrappers.get(name):
                wrappers[name] = wrapped(name, own)
                set_to(module, name, wrappers[name])
        answers.update((as_text(key), value) for key, value in below)

    def record(module: types.ModuleType | None) -> None:
        """Record the calls the question's own call makes to the program's own functions:
        wrap (if not wrapped) each function of `module` defined in its own code (its
        globals the module's), none of them given an answer."""
        recording[0] = True
        if module is None:
            return
        names = attributes(module)
        for name, own in [*items_of(names)]:
            if (type_of(name) is text and type_of(own) is function_type
                    and globals_of(own) is names and own is not wrappers.get(name)):
                wrappers[name] = wrapped(name, own)
                set_to(module, name, wrappers[name])

    def over_cpu(signum: int, frame: object) -> None:
        raise limit

    def send(answer: dict[str, object]) -> None:
        """One answer line, on the answers' descriptor."""
        data = to_bytes(dump(answer) + "\n", "utf-8")
        while data:
            data = data[write(answers_fd, data):]

    def loaded(module: types.ModuleType | None, path: str, error: Any) -> dict[str, object]:
        """How the import went: the functions it defined, or its error and its line."""
        defined = order([name for name, value in items_of(attributes(module))
                         if type_of(name) is text and is_callable(value)
                         and not starts(name, "__")]) if module is not None else []
        if error is None:
            return {"loaded": True, "defined": defined}
        said: dict[str, object] = {"loaded": False, "defined": defined,
                                   "error": error_text(error), "error_type": type_name(error)}
        try:
            if issub(type_of(error), no_module) and type_of(error.name) is text:
                said["missing"] = error.name
            where = [frame for frame in extract_tb(error.__traceback__)
                     if frame.filename == path]
            if issub(type_of(error), syntax) and type_of(error.lineno) is integer:
                said["line"] = error.lineno
            elif where:
                said["line"] = where[-1].lineno
                if where[0].name == "<module>":  # the statement of the top level that ran
                    said["top_line"] = where[0].lineno
        except failure:
            pass
        return said

    def picked(value: Any, paths: Any) -> Any:
        """The parts of a returned value that a mapping's return paths name, as a tuple: each
        step an attribute (`["attr", NAME]`) or an item (`["item", KEY]`) of the part before
        (`compare.grader.interfaces.mappings.return_path` reads them)."""
        parts = []
        for path in paths:
            part = value
            for kind, key in path:
                part = get(part, key) if kind == "attr" else item_of(part, key)
            parts.append(part)
        return paired(parts)

    def serve(path: str, definitions_only: bool) -> None:
        """Import the program at `path` (its definitions alone if `definitions_only`), then
        answer each question line until there are none."""
        questions = opened(questions_fd, encoding="utf-8")
        next_line = questions.readline
        number = integer(next_line().strip().rstrip("."))
        output = text_stream(buffered(raw_file(output_fd, "w", closefd=False)),
                             encoding="utf-8", errors="backslashreplace")
        flushes = [output.flush] + [stream.flush for stream in (system.__stdout__,
                                                                 system.__stderr__)
                                    if stream is not None]
        system.stdin = no_input("")
        system.stdout = system.stderr = output
        search_path.insert(0, folder_of(path))
        system.setrecursionlimit(10000)
        switching = switch_interval()

        def flush() -> None:
            for each in flushes:
                with suppress(failure):
                    each()

        module = None
        try:
            loader = (definitions_loader if definitions_only else source_loader)(
                "submission", path)  # any file name
            spec = spec_from_loader("submission", loader)
            if spec is None:
                raise no_spec(f"no module spec for {path}")
            module = module_from_spec(spec)
            modules["submission"] = module
            loader.exec_module(module)
            report = loaded(module, path, None)
        except anything as error:  # noqa: BLE001 - a program's fault, reported, never ours
            report = loaded(module, path, error)
        report["id"] = number
        flush()
        send(report)
        on_signal(sigprof, over_cpu)
        while line := next_line():
            question = parse(line)[0]
            give(module, question.pop("wrap", []), question.pop("below", []))
            recording[0] = False
            if question.pop("record", False):
                record(module)
            emptied(made)
            emptied(values)
            depth[0] = 0
            del line  # what the program can reach of the question holds no answer but in below
            args = decode(question["args"])
            answer: dict[str, object] = {}
            value, returned = None, False
            set_switch_interval(switching)
            try:
                function = get(module, question["function"])
                if question.get("cpu"):
                    set_timer(prof, question["cpu"], again)
                value = function(*args)
                if "pick" in question:  # the parts its mapping's paths name, still timed
                    value = picked(value, question["pick"])
                set_timer(prof, 0)
                returned = True
            except limit:
                set_timer(prof, 0)
                answer["end"] = "cpu"
            except anything as error:  # noqa: BLE001 - what the program raised is its answer
                set_timer(prof, 0)
                answer.update(end="raised", error=error_text(error),
                              error_type=type_name(error))
            # while the arguments are read, none of the program's code runs but a repr: no
            # other thread, no signal handler, no finalizer run by a collection
            set_switch_interval(1000.0)
            blocked = mask(block, every_signal)
            collecting = gc_is_on()
            gc_off()
            answers.clear()
            answer["args"] = encode(args)  # before anything of the program's (a repr) runs
            if returned:
                answer["end"], answer["value"] = "returned", encode(value)
            if made:
                answer["made"] = encode(made[:])
            if values:
                answer["returned"] = encode(values[:])
                emptied(values)
            answer["id"] = question["id"]
            if collecting:
                gc_on()
            mask(restore, blocked)
            set_switch_interval(switching)
            flush()
            send(answer)

    return Tools(encode, decode, dump, plain, serve)


def main() -> None:
    hardened().serve(sys.argv[1], sys.argv[2:] == ["definitions"])


DEFINITIONS = (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
CONSTANT_CALLS = {"float", "int", "str", "set", "frozenset", "list", "tuple", "dict", "range",
                  "object", "len", "abs", "min", "max", "sorted", "enumerate", "zip"}
"""Built-ins an assignment at the top level may call and still count as a definition."""


def definitions(tree: ast.Module) -> ast.Module:
    """The module's definitions alone: imports, functions, classes, assignments of values
    built from constants, and `try` blocks of these; a demo at the top level is left out, and
    so is a definition that reads, as it runs, a name only what was left out binds (`HUMAN =
    user[0]` after `user = input()`), through any chain of such names."""
    postponed = any(isinstance(node, ast.ImportFrom) and node.module == "__future__"
                    and any(alias.name == "annotations" for alias in node.names)
                    for node in tree.body)
    tree.body = _kept(tree.body, Names(), postponed)
    return tree


class Names:
    """The names bound so far by the statements kept, and those bound only by statements left
    out (which a kept statement may not read)."""

    def __init__(self, bound: set[str] | None = None, unbound: set[str] | None = None
                 ) -> None:
        self.bound = set(bound or ())
        self.unbound = set(unbound or ())

    def keep(self, names: set[str]) -> None:
        """Names a kept statement binds."""
        self.bound |= names
        self.unbound -= names

    def leave_out(self, names: set[str]) -> None:
        """Names a statement left out binds."""
        self.unbound |= names - self.bound

    def copy(self) -> "Names":
        """The same names, to change apart."""
        return Names(self.bound, self.unbound)


def _kept(body: list[ast.stmt], names: Names, postponed: bool) -> list[ast.stmt]:
    """The definitions among `body`, in order, that read no name bound only by a statement
    left out; `names` follows what each statement binds."""
    kept: list[ast.stmt] = []
    for node in body:
        if isinstance(node, ast.Try):
            kept.append(_kept_try(node, names, postponed))
        elif _is_definition(node) and not _reads(node, postponed) & names.unbound:
            kept.append(node)
            names.keep(_binds(node))
        else:
            names.leave_out(_binds(node))
    return kept


def _kept_try(node: ast.Try, names: Names, postponed: bool) -> ast.Try:
    """A `try` block with its definitions alone; what a handler binds counts for nothing after
    it, since its body, of definitions alone, is not expected to raise."""
    node.body = _kept(node.body, names, postponed) or [ast.Pass()]
    for handler in node.handlers:
        handler.body = _kept(handler.body, names.copy(), postponed) or [ast.Pass()]
    node.orelse = _kept(node.orelse, names, postponed)
    node.finalbody = _kept(node.finalbody, names, postponed)
    return node


def _is_definition(node: ast.stmt) -> bool:
    """True for an import, a function, a class, a docstring, or an assignment whose only calls
    are of `CONSTANT_CALLS`."""
    if isinstance(node, DEFINITIONS) or (
            isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)):
        return True
    if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
        return all(isinstance(call.func, ast.Name) and call.func.id in CONSTANT_CALLS
                   for call in ast.walk(node) if isinstance(call, ast.Call))
    return False


COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def _binds(node: ast.AST) -> set[str]:
    """The names a statement binds in the module (not those its functions, lambdas and
    comprehensions bind for themselves)."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {node.name}
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return {(alias.asname or alias.name).split(".")[0] for alias in node.names}
    if isinstance(node, ast.Name):
        return {node.id} if isinstance(node.ctx, ast.Store) else set()
    if isinstance(node, (ast.ExceptHandler, ast.MatchAs, ast.MatchStar)) and node.name:
        return {node.name} | _children_bind(node)
    if isinstance(node, (ast.Lambda, *COMPREHENSIONS)):
        return set()
    return _children_bind(node)


def _children_bind(node: ast.AST) -> set[str]:
    """The names the parts of `node` bind in the module."""
    return set().union(*(_binds(child) for child in ast.iter_child_nodes(node)))


def _reads(node: ast.AST, postponed: bool) -> set[str]:
    """The names a statement reads as it runs (not those the bodies of its functions and
    lambdas read when called, nor a comprehension's own variables, nor annotations when
    `postponed`)."""
    if isinstance(node, ast.Name):
        return {node.id} if isinstance(node.ctx, ast.Load) else set()
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        return _reads_all(_evaluated_with(node, postponed), postponed)
    if isinstance(node, ast.ClassDef):
        own = set().union(*(_binds(child) for child in node.body))
        outside = [*node.bases, *node.keywords, *node.decorator_list]
        return (_reads_all(outside, postponed)
                | _reads_all(node.body, postponed) - own)
    if isinstance(node, COMPREHENSIONS):
        own = set().union(*(_binds(generator.target) for generator in node.generators))
        return (_reads(node.generators[0].iter, postponed)
                | _children_read(node, postponed) - own)
    if isinstance(node, ast.AnnAssign) and postponed:
        return _reads_all([node.target, *([node.value] if node.value else [])], postponed)
    if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
        return {node.target.id} | _children_read(node, postponed)
    return _children_read(node, postponed)


def _evaluated_with(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda,
                    postponed: bool) -> list[ast.AST]:
    """What defining a function evaluates: its decorators, defaults and annotations."""
    arguments = node.args
    parts: list[ast.AST] = [*arguments.defaults,
                            *(default for default in arguments.kw_defaults if default)]
    if isinstance(node, ast.Lambda):
        return parts
    parts += node.decorator_list
    if not postponed:
        every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs,
                 *(extra for extra in (arguments.vararg, arguments.kwarg) if extra)]
        parts += [argument.annotation for argument in every if argument.annotation]
        parts += [node.returns] if node.returns else []
    return parts


def _reads_all(nodes: list[ast.AST] | list[ast.stmt] | list[ast.expr], postponed: bool
               ) -> set[str]:
    """The names the nodes read as they run."""
    return set().union(*(_reads(node, postponed) for node in nodes))


def _children_read(node: ast.AST, postponed: bool) -> set[str]:
    """The names the parts of `node` read as they run."""
    return _reads_all(list(ast.iter_child_nodes(node)), postponed)


class DefinitionsLoader(importlib.machinery.SourceFileLoader):
    """Imports a module's definitions alone (`definitions`): read before any of the program
    runs."""

    def source_to_code(  # type: ignore[override]  # typeshed: SourceFileLoader overrides InspectLoader's staticmethod with this method
        self,
        data: "ReadableBuffer | str | ast.Module | ast.Expression | ast.Interactive",
        path: "bytes | StrPath",
        *,
        _optimize: int = -1,
    ) -> types.CodeType:
        if not isinstance(data, (str, bytes)):
            raise TypeError(f"source_to_code reads source text, not {type(data).__name__}")
        tree = definitions(ast.parse(data, os.fsdecode(path)))
        return compile(ast.fix_missing_locations(tree), path, "exec", dont_inherit=True)


encode, decode, dump, plain, _ = hardened()
"""The grader's copies: it keys the lab's answers with `plain` and reads the arguments it sent
as `decode` and `encode` make them; `main` makes the harness's own."""


if __name__ == "__main__":
    main()
