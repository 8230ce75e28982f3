"""Serving under load: the production server setup on loopback, driven by wrk, reported as
ratios measured in one run on one machine (absolute times on shared machines are noise).

    .venv/bin/python -m benchmarks.http [--duration 10] [--rounds 2] [--connections 16]
                                        [--workers 2] [--database-url URL] [--redis-url URL]

The method is docs/performance.md's, "Serving under load": a fresh PostgreSQL database
(``--database-url``, dropped and created again: **whatever it held is lost**) seeded by
``benchmarks/http_seed.py``; uvicorn as production runs it (``benchmarks.serving``) with
``benchmarks.bench_settings`` (the product's, plus a static page of exactly the sheet's bytes
and a POST answered with a constant, ``benchmarks/bench_urls.py``); the player and the GM
logged in through the real form; every request made once by hand first and checked (200, the
roll's ``rollMade``), then by wrk, whose Lua script counts every other answer (any stops the
benchmark); after a warm-up, every request for ``--duration`` seconds with ``wrk -t2 -c16
--latency``, the sequence ``--rounds`` times, every other round reversed; per request the
median over the rounds of requests/s, p50 and p99, and the ratios against the goals. A
benchmark, not a test: it fails only when it could not measure.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import httpx

from benchmarks import serving
from benchmarks.serving import ServingError

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/sheetkeeper_bench"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/15"
WORKERS = serving.WORKERS
WARMUP_SECONDS = 2
WRK_TIMEOUT = "10s"
"""wrk's per-request timeout: far above any latency we expect, so a timeout means trouble."""

GOAL_SHEET_SHARE = 0.50
GOAL_ROLL_SHARE = 0.30
GOAL_ROLL_P99_MS = 100.0
GOAL_GROWTH = 1.5

INSTALL_WRK = ("wrk is not installed. Install it with your system's package manager: "
               "`sudo apt-get install wrk` (Debian, Ubuntu) or `brew install wrk` (macOS); "
               "then run `make bench` again.")

SEED_SCRIPT = """
import json
from benchmarks.http_seed import seed
print(json.dumps(seed(large={large})))
"""

# The roll dialog as the sheet's htmx posts it (templates/characters/sheet.html, roll-form):
# every field of the form plus the ticked traits; the CSRF token travels in X-CSRFToken.
ROLL_BODY = urlencode([
    ("kind", "action"), ("difficulty", "6"), ("threshold", "0"), ("required_specialties", ""),
    ("damage_kind", "bashing"), ("armor", "0"), ("trait", "Precision"), ("trait", "Driving"),
])

LUA_SCRIPT = """-- written by benchmarks/http.py: the method and body (the headers come with -H),
-- and a count of the answers that are not 200 (or lack the HX-Trigger event expected)
wrk.method = {method}
wrk.body = {body}
local event = {event}
local threads = {{}}
function setup(thread) table.insert(threads, thread) end
function init(args) not_200 = 0 end
local function triggered(headers)
  for name, value in pairs(headers) do
    if string.lower(name) == "hx-trigger" and string.find(value, event, 1, true) then
      return true
    end
  end
  return false
end
function response(status, headers, body)
  if status ~= 200 or (event ~= "" and not triggered(headers)) then not_200 = not_200 + 1 end
end
function done(summary, latency, requests)
  local total = 0
  for _, thread in ipairs(threads) do total = total + thread:get("not_200") end
  io.write(string.format("not-200 answers: %d\\n", total))
end
"""


class BenchError(RuntimeError):
    """The benchmark could not measure: the message says what to fix."""


# --- plain HTTP for the set-up and the checks (httpx) ---------------------------------------


@dataclass(frozen=True)
class Login:
    """A logged-in browser: its ``Cookie`` header and its CSRF secret."""

    cookie: str
    csrf: str


