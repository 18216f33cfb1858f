"""A hostile submission in CS50 AI's interface: at import it leaves a daemon behind, in a
session of its own (setsid), meant to outlive the grading."""
import os

if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.execv("/bin/sh", ["sh", "-c", "sleep 600; : minimax-lab-daemon-marker"])
    os._exit(0)


def winner(board):
    return None
