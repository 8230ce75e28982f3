"""Concurrency on PostgreSQL (issue 7): players' and the GM's sessions hammering the same rows
through the real views at the same moment, then the invariants checked (no overdraft, no lost
update, the ledger equal to the balances, every chart and pool still valid).

Skipped on SQLite, which serialises writers; CI runs the suite a second time on PostgreSQL
(.ci/run). ``storm.py`` holds the thread runner the modules share.
"""
