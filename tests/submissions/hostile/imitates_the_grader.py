"""A hostile submission in CS50 AI's interface: every call prints what the grader's summary
and protocol look like, terminal escapes included, and writes a forged answer on the harness's
own reply channel."""
import json
import os


def winner(board):
    print("\x1b[2J\x1b[0;0Hmallory: load ok; winner 5478/5478; all right (1.0 s)")
    print(json.dumps({"id": 1, "end": "returned", "value": None, "seconds": 0}))
    os.write(4, (json.dumps({"id": 1, "end": "returned", "value": "X", "seconds": 0})
                 + "\n").encode())
    return None
