"""The web front end: phone-first pages and a JSON API over `ledger.Ledger`, served by `calabresella serve`.

Routes parse what was typed, call one `Ledger` method and render the values it returns; nothing here
queries the database or knows the rules.
"""
