"""Hypothesis fuzzing of every form and htmx endpoint (Sheetkeeper issue 7, "Bad input"):
random data posted to every form never gets a 500, never leaves a partial write, and a
refusal always says why.

How it finds what to fuzz, so that nothing is forgotten:

- ``endpoints.py`` walks the URLconf for every pattern whose view accepts POST, and reads a
  page's forms and ``hx-post``/``hx-get`` elements (their real field names and the values
  offered);
- ``world.py`` builds one campaign of each system of the registry (its demo, and its
  tests/systems/<slug>/fixtures.py) with everything a form needs to show (rolls, a spend to
  undo, a roll request, a session, a second player, a stranger with the invite link);
- ``crawl.py`` reads the pages as the GM, the player, the stranger and a visitor: sheet,
  dashboard, XP page, roll dialog, rolls, sessions, creation (a system's own creation pages
  too), confirmation and import pages;
- ``plan.py`` turns the crawl into endpoints to fuzz and lists what is deliberately left out
  (``EXCLUDED``, each with its reason); ``test_coverage.py`` fails when a POST pattern of the
  URLconf is neither fuzzed nor excluded, or a system's registered change is on no page.

How it fuzzes (``payloads.py``, ``checks.py``): per endpoint, a sweep of the sharpest numbers
one field at a time, then 25 hypothesis examples, half as a person would fill the form in
with a field or two broken, half random throughout (huge and negative numbers, other
numerals, unicode, NUL, empty, lists, missing and extra fields; garbage and altered uploads),
with and without ``HX-Request``, as each person the pages offered the form to. Each example
runs in a savepoint rolled back afterwards, with the dice reseeded, so every example starts
from the same world.

Run: ``.venv/bin/python -m pytest tests/fuzz -q`` (a few minutes on SQLite; with
``FUZZ_VERBOSE=1`` and ``-s`` each endpoint prints its time and how its examples ended).
"""
