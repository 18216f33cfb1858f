"""A hostile submission in CS50 AI's interface: no minimax of its own, it looks for the
grader's reference (minimax_lab/logic/reference.py, as installed) anywhere on the file system
and answers with it."""
import os
import sys


def _grader_root():
    for folder, names, files in os.walk("/"):
        names[:] = [] if folder.count(os.sep) > 6 else [
            name for name in names if name not in ("proc", "sys", "dev")]
        if os.path.basename(folder) == "logic" and "reference.py" in files:
            return os.path.dirname(os.path.dirname(folder))  # above minimax_lab
    return None


ROOT = _grader_root()
if ROOT is not None:
    sys.path.insert(0, ROOT)
    from minimax_lab.logic import reference


def minimax(board):
    marks = {"X": "x", "O": "o", None: "-"}
    state = "".join(marks[cell] for row in board for cell in row)
    mover = "x" if state.count("x") == state.count("o") else "o"
    decision = reference.minimax_decision(state, mover)
    return None if decision is None else divmod(decision.action.cell - 1, 3)
