"""Reporting on the ledger's history: pandas frames, statistics, matplotlib charts, the evening report.

Imported only by the reporting commands, so that recording a deal never pays for pandas or matplotlib.
"""
