"""The layers show: the lab, containment, the engines, the tools, the core's pipelines
(`compare`), then the front ends (the API, the command line, the magics) that only adapt; no
import cycles; `compare` depends on `logic`'s lower layers, never on a front end, and nothing
below the front ends imports `compare`; its subpackages (the judge, the sources of `compare`,
the grader) meet only in the judge; the core never sees argparse."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("logic", "compare", "facts")
"""The folders installed as minimax_lab.logic, minimax_lab.compare and minimax_lab.facts."""
NAME = "minimax_lab"
LOGIC, COMPARE = f"{NAME}.logic", f"{NAME}.compare"
FRONT_ENDS = (f"{LOGIC}.api", f"{LOGIC}.commands", f"{LOGIC}.magics", f"{LOGIC}.site",
              f"{NAME}.__main__")
"""The doors to the core: they adapt what users give and show what it gives back."""


def is_front_end(name: str) -> bool:
    return any(name == door or name.startswith(door + ".") for door in FRONT_ENDS)


def modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if parts[:2] == ("logic", "_root"):  # the installed name's own package
                parts = parts[2:]
            name = ".".join((NAME, *(parts[:-1] if parts[-1] == "__init__" else parts)))
            found[name] = path
    return found


def imports(path: Path, known: dict[str, Path]) -> set[str]:
    """The project's modules that `path` imports wherever it imports them."""
    tree = ast.parse(path.read_text())
    named = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            named |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            named.add(node.module)
            named |= {f"{node.module}.{alias.name}" for alias in node.names}
    parents = {".".join(name.split(".")[:end]) for name in named
               for end in range(1, name.count(".") + 1)}  # importing a.b.c imports a and a.b
    return {name for name in named | parents if name in known}


def test_no_module_of_logic_imports_compare_but_the_front_ends():
    known = modules()
    for name, path in known.items():
        if name.startswith(LOGIC) and not is_front_end(name):
            uses = {other for other in imports(path, known) if other.startswith(COMPARE)}
            assert not uses, name


def test_the_front_ends_are_above_the_core():
    """Nothing in the core (`compare`, or a layer of `logic` below the front ends) imports a
    front end."""
    known = modules()
    for name, path in known.items():
        if not is_front_end(name):
            above = {other for other in imports(path, known) if is_front_end(other)}
            assert not above, (name, sorted(above))


def test_the_core_never_sees_argparse():
    """The core is configured by typed values (`compare.grader.options.config`), never by a parsed
    command line: no module of `compare` imports argparse."""
    for path in (ROOT / "compare").rglob("*.py"):
        tree = ast.parse(path.read_text())
        named = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                 for alias in node.names}
        named |= {node.module or "" for node in ast.walk(tree)
                  if isinstance(node, ast.ImportFrom)}
        assert not {name for name in named if name.split(".")[0] == "argparse"}, path


def test_there_is_no_import_cycle():
    known = modules()
    graph = {name: imports(path, known) - {name} for name, path in known.items()}
    for package in known:  # a package's own modules may import it: that is no cycle
        graph[package] = {other for other in graph[package] if not other.startswith(package + ".")}
    done: set[str] = set()

    def visit(name: str, trail: list[str]) -> None:
        if name in trail:
            raise AssertionError("import cycle: " + " -> ".join([*trail, name]))
        if name in done:
            return
        for other in sorted(graph[name]):
            visit(other, [*trail, name])
        done.add(name)

    for name in sorted(graph):
        visit(name, [])


def test_the_registry_loads_no_engine_until_it_is_named():
    probe = subprocess.run(
        [sys.executable, "-c", f"import sys, {LOGIC}.engines, {LOGIC}.commands.cli; "
         f"print(sorted(m for m in sys.modules "
         f"if m.startswith(('pyDatalog', '{LOGIC}.engines.'))))"],
        capture_output=True, text=True, timeout=60, cwd=ROOT,
    )
    loaded = probe.stdout.strip()
    assert "pyDatalog" not in loaded and "datalog" not in loaded and "prolog" not in loaded


def sections(path: Path) -> list[str]:
    """The section headers of a module of the lab, `# --- name ---`, in order."""
    return [line.strip().strip("#- ") for line in path.read_text("utf-8").splitlines()
            if line.strip().startswith("# --- ")]


