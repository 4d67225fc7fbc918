"""profile_export_raw.jsonl and the timeslice files."""
import json
import os

from common import check, csv_rows, folder, jsonl, summary

d = folder()
s = summary(d)
raw = jsonl(os.path.join(d, "profile_export_raw.jsonl"))
check(len(raw) == s["request_count"]["avg"], "one raw line per request")
first = raw[0]
aiperf_keys = [k for k in first if k != "response_headers"]
check(aiperf_keys == ["metadata", "start_perf_ns", "payload", "request_headers", "status",
                      "responses"], f"raw keys {list(first)}")
check(first["payload"]["messages"][0]["role"] == "user" and first["status"] == 200, "payload")
rows = csv_rows(os.path.join(d, "profile_export_aiperf_timeslices.csv"))
check(rows[0] == ["Timeslice", "Metric", "Unit", "Stat", "Value"], f"timeslice header {rows[0]}")
check(any(r[1] == "Time to First Token" and r[3] == "sum" for r in rows[1:]), "Stat has sum")
with open(os.path.join(d, "profile_export_aiperf_timeslices.json")) as f:
    ts = json.load(f)
check(list(ts) == ["timeslices", "input_config"], f"timeslices keys {list(ts)}")
check(ts["timeslices"][0]["timeslice_index"] == 0, "slices numbered from 0")
check(ts["input_config"] == s["input_config"], "the same input_config")
