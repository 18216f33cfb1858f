"""minimax-lab, installed under one name: the lab (`minimax_lab.logic`), the grader and the
comparisons (`minimax_lab.compare`) and the game's facts (`minimax_lab.facts`)."""
