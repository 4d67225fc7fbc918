"""profile_export_aiperf.json read by key, as dashboards and CI gates read it."""
from common import check, folder, summary

s = summary(folder())
check(s["schema_version"] == "1.3", f"schema_version {s['schema_version']!r}")
check(s["aiperf_version"] == "0.11.0", f"aiperf_version {s['aiperf_version']!r}")
keys = list(s)
check(keys[:3] == ["schema_version", "aiperf_version", "benchmark_id"], f"first keys {keys[:3]}")
fixed = ["request_throughput", "request_latency", "request_count", "time_to_first_token",
         "time_to_second_token", "inter_token_latency", "output_token_throughput",
         "output_token_throughput_per_user", "output_sequence_length", "input_sequence_length",
         "goodput", "good_request_count", "output_token_count", "inter_chunk_latency",
         "total_output_tokens", "benchmark_duration", "total_isl", "total_osl"]
present = [k for k in fixed if k in s]
check(present == [k for k in keys if k in fixed], f"fixed slots out of order: {present}")
order = ["input_config", "run_info", "was_cancelled", "error_summary", "start_time", "end_time"]
check([k for k in keys if k in order] == order, "input_config..end_time out of order")
check(keys.index("end_time") < keys.index("time_to_first_output_token"),
      "other metrics come after end_time")
ttft = s["time_to_first_token"]
stats = ["unit", "avg", "p1", "p5", "p10", "p25", "p50", "p75", "p90", "p95", "p99", "min", "max",
         "std", "count", "sum"]
check(list(ttft) == stats, f"record metric keys {list(ttft)}")
check(ttft["unit"] == "ms" and ttft["count"] == s["request_count"]["avg"], "ttft unit/count")
check(list(s["request_throughput"]) == ["unit", "avg"], "derived metric holds unit and avg")
check(s["time_to_first_output_token"]["avg"] == ttft["avg"], "TTFO equals TTFT without reasoning")
for gone in ("min_request_timestamp", "max_response_timestamp"):
    check(gone not in s, f"{gone} is internal since 0.7")
ic = s["input_config"]
check(ic["models"]["items"][0]["name"] == "mock-model", "input_config.models.items[0].name")
profiling = [p for p in ic["phases"] if p["name"] == "profiling"]
check(len(profiling) == 1 and profiling[0]["concurrency"] == 2, f"profiling phase {ic['phases']}")
check(profiling[0]["type"] == "concurrency" and profiling[0]["requests"] == 12, "phase load")
check(ic["endpoint"]["streaming"] is True, "input_config.endpoint.streaming")
check(ic["artifacts"]["slice_duration"] == 0.5, "input_config.artifacts.slice_duration")
check(ic["slos"] == {"time_to_first_token": 1000.0}, f"input_config.slos {ic.get('slos')}")
info = s["run_info"]
check(info["benchmark_id"] == s["benchmark_id"] and info["trial"] == 0, "run_info identity")
check(info["random_seed"] == 5, "run_info.random_seed")
check(info["cli_command"].startswith("inferperf profile "), "run_info.cli_command")
check(s["good_request_count"]["avg"] == s["request_count"]["avg"], "every request met the SLO")
check(s["was_cancelled"] is False and s["error_summary"] == [], "clean run")
