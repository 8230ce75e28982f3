"""How many worker processes serve the site is one setting, ``WEB_CONCURRENCY`` (docs/deploy.md,
"Workers"): uvicorn reads it itself, and the systemd unit, the Procfile and the benchmarks
give it the same default, so what is measured is what is deployed."""

from __future__ import annotations

import re
from pathlib import Path

from benchmarks import serving

ROOT = Path(__file__).resolve().parent.parent


def test_the_unit_the_procfile_and_the_benchmarks_run_the_same_workers() -> None:
    unit = (ROOT / "deploy" / "sheetkeeper.service").read_text()
    procfile = (ROOT / "Procfile").read_text()
    in_unit = re.findall(r"^Environment=WEB_CONCURRENCY=(\d+)$", unit, re.MULTILINE)
    in_procfile = re.findall(r"--workers \$\{WEB_CONCURRENCY:-(\d+)\}", procfile)
    assert in_unit and in_procfile, "each names its default once"
    assert {int(in_unit[0]), int(in_procfile[0]), serving.WORKERS} == {serving.WORKERS}
    # No other count beside the setting: uvicorn takes WEB_CONCURRENCY when --workers is
    # absent, and a fixed --workers would win over it.
    assert "--workers" not in unit
    assert len(re.findall(r"--workers", procfile)) == 1
