#!/usr/bin/env python3
"""Expected exports for the golden fixture tests/golden/records.jsonl.

Run by hand (python3 tests/golden/derive.py); CI never runs it and the C++ never reads it. It
writes, next to itself:

  expected_summary.json    the metric objects of profile_export_aiperf.json, by tag, in key order
  expected.csv             profile_export_aiperf.csv, byte for byte (CRLF)
  expected_records.jsonl   profile_export.jsonl, one line per profiling record

Every value comes from the definitions in docs/metrics.md (AIPerf's definitions);
nothing here is copied from, or produced by, the C++ code. Where those
documents say nothing (noted "UNDOCUMENTED" below) the choice made is written next to it.
Standard library only: numpy's default percentile (linear) and population std are implemented here.

Options of the run the expectations describe (tests/unit/golden/golden_test.cpp uses the same):
--streaming, client tokenizer token source, --goodput "time_to_first_token:26
inter_token_latency:10", --cross-tool-metrics, default OSL-mismatch (5 %, 50 tokens) and
usage-discrepancy (10 %) thresholds, no experimental metrics.
"""

import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

STREAMING = True
GOODPUT = {"time_to_first_token": 26.0, "inter_token_latency": 10.0}  # display units (ms)
OSL_MISMATCH_PCT = 5.0
OSL_MISMATCH_MAX_TOKENS = 50.0
USAGE_DIFF_PCT = 10.0
STALL_FLOOR_MS = 100.0  # a stall is a gap > 100 ms ...
STALL_MEDIAN_FACTOR = 5.0  # ... and > 5x the median gap of its record

MS, SEC, KB = 1e6, 1e9, 1024.0

# AIPerf 0.11's usage detail fields (spec delta 3.3): (field, header tail, unit, larger is better).
USAGE_DETAILS = [
    ("prompt_cache_read_tokens", "Prompt Cache Read Tokens", "tokens", True),
    ("prompt_cache_write_tokens", "Prompt Cache Write Tokens", "tokens", False),
    ("prompt_cache_miss_tokens", "Prompt Cache Miss Tokens", "tokens", False),
    ("tool_use_prompt_tokens", "Tool Use Prompt Tokens", "tokens", False),
    ("prompt_audio_seconds", "Prompt Audio Seconds", "sec", True),
    ("prompt_audio_tokens", "Prompt Audio Tokens", "tokens", True),
    ("completion_audio_tokens", "Completion Audio Tokens", "tokens", True),
    ("accepted_prediction_tokens", "Accepted Prediction Tokens", "tokens", True),
    ("rejected_prediction_tokens", "Rejected Prediction Tokens", "tokens", False),
]

