"""What the parts several hosts share spend per table (``benchmarks.tables --instances N``):
PostgreSQL's work for the run's database (``pg_stat_database``) and the CPU of its processes,
Redis's (``INFO``: CPU, commands, bytes) and the CPU of redis-server, and from them how many
hosts each would carry before it becomes the limit (docs/performance.md, "Two servers behind
nginx").

Redis's figures are the whole server's: the run gives its instances a redis-server of its own
(:class:`benchmarks.serving.RedisServer`) so that nothing else is counted. PostgreSQL's
counters and its backends' CPU are the database's; its background processes (WAL writer,
checkpointer...) serve every database of the cluster, so their CPU counts others' work too.
"""

from __future__ import annotations

from typing import Any

import psycopg
import redis

from benchmarks.serving import cpu_seconds, postgres_processes

PG_COUNTERS = ("xact_commit", "xact_rollback", "tup_returned", "tup_fetched", "tup_inserted",
               "tup_updated", "tup_deleted", "blks_hit", "blks_read")


def snapshot(database_url: str, redis_url: str) -> dict[str, float]:
    """The counters so far: ``pg:<column>`` of ``pg_stat_database`` for the database
    ``database_url`` names, and Redis's ``redis:cpu`` (seconds, user and system),
    ``redis:commands``, ``redis:in`` and ``redis:out`` (bytes) and ``redis:<command>`` (calls
    of each command). Raises psycopg.Error or redis.RedisError when a service cannot be
    read."""
    with psycopg.connect(database_url, autocommit=True) as conn:
        row = conn.execute(f"SELECT {', '.join(PG_COUNTERS)} FROM pg_stat_database "
                           "WHERE datname = current_database()").fetchone()
    counters = {f"pg:{name}": float(value or 0)
                for name, value in zip(PG_COUNTERS, row or (), strict=False)}
    database = str(psycopg.conninfo.conninfo_to_dict(database_url).get("dbname", ""))
    counters["pg:backends_cpu"] = cpu_seconds(postgres_processes(database, backends_only=True))
    info: dict[str, Any] = redis.Redis.from_url(redis_url).info("everything")
    counters["redis:cpu"] = float(info["used_cpu_user"]) + float(info["used_cpu_sys"])
    counters["redis:commands"] = float(info["total_commands_processed"])
    counters["redis:in"] = float(info["total_net_input_bytes"])
    counters["redis:out"] = float(info["total_net_output_bytes"])
    for key, value in info.items():
        if key.startswith("cmdstat_") and isinstance(value, dict):
            counters[f"redis:{key[8:]}"] = float(value.get("calls", 0))
    return counters


def delta(before: dict[str, float], after: dict[str, float]) -> dict[str, float]:
    """``after - before`` for every counter of ``after`` (0 before when it was new)."""
    return {key: value - before.get(key, 0.0) for key, value in after.items()}


def report(tables: int, seconds: float, cpu: dict[str, float], shared: dict[str, float],
           instances: int, tables_per_host: int, cores: int) -> None:
    """Print, per table and second, what PostgreSQL and Redis spent, and how many hosts of
    ``tables_per_host`` tables each would carry on ``cores`` cores of its own (Redis runs
    commands on one)."""
    per = tables * seconds  # table-seconds

    def rate(value: float) -> str:
        return f"{value / per:.3g}"

    commands = sorted(((key[6:], value) for key, value in shared.items() if key.startswith(
        "redis:") and key[6:] not in ("cpu", "commands", "in", "out") and value > 0),
        key=lambda item: -item[1])[:6]
    print(f"\nWhat the shared parts spent at {tables} tables over {seconds:.0f} s, per table "
          f"and second ({instances} instances):\n")
    print("| part | CPU ms | transactions | rows read | rows written | commands | bytes in / out |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    written = sum(shared.get(f"pg:tup_{kind}", 0.0) for kind in ("inserted", "updated",
                                                                  "deleted"))
    print(f"| PostgreSQL | {cpu['postgres'] * 1000 / per:.2f} (its database's backends: "
          f"{shared.get('pg:backends_cpu', 0) * 1000 / per:.2f}) | "
          f"{rate(shared.get('pg:xact_commit', 0) + shared.get('pg:xact_rollback', 0))} | "
          f"{rate(shared.get('pg:tup_returned', 0))} | {rate(written)} | | |")
    print(f"| Redis | {shared.get('redis:cpu', 0) * 1000 / per:.2f} (its process: "
          f"{cpu['redis'] * 1000 / per:.2f}) | | | | "
          f"{rate(shared.get('redis:commands', 0))} | {rate(shared.get('redis:in', 0))} / "
          f"{rate(shared.get('redis:out', 0))} |")
    print(f"| the {instances} uvicorn instances | {cpu['server'] * 1000 / per:.2f} | | | | | |")
    print("\nRedis commands (calls per table and second): " + ", ".join(
        f"{name} {rate(value)}" for name, value in commands))
    for name, used, available in (
            ("PostgreSQL, its background processes too", cpu["postgres"], cores),
            ("PostgreSQL, this database's backends", shared.get("pg:backends_cpu", 0.0), cores),
            ("Redis", shared.get("redis:cpu", 0.0), 1)):
        share = used / per  # cores per table
        carried = available / share if share else float("inf")
        print(f"- {name}: {share * 1000:.2f} ms of CPU per table-second; {available} "
              f"core{'s' if available > 1 else ''} of its own would carry about "
              f"{carried:,.0f} tables, {carried / tables_per_host:,.0f} hosts of "
              f"{tables_per_host} tables.")
