#!/usr/bin/python3
"""Checks one inferperf artifact folder against what llama-server reported (stdlib only).

Check mode (one run): --name N --dir ARTIFACTS --planned COUNT --exit-code RC --results FILE
  [--planned-isl-file TRACE | --planned-isl N] [--planned-osl-file TRACE | --planned-osl N]
  Prints the findings, writes them to ARTIFACTS/check.txt, appends one JSON line to FILE and
  exits 1 when any check failed.
Summary mode: --summary FILE prints the table of every run appended to FILE.

What is compared, and why it must hold on a correct client:
* failures: profile_export_aiperf.json `error_request_count` (absent = 0) and the error records of
  profile_export.jsonl must be 0: the runs use no fault injection, so any error is the client's
  (or a server behaviour the client must survive, such as llama-server closing connections).
* count: `request_count` == planned and one valid record per planned request.
* OSL: with --use-server-token-count OSL is defined as usage.completion_tokens, so every record
  must agree exactly; with client counts a difference is reported (random token sequences do not
  always re-tokenize to the same count), never failed. The server's completion_tokens must also
  equal the planned output lengths (exact with ignore_eos and this model), which checks that the
  client sent max_tokens.
* ISL: usage.prompt_tokens - planned input length must be one constant (the BOS token and chat
  template) for every record. Planned lengths come from the trace (compared as sorted lists,
  since every row is sent exactly once) or from --planned-isl.
* ITL: inferperf's inter_token_latency avg vs the server's decode time per token
  (server_decode_time / (OSL - 1), llama-server's own `predicted_ms` over its decode steps),
  within --itl-tol-pct percent. Streaming runs only.
"""
import argparse
import json
import os
import statistics
import sys


def metric(rec, tag):
    """A record metric's value, or None."""
    m = rec.get("metrics", {}).get(tag)
    if isinstance(m, dict):
        return m.get("value")
    return m


def summary_value(summary, tag):
    m = summary.get(tag)
    if isinstance(m, dict):
        return m.get("avg")
    return m


def planned_lengths(path, key):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line)[key] for line in f if line.strip()]


def check(args):
    out = []
    failed = []

    def note(msg):
        out.append(msg)

    def fail(msg):
        failed.append(msg)
        out.append("FAIL: " + msg)

    summary_path = os.path.join(args.dir, "profile_export_aiperf.json")
    records_path = os.path.join(args.dir, "profile_export.jsonl")
    row = {"name": args.name, "planned": args.planned}
    if args.exit_code != 0:
        fail(f"inferperf exited {args.exit_code} (see console.log)")
    if not os.path.exists(summary_path) or not os.path.exists(records_path):
        fail("no profile_export_aiperf.json / profile_export.jsonl written")
        return row, out, failed

    with open(summary_path, encoding="utf-8") as f:
        summary = json.load(f)
    with open(records_path, encoding="utf-8") as f:
        records = [json.loads(line) for line in f if line.strip()]
    errors = [r for r in records if r.get("error")]
    valid = [r for r in records if not r.get("error")]

    request_count = summary_value(summary, "request_count") or 0
    error_count = summary_value(summary, "error_request_count") or 0
    behaviour = summary.get("server_behaviour") or {}
    health = summary.get("client_health") or {}
    row.update(valid=len(valid), failed=max(int(error_count), len(errors)),
               request_count=request_count,
               retries=behaviour.get("connection_retry_count", 0),
               closes_after_stream=behaviour.get("closes_connection_after_stream", False),
               saturated=health.get("saturated"), token_source=summary.get("token_source"))

    if error_count or errors:
        kinds = sorted({(r["error"].get("type") or r["error"].get("message") or "?")
                        if isinstance(r["error"], dict) else str(r["error"]) for r in errors})
        fail(f"{max(int(error_count), len(errors))} failed requests: {', '.join(kinds)}")
    if request_count != args.planned or len(valid) != args.planned:
        fail(f"request_count {request_count}, valid records {len(valid)}, planned {args.planned}")

    # OSL against the server's completion_tokens, and the server's against the plan.
    osl = [metric(r, "output_sequence_length") for r in valid]
    usage_out = [metric(r, "usage_completion_tokens") for r in valid]
    pairs = [(o, u) for o, u in zip(osl, usage_out) if o is not None and u is not None]
    mismatched = sum(1 for o, u in pairs if o != u)
    row["osl_match"] = f"{len(pairs) - mismatched}/{len(valid)}"
    server_counts = args.server_counts
    if len(pairs) != len(valid):
        fail(f"{len(valid) - len(pairs)} valid records lack OSL or usage_completion_tokens")
    elif mismatched:
        if server_counts:
            fail(f"OSL != usage.completion_tokens on {mismatched} of {len(pairs)} records")
        else:
            diffs = [o - u for o, u in pairs if o != u]
            note(f"client-tokenized OSL != usage.completion_tokens on {mismatched}/{len(pairs)} "
                 f"records (client - server: min {min(diffs)}, max {max(diffs)}); expected with "
                 "client counts, not a failure")
    planned_osl = None
    if args.planned_osl_file:
        planned_osl = sorted(planned_lengths(args.planned_osl_file, "output_length"))
    elif args.planned_osl:
        planned_osl = [args.planned_osl] * len(valid)
    if planned_osl is not None and None not in usage_out:
        if sorted(usage_out) != planned_osl:
            bad = sum(1 for a, b in zip(sorted(usage_out), planned_osl) if a != b)
            fail(f"server completion_tokens differ from the planned output lengths ({bad} records)")

    # ISL: one constant offset between the server's prompt_tokens and the planned input length.
    usage_in = [metric(r, "usage_prompt_tokens") for r in valid]
    isl = [metric(r, "input_sequence_length") for r in valid]
    if None in usage_in:
        fail("records lack usage_prompt_tokens")
    else:
        if args.planned_isl_file:
            diffs = [u - p for u, p in zip(sorted(usage_in),
                                           sorted(planned_lengths(args.planned_isl_file, "input_length")))]
        elif args.planned_isl:
            diffs = [u - args.planned_isl for u in usage_in]
            off_plan = sum(1 for i in isl if i != args.planned_isl)
            if off_plan:
                fail(f"{off_plan} records have a client ISL other than the planned {args.planned_isl}")
        else:
            diffs = [u - i for u, i in zip(usage_in, isl)]
        offsets = sorted(set(int(d) for d in diffs))
        row["isl_offset"] = offsets[0] if len(offsets) == 1 else f"{offsets[0]}..{offsets[-1]}"
        if len(offsets) != 1:
            msg = f"prompt_tokens - planned ISL is not constant: {offsets[:10]}"
            if args.isl_informational:
                note(msg + " (client and server vocabularies differ: reported, not checked)")
            else:
                fail(msg)
        if server_counts and any(i != u for i, u in zip(isl, usage_in)):
            fail("ISL != usage.prompt_tokens with --use-server-token-count")

    # ITL against the server's own decode time per token.
    itl_avg = summary_value(summary, "inter_token_latency")
    per_token = []
    for r in valid:
        o, d = metric(r, "output_sequence_length"), metric(r, "server_decode_time")
        if o is not None and d is not None and o >= 2:
            per_token.append(d / (o - 1))
    if args.streaming:
        if itl_avg is None or not per_token:
            fail("no inter_token_latency or no server_decode_time to compare")
        else:
            server_avg = statistics.fmean(per_token)
            pct = (itl_avg - server_avg) / server_avg * 100.0
            row.update(itl_ms=round(itl_avg, 3), server_decode_per_token_ms=round(server_avg, 3),
                       itl_vs_server_pct=round(pct, 2))
            if abs(pct) > args.itl_tol_pct:
                fail(f"ITL avg {itl_avg:.3f} ms vs server decode per token {server_avg:.3f} ms: "
                     f"{pct:+.2f}% (tolerance {args.itl_tol_pct}%)")
    ttft = summary_value(summary, "time_to_first_token")
    prefill = summary_value(summary, "server_prefill_time")
    if ttft is not None:
        row["ttft_ms"] = round(ttft, 2)
    if prefill is not None:
        row["server_prefill_ms"] = round(prefill, 2)
    latency = summary_value(summary, "request_latency")
    if latency is not None:
        row["latency_ms"] = round(latency, 2)
    throughput = summary_value(summary, "output_token_throughput")
    if throughput is not None:
        row["out_tok_per_s"] = round(throughput, 1)
    discrepancies = summary_value(summary, "usage_discrepancy_count")
    if discrepancies:
        row["usage_discrepancy_count"] = discrepancies
    if health.get("saturated"):
        note(f"client health SATURATED: {health.get('warnings')}")
    if args.load:
        row["load"] = args.load
    row["result"] = "FAIL" if failed else "ok"
    return row, out, failed