def log_in(base: str, username: str, password: str) -> Login:
    """Log in through the real form (GET then POST /login/), as a browser does.

    Raises BenchError when the form does not log in (the answer is not the redirect that
    sets a session cookie: a wrong password, a lock-out, a CSRF refusal).
    """
    with httpx.Client(base_url=base, timeout=30) as browser:
        page = browser.get("/login/")
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)
        if page.status_code != 200 or "csrftoken" not in browser.cookies or token is None:
            raise BenchError(f"GET /login/ answered {page.status_code} without a CSRF cookie "
                             "and token")
        answer = browser.post("/login/", data={"csrfmiddlewaretoken": token.group(1),
                                               "username": username, "password": password})
        cookies = {**browser.cookies, **answer.cookies}  # the login rotates the CSRF secret
    if answer.status_code != 302 or "sessionid" not in cookies:
        raise BenchError(f"logging in as {username} answered {answer.status_code}: "
                         f"{answer.text[:300]!r}")
    return Login(f"sessionid={cookies['sessionid']}; csrftoken={cookies['csrftoken']}",
                 cookies["csrftoken"])


# --- wrk -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Target:
    """One request wrk repeats: ``key`` names it in the report."""

    key: str
    label: str
    method: str
    path: str
    headers: dict[str, str]
    body: str = ""
    event: str = ""
    """An event its every answer must trigger (``HX-Trigger``): the roll's ``rollMade``, since
    a refused roll answers 200 too, with the reason in the partial."""


@dataclass
class Run:
    """One wrk run's figures."""

    requests_per_s: float
    p50_ms: float
    p99_ms: float
    requests: int


@dataclass
class Figures:
    """Every round's run of one target."""

    target: Target
    runs: list[Run] = field(default_factory=list)

    def median(self, name: str) -> float:
        """The median over the rounds of the Run field ``name`` ("p50_ms", ...)."""
        return float(statistics.median(getattr(run, name) for run in self.runs))


def lua_string(text: str) -> str:
    """``text`` as a Lua string literal (JSON's escapes are valid Lua for ASCII)."""
    return json.dumps(text)


def write_script(target: Target, directory: Path) -> Path:
    """The Lua script for ``target``: its method and body, and the not-200 count."""
    path = directory / f"{target.key}.lua"
    path.write_text(LUA_SCRIPT.format(method=lua_string(target.method),
                                       body=lua_string(target.body),
                                       event=lua_string(target.event)))
    return path


_UNITS_MS = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60_000.0}


def _figure(pattern: str, output: str) -> str:
    """The first group of ``pattern`` in wrk's report; BenchError when it is not there."""
    found = re.search(pattern, output, re.MULTILINE)
    if found is None:
        raise BenchError(f"could not read {pattern!r} in wrk's report:\n{output}")
    return found.group(1)


def _ms(text: str) -> float:
    """A wrk duration ("812.34us", "1.20ms", "2.01s") in milliseconds."""
    found = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text)
    if found is None:
        raise BenchError(f"wrk reported a duration I cannot read: {text!r}")
    return float(found.group(1)) * _UNITS_MS[found.group(2)]


def parse_wrk(output: str, target: Target) -> Run:
    """wrk's ``--latency`` report as a Run. Raises BenchError when any answer was not 200
    or any socket error happened, with the counts."""
    problems = []
    not_200 = re.search(r"not-200 answers: (\d+)", output)
    if not_200 is None or int(not_200.group(1)):
        lacking = f" or lacked HX-Trigger {target.event}" if target.event else ""
        problems.append(f"{not_200.group(1) if not_200 else 'an unknown number of'} answers "
                        f"were not 200{lacking}")
    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)",
                       output)
    if errors and any(int(count) for count in errors.groups()):
        problems.append(f"socket errors: {errors.group(0)}")
    if problems:
        raise BenchError(f"{target.label} ({target.method} {target.path}): "
                         f"{'; '.join(problems)}\n{output}")
    return Run(
        requests_per_s=float(_figure(r"Requests/sec:\s+([\d.]+)", output)),
        p50_ms=_ms(_figure(r"^\s+50%\s+(\S+)", output)),
        p99_ms=_ms(_figure(r"^\s+99%\s+(\S+)", output)),
        requests=int(_figure(r"(\d+) requests in", output)),
    )


