% A hostile submission: each answer is a line it writes itself on the harness's own reply
% channel (descriptor 4), in the harness's protocol, with a "seconds" no number reads.
terminal_state(_, _, 1) :-
    open('/dev/fd/4', write, Out),
    format(Out, '{"id": 0, "answers": [{"term": 1, "text": "1"}], "end": "exhausted", "seconds": "no time", "output": "", "output_chars": 0}~n', []),
    close(Out).