def print_summary(path):
    with open(path, encoding="utf-8") as f:
        rows = [json.loads(line) for line in f if line.strip()]
    cols = [("run", "name"), ("planned", "planned"), ("valid", "valid"), ("failed", "failed"),
            ("retries", "retries"), ("closes", "closes_after_stream"), ("ISL off", "isl_offset"),
            ("OSL match", "osl_match"), ("ITL ms", "itl_ms"), ("srv ms/tok", "server_decode_per_token_ms"),
            ("ITL-srv %", "itl_vs_server_pct"), ("TTFT ms", "ttft_ms"), ("lat ms", "latency_ms"),
            ("tok/s", "out_tok_per_s"), ("saturated", "saturated"), ("load1", "load"),
            ("result", "result")]
    table = [[h for h, _ in cols]]
    for r in rows:
        table.append(["-" if r.get(k) is None else str(r.get(k)) for _, k in cols])
    widths = [max(len(t[i]) for t in table) for i in range(len(cols))]
    for t in table:
        print("  ".join(c.rjust(w) for c, w in zip(t, widths)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--summary")
    ap.add_argument("--name")
    ap.add_argument("--dir")
    ap.add_argument("--planned", type=int)
    ap.add_argument("--exit-code", type=int, default=0)
    ap.add_argument("--results")
    ap.add_argument("--itl-tol-pct", type=float, default=5.0)
    ap.add_argument("--streaming", action="store_true")
    ap.add_argument("--server-counts", action="store_true", help="run used --use-server-token-count")
    ap.add_argument("--isl-informational", action="store_true",
                    help="the server's vocabulary is not the client's: report the ISL offset only")
    ap.add_argument("--load", help="the machine's load average during the run, for the table")
    ap.add_argument("--planned-isl-file")
    ap.add_argument("--planned-isl", type=int)
    ap.add_argument("--planned-osl-file")
    ap.add_argument("--planned-osl", type=int)
    args = ap.parse_args()
    if args.summary:
        print_summary(args.summary)
        return 0
    row, out, failed = check(args)
    text = "\n".join([f"== {args.name}: {'FAIL' if failed else 'ok'}"] + ["  " + o for o in out])
    print(text, file=sys.stderr)
    with open(os.path.join(args.dir, "check.txt"), "w", encoding="utf-8") as f:
        f.write(text + "\n")
    if args.results:
        with open(args.results, "a", encoding="utf-8") as f:
            f.write(json.dumps(row) + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