def wrk(target: Target, port: int, script: Path, seconds: int, args: argparse.Namespace) -> Run:
    """Run wrk on ``target`` for ``seconds``; its figures (BenchError as parse_wrk)."""
    command = ["wrk", f"-t{args.threads}", f"-c{args.connections}", f"-d{seconds}s",
               "--latency", f"--timeout={WRK_TIMEOUT}", "-s", str(script)]
    for name, value in target.headers.items():  # the cookies, CSRF and htmx headers
        command += ["-H", f"{name}: {value}"]
    command.append(f"http://127.0.0.1:{port}{target.path}")
    done = subprocess.run(command, capture_output=True, text=True, check=False,
                          timeout=seconds + 60)
    if done.returncode:
        raise BenchError(f"wrk failed ({done.returncode}): {done.stderr}{done.stdout}")
    return parse_wrk(done.stdout, target)


# --- the run ---------------------------------------------------------------------------------


def write_static_page(sheet: bytes, templates: Path) -> None:
    """The baseline template: the sheet's own bytes, verbatim (no tag is interpreted)."""
    page = templates / "bench" / "static_page.html"
    page.parent.mkdir(parents=True, exist_ok=True)
    page.write_bytes(b"{% verbatim %}" + sheet + b"{% endverbatim %}")


def targets(ids: dict[str, Any], player: Login, gm: Login) -> list[Target]:
    """The requests measured, in the order of a round (``ids`` as the seed printed them)."""
    small, large, rolling = ids["small"], ids["large"], ids["rolling"]
    as_player = {"Cookie": player.cookie}
    as_gm = {"Cookie": gm.cookie}
    post = {"Content-Type": "application/x-www-form-urlencoded", "HX-Request": "true",
            "X-CSRFToken": player.csrf, **as_player}
    return [
        Target("static", "bare static page (the sheet's bytes)", "GET", "/bench/static-page/",
               as_player),
        Target("sheet_small", "sheet, 10 rolls in the campaign", "GET",
               f"/characters/{small['character']}/", as_player),
        Target("sheet_large", "sheet, 10,000 rolls in the campaign", "GET",
               f"/characters/{large['character']}/", as_player),
        Target("dashboard_small", "GM dashboard, 10 rolls", "GET",
               f"/campaigns/{small['campaign']}/", as_gm),
        Target("dashboard_large", "GM dashboard, 10,000 rolls", "GET",
               f"/campaigns/{large['campaign']}/", as_gm),
        Target("constant", "bare POST answering a constant", "POST", "/bench/constant/", post,
               ROLL_BODY),
        # As the sheet's htmx sends it: from the dialog (#roll-form) on the sheet, so the
        # answer also brings the dialog's odds (rolls.views._redraw_dialog) that the page
        # used to ask for after each roll.
        Target("roll", "roll POST (htmx, from the sheet)", "POST",
               f"/characters/{rolling['character']}/roll/",
               {**post, "HX-Trigger": "roll-form", "HX-Target": "roll-result",
                "HX-Current-URL": f"http://127.0.0.1/characters/{rolling['character']}/"},
               ROLL_BODY, event="rollMade"),
    ]


def check(target: Target, base: str) -> bytes:
    """Make ``target``'s request once; its body. Raises BenchError unless it answers 200 (and
    triggers the target's event)."""
    answer = httpx.request(target.method, base + target.path, headers=target.headers,
                           content=target.body.encode(), timeout=30)
    if answer.status_code != 200:
        raise BenchError(f"{target.label}: {target.method} {target.path} answered "
                         f"{answer.status_code} {answer.headers.get('Location', '')}, not 200: "
                         f"{answer.content[:300]!r}")
    if target.event not in (answer.headers.get("HX-Trigger") or ""):
        raise BenchError(f"{target.label} answered 200 without {target.event}: "
                         f"{answer.content[:300]!r}")
    return answer.content