def test_the_plain_rules_and_the_reference_read_alike():
    """Both state the lab section by section, in the same order, each predicate under its
    Prolog clause: a reader can hold one beside the other."""
    rules, reference = ROOT / "logic" / "rules.py", ROOT / "logic" / "reference.py"
    assert sections(rules) == sections(reference)
    assert sections(rules)[0].startswith("Game facts") and sections(rules)[-1] == "get_action"
    for path in (rules, reference):
        text = path.read_text("utf-8")
        for predicate in ("successor", "terminal_state", "max_value", "min_value",
                          "minimax_decision", "get_action"):
            assert f"# {predicate}(" in text, (path.name, predicate)


def test_each_layer_imports_only_the_layers_below_it():
    """The lab, then containment, then the engines, then the tools, then the API, then the
    command line: a module imports its own layer or one below, never one above."""
    known = modules()
    order = [f"{LOGIC}.{layer}" for layer in ("contain", "engines", "tools", "toplevel", "api",
                                               "commands")]

    def layer(name: str) -> int:
        if name in (f"{NAME}.__main__", f"{LOGIC}.magics") or name.startswith(f"{LOGIC}.site"):
            return len(order)  # the command line's other doors
        return next((rank + 1 for rank, prefix in enumerate(order)
                     if name == prefix or name.startswith(prefix + ".")), 0)

    for name, path in known.items():
        if name.startswith(LOGIC):
            above = {other for other in imports(path, known)
                     if other.startswith(LOGIC) and layer(other) > layer(name)}
            assert not above, (name, sorted(above))


def test_compares_subpackages_meet_only_in_the_judge():
    """The judge imports neither the sources nor the grader; they import the judge, never each
    other; nothing in `compare` imports the command line."""
    known = modules()
    judge, sources, grader = (f"{COMPARE}.{part}" for part in ("judge", "sources", "grader"))
    allowed = {judge: {judge}, sources: {judge, sources}, grader: {judge, grader}}
    packages = {name for name in known if name.startswith(f"{COMPARE}.") and name.count(".") == 2}
    assert packages == set(allowed)
    for name, path in known.items():
        if not name.startswith(f"{COMPARE}."):
            continue
        own = ".".join(name.split(".")[:3])
        used = imports(path, known)
        assert not {other for other in used if other.startswith(f"{LOGIC}.commands")}, name
        sideways = {".".join(other.split(".")[:3]) for other in used
                    if other.startswith(f"{COMPARE}.")} - allowed[own]
        assert not sideways, (name, sorted(sideways))


def test_the_option_table_is_low_and_read_by_every_door():
    """`compare.grader.options.options` imports no other module of the grader (only the judge's
    words for its choices), so every layer can read it; the grader's settings and the doors that
    set options (the command line, the API, the site, the autograder's zip) read it."""
    known = modules()
    table = f"{COMPARE}.grader.options.options"
    below = {other for other in imports(known[table], known)
             if other.startswith(f"{COMPARE}.") and not other.startswith(f"{COMPARE}.judge")}
    assert not below, sorted(below)
    readers = (f"{COMPARE}.grader.options.config", f"{COMPARE}.grader.assignments.assignment",
               f"{COMPARE}.grader.interfaces.interface", f"{LOGIC}.commands.grade", f"{LOGIC}.api",
               f"{LOGIC}.site.browser", f"{COMPARE}.grader.outputs.platforms.gradescope_autograder")
    for reader in readers:
        assert table in imports(known[reader], known), reader


RESULT_MODEL = {
    **dict.fromkeys(("LoadReport", "LoadMessage"), f"{LOGIC}.contain.loading"),
    **dict.fromkeys(("Verdict", "Finding", "WrongCall", "CheckResult", "Problem",
                     "SubmissionGrade"), f"{COMPARE}.judge.results")}
"""Where each class of the result model a grade is made of is declared."""


def test_the_result_model_is_declared_once_where_every_layer_can_read_it():
    """Each class of a grade in one module; the load's below every harness and the grader,
    needing only the JSON converter, which needs no module of the project."""
    known = modules()
    declared: dict[str, list[str]] = {}
    for name, path in known.items():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef) and node.name in RESULT_MODEL:
                declared.setdefault(node.name, []).append(name)
    assert declared == {cls: [home] for cls, home in RESULT_MODEL.items()}
    converter = f"{LOGIC}.json_fields"
    assert imports(known[f"{LOGIC}.contain.loading"], known) <= {NAME, LOGIC, converter}
    assert not imports(known[converter], known)


