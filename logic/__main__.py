"""`python -m logic`: the `minimax-lab` command line."""

import sys

from logic.cli import main

sys.exit(main())
