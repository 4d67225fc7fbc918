"""GPU telemetry of one run folder: telemetry_data in the summary JSON, the GPU table of the CSV
and gpu_telemetry_export.jsonl (spec: aiperf-latest-delta.md 2.2, 2.3, 2.8; aiperf-compat 7.1)."""
import os
from urllib.parse import urlsplit

from common import Findings, csv_rows, folder, jsonl, summary

d = folder()
f = Findings()
s = summary(d)
PCTS = ["p1", "p5", "p10", "p25", "p50", "p75", "p90", "p95", "p99"]
GAUGES = ["gpu_power_usage", "gpu_utilization", "gpu_memory_used", "gpu_temperature"]
UNITS = {"gpu_power_usage": "W", "energy_consumption": "MJ", "gpu_utilization": "%",
         "gpu_memory_used": "GB"}


def endpoint_key(url):
    """AIPerf's display key: host:port plus the path, a trailing /metrics trimmed."""
    parts = urlsplit(url)
    path = parts.path[:-len("/metrics")] if parts.path.endswith("/metrics") else parts.path
    return parts.netloc + path


keys = list(s)
f.check("telemetry_data" in s, "no telemetry_data in the summary")
f.check(keys.index("telemetry_data") + 1 == keys.index("input_config"),
        "telemetry_data comes just before input_config")
t = s["telemetry_data"]
f.check(list(t) == ["summary", "endpoints"], f"telemetry_data keys {list(t)}")
for key in ("endpoints_configured", "endpoints_successful", "start_time", "end_time"):
    f.check(key in t["summary"], f"telemetry_data.summary.{key}")
successful = t["summary"]["endpoints_successful"]
f.check(successful, "no DCGM page reachable")
wanted = [endpoint_key(u) for u in successful]
# Messages name no port, so a known mismatch reads the same in every run.
f.check(sorted(t["endpoints"]) == sorted(wanted),
        "telemetry_data.endpoints keys are not host:port + path with /metrics trimmed "
        f"(ends with /metrics: {all(k.endswith('/metrics') for k in t['endpoints'])})")
# 2.8: with telemetry, four derived metrics join the profile results.
derived = ["total_gpu_power", "total_gpu_energy", "output_tokens_per_joule", "energy_per_user"]
absent = [tag for tag in derived if not (isinstance(s.get(tag), dict) and "avg" in s[tag])]
f.check(not absent, f"summary lacks derived GPU metrics {absent}")

gpus_by_uuid = {}
no_count = set()
for ep, body in t["endpoints"].items():
    gpus = body["gpus"]
    f.check(sorted(gpus) == ["gpu_0", "gpu_1"], f"{ep}: gpus {sorted(gpus)}")
    for gkey, g in gpus.items():
        f.check(g.get("gpu_index") == int(gkey[4:]), f"{gkey}: gpu_index")
        for meta in ("gpu_name", "gpu_uuid", "hostname"):
            f.check(isinstance(g.get(meta), str) and g[meta], f"{gkey}: {meta}")
        gpus_by_uuid[g.get("gpu_uuid")] = (ep, g)
        for name, block in g["metrics"].items():
            # 2.2: GPU-telemetry stat blocks keep count.
            f.check("unit" in block and "avg" in block, f"{gkey}.{name}: unit/avg")
            if "count" not in block:
                no_count.add(name)
        for name in GAUGES:
            block = g["metrics"].get(name, {})
            f.check(all(k in block for k in ["min", "max", "std"] + PCTS), f"{gkey}.{name}")
        for name, unit in UNITS.items():
            f.check(g["metrics"].get(name, {}).get("unit") == unit, f"{gkey}.{name} unit")

f.check(not no_count, f"GPU stat blocks without count: {sorted(no_count)}")

rows = csv_rows(os.path.join(d, "profile_export_aiperf.csv"))
at = [i for i, r in enumerate(rows) if r[:1] == ["Endpoint"]]
f.check(len(at) == 1, "one GPU table in the CSV")
i = at[0] if at else len(rows)
f.check(i >= 2 and rows[i - 1] == [] and rows[i - 2] == [] and rows[i - 3] != [],
        "two empty rows before the GPU table")
header = rows[i] if at else []
fixed = ["Endpoint", "GPU_Index", "GPU_Name", "GPU_UUID", "Metric", "avg", "min", "max", "sum"] + \
        PCTS + ["std"]
f.check(header[:len(fixed)] == fixed, f"GPU table header {header}")
extra = header[len(fixed):]
f.check(extra == [c for c in ("Hostname", "Namespace", "Pod Name") if c in extra],
        f"GPU table extra columns {extra}")
has_host = any(g.get("hostname") for _, g in gpus_by_uuid.values())
f.check(("Hostname" in extra) == has_host, "Hostname column exactly when a GPU has a hostname")
table = [dict(zip(header, r)) for r in rows[i + 1:] if r]
f.check(len({(r["GPU_UUID"], r["Metric"]) for r in table}) == len(table), "one row per GPU metric")
power_rows = 0
endpoints = {r["Endpoint"] for r in table}
f.check(endpoints <= set(wanted), "CSV Endpoint cells are not host:port + path with /metrics "
        f"trimmed (end with /metrics: {all(e.endswith('/metrics') for e in endpoints)})")
for r in table:
    ep, g = gpus_by_uuid.get(r["GPU_UUID"], (None, None))
    if not f.check(g is not None, f"CSV GPU_UUID {r['GPU_UUID']} not in telemetry_data"):
        continue
    f.check(r["Endpoint"] in (ep, endpoint_key(ep)), "CSV Endpoint is the JSON endpoint key")
    f.check(r["GPU_Index"] == str(g["gpu_index"]) and r["GPU_Name"] == g["gpu_name"],
            "CSV GPU_Index/GPU_Name")
    if r["Metric"] == "GPU Power Usage (W)":
        power_rows += 1
        f.check(r["avg"] == f"{g['metrics']['gpu_power_usage']['avg']:.2f}", "CSV power avg")
f.check(power_rows == 2, f"GPU Power Usage (W) rows: {power_rows}")

lines = jsonl(os.path.join(d, "gpu_telemetry_export.jsonl"))
f.check(len(lines) >= 4, f"{len(lines)} JSONL records: 2 GPUs, at least two scrapes")
RECORD = ["timestamp_ns", "dcgm_url", "gpu_index", "gpu_uuid", "gpu_model_name", "pci_bus_id",
          "device", "hostname", "telemetry_data"]
for n, rec in enumerate(lines):
    if not f.check(all(k in rec for k in RECORD), f"JSONL record {n} keys {list(rec)}"):
        break
    f.check(rec["dcgm_url"] in successful, f"JSONL dcgm_url {rec['dcgm_url']}")
    f.check(rec["gpu_uuid"] in gpus_by_uuid, f"JSONL gpu_uuid {rec['gpu_uuid']}")
    f.check(None not in rec["telemetry_data"].values(), "JSONL null fields are omitted")
    f.check("gpu_power_usage" in rec["telemetry_data"], "JSONL gpu_power_usage")
f.check({rec.get("gpu_index") for rec in lines} == {0, 1}, "JSONL holds both GPUs")
f.done()
