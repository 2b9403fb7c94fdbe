"""The Italian word of each command of `play` (and of its syntax, as a help topic): `play` takes either language's
word, and the command line takes the Italian word of each command it has as well (`calabresella classifica`)."""

ITALIAN = {
    "undo": "ritira",
    "amend": "correggi",
    "void": "annulla",
    "deals": "smazzate",
    "standings": "classifica",
    "settle": "conti",
    "help": "aiuto",
    "close": "chiudi",
    "quit": "esci",
    "syntax": "sintassi",
}
"""Each command's English word, and its Italian one."""
