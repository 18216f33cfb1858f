"""SWI-Prolog's standard operators (`current_op/3` in SWI-Prolog 9), which the reader reads and
the writer writes: `1+2*3`, `C-V`, `X is Y mod 3`, `a:-b`."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Op:
    """An operator: its priority and type (`xfx`, `xfy`, `yfx`, `fy`, `fx`)."""

    priority: int
    kind: str

    @property
    def left(self) -> int:
        """The highest priority its left argument may have."""
        return self.priority - (self.kind[0] == "x")

    @property
    def right(self) -> int:
        """The highest priority its right (or only) argument may have."""
        return self.priority - (self.kind[-1] == "x")


_TABLE = """
1200 xfx :- --> =>
1200 fx :- ?-
1105 xfy |
1100 xfy ;
1050 xfy -> *->
1000 xfy ,
990 xfx :=
900 fy \\+
700 xfx = \\= == \\== @< @> @=< @>= =.. is =:= =\\= < > =< >= >:< :< as =@= \\=@=
600 xfy :
500 yfx + - /\\ \\/
400 yfx * / // rdiv << >> mod rem div xor
200 xfx **
200 xfy ^
200 fy - + \\
1 fx $
1150 fx dynamic discontiguous initialization meta_predicate module_transparent multifile public
1150 fx thread_local thread_initialization volatile table
"""

INFIX: dict[str, Op] = {}
PREFIX: dict[str, Op] = {}
for _line in _TABLE.strip().splitlines():
    _priority, _kind, *_names = _line.split()
    for _name in _names:
        (PREFIX if len(_kind) == 2 else INFIX)[_name] = Op(int(_priority), _kind)


def is_operator(name: str) -> bool:
    """True for an atom that is an operator (written `(-)` where it stands alone)."""
    return name in INFIX or name in PREFIX