CLAUSE_START = re.compile(r"^#\s*[a-z_]+\([^:]*\)( :-|\.)$")
LAB_PREDICATES = ("list_replace", "successor", "winning_config", "terminal_state", "max_value",
                  "min_value", "minimax_decision", "get_action")


def words(text: str) -> str:
    return " ".join(text.split())


def commented_clauses(path: Path) -> list[str]:
    """The Prolog clauses in a module's comments, each on one line with its spaces collapsed:
    from a comment line that opens with a head and `:-` (or is a fact) to the line that ends
    in a full stop."""
    clauses, current = [], None
    for line in path.read_text("utf-8").splitlines():
        text = line.strip()
        if not text.startswith("#"):
            current = None
            continue
        if current is None and CLAUSE_START.match(text):
            current = []
        if current is not None:
            current.append(text.lstrip("#"))
            if text.endswith("."):
                clauses.append(words(" ".join(current)))
                current = None
    return clauses


def lab_clauses() -> list[str]:
    """The clauses of the lab's predicates in `logic/prolog/lab.pl`, one line each."""
    code = "\n".join(line for line in (ROOT / "logic" / "prolog" / "lab.pl").read_text(
        "utf-8").splitlines() if not line.startswith("%"))
    return [words(clause).rstrip(".") + "." for clause in code.split(".\n")
            if clause.strip().startswith(tuple(f"{name}(" for name in LAB_PREDICATES))]


def test_the_clauses_above_the_rules_are_the_labs_own():
    """Every clause quoted in `rules.py` and `reference.py` is a clause of `lab.pl` or a fact
    of `facts/game.pl`, word for word, and each file quotes every clause of the lab's
    predicates (but find_max_sv and find_min_sv, which docs/architecture.md's table places)."""
    lab = lab_clauses()
    facts = words((ROOT / "facts" / "game.pl").read_text("utf-8"))
    assert len(lab) == 13
    for path in (ROOT / "logic" / "rules.py", ROOT / "logic" / "reference.py"):
        quoted = commented_clauses(path)
        assert sorted(clause for clause in quoted if clause in lab) == sorted(lab), path.name
        assert all(clause in lab or clause in facts for clause in quoted), path.name


def test_the_walkthrough_quotes_the_lab_and_the_plain_program_word_for_word():
    """Its Prolog blocks are clauses of lab.pl (or facts of game.pl), and every pyDatalog rule
    it quotes is a rule of `logic/rules.py`."""
    page = (ROOT / "docs" / "walkthrough.md").read_text("utf-8")
    prolog = words((ROOT / "logic" / "prolog" / "lab.pl").read_text("utf-8"))
    facts = words((ROOT / "facts" / "game.pl").read_text("utf-8"))
    blocks = re.findall(r"```prolog\n(.*?)```", page, re.DOTALL)
    assert len(blocks) >= 6
    for block in blocks:
        for clause in words(block).split(". "):
            clause = clause.rstrip(".") + "."
            assert clause in prolog or clause in facts, clause
    def bare(text: str) -> str:  # a rule may be wrapped in parentheses over several lines
        return re.sub(r"[\s()]", "", text)

    rules = bare((ROOT / "logic" / "rules.py").read_text("utf-8"))
    quoted = re.findall(r"`([^`]*<=[^`]*)`", page)
    assert len(quoted) >= 8
    for rule in quoted:
        assert bare(rule) in rules, rule


def test_every_package_is_installed_under_the_one_name():
    """pyproject.toml lists every package, each under minimax_lab and mapped to its folder."""
    import tomllib

    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["setuptools"]
    folders = {name for name, path in modules().items() if path.name == "__init__.py"}
    assert set(setuptools["packages"]) == folders
    assert setuptools["package-dir"] == {NAME: "logic/_root", LOGIC: "logic", COMPARE: "compare",
                                         f"{NAME}.facts": "facts"}


def test_the_built_ins_are_below_the_solver_and_the_session():
    """The families of built-ins import the registry, the helpers they share and the families
    they build on, never the solver, the session, or the help and the `:` commands made from
    the registries; the registry imports no family."""
    known = modules()
    package = f"{LOGIC}.toplevel.builtins"
    above = {f"{LOGIC}.toplevel.{name}" for name in ("solve", "repl", "help", "session_commands",
                                                      "answers", "terminal")}
    families = {name for name in known if name.startswith(package + ".")}
    assert {f"{package}.{family}" for family in ("registry", "session", "lists")} <= families
    for name in (package, *families):
        assert not imports(known[name], known) & above, name
    registry = imports(known[f"{package}.registry"], known)
    assert not registry & families - {f"{package}.registry"}


