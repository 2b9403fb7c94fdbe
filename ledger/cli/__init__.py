"""The `calabresella` command line: thin Typer commands over the library."""
