"""The grader's side inside a student's Python sandbox: import the program, then call its
functions as asked, one question a line on descriptor 3, one JSON answer a line on descriptor 4,
each answer carrying its question's "id" (the first line read is the import's: `N.`).

Run contained by `logic.contain.python_program`, as a script that imports nothing of this
project. The program's output is captured and sent, bounded, with each answer; its standard
input is empty. Values cross as JSON, with tuples, sets and other objects tagged (`encode`).
A question judged on the program's own functions brings the lab's answers on the successors
of its board (`Below`).
"""

import ast
import functools
import importlib.machinery
import importlib.util
import io
import json
import math
import os
import signal
import sys
import time
import traceback
import types
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    from _typeshed import ReadableBuffer, StrPath

MAX_OUTPUT = 2000
"""Characters of a call's output sent with its answer (all are counted)."""
MAX_ITEMS = 200
"""Items of a returned container sent at most; a longer one is cut and marked."""
MAX_TEXT = 200
"""Characters of a returned string, or of an object's repr, sent at most."""


class Capture(io.TextIOBase):
    """Standard output and error while the program runs: the first characters kept, all counted."""

    def __init__(self) -> None:
        self.kept: list[str] = []
        self.size = 0
        self.count = 0

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        text = str(text)
        if self.size < MAX_OUTPUT:
            self.kept.append(text[: MAX_OUTPUT - self.size])
            self.size += len(self.kept[-1])
        self.count += len(text)
        return len(text)

    def take(self) -> tuple[str, int]:
        """What was written since the last `take`, and how many characters it had."""
        kept, count = "".join(self.kept), self.count
        self.kept, self.size, self.count = [], 0, 0
        return kept, count


def encode(value: object, budget: list[int] | None = None) -> object:
    """`value` as JSON the grader reads back: tuples as {"tuple": [...]}, sets as
    {"set": [...]}, anything else not JSON as {"object": type, "repr": text}."""
    budget = budget if budget is not None else [MAX_ITEMS]
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int):
        return value if abs(value) < 10**15 else {"object": "int", "repr": str(value)[:MAX_TEXT]}
    if isinstance(value, float):
        return value if math.isfinite(value) else {"object": "float", "repr": repr(value)}
    if isinstance(value, str):
        return value[:MAX_TEXT]
    if isinstance(value, (list, tuple, set, frozenset)):
        items: list[object] = []
        ordered: list[object] | tuple[object, ...] | set[object] | frozenset[object] = value
        if isinstance(value, (set, frozenset)):
            ordered = sorted(value, key=repr)
        for item in ordered:
            budget[0] -= 1
            if budget[0] < 0:
                items.append({"object": "...", "repr": "(cut)"})
                break
            items.append(encode(item, budget))
        if isinstance(value, list):
            return items
        return {"tuple" if isinstance(value, tuple) else "set": items}
    try:
        shown = repr(value)
    except Exception:
        shown = "?"
    return {"object": type(value).__name__[:MAX_TEXT], "repr": shown[:MAX_TEXT]}


def decode(value: Any) -> Any:
    """An argument the grader sent: lists stay lists, {"tuple": [...]} becomes a tuple."""
    if isinstance(value, list):
        return [decode(item) for item in value]
    if isinstance(value, dict) and "tuple" in value:
        return tuple(decode(item) for item in value["tuple"])
    return value


class CpuLimit(BaseException):
    """A call used its CPU time: raised into the program by SIGPROF, again every
    `CPU_AGAIN` seconds of CPU should the program catch it."""


CPU_AGAIN = 0.05


def over_cpu(signum: int, frame: object) -> None:
    raise CpuLimit


def error_text(error: BaseException) -> str:
    """`ValueError: cell taken`, on one line."""
    message = " ".join(str(error).split())[:MAX_TEXT]
    return type(error).__name__ + (f": {message}" if message else "")


DEEPEST = 4
"""Levels of lists and tuples in an argument compared with the lab's answers' (a board of rows
has two)."""


class Unlike(Exception):
    """An argument that matches no answer of the lab's."""


def plain(value: object, depth: int = 0) -> str:
    """An argument as the lab's answers are keyed: lists and tuples alike, each scalar of
    exactly a built-in type as Python writes it; `Unlike` for anything else (an object of the
    program's own could claim to equal any board)."""
    kind = type(value)
    if kind in (list, tuple) and isinstance(value, (list, tuple)) and depth < DEEPEST:
        return "[" + ",".join([plain(item, depth + 1) for item in value]) + "]"
    if value is None or kind in (str, int, float, bool):
        return repr(value)
    raise Unlike