def test_the_lab_predicates_records_are_on_the_ground_floor():
    """`logic/predicates.py`, the one record per lab predicate that every layer reads, imports
    nothing of the project (its reference function is imported when asked for), and the
    layers that list the lab's predicates read it."""
    known = modules()
    records = f"{LOGIC}.predicates"
    assert imports(known[records], known) == set()
    readers = ("rules", "engines.fast_rules", "toplevel.predicates", "toplevel.repl", "api",
               "tools.listing", "contain.lab_goals")
    for reader in readers:
        assert records in imports(known[f"{LOGIC}.{reader}"], known), reader
    assert records in imports(known[f"{COMPARE}.grader.interfaces.prolog"], known)


def grader_floor(name: str) -> int | None:
    """A grader module's floor: its subpackage's place in `FLOORS` from 1, the top (one more)
    for the grader's own modules, None for the grader package itself (every import of a grader
    module imports it; it declares only the floors) or a module outside the grader."""
    from minimax_lab.compare.grader import FLOORS

    grader = f"{COMPARE}.grader"
    if not name.startswith(grader + "."):
        return None
    first = name[len(grader) + 1:].split(".")[0]
    return FLOORS.index(first) + 1 if first in FLOORS else len(FLOORS) + 1


def test_the_graders_subpackages_import_only_the_floors_below_them():
    """options, interfaces, assignments, findings, running, outputs, then `pipeline`: a grader
    module imports its own floor or one below, at module level or inside a function."""
    known = modules()
    graders = {name: floor for name in known if (floor := grader_floor(name)) is not None}
    assert set(graders.values()) == set(range(1, 8)), graders  # every floor has its modules
    for name, floor in graders.items():
        above = {other for other in imports(known[name], known)
                 if (grader_floor(other) or 0) > floor}
        assert not above, (name, sorted(above))


def test_each_floor_of_the_grader_imports_without_those_above_it():
    """Importing a floor's modules loads no module of a floor above it."""
    from minimax_lab.compare.grader import FLOORS

    known = modules()
    for rank, floor in enumerate(FLOORS, start=1):
        names = sorted(name for name in known if grader_floor(name) == rank)
        code = ("import importlib, sys\n"
                f"for name in {names!r}: importlib.import_module(name)\n"
                "print('\\n'.join(sys.modules))")
        loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                check=True, timeout=120).stdout.split()
        above = sorted(name for name in loaded if (grader_floor(name) or 0) > rank)
        assert not above, (floor, above)


def test_the_graders_floors_are_stated_where_they_are_read():
    """Each floor's package says its place, and docs/architecture.md's layout lists the floors
    in their order."""
    from minimax_lab.compare.grader import FLOORS

    table = (ROOT / "docs" / "architecture.md").read_text("utf-8")
    rows = [table.index(f"| `compare/grader/{floor}/` | floor {rank}:")
            for rank, floor in enumerate(FLOORS, start=1)]
    assert rows == sorted(rows)
    ordinals = ("first", "second", "third", "fourth", "fifth", "sixth")
    for floor, ordinal in zip(FLOORS, ordinals, strict=True):
        docstring = ast.get_docstring(ast.parse(
            (ROOT / "compare" / "grader" / floor / "__init__.py").read_text("utf-8")))
        assert docstring and docstring.startswith(f"The grader's {ordinal} floor"), floor


def test_the_stepping_tracer_is_below_the_solver_and_the_session():
    """`toplevel/stepper.py` (the ports, the commands at a port, the spy points) reads only the
    terms, the operators and the errors; the context, the solver, the answers and the session
    read it, and the built-ins never do (they ask the session through `context.Commands`)."""
    known = modules()
    toplevel = f"{LOGIC}.toplevel"
    stepper = f"{toplevel}.stepper"
    assert imports(known[stepper], known) - {NAME, LOGIC, toplevel} <= {
        f"{toplevel}.{name}" for name in ("prolog_terms", "operators", "errors")}
    for reader in ("context", "solve", "answers", "repl"):
        assert stepper in imports(known[f"{toplevel}.{reader}"], known), reader
    builtins = [name for name in known if name.startswith(f"{toplevel}.builtins")]
    assert builtins and not any(stepper in imports(known[name], known) for name in builtins)


