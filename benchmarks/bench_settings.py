"""Settings for the load benchmark (``benchmarks/http.py``): the product's settings, plus the
bare baselines' URLs and a template directory, so that nothing of the benchmark is in the
product's URLconf.

``BENCH_TEMPLATES_DIR`` (from the environment, like every setting) names a directory searched
for templates after the product's own: the benchmark writes the static page there at seed
time.
"""

from __future__ import annotations

import os
from pathlib import Path

from sheetkeeper.settings import *  # noqa: F403  (the product's settings, unchanged)
from sheetkeeper.settings import MIDDLEWARE as _PRODUCT_MIDDLEWARE
from sheetkeeper.settings import TEMPLATES as _PRODUCT_TEMPLATES

ROOT_URLCONF = "benchmarks.bench_urls"

_templates_dir = os.environ.get("BENCH_TEMPLATES_DIR", "").strip()
TEMPLATES = [
    {**_PRODUCT_TEMPLATES[0],
     "DIRS": [*_PRODUCT_TEMPLATES[0]["DIRS"], *([Path(_templates_dir)] if _templates_dir else [])]},
    *_PRODUCT_TEMPLATES[1:],
]

if os.environ.get("BENCH_TIMING_DIR", "").strip():
    # Each request's time inside the server (benchmarks/timing.py), for benchmarks/tables.py.
    # Just after WhiteNoise, the first middleware that runs only in the request's thread, so
    # that it times the request where Django runs it, without changing how the rest run.
    _after = _PRODUCT_MIDDLEWARE.index("whitenoise.middleware.WhiteNoiseMiddleware") + 1
    MIDDLEWARE = [*_PRODUCT_MIDDLEWARE[:_after], "benchmarks.timing.request_timing",
                  *_PRODUCT_MIDDLEWARE[_after:]]
