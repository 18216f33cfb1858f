"""`python -m logic`: the `minimax-lab` command line."""

import sys

from logic.commands.launch import main

sys.exit(main())
