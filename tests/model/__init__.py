"""A reference model of the ledger, written from RULES.md and the README alone: it shares no code with `ledger/` or
`reports/` (tests/test_ledger_model.py checks its imports), so that where it and the ledger disagree one of them
misreads the rules.

- `model.rules`: the profiles and their options (RULES §4, §6), a deal's facts, the sweep and the payouts
  (§1-§5), and which fact the rules still need (§3);
- `model.evenings`: one evening: seats in turn order, the dealer's rotation, deals with their revisions, voids,
  undo of the last change, the pot of passed deals within the evening, games to N (§2, §8);
- `model.book`: the whole ledger: players and renames, evenings and the pot that waits between them (§8),
  idempotency keys, payments, settlements and the tab.

Everything is kept as plain values and worked out again from the facts when asked; nothing is cached, so a reader
checks each function against the rules it names.
"""
