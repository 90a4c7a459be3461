"""Python helpers shared by the plotting tools (tools/plot_*.py import them as lib.*)."""
