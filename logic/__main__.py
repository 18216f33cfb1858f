"""`python -m logic`: the `minimax-lab` command line."""

import sys

from logic.launch import main

sys.exit(main())
