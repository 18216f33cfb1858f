% Tic-tac-toe as plain facts: the game of Lab-3 ("Minimax agent for Tic-Tac-Toe").
% This file is the one source of truth for the game. The pyDatalog rules
% (logic/rules.py) assert every fact below; the Python reference
% (logic/reference.py) and the state model (logic/state.py) read them too.
% It is also valid Prolog: `consult('facts/game.pl')` in SWI-Prolog loads it.

% player(Mark): the marks the two players write.
player(x).
player(o).

% other_player(Player, OtherPlayer): the lab's own predicate.
other_player(x, o).
other_player(o, x).

% blank(Mark): the mark of a cell nobody has played yet.
blank('-').

% cell(Position): the cells, numbered row by row as in the lab:
%   |1|2|3|
%   |4|5|6|
%   |7|8|9|
cell(1).
cell(2).
cell(3).
cell(4).
cell(5).
cell(6).
cell(7).
cell(8).
cell(9).

% line(A, B, C): the 8 lines of three cells; a player who marks all three wins.
% (The lab's winning_config lists the winning states; these are their lines.)
line(1, 2, 3).
line(4, 5, 6).
line(7, 8, 9).
line(1, 4, 7).
line(2, 5, 8).
line(3, 6, 9).
line(1, 5, 9).
line(3, 5, 7).

% symmetry(Name, C1, C2, ..., C9): the 8 symmetries of the square. The image of a board
% under the symmetry takes its cell I from cell CI of the board; a state and its images
% have the same minimax value, so an engine may solve one state per symmetry class.
symmetry(identity,      1, 2, 3, 4, 5, 6, 7, 8, 9).
symmetry(rotate90,      7, 4, 1, 8, 5, 2, 9, 6, 3).
symmetry(rotate180,     9, 8, 7, 6, 5, 4, 3, 2, 1).
symmetry(rotate270,     3, 6, 9, 2, 5, 8, 1, 4, 7).
symmetry(mirror,        3, 2, 1, 6, 5, 4, 9, 8, 7).
symmetry(flip,          7, 8, 9, 4, 5, 6, 1, 2, 3).
symmetry(transpose,     1, 4, 7, 2, 5, 8, 3, 6, 9).
symmetry(antitranspose, 9, 6, 3, 8, 5, 2, 7, 4, 1).