# tag: (header, display unit, base units per display unit, kind, integral scalar, larger is better)
# kind: R record metric (statistics), S scalar (aggregate or derived).
# Headers, units and kinds: docs/metrics.md "Catalogue" and "HTTP phase metrics"; the headers of
# AIPerf's tags are AIPerf 0.11's display names (good_request_count "Good Request Count", total_isl
# "Total Input Sequence Length", usage "... Diff %", http_req_* "HTTP Waiting (TTFB)" and so on).
# UNDOCUMENTED: the headers of inferperf's own metrics other than schedule_lag; those strings are
# the project's current names, not independently derived.
METRICS = {
    "request_throughput": ("Request Throughput", "requests/sec", 1, "S", False, True),
    "request_latency": ("Request Latency", "ms", MS, "R", False, False),
    "request_count": ("Request Count", "requests", 1, "S", True, True),
    "time_to_first_token": ("Time to First Token", "ms", MS, "R", False, False),
    "time_to_second_token": ("Time to Second Token", "ms", MS, "R", False, False),
    "inter_token_latency": ("Inter Token Latency", "ms", MS, "R", False, False),
    "output_token_throughput": ("Output Token Throughput", "tokens/sec", 1, "S", False, True),
    "output_token_throughput_per_user": ("Output Token Throughput Per User", "tokens/sec/user", 1,
                                         "R", False, True),
    "output_sequence_length": ("Output Sequence Length", "tokens", 1, "R", False, True),
    "input_sequence_length": ("Input Sequence Length", "tokens", 1, "R", False, True),
    "goodput": ("Goodput", "requests/sec", 1, "S", False, True),
    "good_request_count": ("Good Request Count", "requests", 1, "S", True, True),
    "output_token_count": ("Output Token Count", "tokens", 1, "R", False, False),
    "reasoning_token_count": ("Reasoning Token Count", "tokens", 1, "R", False, False),
    "inter_chunk_latency": ("Inter Chunk Latency", "ms", MS, "R", False, False),
    "total_output_tokens": ("Total Output Tokens", "tokens", 1, "S", True, False),
    "total_reasoning_tokens": ("Total Reasoning Tokens", "tokens", 1, "S", True, False),
    "benchmark_duration": ("Benchmark Duration", "sec", SEC, "S", False, False),
    "total_isl": ("Total Input Sequence Length", "tokens", 1, "S", True, False),
    "total_osl": ("Total Output Sequence Length", "tokens", 1, "S", True, False),
    "error_request_count": ("Error Request Count", "requests", 1, "S", True, False),
    "error_isl": ("Error Input Sequence Length", "tokens", 1, "R", False, False),
    "total_error_isl": ("Total Error Input Sequence Length", "tokens", 1, "S", True, False),
    "time_to_first_output_token": ("Time to First Output Token", "ms", MS, "R", False, False),
    "prefill_throughput_per_user": ("Prefill Throughput Per User", "tokens/sec/user", 1, "R",
                                    False, True),
    "total_token_throughput": ("Total Token Throughput", "tokens/sec", 1, "S", False, True),
    "e2e_output_token_throughput": ("E2E Output Token Throughput", "tokens/sec/user", 1, "R",
                                    False, True),
    "usage_prompt_tokens": ("Usage Prompt Tokens", "tokens", 1, "R", False, True),
    "usage_completion_tokens": ("Usage Completion Tokens", "tokens", 1, "R", False, True),
    "usage_total_tokens": ("Usage Total Tokens", "tokens", 1, "R", False, True),
    "usage_reasoning_tokens": ("Usage Reasoning Tokens", "tokens", 1, "R", False, True),
    "total_usage_prompt_tokens": ("Total Usage Prompt Tokens", "tokens", 1, "S", True, True),
    "total_usage_completion_tokens": ("Total Usage Completion Tokens", "tokens", 1, "S", True,
                                      True),
    "total_usage_total_tokens": ("Total Usage Total Tokens", "tokens", 1, "S", True, True),
    "total_usage_reasoning_tokens": ("Total Usage Reasoning Tokens", "tokens", 1, "S", True,
                                     True),
    "good_request_fraction": ("GoodRequestFraction", "ratio", 1, "S", False, True),
    **{f"usage_{f}": (f"Usage {h}", u, 1, "R", False, lib) for f, h, u, lib in USAGE_DETAILS},
    **{f"total_usage_{f}": (f"Total Usage {h}", u, 1, "S", u == "tokens", lib)
       for f, h, u, lib in USAGE_DETAILS},
    "overall_usage_prompt_cache_read_pct": ("Overall Usage Prompt Cache Read %", "%", 1, "S",
                                            False, True),
    "usage_prompt_tokens_diff_pct": ("Usage Prompt Diff %", "%", 1, "R", False, False),
    "usage_completion_tokens_diff_pct": ("Usage Completion Diff %", "%", 1, "R", False,
                                         False),
    "usage_reasoning_tokens_diff_pct": ("Usage Reasoning Diff %", "%", 1, "R", False,
                                        False),
    "usage_discrepancy_count": ("Usage Discrepancy Count", "requests", 1, "S", True, False),
    "osl_mismatch_diff_pct": ("OSL Mismatch Diff %", "%", 1, "R", False, False),
    "osl_mismatch_count": ("OSL Mismatch Count", "requests", 1, "S", True, False),
    "http_req_blocked": ("HTTP Blocked", "ms", MS, "R", False, False),
    "http_req_dns_lookup": ("HTTP DNS Lookup", "ms", MS, "R", False, False),
    "http_req_connecting": ("HTTP Connecting", "ms", MS, "R", False, False),
    "http_req_sending": ("HTTP Sending", "ms", MS, "R", False, False),
    "http_req_waiting": ("HTTP Waiting (TTFB)", "ms", MS, "R", False, False),
    "http_req_receiving": ("HTTP Receiving", "ms", MS, "R", False, False),
    "http_req_duration": ("HTTP Duration (excl. conn)", "ms", MS, "R", False, False),
    "http_req_connection_overhead": ("HTTP Connection Overhead", "ms", MS, "R", False,
                                     False),
    "http_req_total": ("HTTP Total Time", "ms", MS, "R", False, False),
    "http_req_data_sent": ("HTTP Data Sent", "KB", KB, "R", False, False),
    "http_req_data_received": ("HTTP Data Received", "KB", KB, "R", False, False),
    "http_req_connection_reused": ("HTTP Connection Reused", "ratio", 1, "R", False,
                                   False),
    "http_req_chunks_sent": ("HTTP Chunks Sent", "count", 1, "R", False, False),
    "http_req_chunks_received": ("HTTP Chunks Received", "count", 1, "R", False, False),
    # inferperf's own metrics
    "schedule_lag": ("Schedule Lag", "ms", MS, "R", False, False),
    "effective_latency": ("Effective Request Latency", "ms", MS, "R", False, False),
    "effective_time_to_first_token": ("Effective Time to First Token", "ms", MS, "R", False,
                                      False),
    "per_token_itl": ("Per-Token Inter Token Latency", "ms", MS, "R", False, False),
    "coalesced_event_count": ("Coalesced Event Count", "count", 1, "R", False, False),
    "stream_stall_count": ("Stream Stall Count", "count", 1, "R", False, False),
    "vllm_tpot": ("vLLM TPOT", "ms", MS, "R", False, False),
    "vllm_itl": ("vLLM ITL", "ms", MS, "R", False, False),
    "guidellm_tpot": ("GuideLLM TPOT", "ms", MS, "R", False, False),
    "ntpot": ("Normalized TPOT", "ms", MS, "R", False, False),
}

