% A hostile submission: while loading it leaves a daemon behind, in a session of its own
% (setsid), its output closed, meant to outlive the grading.
:- initialization(shell('setsid sh -c "sleep 600; : minimax-lab-daemon-marker" </dev/null >/dev/null 2>&1 &')).

terminal_state(_, _, _) :- fail.
