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
