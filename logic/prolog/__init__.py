"""The lab in real Prolog: `lab.pl` (the lab's predicates), `lab_tabled.pl`, and `server.pl`."""
