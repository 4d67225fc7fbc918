"""profile_export.jsonl per record, as per-request analysis scripts read it."""
import os

from common import check, folder, jsonl, summary

d = folder()
records = jsonl(os.path.join(d, "profile_export.jsonl"))
s = summary(d)
check(len(records) == s["request_count"]["avg"], "one line per request")
good = 0
for rec in records:
    meta = rec["metadata"]
    for key in ("session_num", "x_request_id", "x_correlation_id", "conversation_id", "turn_index",
                "agent_depth", "credit_issued_ns", "request_start_ns", "request_end_ns",
                "worker_id", "record_processor_id", "benchmark_phase", "was_cancelled"):
        check(key in meta, f"metadata.{key}")
    check(meta["agent_depth"] == 0 and meta["benchmark_phase"] == "profiling", "metadata values")
    m = rec["metrics"]
    check(m["time_to_first_output_token"] == m["time_to_first_token"], "TTFO per record")
    check(m["time_to_first_token"]["unit"] == "ms", "display units")
    check(isinstance(m["inter_chunk_latency"]["value"], list), "ICL keeps the per-record list")
    check(m["good_request_count"]["value"] in (0, 1), "good_request_count is 0/1")
    good += m["good_request_count"]["value"]
    t = rec["trace_data"]
    check(t["trace_type"] == "aiohttp", "trace_data schema")
    for key in ("request_send_start_ns", "request_send_end_ns", "request_chunks_count",
                "request_bytes_total", "response_chunks_count", "response_bytes_total",
                "response_receive_start_ns", "response_receive_end_ns", "sending_ns",
                "waiting_ns", "duration_ns"):
        check(key in t, f"trace_data.{key}")
    check(t["duration_ns"] == t["response_receive_end_ns"] - t["request_send_start_ns"],
          "duration_ns is receive end minus send start")
check(good == s["good_request_count"]["avg"], "per-record verdicts add up to the count")