class Below:
    """The lab's answers to the calls on the successors of the question's board, for the
    program's recursive functions (`wrap`): each function is replaced, in the module's
    globals, by a wrapper that answers a call whose arguments are those of an answer (lists
    and tuples alike, no keywords) and runs the program's own function on any other. The
    answers are the current question's only: given with it, dropped when it ends."""

    def __init__(self) -> None:
        self.answers: dict[str, object] = {}
        self.wrappers: dict[str, object] = {}

    def give(self, module: types.ModuleType | None, names: list[str],
             below: list[list[Any]]) -> None:
        """Wrap `names` in `module` (if not wrapped), and hold `below`'s answers, each
        `[key, value]`: the key the function's name and its arguments as `plain` writes
        them."""
        self.answers.clear()
        if module is None:
            return
        for name in names:
            own = vars(module).get(name)
            if callable(own) and own is not self.wrappers.get(name):
                self.wrappers[name] = wrapped(name, own, self.answers)
                setattr(module, name, self.wrappers[name])
        self.answers.update((str(key), value) for key, value in below)

    def drop(self) -> None:
        """Forget the question's answers."""
        self.answers.clear()


def wrapped(name: str, own: Any, answers: dict[str, object]) -> Any:
    """The program's function `own`, answering from `answers` where it holds the call."""
    def wrapper(*args: object, **kwargs: object) -> object:
        if answers and not kwargs:
            try:
                key = name + plain(args)
            except Unlike:
                return own(*args, **kwargs)
            if key in answers:
                return answers[key]
        return own(*args, **kwargs)

    try:
        return functools.wraps(own)(wrapper)
    except (AttributeError, TypeError):
        return wrapper


def send(out: IO[str], answer: dict[str, object]) -> None:
    out.write(json.dumps(answer) + "\n")
    out.flush()


def main() -> None:
    with open(3, encoding="utf-8") as questions, open(4, "w", encoding="utf-8") as answers:
        number = int(questions.readline().strip().rstrip("."))
        serve(sys.argv[1], sys.argv[2:] == ["definitions"], number, questions, answers)


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
    """Imports a module's definitions alone (`definitions`)."""

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


def serve(path: str, definitions_only: bool, number: int, questions: IO[str],
          answers: IO[str]) -> None:
    """Import the program at `path` (its definitions alone if `definitions_only`), then answer
    each question line until there are none."""
    capture = Capture()
    sys.stdin = io.StringIO("")
    sys.stdout = sys.stderr = capture
    sys.path.insert(0, os.path.dirname(path))
    sys.setrecursionlimit(10000)
    loaded: dict[str, object] = {"loaded": False}
    module = None
    try:
        kind: type[importlib.machinery.SourceFileLoader] = (
            DefinitionsLoader if definitions_only else importlib.machinery.SourceFileLoader)
        loader = kind("submission", path)  # any file name
        spec = importlib.util.spec_from_loader("submission", loader)
        if spec is None:
            raise ImportError(f"no module spec for {path}")
        module = importlib.util.module_from_spec(spec)
        sys.modules["submission"] = module
        loader.exec_module(module)
        loaded = {"loaded": True}
    except BaseException as error:  # noqa: BLE001 - a program's fault, reported, never ours
        where = [frame for frame in traceback.extract_tb(error.__traceback__)
                 if frame.filename == path]
        loaded = {"loaded": False, "error": error_text(error), "error_type":
                  type(error).__name__, "missing": getattr(error, "name", None)
                  if isinstance(error, ModuleNotFoundError) else None}
        if isinstance(error, SyntaxError) and error.lineno:
            loaded["line"] = error.lineno
        elif where:
            loaded["line"] = where[-1].lineno
            if where[0].name == "<module>":  # the statement of the top level that ran
                loaded["top_line"] = where[0].lineno
    output, count = capture.take()
    defined = sorted(name for name, value in vars(module).items()
                     if callable(value) and not name.startswith("__")) if module else []
    send(answers, {**loaded, "id": number, "defined": defined, "output": output,
                   "output_chars": count})
    signal.signal(signal.SIGPROF, over_cpu)
    below = Below()
    for line in questions:
        question = json.loads(line)
        below.give(module, question.pop("wrap", []), question.pop("below", []))
        del line  # what the program can reach of the question holds no answer but in `below`
        args = decode(question["args"])
        before = json.dumps(encode(args))
        start, cpu = time.perf_counter(), time.process_time()
        answer: dict[str, object] = {}
        try:
            function = getattr(module, question["function"])
            if question.get("cpu"):
                signal.setitimer(signal.ITIMER_PROF, question["cpu"], CPU_AGAIN)
            value = function(*args)
            signal.setitimer(signal.ITIMER_PROF, 0)
            answer["value"] = encode(value)
            answer["end"] = "returned"
        except CpuLimit:
            signal.setitimer(signal.ITIMER_PROF, 0)
            answer["end"] = "cpu"
        except BaseException as error:  # noqa: BLE001 - what the program raised is its answer
            signal.setitimer(signal.ITIMER_PROF, 0)
            answer.update(end="raised", error=error_text(error),
                          error_type=type(error).__name__[:MAX_TEXT])
        below.drop()
        answer["seconds"] = time.perf_counter() - start
        answer["cpu_seconds"] = time.process_time() - cpu
        after = encode(args)
        if json.dumps(after) != before:
            answer["changed"] = after
        answer["output"], answer["output_chars"] = capture.take()
        answer["id"] = question["id"]
        send(answers, answer)


if __name__ == "__main__":
    main()
