"""profile_export_aiperf.csv read by column position (awk-style scripts), CRLF line ends."""
import os

from common import check, csv_rows, folder, summary

d = folder()
with open(os.path.join(d, "profile_export_aiperf.csv"), "rb") as f:
    raw = f.read()
check(raw.count(b"\r\n") == raw.count(b"\n"), "CRLF line ends as Python's csv writes them")
rows = csv_rows(os.path.join(d, "profile_export_aiperf.csv"))
check(rows[0] == ["Metric", "avg", "min", "max", "sum", "p1", "p5", "p10", "p25", "p50", "p75",
                  "p90", "p95", "p99", "std"], f"header {rows[0]}")
s = summary(d)
ttft = next(r for r in rows if r and r[0] == "Time to First Token (ms)")
check(float(ttft[13]) == round(s["time_to_first_token"]["p99"], 2), "column 13 is p99")
check(float(ttft[4]) == round(s["time_to_first_token"]["sum"], 2), "column 4 is sum")
check(float(ttft[1]) == round(s["time_to_first_token"]["avg"], 2), "column 1 is avg")
