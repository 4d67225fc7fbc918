"""profile_export_aiperf.csv read by display name (as pandas' set_index('Metric').loc[...])."""
import os

from common import check, csv_rows, folder, summary

d = folder()
rows = csv_rows(os.path.join(d, "profile_export_aiperf.csv"))
header = rows[0]
by_name = {}
scalars = {}
section = "records"
for row in rows[1:]:
    if not row:
        section = "next"
        continue
    if row[0] == "Metric":
        section = "scalars" if row == ["Metric", "Value"] else "other"
        continue
    if section == "records":
        by_name[row[0]] = dict(zip(header, row))
    elif section == "scalars":
        scalars[row[0]] = row[1]
s = summary(d)
p99 = float(by_name["Time to First Token (ms)"]["p99"])
check(abs(p99 - s["time_to_first_token"]["p99"]) < 0.006, "TTFT p99 agrees with the JSON")
for name in ("Request Latency (ms)", "Inter Token Latency (ms)", "Time to First Output Token (ms)",
             "Output Sequence Length (tokens)", "Input Sequence Length (tokens)",
             "HTTP Waiting (TTFB) (ms)", "HTTP Duration (excl. conn) (ms)", "HTTP Total Time (ms)",
             "HTTP Blocked (ms)", "HTTP Data Received (KB)", "HTTP Chunks Received",
             "HTTP Connection Reused (ratio)"):
    check(name in by_name, f"no CSV row {name!r}")
check(by_name["HTTP Chunks Received"]["avg"] != "", "count rows have values")
check(scalars["Request Count"] == "12", f"Request Count {scalars.get('Request Count')!r}")
check(scalars["Good Request Count"] == "12", "Good Request Count (0.11 name)")
for name in ("Request Throughput (requests/sec)", "Benchmark Duration (sec)",
             "Total Input Sequence Length (tokens)", "Total Output Sequence Length (tokens)",
             "Goodput (requests/sec)"):
    check(name in scalars, f"no CSV row {name!r}")
check(float(scalars["Request Throughput (requests/sec)"]) > 0, "throughput has 2 decimals")
check(len(scalars["Request Throughput (requests/sec)"].split(".")[1]) == 2, "2 decimals")