# Summary JSON key order (docs/metrics.md, Catalogue): AIPerf's declared fields first (input_config, was_cancelled,
# error_summary, start_time and end_time sit after total_error_isl), then the other AIPerf tags in
# "metric-processing order" - AIPerf gives that order only by example (time_to_first_output_token,
# prefill_throughput_per_user, total_token_throughput, usage_*, osl_mismatch_diff_pct, ...); the rest
# follows the order of the catalogue table in docs/metrics.md, which agrees with the example. Then
# inferperf_version and inferperf's own keys after every AIPerf key (DECISIONS.md "keys beyond
# AIPerf"). UNDOCUMENTED: the relative order of inferperf's own keys; schedule_lag first (the one
# docs/metrics.md lists), then the others as the project lists them.
DECLARED = [
    "request_throughput", "request_latency", "request_count", "time_to_first_token",
    "time_to_second_token", "inter_token_latency", "output_token_throughput",
    "output_token_throughput_per_user", "output_sequence_length", "input_sequence_length",
    "goodput", "good_request_count", "output_token_count", "reasoning_token_count",
    "min_request_timestamp", "max_response_timestamp", "inter_chunk_latency",
    "total_output_tokens", "total_reasoning_tokens", "benchmark_duration", "total_isl",
    "total_osl", "error_request_count", "error_isl", "total_error_isl",
]
OTHER_AIPERF = [
    "time_to_first_output_token", "prefill_throughput_per_user", "e2e_output_token_throughput",
    "total_token_throughput", "usage_prompt_tokens", "usage_completion_tokens",
    "usage_total_tokens", "usage_reasoning_tokens",
    *[f"usage_{f}" for f, _, _, _ in USAGE_DETAILS],
    "total_usage_prompt_tokens", "total_usage_completion_tokens", "total_usage_total_tokens",
    "total_usage_reasoning_tokens", *[f"total_usage_{f}" for f, _, _, _ in USAGE_DETAILS],
    "overall_usage_prompt_cache_read_pct", "good_request_fraction", "usage_prompt_tokens_diff_pct",
    "usage_completion_tokens_diff_pct", "usage_reasoning_tokens_diff_pct",
    "usage_discrepancy_count", "requested_osl", "osl_mismatch_diff_pct", "osl_mismatch_count",
    "http_req_blocked", "http_req_dns_lookup", "http_req_connecting", "http_req_sending",
    "http_req_waiting", "http_req_receiving", "http_req_duration",
    "http_req_connection_overhead", "http_req_total", "http_req_data_sent",
    "http_req_data_received", "http_req_connection_reused", "http_req_chunks_sent",
    "http_req_chunks_received",
]
INFERPERF_OWN = [
    "schedule_lag", "effective_latency", "effective_time_to_first_token", "per_token_itl",
    "coalesced_event_count", "stream_stall_count", "vllm_tpot", "vllm_itl", "guidellm_tpot",
    "ntpot",
]
ORDER = DECLARED + OTHER_AIPERF + INFERPERF_OWN
PERCENTILES = [1, 5, 10, 25, 50, 75, 90, 95, 99]


