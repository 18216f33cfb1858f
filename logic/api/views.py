"""What the API's answers look like: each is plain text wherever it is printed and, in Jupyter,
a picture through IPython's display protocol (`_repr_svg_`, `_repr_html_`), IPython unneeded.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from html import escape

from minimax_lab.logic.state import BLANK, Player, State, board_rows, draw_board, to_prolog
from minimax_lab.logic.tools.board_svg import board_svg
from minimax_lab.logic.tools.explain import draw_move_values, signed


class Display:
    """An answer that prints as its text and, in Jupyter, shows its `html()`; IPython's
    terminal shows the text too (a subclass that is a dataclass leaves `__repr__` to this)."""

    def text(self) -> str:
        """The answer as the command line prints it."""
        raise NotImplementedError

    def html(self) -> str:
        """The answer as a notebook shows it; by default its text, preformatted."""
        return preformatted(escape(self.text()))

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"<{type(self).__name__}: {self.text()[:60]!r}...>"

    def _repr_pretty_(self, printer, cycle: bool) -> None:
        printer.text(self.text())

    def _repr_html_(self) -> str:
        return self.html()


def preformatted(html: str) -> str:
    """Text as it prints, in a fixed-width font, whatever the notebook's style for `<pre>`;
    a line wider than the output area wraps (at a space where it can) rather than being cut."""
    return ('<pre style="white-space:pre-wrap;overflow-wrap:break-word;word-break:normal;'
            f'font-family:monospace">{html}</pre>')


@dataclass(frozen=True)
class Board(Display):
    """A position: a legal state and, unless either player may move or the game is over, the
    player to move. Draws as the 3x3 grid, blanks numbered."""

    state: State
    player: Player | None = None

    def text(self) -> str:
        turn = f"\n{self.player} to move" if self.player is not None else ""
        return draw_board(self.state) + turn

    def html(self) -> str:
        return _figure(board_svg(self.state), self.caption())

    def _repr_svg_(self) -> str:
        return board_svg(self.state, self.caption())

    def caption(self) -> str:
        """The state in both notations and whose move it is."""
        turn = f", {self.player} to move" if self.player is not None else ""
        return f"{self.state} = {to_prolog(self.state)}{turn}"

    def __repr__(self) -> str:
        player = f", {self.player!r}" if self.player is not None else ""
        return f"Board({self.state!r}{player})"


class Boards(list):
    """Boards side by side (`successor`'s answers): a list that draws as a row of grids."""

    def _repr_html_(self) -> str:
        figures = "".join(place.html() for place in self)
        return f'<div style="display:flex;flex-wrap:wrap">{figures}</div>'


@dataclass(frozen=True, repr=False)
class Move(Display):
    """A move's answer (`minimax_decision`, `max_value`, `min_value`): the board after the
    move, the cell marked outlined, and the answer as the top level prints it."""

    after: State
    cell: int | None
    answer: str
    term: object = None
    """The lab's term answered: a `Decision`, or an `SV`."""

    def text(self) -> str:
        return f"{draw_board(self.after)}\n{self.answer}"

    def html(self) -> str:
        return _figure(board_svg(self.after, self.answer, self.cell), self.answer)


@dataclass(frozen=True, repr=False)
class MoveValues(Display):
    """`explain`: the value of every legal move on the board, the decision's in brackets, and
    the principal variation."""

    state: State
    values: dict[int, int | Fraction]
    decision: int | None
    explanation: str

    def text(self) -> str:
        return self.explanation

    def html(self) -> str:
        cells = []
        for number, mark in enumerate(self.state, start=1):
            if mark != BLANK:
                cells.append(f'<td class="mark">{escape(mark)}</td>')
            elif number in self.values:  # the decision in [brackets], as the text says
                value = signed(self.values[number])
                if number == self.decision:
                    cells.append(f'<td data-cell="{number}" class="decision">'
                                 f"[{escape(value)}]</td>")
                else:
                    cells.append(f'<td data-cell="{number}">{escape(value)}</td>')
            else:
                cells.append(f'<td class="blank">{number}</td>')
        rows = "".join(f"<tr>{''.join(row)}</tr>" for row in board_rows(cells))
        return (f"{_GRID_STYLE}<table class=\"move-values\">{rows}</table>"
                + preformatted(escape(self.explanation.replace(self.grid() + "\n", ""))))

    def grid(self) -> str:
        """The valued board alone, as text."""
        return draw_move_values(self.state, self.values, self.decision)


_GRID_STYLE = (
    "<style>table.move-values{border-collapse:collapse;font:16px sans-serif;width:auto}"
    "table.move-values td{border:1px solid #333;width:3em;height:2.2em;text-align:center;"
    "padding:0}"
    "table.move-values td.mark{font-size:22px}table.move-values td.blank{color:grey}"
    "table.move-values td.decision{outline:3px solid #c0392b;font-weight:bold}</style>"
)


@dataclass(frozen=True, repr=False)
class Trace(Display):
    """The lab's recursion below a goal, call by call as SWI-Prolog's tracer prints it, and the
    goal's answer."""

    lines: Sequence[str]
    answer: str
    found: bool = True
    """False when the goal fails (`false.`)."""

    def text(self) -> str:
        return "\n".join([*self.lines, self.answer])

    def html(self) -> str:
        colours = {"Call": "#1f5fa8", "Exit": "#1e7b34", "Fail": "#c0392b"}
        shown = []
        for line in self.lines:
            port = line.strip().split(":", 1)[0]
            colour = colours.get(port)
            text = escape(line)
            shown.append(f'<span style="color:{colour}">{text}</span>' if colour else text)
        return preformatted(f"{chr(10).join(shown)}\n<b>{escape(self.answer)}</b>")


@dataclass(frozen=True, repr=False)
class Listing(Display):
    """A predicate of the lab three ways: its clauses in Prolog, its rules in pyDatalog, its
    function in Python; one after another as text, side by side in a notebook."""

    name: str
    parts: Sequence[tuple[str, str]]
    """Each statement's title (the language and the file) and its source."""

    def text(self) -> str:
        return "\n\n".join(f"% {title}:\n{code}" for title, code in self.parts)

    def html(self) -> str:
        # code keeps its lines: a column too narrow for one scrolls, and the columns go one
        # under another where the output area is too narrow for three
        columns = "".join(
            f'<div class="listing-part" style="flex:1 1 0;min-width:22em;overflow-x:auto">'
            f'<div style="font:bold 13px sans-serif;margin-bottom:.3em">{escape(title)}</div>'
            f'<pre style="white-space:pre;font:12px monospace;margin:0">{escape(code)}</pre>'
            "</div>" for title, code in self.parts)
        return (f'<div class="listing" style="display:flex;flex-wrap:wrap;gap:1em;'
                f'align-items:flex-start">{columns}</div>')


@dataclass(frozen=True, repr=False)
class Table(Display):
    """Rows of named values (`stats`, a goal's answers): a table in a notebook, aligned
    columns in text."""

    columns: Sequence[str]
    rows: Sequence[Sequence[str]]
    caption: str = ""
    notes: Sequence[str] = field(default_factory=tuple)

    def text(self) -> str:
        widths = [max(len(str(cell)) for cell in column)
                  for column in zip(self.columns, *self.rows, strict=True)]
        lines = [self.caption] if self.caption else []
        for row in (self.columns, *self.rows):
            lines.append("  ".join(str(cell).ljust(width)
                                   for cell, width in zip(row, widths, strict=True)).rstrip())
        return "\n".join([*lines, *self.notes])

    def html(self) -> str:
        head = "".join(f"<th>{escape(column)}</th>" for column in self.columns)
        body = "".join("<tr>" + "".join(f"<td>{escape(str(cell))}</td>" for cell in row)
                       + "</tr>" for row in self.rows)
        caption = f"<caption>{escape(self.caption)}</caption>" if self.caption else ""
        notes = "".join(f"<div>{escape(note)}</div>" for note in self.notes)
        return f"<table>{caption}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>" \
            + notes


def _figure(svg: str, caption: str) -> str:
    """An SVG picture with its caption below, as a notebook shows it."""
    return (f'<figure style="display:inline-block;margin:0.5em">{svg}'
            f'<figcaption style="font:13px sans-serif">{escape(caption)}</figcaption></figure>')
