"""The subcommands of `minimax-lab`, one module each (see `logic.commands.cli.COMMANDS`)."""
