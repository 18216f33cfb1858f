"""What is built on the engines: move values and the principal variation, traces of the
recursion, game-tree pictures, and games against the agent."""
