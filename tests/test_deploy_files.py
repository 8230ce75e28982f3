"""How the server runs is said once (docs/deploy.md, "Workers"): how many worker processes is
one setting, ``WEB_CONCURRENCY``, which uvicorn reads itself, and the systemd unit, the
Procfile and the benchmarks give it the same default and run uvicorn with the same flags, so
what is measured is what is deployed."""

from __future__ import annotations

import re
from pathlib import Path

from benchmarks import serving

ROOT = Path(__file__).resolve().parent.parent
UNIT = (ROOT / "deploy" / "sheetkeeper.service").read_text()
PROCFILE = (ROOT / "Procfile").read_text()


def test_the_unit_the_procfile_and_the_benchmarks_run_the_same_workers() -> None:
    in_unit = re.findall(r"^Environment=WEB_CONCURRENCY=(\d+)$", UNIT, re.MULTILINE)
    in_procfile = re.findall(r"--workers \$\{WEB_CONCURRENCY:-(\d+)\}", PROCFILE)
    assert in_unit and in_procfile, "each names its default once"
    assert {int(in_unit[0]), int(in_procfile[0]), serving.WORKERS} == {serving.WORKERS}
    # No other count beside the setting: uvicorn takes WEB_CONCURRENCY when --workers is
    # absent, and a fixed --workers would win over it.
    assert "--workers" not in UNIT
    assert len(re.findall(r"--workers", PROCFILE)) == 1


def test_the_unit_and_the_procfile_run_uvicorn_as_the_benchmarks_do() -> None:
    unit = " ".join(UNIT.replace("\\\n", " ").split())
    web = next(line for line in PROCFILE.splitlines() if line.startswith("web:"))
    for pair in zip(serving.UVICORN_FLAGS[::2], serving.UVICORN_FLAGS[1::2], strict=True):
        assert " ".join(pair) in unit, (pair, "deploy/sheetkeeper.service")
        assert " ".join(pair) in web, (pair, "Procfile")
