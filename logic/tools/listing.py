"""A predicate of the lab three ways: the Prolog clauses (logic/prolog/lab.pl, with the game's
facts from facts/game.pl), the plain pyDatalog rules (logic/rules.py) and the Python reference
(logic/reference.py), read from their sources; the top level's `:listing PRED` and the API's
`listing` show them."""

from __future__ import annotations

import re
from importlib import resources

from minimax_lab.logic.errors import LabError
from minimax_lab.logic.predicates import LAB_PREDICATES

_SECTION = re.compile(r"^\s*# --- (.*?) -+$")
_END_OF_RULES = "return Program(predicates)"
"""The line that ends rules.py's last section: the program's, not the lab's."""
SOURCES = (("the lab in Prolog", "minimax_lab.logic.prolog", "lab.pl"),
           ("the game's facts", "minimax_lab.facts", "game.pl"))


LISTED = {predicate.name: predicate.arity for predicate in LAB_PREDICATES.values()}
"""The lab's predicates, each with its arity: what can be listed three ways."""


class ListingError(LabError, ValueError):
    """A name that is none of the lab's predicates."""


def listing_parts(name: str) -> list[tuple[str, str]]:
    """The statements of the lab's predicate `name` (or `name/arity`), each with its title:
    Prolog, pyDatalog, Python; `ListingError` for another name."""
    name, _, arity = name.partition("/")
    if name in LISTED and arity and arity != str(LISTED[name]):
        raise ListingError(f"the lab has no {name}/{arity}; it has {name}/{LISTED[name]}")
    if name not in LISTED:
        raise ListingError(f"no predicate {name!r} to list; the lab's predicates are "
                           f"{', '.join(LISTED)}")
    parts = []
    for title, package, file in SOURCES:
        clauses = prolog_clauses(_read(package, file), name)
        if clauses:
            folder = package.removeprefix("minimax_lab.").replace(".", "/")
            parts.append((f"{title} ({folder}/{file})", clauses))
    for title, file in (("the lab in pyDatalog", "rules.py"), ("the lab in Python",
                                                                "reference.py")):
        text = _read("minimax_lab.logic", file)
        parts.append((f"{title} (logic/{file})", python_section(text, name)))
    return parts


def listing(name: str) -> str:
    """The three statements of the lab's predicate `name`, one after another, each under its
    title as a comment; `ListingError` for another name."""
    return "\n\n".join(f"% {title}:\n{text}" for title, text in listing_parts(name))


def prolog_clauses(text: str, name: str) -> str:
    """The clauses of `name` in a Prolog source, each with the comment lines just above it."""
    lines = text.splitlines()
    found, index = [], 0
    while index < len(lines):
        if lines[index].startswith(f"{name}("):
            start = index
            while start > 0 and lines[start - 1].startswith("%"):
                start -= 1
            end = index
            while not lines[end].rstrip().endswith(".") and end + 1 < len(lines):
                end += 1
            found.append("\n".join(lines[start : end + 1]))
            index = end + 1
        else:
            index += 1
    return "\n".join(found)


def python_section(text: str, name: str) -> str:
    """The section of a Python source whose `# --- title ---` names `name` (the sections of
    rules.py and reference.py follow the lab's predicates)."""
    lines = text.splitlines()
    starts = [(number, match.group(1)) for number, line in enumerate(lines)
              if (match := _SECTION.match(line))]
    for index, (number, title) in enumerate(starts):
        if re.search(rf"\b{re.escape(name)}\b", title):
            end = starts[index + 1][0] if index + 1 < len(starts) else len(lines)
            body = lines[number + 1 : end]
            while body and (not body[-1].strip() or body[-1].strip() == _END_OF_RULES):
                body.pop()
            indent = min(len(line) - len(line.lstrip()) for line in body if line.strip())
            return _own_paragraphs([line[indent:] for line in body], name)
    return f"(no section for {name})"


def _own_paragraphs(lines: list[str], name: str) -> str:
    """The paragraphs of a section that state `name` (a section may hold two predicates, as
    max_value's holds min_value), or the whole section if none opens with it."""
    paragraphs = [paragraph.strip("\n") for paragraph in "\n".join(lines).split("\n\n")]
    paragraphs = [paragraph for paragraph in paragraphs if paragraph]
    own = [paragraph for paragraph in paragraphs
           if paragraph.startswith((f"# {name}(", f"def {name}("))]
    return "\n\n".join(own) if own else "\n\n".join(paragraphs)


def _read(package: str, file: str) -> str:
    return (resources.files(package) / file).read_text(encoding="utf-8")
