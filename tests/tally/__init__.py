"""Tally: a made-up system for the tests, a sheet holding one number.

It has the shape of a real system, so that the shared layer and the shared suites (the
authorization matrix, the fuzz, the transfer round trips, the quick rolls) are shown to run
over a sixth system without an edit: an engine (``rules.py``, the ``rulesets/<slug>/`` of a
real system) and a sheet layer (``system.py``, ``forms.py``, ``actions.py``, ``demo.py``,
``schema.py``, ``templates/systems/tally/``, ``static/css/systems/tally.css``, the
``systems/<slug>/`` of a real system). tests/conftest.py registers it for the whole test
session; its tests and the data the shared suites read are in tests/systems/tally/.

Like a real system's package this one is an installed app (for its templates and
stylesheet) and imports nothing here: Django imports it while the apps load.
"""
