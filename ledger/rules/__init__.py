"""The rules of the Calabresella family: pure values and functions, no I/O."""

from ledger.rules.facts import DealFacts
from ledger.rules.profiles import Profile, make_profile
from ledger.rules.scoring import DealResult, score

__all__ = ["DealFacts", "DealResult", "Profile", "make_profile", "score"]
