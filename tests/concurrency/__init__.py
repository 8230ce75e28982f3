"""Concurrency on PostgreSQL (issue 7): players' and the GM's sessions hammering the same rows
through the real views at the same moment, then the invariants checked (no overdraft, no lost
update, the ledger equal to the balances, every chart and pool still valid); and races made
certain, one change held half-way while another runs into it (a deadlock that must not
happen, a change that must wait and then refuse).

Every race test of the suite is here, shared and system's alike (``test_<slug>.py``,
``test_maelstrom_<what>.py``). Skipped on SQLite, which serialises writers; CI runs the suite
a second time on PostgreSQL (.ci/run). ``storm.py`` holds the thread runner and the sessions
the storms share, ``held.py`` the change held open and the call run into it.
"""
