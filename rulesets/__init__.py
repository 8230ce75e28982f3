"""Pure-Python rules engines for the game systems Sheetkeeper supports.

Nothing in this package imports Django or the project's apps: the modules hold plain
dataclasses and functions, and every random number comes from an injected RNG
(see :mod:`rulesets.dice`). :mod:`rulesets.registry` lists the systems by slug.
"""

from __future__ import annotations