def measure(args: argparse.Namespace, tmp: Path, env: dict[str, str]) -> tuple[
        list[Figures], dict[str, Any]]:
    """Seed, serve, check and measure; every target's figures and the seed's ids."""
    serving.fresh_database(args.database_url)
    ids = json.loads(serving.prepare(env, SEED_SCRIPT.format(large=args.rolls)))
    server = serving.start(env, tmp, workers=args.workers)[0]
    port, base = server.port, server.url
    try:
        player = log_in(base, str(ids["player"]), str(ids["password"]))
        gm = log_in(base, str(ids["gm"]), str(ids["password"]))
        plan = targets(ids, player, gm)
        sheet = check(plan[1], base)
        write_static_page(sheet, tmp / "templates")
        static = check(plan[0], base)
        if len(static) != len(sheet):
            raise BenchError(f"the static page has {len(static)} bytes, the sheet {len(sheet)}")
        for target in plan[2:]:
            check(target, base)
        scripts = {target.key: write_script(target, tmp) for target in plan}
        for target in plan:  # warm-up: every worker's imports, template caches, connections
            wrk(target, port, scripts[target.key], WARMUP_SECONDS, args)
        figures = [Figures(target) for target in plan]
        for round_number in range(args.rounds):
            # Every other round runs the sequence backwards, so that no request always
            # follows the same neighbour (whose after-effects would count as its own).
            for entry in figures if round_number % 2 == 0 else figures[::-1]:
                entry.runs.append(wrk(entry.target, port, scripts[entry.target.key],
                                      args.duration, args))
                print(f"round {round_number + 1}/{args.rounds}: {entry.target.label}: "
                      f"{entry.runs[-1].requests_per_s:.1f} requests/s", file=sys.stderr)
        ids["sheet_bytes"] = len(sheet)
        return figures, ids
    except Exception:
        print(server.log.read_text()[-3000:], file=sys.stderr)
        raise
    finally:
        server.stop()


# --- the report ------------------------------------------------------------------------------


def machine() -> str:
    """One line: the machine (``benchmarks.serving.machine``) and wrk's version."""
    wrk_version = subprocess.run(["wrk", "-v"], capture_output=True, text=True,
                                 check=False).stdout.split(" [")[0].strip()
    return f"{serving.machine()}, {wrk_version}"


def verdict(met: bool) -> str:
    """The verdict column: a missed goal stands out."""
    return "met" if met else "**NOT met**"


