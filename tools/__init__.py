"""Maintenance scripts of the repository (not shipped in the package)."""
