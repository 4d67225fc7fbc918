"""server_metrics_export.{json,csv} of one run folder, read by key and by CSV section (spec:
aiperf-latest-delta.md 2.9; aiperf-compat.md 7.2 for the JSON/CSV shapes; --slice-duration 0.5)."""
import json
import os

from common import Findings, csv_rows, folder, summary

d = folder()
f = Findings()
s = summary(d)
SLICE_NS = 500_000_000
PCTS = ["p1", "p5", "p10", "p25", "p50", "p75", "p90", "p95", "p99"]
CSV_STATS = {
    "gauge": ["avg", "min", "max", "std"] + PCTS,
    "counter": ["total", "rate", "rate_avg", "rate_min", "rate_max", "rate_std"],
    "histogram": ["count", "count_rate", "sum", "sum_rate", "avg"] +
                 [p + "_estimate" for p in PCTS],
}
SLICE_KEYS = {"gauge": {"start_ns", "end_ns", "avg", "min", "max"},
              "unknown": {"start_ns", "end_ns", "avg", "min", "max"},
              "counter": {"start_ns", "end_ns", "total", "rate"},
              "histogram": {"start_ns", "end_ns", "count", "sum", "avg"}}

with open(os.path.join(d, "server_metrics_export.json")) as fh:
    sm = json.load(fh)
f.check(list(sm) == ["schema_version", "aiperf_version", "benchmark_id", "summary", "metrics",
                     "input_config"], f"top-level keys {list(sm)}")
f.check(sm["schema_version"] == "1.0", f"schema_version {sm['schema_version']!r}")
f.check(sm["aiperf_version"] == "0.11.0", "aiperf_version")
f.check(sm["benchmark_id"] == s["benchmark_id"], "benchmark_id is the run's")
summ = sm["summary"]
for key in ("endpoints_configured", "endpoints_successful", "start_time", "end_time",
            "endpoint_info"):
    f.check(key in summ, f"summary.{key}")
# Scraped by default: <base url of --url>/metrics.
page = s["input_config"]["endpoint"]["urls"][0].rstrip("/") + "/metrics"
f.check(page in summ["endpoints_successful"], f"{page} not in {summ['endpoints_successful']}")
INFO = ["total_fetches", "first_fetch_ns", "last_fetch_ns", "avg_fetch_latency_ms",
        "unique_updates", "first_update_ns", "last_update_ns", "duration_seconds",
        "avg_update_interval_ms", "median_update_interval_ms"]
for url in summ["endpoints_successful"]:
    info = summ["endpoint_info"].get(url, {})
    f.check(list(info) == INFO, f"endpoint_info[{url}] keys {list(info)}")
    if list(info) != INFO:
        continue
    f.check(1 <= info["unique_updates"] <= info["total_fetches"], "unique_updates <= total_fetches")
    f.check(info["first_fetch_ns"] <= info["last_fetch_ns"], "first_fetch_ns <= last_fetch_ns")
    span = (info["last_update_ns"] - info["first_update_ns"]) / 1e9
    f.check(abs(info["duration_seconds"] - span) < 1e-6, "duration_seconds spans the updates")
    f.check((info["median_update_interval_ms"] is None) == (info["unique_updates"] < 2),
            "median_update_interval_ms is null only without two updates")

for name, m in sm["metrics"].items():
    kind = m.get("type")
    if not f.check(kind in SLICE_KEYS, f"{name}: type {kind!r}"):
        continue
    f.check(list(m) == ["type", "description", "unit", "series"], f"{name}: keys {list(m)}")
    f.check("series" in m and m["series"], f"{name}: no series")
    for series in m.get("series", []):
        stats = series.get("stats", {})
        need = {"gauge": ["avg", "min", "max"], "unknown": ["avg", "min", "max"],
                "counter": ["total", "rate"], "histogram": ["count", "sum", "avg"]}[kind]
        f.check(all(k in stats for k in need), f"{name}: stats {list(stats)}")
        f.check("endpoint_url" in series and "labels" in series, f"{name}: endpoint_url/labels")
        slices = series.get("timeslices") or []
        if not f.check(slices, f"{name}: no timeslices with --slice-duration"):
            continue
        for i, sl in enumerate(slices):
            extra = set(sl) - SLICE_KEYS[kind] - {"is_complete"} - (
                {"buckets"} if kind == "histogram" else set())
            f.check(SLICE_KEYS[kind] <= set(sl) and not extra, f"{name}: slice keys {list(sl)}")
            partial = sl.get("is_complete", True) is False
            f.check(sl.get("is_complete", False) is False, f"{name}: is_complete is only false")
            f.check(partial == (sl["end_ns"] - sl["start_ns"] != SLICE_NS),
                    f"{name}: is_complete: false exactly on the partial slice")
            if i:
                f.check(sl["start_ns"] == slices[i - 1]["end_ns"], f"{name}: slices abut")
        f.check(all("is_complete" not in sl for sl in slices[:-1]), f"{name}: partial not last")

# The baseline precedes the first request and the final scrape follows the last response.
requests = sm["metrics"].get("inferperf_mock_requests", {}).get("series", [{}])[0]
f.check(requests.get("stats", {}).get("total") == s["request_count"]["avg"],
        f"requests counter total {requests.get('stats')} vs request_count")

# Default formats are json and csv (jsonl and parquet are opt-in).
f.check(not os.path.exists(os.path.join(d, "server_metrics_export.jsonl")), "jsonl is opt-in")
f.check(not os.path.exists(os.path.join(d, "server_metrics_export.parquet")), "parquet opt-in")
rows = csv_rows(os.path.join(d, "server_metrics_export.csv"))
sections = []
for i, row in enumerate(rows):
    if row and row[0] == "Endpoint" and (i == 0 or not rows[i - 1]):
        sections.append((row, []))
    elif row and sections:
        sections[-1][1].append(row)
    elif not row:
        f.check(i + 1 < len(rows) and rows[i + 1] and rows[i + 1][0] == "Endpoint",
                f"CSV row {i + 1}: one blank row between sections")
types = [body[0][1] if body else "" for _, body in sections]
order = ["gauge", "counter", "histogram"]
f.check([t for t in types if t in order] == [t for t in order if t in types],
        f"CSV section order {types}")
for header, body in sections:
    kind = body[0][1] if body else ""
    if kind not in CSV_STATS:
        continue
    f.check(header[:4 + len(CSV_STATS[kind])] == ["Endpoint", "Type", "Metric", "Unit"] +
            CSV_STATS[kind], f"CSV {kind} header {header}")
    f.check("Description" in header, f"CSV {kind} header has Description")
    f.check(all(r[1] == kind for r in body), f"CSV {kind} section holds only {kind} rows")
    if kind == "counter":
        found = [r for r in body if r[2] == "inferperf_mock_requests"]
        f.check(len(found) == 1, "CSV has one requests counter row")
        for r in found:
            f.check(r[0] == page and float(r[4]) == s["request_count"]["avg"],
                    f"CSV requests counter row {r[:5]}")
f.check("counter" in types and "gauge" in types, f"CSV sections {types}")
f.done()
