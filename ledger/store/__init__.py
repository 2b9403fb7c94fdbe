"""The ledger's storage: tables, migrations, and its operations as plain functions on a session."""
