"""What is built on the engines: searches that count their work, move values and the principal
variation, game-tree pictures, and games against the agent."""
