"""Club nights: the seating draw of an event's rounds (pure, no I/O)."""