# ---------------------------------------------------------------------------------------------
# Statistics (docs/metrics.md "Statistics")

def percentile(sorted_values, q):
    """numpy.percentile(x, q), default method 'linear': position q/100*(n-1), interpolated."""
    pos = q / 100.0 * (len(sorted_values) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    frac = pos - lo
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * frac


def stats(values):
    """Statistics in display units; values are already display units."""
    xs = sorted(values)
    n = len(xs)
    total = math.fsum(xs)
    mean = total / n
    std = math.sqrt(math.fsum((x - mean) ** 2 for x in xs) / n)  # population (ddof = 0)
    return {"avg": mean, **{f"p{q}": percentile(xs, q) for q in PERCENTILES}, "min": xs[0],
            "max": xs[-1], "std": std, "count": n, "sum": total}


def median(values):
    xs = sorted(values)
    n = len(xs)
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2


# ---------------------------------------------------------------------------------------------
# Per-record values, base units (ns, tokens, bytes); lists for the list metrics.

def is_valid(r):
    """docs/metrics.md "Validity": no error and at least one content event."""
    return "error" not in r and len(r["content_events"]) > 0


def token_counts(r):
    """Client tokenizer token source (docs/metrics.md "Token counts")."""
    c = r.get("client_tokens", {})
    isl = c.get("input")
    out = c.get("output")
    reasoning = c.get("reasoning")
    osl = None
    if out is not None or reasoning is not None:
        osl = (out or 0) + (reasoning or 0)  # OSL = output + reasoning
    return isl, out, reasoning, osl


def record_values(r):
    """({tag: value or list} in base units, stall gaps in ns, good, OSL mismatch, usage
    discrepancy, usage compared)"""
    v = {}
    isl, out, reasoning, osl = token_counts(r)
    if not is_valid(r):
        # error_isl: "ISL of failed requests (computed when possible)" (docs/metrics.md). With the client
        # tokenizer the ISL is the tokens of the prompt text (docs/metrics.md "Token counts"), so
        # the fixture's cancelled record gives its client count (40), not usage.prompt_tokens (42).
        # docs/metrics.md's "error_isl when the server reported prompt_tokens" describes the
        # server-usage source only.
        if isl is not None:
            v["error_isl"] = float(isl)
        return v, [], False, False, False, False

    start = r["start_ns"]
    ev = r["content_events"]  # [ts_ns, read_index, content, reasoning]
    e = [x[0] for x in ev]
    u = r["usage"]
    ttft = e[0] - start
    latency = e[-1] - start
    gaps = [e[i] - e[i - 1] for i in range(1, len(e))]

    if STREAMING:
        v["time_to_first_token"] = ttft
        if len(e) >= 2:
            v["time_to_second_token"] = e[1] - e[0]
        # AIPerf 0.11 (spec delta 3.1): every streaming token run, reasoning or not; the first
        # event with output text, so it equals TTFT when no reasoning comes first
        if any(x[2] for x in ev):
            first_output = next(x[0] for x in ev if x[2])
            v["time_to_first_output_token"] = first_output - start
    v["request_latency"] = latency
    itl = None
    if STREAMING and osl is not None and osl >= 2:
        itl = (latency - ttft) / (osl - 1)
        v["inter_token_latency"] = itl
        if itl > 0:
            v["output_token_throughput_per_user"] = 1.0 / (itl / 1e9)
    if osl is not None:
        v["output_sequence_length"] = float(osl)
    if isl is not None:
        v["input_sequence_length"] = float(isl)
    if out is not None:
        v["output_token_count"] = float(out)
    if reasoning is not None and reasoning > 0:
        v["reasoning_token_count"] = float(reasoning)
    if STREAMING and gaps:
        v["inter_chunk_latency"] = list(gaps)
    if STREAMING and isl is not None and ttft > 0:
        v["prefill_throughput_per_user"] = isl / (ttft / 1e9)
    # e2e_output_token_throughput (spec delta 3.3): OSL / latency in seconds, none for latency 0.
    if osl is not None and latency > 0:
        v["e2e_output_token_throughput"] = osl / (latency / 1e9)
    for f in ("prompt_tokens", "completion_tokens", "total_tokens", "reasoning_tokens",
              *[f for f, _, _, _ in USAGE_DETAILS]):
        if u.get(f) is not None:  # "field sent (even 0)"
            v["usage_" + f] = float(u[f])

    # Usage discrepancy (docs/metrics.md): abs(usage - client) / client * 100 against ISL, OSL and the
    # reasoning count; only with the client tokenizer (else both sides are the usage).
    # UNDOCUMENTED: a client count that is missing or 0 gives no value (division by zero).
    discrepancy, compared = False, False
    for tag, server, mine in (("usage_prompt_tokens_diff_pct", u.get("prompt_tokens"), isl),
                              ("usage_completion_tokens_diff_pct", u.get("completion_tokens"), osl),
                              ("usage_reasoning_tokens_diff_pct", u.get("reasoning_tokens"),
                               reasoning)):
        if server is None or not mine:
            continue
        pct = abs(server - mine) / mine * 100.0
        v[tag] = pct
        compared = True
        discrepancy |= pct > USAGE_DIFF_PCT

    mismatch = False
    req = r.get("requested_osl")
    if req is not None and osl is not None and req > 0:
        v["osl_mismatch_diff_pct"] = (osl - req) / req * 100.0
        mismatch = abs(osl - req) > min(req * OSL_MISMATCH_PCT / 100.0, OSL_MISMATCH_MAX_TOKENS)

    # HTTP phases (docs/metrics.md, k6 naming): blocked = waiting for a connection (start -> connect start,
    # or -> send start on a reused connection); dns 0 (UNDOCUMENTED: the records carry no DNS
    # stamps); connecting = connect end - connect start (0 when reused); sending = send end - send
    # start; waiting = first byte - send end; receiving = end - first byte; duration = end - send
    # start; overhead = blocked + dns + connecting; total = sum of the six phases; bytes in KB;
    # reused 0/1; chunks received = socket reads. UNDOCUMENTED: chunks sent (the record has no
    # field for it): 1, the request being written at once.
    if r["send_start_ns"] and r["end_ns"]:
        new_conn = not r["connection_reused"] and r["connect_start_ns"] and r["connect_end_ns"]
        blocked = (r["connect_start_ns"] if new_conn else r["send_start_ns"]) - start
        connecting = r["connect_end_ns"] - r["connect_start_ns"] if new_conn else 0
        sending = r["send_end_ns"] - r["send_start_ns"]
        waiting = r["first_byte_ns"] - r["send_end_ns"]
        receiving = r["end_ns"] - r["first_byte_ns"]
        v["http_req_blocked"] = float(blocked)
        v["http_req_dns_lookup"] = 0.0
        v["http_req_connecting"] = float(connecting)
        v["http_req_sending"] = float(sending)
        v["http_req_waiting"] = float(waiting)
        v["http_req_receiving"] = float(receiving)
        v["http_req_duration"] = float(r["end_ns"] - r["send_start_ns"])
        v["http_req_connection_overhead"] = float(blocked + 0 + connecting)
        v["http_req_total"] = float(blocked + 0 + connecting + sending + waiting + receiving)
        v["http_req_data_sent"] = float(r["bytes_sent"])
        v["http_req_data_received"] = float(r["bytes_received"])
        v["http_req_connection_reused"] = 1.0 if r["connection_reused"] else 0.0
        v["http_req_chunks_sent"] = 1.0
        v["http_req_chunks_received"] = float(r["reads"])

    # inferperf's own metrics.
    # schedule_lag = start - intended (docs/metrics.md). UNDOCUMENTED in docs/metrics.md:
    # effective latency / TTFT. Taken as schedule lag + request latency / TTFT, i.e. measured from
    # the intended time (docs/metrics.md; it measures AIPerf's later effective_latency from credit_issued_ns
    # to end_ns; the fixture's record c has issued != intended to pin the choice down).
    stall_gaps = []
    if r["intended_ns"] > 0:
        v["schedule_lag"] = start - r["intended_ns"]
        v["effective_latency"] = e[-1] - r["intended_ns"]
        if STREAMING:
            v["effective_time_to_first_token"] = e[0] - r["intended_ns"]
    if STREAMING:
        # per_token_itl (docs/metrics.md): each gap split evenly over the tokens of
        # the later event, zero gaps for tokens that arrived together (the first event's extra
        # tokens). Needs one per-event count per content event.
        per_event = r.get("client_tokens", {}).get("per_event", [])
        if len(per_event) == len(ev):
            pt = [0.0] * (per_event[0] - 1)
            for i in range(1, len(ev)):
                pt += [gaps[i - 1] / per_event[i]] * per_event[i]
            if pt:
                v["per_token_itl"] = pt
        # coalesced events: events delivered by the same socket read as the event before them
        # (architecture.md: equal read_index). UNDOCUMENTED: the exact definition and that it is
        # present (0) for every streaming record.
        v["coalesced_event_count"] = float(sum(1 for i in range(1, len(ev))
                                               if ev[i][1] == ev[i - 1][1]))
        # stalls: gaps > max(100 ms, 5 x the record's median gap). UNDOCUMENTED in docs/metrics.md;
        # absent for a record with no gap, like inter_chunk_latency.
        if gaps:
            limit = max(STALL_FLOOR_MS * MS, STALL_MEDIAN_FACTOR * median(gaps))
            stall_gaps = [g for g in gaps if g > limit]
            v["stream_stall_count"] = float(len(stall_gaps))
        # Cross-tool definitions (docs/metrics.md). UNDOCUMENTED in docs/metrics.md.
        # vLLM TPOT: (latency - TTFT) / (n - 1), n = usage.completion_tokens else the OSL.
        n = u.get("completion_tokens", osl)
        if n is not None and n >= 2:
            v["vllm_tpot"] = (latency - ttft) / (n - 1)
        # vLLM ITL: the pooled chunk gaps (here: content events, as inter_chunk_latency).
        if gaps:
            v["vllm_itl"] = list(gaps)
        # GuideLLM TPOT: (last token - start) / N, N = usage.completion_tokens else the number of
        # iterations (content events).
        g = u.get("completion_tokens", len(ev))
        if g > 0:
            v["guidellm_tpot"] = latency / g
        # NTPOT (inference-perf): e2e / OSL. Ambiguous: inference-perf counts with usage; this
        # takes the run's OSL (client tokenizer here).
        if osl:
            v["ntpot"] = latency / osl

    # Goodput (docs/metrics.md): every objective met; a missing value is not good.
    good = True
    for tag, threshold in GOODPUT.items():
        info = METRICS[tag]
        x = v.get(tag)
        if x is None:
            good = False
        elif info[5]:
            good &= x >= threshold * info[2]
        else:
            good &= x <= threshold * info[2]
    return v, stall_gaps, good, mismatch, discrepancy, compared


# ---------------------------------------------------------------------------------------------

def main():
    with open(os.path.join(HERE, "records.jsonl"), encoding="utf-8") as f:
        records = [json.loads(line) for line in f if line.strip()]
    profiling = [r for r in records if r["phase"] == "profiling"]

    per_record = []  # (record, values, stall gaps, met every SLO: valid records with SLOs only)
    pooled = {}
    valid = []
    errors = 0
    good = mismatches = discrepancies = 0
    any_requested = any_compared = False
    for r in profiling:
        res = record_values(r)
        v, stall_gaps = res[0], res[1]
        verdict = res[2] if GOODPUT and is_valid(r) else None
        per_record.append((r, v, stall_gaps, verdict))
        for tag, x in v.items():
            pooled.setdefault(tag, []).extend(x if isinstance(x, list) else [x])
        if is_valid(r):
            valid.append(r)
            _, _, is_good, mismatch, discrepancy, compared = res
            good += is_good
            mismatches += mismatch
            discrepancies += discrepancy
            any_compared |= compared
            any_requested |= r.get("requested_osl") is not None
        else:
            errors += 1

    # Aggregates and derived values (docs/metrics.md "Catalogue"), base units.
    scalars = {}
    if valid:
        first_start = min(r["start_ns"] for r in valid)
        last_content = max(r["content_events"][-1][0] for r in valid)
        duration = last_content - first_start  # ns, integers
        secs = duration / 1e9

        def total(tag):
            return sum(pooled[tag]) if tag in pooled else None

        out, reasoning, isl = (total("output_token_count"), total("reasoning_token_count"),
                               total("input_sequence_length"))
        osl = None if out is None and reasoning is None else (out or 0) + (reasoning or 0)
        scalars["request_count"] = len(valid)
        if duration > 0:
            scalars["benchmark_duration"] = duration
            scalars["request_throughput"] = len(valid) / secs
            if osl is not None:
                scalars["output_token_throughput"] = osl / secs
                scalars["total_token_throughput"] = ((isl or 0) + osl) / secs
            if GOODPUT:
                scalars["goodput"] = good / secs
        if GOODPUT:
            scalars["good_request_count"] = good
        for name, value in (("total_output_tokens", out), ("total_reasoning_tokens", reasoning),
                            ("total_osl", osl), ("total_isl", isl),
                            ("total_usage_prompt_tokens", total("usage_prompt_tokens")),
                            ("total_usage_completion_tokens", total("usage_completion_tokens")),
                            ("total_usage_total_tokens", total("usage_total_tokens")),
                            ("total_usage_reasoning_tokens", total("usage_reasoning_tokens")),
                            *[(f"total_usage_{f}", total(f"usage_{f}"))
                              for f, _, _, _ in USAGE_DETAILS]):
            if value is not None:
                scalars[name] = value
        # spec delta 3.3: 100 x total cache read / total usage prompt tokens.
        cache_read, prompt = total("usage_prompt_cache_read_tokens"), total("usage_prompt_tokens")
        if cache_read is not None and prompt:
            scalars["overall_usage_prompt_cache_read_pct"] = 100.0 * cache_read / prompt
        if any_requested:
            scalars["osl_mismatch_count"] = mismatches
        if any_compared:
            scalars["usage_discrepancy_count"] = discrepancies
    if errors:
        scalars["error_request_count"] = errors
        if "error_isl" in pooled:
            scalars["total_error_isl"] = sum(pooled["error_isl"])
    if GOODPUT:
        # spec delta 3.3: good / (valid + errors), 0 when nothing was attempted.
        attempted = len(valid) + errors
        scalars["good_request_fraction"] = good / attempted if attempted else 0.0

    # Metric objects in display units.
    summary = {}
    for tag in ORDER:
        if tag not in METRICS:
            continue  # min/max timestamps, requested_osl: experimental, not exported
        header, unit, scale, kind, integral, _ = METRICS[tag]
        if kind == "R" and tag in pooled:
            summary[tag] = {"unit": unit, **stats([x / scale for x in pooled[tag]])}
        elif kind == "S" and tag in scalars:
            value = scalars[tag] / scale
            summary[tag] = {"unit": unit, "avg": int(round(value)) if integral else float(value)}

    with open(os.path.join(HERE, "expected_summary.json"), "w", encoding="utf-8") as f:
        json.dump(summary, f, indent=2)
        f.write("\n")

    # CSV (docs/metrics.md): record metrics sorted by tag, then one empty row, then the
    # scalars sorted by tag. inferperf's own rows come after every AIPerf row (DECISIONS.md: every
    # extra metric comes after all AIPerf keys), sorted by tag among themselves.
    def label(tag):
        header, unit = METRICS[tag][0], METRICS[tag][1]
        text = header if unit in ("count", "requests") else f"{header} ({unit})"
        if any(ch in text for ch in ',"\r\n'):
            text = '"' + text.replace('"', '""') + '"'
        return text

    def csv_sorted(tags):
        tags = list(tags)
        return (sorted(t for t in tags if t not in INFERPERF_OWN)
                + sorted(t for t in tags if t in INFERPERF_OWN))

    def f2(x, tag):
        check_rounding(x, tag)
        return "%.2f" % x

    rows = []
    record_tags = csv_sorted(t for t in summary if METRICS[t][3] == "R")
    scalar_tags = csv_sorted(t for t in summary if METRICS[t][3] == "S")
    if record_tags:
        rows.append("Metric,avg,min,max,sum," + ",".join(f"p{q}" for q in PERCENTILES) + ",std")
        for tag in record_tags:
            s = summary[tag]
            cells = [s["avg"], s["min"], s["max"], s["sum"]] + [s[f"p{q}"] for q in PERCENTILES]
            cells.append(s["std"])
            rows.append(label(tag) + "," + ",".join(f2(x, tag) for x in cells))
    if record_tags and scalar_tags:
        rows.append("")
    if scalar_tags:
        rows.append("Metric,Value")
        for tag in scalar_tags:
            x = summary[tag]["avg"]
            rows.append(label(tag) + "," + (str(x) if isinstance(x, int) else f2(x, tag)))
    with open(os.path.join(HERE, "expected.csv"), "w", encoding="utf-8", newline="") as f:
        f.write("".join(row + "\r\n" for row in rows))

    # profile_export.jsonl (docs/metrics.md): profiling records in file order.
    # Metadata: wall-clock stamps as in the records file (identity anchor). request_end_ns = the
    # last event of any kind (last_event_ns), else the exchange end (docs/metrics.md "Notes on
    # definitions"). UNDOCUMENTED: worker_id "worker_<n>", record_processor_id "collector" and
    # cancellation_time_ns = end_ns (the exchange ended by the cancel).
    lines = []
    for r, v, stall_gaps, verdict in per_record:
        metrics = {}
        for tag in ORDER:
            # spec delta 2.5: with SLOs, every valid record says whether it met them all (0/1).
            if tag == "good_request_count" and verdict is not None:
                metrics[tag] = {"value": int(verdict), "unit": "requests"}
            if tag not in v:
                continue
            unit, scale = METRICS[tag][1], METRICS[tag][2]
            x = v[tag]
            value = [g / scale for g in x] if isinstance(x, list) else float(x / scale)
            metrics[tag] = {"value": value, "unit": unit}
            # UNDOCUMENTED: the stalled gaps themselves, right after their count.
            if tag == "stream_stall_count" and stall_gaps:
                metrics["stream_stalls"] = {"value": [g / MS for g in stall_gaps], "unit": "ms"}
        if not metrics and "error" not in r:
            continue
        meta = {
            "session_num": r["session_num"],
            "x_request_id": r["x_request_id"],
            "x_correlation_id": r["x_correlation_id"],
            "conversation_id": r["conversation_id"],
            "turn_index": r["turn_index"],
            "agent_depth": 0,  # spec delta 2.5: always present, 0 outside DAG sessions
            "credit_issued_ns": r["issued_ns"],
            "request_start_ns": r["start_ns"],
        }
        if r["headers_ns"]:
            meta["request_ack_ns"] = r["headers_ns"]
        meta["request_end_ns"] = r["last_event_ns"] or r["end_ns"]
        meta["worker_id"] = f"worker_{r['worker_id']}"
        meta["record_processor_id"] = "collector"
        meta["benchmark_phase"] = "profiling"
        meta["was_cancelled"] = bool(r.get("was_cancelled", False))
        if r.get("was_cancelled"):
            meta["cancellation_time_ns"] = r["end_ns"]
        line = {"metadata": meta, "metrics": metrics}
        if "error" in r:
            line["error"] = {"code": r["error"]["code"], "type": r["error"]["type"],
                             "message": r["error"]["message"]}
        lines.append(json.dumps(line, separators=(",", ":"), ensure_ascii=False))
    with open(os.path.join(HERE, "expected_records.jsonl"), "w", encoding="utf-8") as f:
        f.write("".join(line + "\n" for line in lines))
    print(f"{len(summary)} metrics, {len(rows)} CSV rows, {len(lines)} JSONL lines")


def check_rounding(x, tag):
    """The CSV is compared byte for byte: a value must not sit so close to a rounding boundary of
    %.2f that a last-bit difference in the C++ arithmetic could flip it. good_request_fraction is
    one division of two integers (correctly rounded, so the same double in both languages): its
    exact ties are safe as long as both format them alike, which the byte comparison checks."""
    if tag == "good_request_fraction":
        return
    for f in (1 - 1e-9, 1 + 1e-9):
        if "%.2f" % (x * f) != "%.2f" % x:
            sys.exit(f"{tag}: {x!r} sits on a %.2f rounding boundary; change the fixture")


if __name__ == "__main__":
    main()