def report(figures: list[Figures], ids: dict[str, Any], args: argparse.Namespace,
           before: str) -> None:
    """Print the Markdown tables and where they go."""
    by_key = {entry.target.key: entry for entry in figures}

    def share(numerator: str, denominator: str) -> tuple[float, list[float]]:
        rounds = [a.requests_per_s / b.requests_per_s for a, b in
                  zip(by_key[numerator].runs, by_key[denominator].runs, strict=True)]
        return (by_key[numerator].median("requests_per_s")
                / by_key[denominator].median("requests_per_s"), rounds)

    def growth(large: str, small: str) -> tuple[float, list[float]]:
        rounds = [a.p50_ms / b.p50_ms for a, b in
                  zip(by_key[large].runs, by_key[small].runs, strict=True)]
        return by_key[large].median("p50_ms") / by_key[small].median("p50_ms"), rounds

    def each(values: list[float], percent: bool) -> str:
        return ", ".join(f"{v:.0%}" if percent else f"{v:.2f}x" for v in values)

    sheet_share, sheet_rounds = share("sheet_small", "static")
    roll_share, roll_rounds = share("roll", "constant")
    roll_p99 = by_key["roll"].median("p99_ms")
    sheet_growth, sheet_growth_rounds = growth("sheet_large", "sheet_small")
    dashboard_growth, dashboard_growth_rounds = growth("dashboard_large", "dashboard_small")

    print(f"\nServing under load: uvicorn --workers {args.workers}, PostgreSQL, Redis layer, DEBUG "
          f"off; wrk -t{args.threads} -c{args.connections} -d{args.duration}s --latency, "
          f"{args.rounds} rounds alternating; the sheet is {ids['sheet_bytes']:,} bytes.")
    print(f"Machine at the start: {before}")
    print(f"Machine at the end:   {machine()}\n")
    print("| request | requests/s | p50 ms | p99 ms | requests per round |")
    print("|---|---:|---:|---:|---:|")
    for entry in figures:
        print(f"| {entry.target.label} | {entry.median('requests_per_s'):.1f} | "
              f"{entry.median('p50_ms'):.1f} | {entry.median('p99_ms'):.1f} | "
              f"{' / '.join(str(run.requests) for run in entry.runs)} |")
    print("\n| ratio (medians over the rounds) | measured | each round | goal | verdict |")
    print("|---|---:|---:|---:|---|")
    print(f"| sheet / bare static page, requests/s | {sheet_share:.0%} | "
          f"{each(sheet_rounds, True)} | >= {GOAL_SHEET_SHARE:.0%} | "
          f"{verdict(sheet_share >= GOAL_SHEET_SHARE)} |")
    print(f"| roll POST / bare constant POST, requests/s | {roll_share:.0%} | "
          f"{each(roll_rounds, True)} | >= {GOAL_ROLL_SHARE:.0%} | "
          f"{verdict(roll_share >= GOAL_ROLL_SHARE)} |")
    print(f"| roll POST p99 at {args.connections} connections | {roll_p99:.1f} ms | "
          f"{', '.join(f'{run.p99_ms:.1f}' for run in by_key['roll'].runs)} | "
          f"< {GOAL_ROLL_P99_MS:.0f} ms | {verdict(roll_p99 < GOAL_ROLL_P99_MS)} |")
    print(f"| sheet p50, 10,000 rolls / 10 rolls | {sheet_growth:.2f}x | "
          f"{each(sheet_growth_rounds, False)} | <= {GOAL_GROWTH}x | "
          f"{verdict(sheet_growth <= GOAL_GROWTH)} |")
    print(f"| dashboard p50, 10,000 rolls / 10 rolls | {dashboard_growth:.2f}x | "
          f"{each(dashboard_growth_rounds, False)} | <= {GOAL_GROWTH}x | "
          f"{verdict(dashboard_growth <= GOAL_GROWTH)} |")
    print("\nPaste the tables into docs/performance.md, section \"Serving under load\", with "
          "the date and the machine line above.")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=int, default=10, help="seconds per wrk run (10)")
    parser.add_argument("--rounds", type=int, default=2, help="times each request is "
                        "measured, alternating with the others (2)")
    parser.add_argument("--connections", type=int, default=16, help="wrk -c (16)")
    parser.add_argument("--workers", type=int, default=WORKERS,
                        help=f"uvicorn --workers ({WORKERS}, as production runs it)")
    parser.add_argument("--threads", type=int, default=2, help="wrk -t (2)")
    parser.add_argument("--rolls", type=int, default=10_000,
                        help="rolls in the large campaign (10000)")
    parser.add_argument("--database-url", default=os.environ.get("BENCH_DATABASE_URL")
                        or DEFAULT_DATABASE_URL, help="a PostgreSQL database to DROP and "
                        "create afresh (default $BENCH_DATABASE_URL, else "
                        f"{DEFAULT_DATABASE_URL})")
    parser.add_argument("--redis-url", default=DEFAULT_REDIS_URL,
                        help=f"the channel layer's Redis (default {DEFAULT_REDIS_URL})")
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        sys.exit(INSTALL_WRK)

    before = machine()
    with tempfile.TemporaryDirectory(prefix="sheetkeeper-http-") as name:
        tmp = Path(name)
        env = serving.server_env(args.database_url, args.redis_url, tmp,
                                 settings="benchmarks.bench_settings",
                                 extra={"BENCH_TEMPLATES_DIR": str(tmp / "templates")})
        try:
            figures, ids = measure(args, tmp, env)
        except (BenchError, ServingError) as exc:
            sys.exit(f"benchmarks.http: {exc}")
    report(figures, ids, args, before)


if __name__ == "__main__":
    main()
