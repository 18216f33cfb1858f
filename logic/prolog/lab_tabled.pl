% The lab's program (lab.pl) with SWI-Prolog tabling on max_value/3 and min_value/3: each
% position is searched once per process, so the whole decision table takes about a second.
% Load as lab.pl: swipl facts/game.pl logic/prolog/lab_tabled.pl

:- table max_value/3, min_value/3.

:- include(lab).
