"""`minimax-lab site DIR`: write the lab as a static site, nothing to install (docs/site.md)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from minimax_lab.compare.judge.scores import DEFAULT_HINTS, Hints
from minimax_lab.logic.commands.cli import EXIT_OK
from minimax_lab.logic.site.build import build_site
from minimax_lab.logic.site.parts import default_cache


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "site",
        help="write the lab as a static site: the top level, the pictures and a check of a "
        "student's file, all in the browser",
        description="Write DIR: plain files (HTML, JavaScript, WebAssembly, zipped Python) that "
        "any static host serves (GitHub Pages) or `python3 -m http.server -d DIR`. Pyodide, "
        "SWI-Prolog (WebAssembly) and pyDatalog are pinned releases, fetched once into a cache "
        "and checked against their digests; --offline builds from the cache alone. See "
        "docs/site.md.",
    )
    parser.add_argument("folder", metavar="DIR",
                        help="where to write the site: a new or empty folder, or a site "
                        "written before (replaced)")
    parser.add_argument("--cache", metavar="DIR", type=Path,
                        help=f"where the fetched parts are kept (default: {default_cache()})")
    parser.add_argument("--offline", action="store_true",
                        help="fetch nothing: build from the parts in the cache, or say which "
                        "are missing")
    parser.add_argument("--hints", choices=list(Hints), default=DEFAULT_HINTS.value,
                        metavar="LEVEL", help="what the check tells a student of a wrong "
                        "answer: what, where, expected or clause, as grade --hints "
                        f"(default: {DEFAULT_HINTS.value})")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Write the site, a line per part on standard error as it is fetched or taken from the
    cache; say where, and its size."""
    written = build_site(Path(args.folder), args.cache, Hints(args.hints),
                         offline=args.offline, report=sys.stderr)
    megabytes = 1 / 1e6
    print(f"wrote {written.folder}: {len(written.sizes)} files, "
          f"{written.total() * megabytes:.1f} MB")
    print(f"  the top level loads {(written.total() - written.total('swipl/')) * megabytes:.1f}"
          f" MB; check my lab, and your own program at the top level, also SWI-Prolog, "
          f"{written.total('swipl/') * megabytes:.1f} MB")
    print(f"try it: python3 -m http.server -d {written.folder} 8000, then open "
          "http://localhost:8000/")
    return EXIT_OK
