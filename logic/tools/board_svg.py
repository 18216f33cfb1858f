"""A board as a small SVG picture: the 3x3 grid, the marks, blanks showing their cell numbers
in grey, and one cell outlined where a move is meant.
"""

from __future__ import annotations

import base64
from xml.sax.saxutils import escape

from minimax_lab.logic.state import BLANK, SIDE, State

CELL = 40
"""Pixels a side of one cell."""


def board_svg(state: State, title: str = "", cell: int | None = None) -> str:
    """The board as an SVG document; `cell` (1 to 9) outlined in red; `title` as its
    accessible name."""
    size = CELL * SIDE
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" '
             f'viewBox="0 0 {size} {size}" role="img" font-family="sans-serif">',
             f"<title>{escape(title or state)}</title>",
             f'<rect width="{size}" height="{size}" fill="white" stroke="black"/>']
    for line in range(1, SIDE):
        at = line * CELL
        parts += [f'<line x1="{at}" y1="0" x2="{at}" y2="{size}" stroke="black"/>',
                  f'<line x1="0" y1="{at}" x2="{size}" y2="{at}" stroke="black"/>']
    for index, mark in enumerate(state):
        x, y = index % SIDE * CELL, index // SIDE * CELL
        if cell == index + 1:
            parts.append(f'<rect x="{x + 2}" y="{y + 2}" width="{CELL - 4}" '
                         f'height="{CELL - 4}" fill="none" stroke="red" stroke-width="3"/>')
        text, style = ((str(index + 1), 'font-size="12" fill="grey"') if mark == BLANK
                       else (mark, 'font-size="26"'))
        parts.append(f'<text x="{x + CELL // 2}" y="{y + CELL // 2}" text-anchor="middle" '
                     f'dominant-baseline="central" {style}>{text}</text>')
    return "".join(parts) + "</svg>"


def data_url(svg: str) -> str:
    """An SVG document as a `data:` URL, for an `<img>` that needs no file."""
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode()
