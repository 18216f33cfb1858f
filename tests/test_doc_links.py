"""The documentation's links hold: every link of README.md and docs/*.md to a page of the
repository reaches it, and its `#anchor` a heading of that page; every section of a page the
code and the tests name (`docs/PAGE.md, "Heading"`) is there. The teacher's guide to grading
stays a ten-minute read."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SOURCES = sorted(path for folder in ("logic", "compare", "tests")
                 for path in (ROOT / folder).rglob("*")
                 if path.suffix in {".py", ".toml", ".pl", ".sh"} and path.is_file()
                 and "submissions" not in path.parts and path != Path(__file__).resolve())
_LINK = re.compile(r"\]\(([^)\s]+)\)")
_FENCE = re.compile(r"^(```|~~~).*?^\1", re.DOTALL | re.MULTILINE)
_NAMED = re.compile(r'docs/([\w-]+\.md),\s*(?:#\s*)?"([^"]+)"')
GUIDE_WORDS = 3000
"""The most words docs/grading.md may hold: ten minutes at a reader's 300 words a minute."""


def anchor(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as
    hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def headings(page: Path) -> list[str]:
    """The headings of a Markdown page, outside its code blocks."""
    text = _FENCE.sub("", page.read_text(encoding="utf-8"))
    return [line.lstrip("#").strip() for line in text.splitlines()
            if re.match(r"#{1,6} ", line)]


def test_anchors_are_made_as_github_makes_them():
    assert anchor("CS50 AI's tictactoe.py") == "cs50-ais-tictactoepy"
    assert anchor("Python: judged on its own functions") == "python-judged-on-its-own-functions"
    assert anchor("A class, from the submissions folder to the gradebook") == (
        "a-class-from-the-submissions-folder-to-the-gradebook")


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: path.name)
def test_every_link_to_a_page_of_the_repository_reaches_it(document):
    text = _FENCE.sub("", document.read_text(encoding="utf-8"))
    broken = []
    for target in _LINK.findall(text):
        if re.match(r"[a-z]+:", target):
            continue  # a web address
        path, _, fragment = target.partition("#")
        page = (document.parent / path).resolve() if path else document
        if not page.exists() or (fragment and page.suffix == ".md"
                                 and fragment not in map(anchor, headings(page))):
            broken.append(target)
    assert not broken, broken


def test_every_section_the_code_names_is_there():
    named = []
    for source in SOURCES:
        text = re.sub(r"\s*\n\s*(?:#\s*)?", " ", source.read_text(encoding="utf-8"))
        named += [(source.relative_to(ROOT), page, heading)
                  for page, heading in _NAMED.findall(text)]
    assert len(named) >= 10
    missing = [(str(source), page, heading) for source, page, heading in named
               if not (ROOT / "docs" / page).is_file()
               or heading not in headings(ROOT / "docs" / page)]
    assert not missing, missing


def test_the_grading_guide_reads_in_ten_minutes():
    guide = (ROOT / "docs" / "grading.md").read_text(encoding="utf-8")
    assert len(guide.split()) <= GUIDE_WORDS
    assert "grading-reference.md" in guide