def test_the_game_to_click_is_declared_once_for_the_site_and_the_notebook():
    """The game's rules are `logic.tools.game`, which the site's Python and the notebook's page
    both play through; its board in the browser is one script, `logic/tools/game.js`, which
    the site copies and the notebook's page inlines (no copy of it among the site's assets)."""
    known = modules()
    rules = f"{LOGIC}.tools.game"
    for player in (f"{LOGIC}.site.browser", f"{LOGIC}.tools.game_html"):
        assert rules in imports(known[player], known), player
    assert not (ROOT / "logic" / "site" / "assets" / "game.js").exists()
    scripts = [path for path in ROOT.joinpath("logic").rglob("*.js")
               if "function playGame(" in path.read_text("utf-8")]
    assert scripts == [ROOT / "logic" / "tools" / "game.js"]


def test_one_mapping_grammar_and_one_term_writer():
    """A mapping is declared once (`mappings.py`, both languages' keys), and read by the
    Prolog predicate's terms; terms are written by `logic/contain/prolog_text.py`, which
    imports nothing of the project, so every layer that builds a goal can read it."""
    known = modules()
    interfaces = f"{COMPARE}.grader.interfaces"
    writer = f"{LOGIC}.contain.prolog_text"
    assert imports(known[writer], known) == set()
    prolog_mapping = imports(known[f"{interfaces}.prolog_mapping"], known)
    assert {f"{interfaces}.mappings", writer} <= prolog_mapping
    defining = [name for name, path in known.items()
                if "def checked_mapping(" in path.read_text(encoding="utf-8")]
    assert defining == [f"{interfaces}.mappings"]


def test_swi_prolog_in_the_site_is_started_in_one_script():
    """SWI-Prolog in WebAssembly is made in one script, `prolog.js`, which the check's worker
    and the top level's worker for a student's program both load (no copy in either)."""
    assets = ROOT / "logic" / "site" / "assets"
    makers = [path.name for path in sorted(assets.glob("*.js"))
              if "await SWIPL(" in path.read_text("utf-8")]
    assert makers == ["prolog.js"]
    for worker in ("check-worker.js", "program-worker.js"):
        assert '"prolog.js"' in (assets / worker).read_text("utf-8"), worker


def test_the_search_beside_the_labs_is_one_model_every_layer_reads():
    """`logic/tools/beside.py`, the neutral tree of calls, their alignment and their drawing,
    reads only the state; the judge's result keeps it, the grader's findings build it, its
    outputs draw it, and the API shows it, each through it (none declares a tree of its own)."""
    known = modules()
    model = f"{LOGIC}.tools.beside"
    assert imports(known[model], known) - {NAME, LOGIC, f"{LOGIC}.tools"} == {f"{LOGIC}.state"}
    for reader in (f"{COMPARE}.judge.results", f"{COMPARE}.grader.findings.beside",
                   f"{COMPARE}.grader.outputs.beside_page"):
        assert model in imports(known[reader], known), reader
    page = f"{COMPARE}.grader.outputs.beside_page"
    for reader in (f"{COMPARE}.grader.outputs.reports", f"{LOGIC}.api"):
        assert page in imports(known[reader], known), reader


def test_a_guessed_mapping_is_the_grammars_and_its_program_runs_contained():
    """`mapping guess` proposes a mapping of the one grammar (`mappings.py`), asks its goals
    as the predicate interface builds and reads them (`prolog_mapping.py`), runs the program
    only through the grader's containment (`logic.contain.harness`), never in-process (no
    top level, no engine), and its command only adapts it."""
    known = modules()
    interfaces = f"{COMPARE}.grader.interfaces"
    guessing = imports(known[f"{interfaces}.mapping_guess"], known)
    assert {f"{interfaces}.mappings", f"{interfaces}.prolog_mapping",
            f"{LOGIC}.contain.harness"} <= guessing
    assert not any(name.startswith((f"{LOGIC}.toplevel", f"{LOGIC}.engines"))
                   or is_front_end(name) for name in guessing)
    assert f"{interfaces}.mapping_guess" in imports(known[f"{LOGIC}.commands.mapping"], known)
