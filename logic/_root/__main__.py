"""`python -m minimax_lab`: the `minimax-lab` command line."""

import sys

from minimax_lab.logic.commands.launch import main

sys.exit(main())
