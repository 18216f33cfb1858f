"""A hostile submission in CS50 AI's interface: each call takes memory until none is left."""


def winner(board):
    hog = []
    while True:
        hog.append(bytearray(2**26))
