"""The subcommands of `minimax-lab`, one module each (see `logic.cli.COMMANDS`)."""
