"""A repeated run (--num-profile-runs 2) read as AIPerf 0.11 users read it: the confidence aggregate
at <base>/aggregate/ by key and by CSV row, and each trial's full summary under
<base>/profile_runs/run_NNNN/ (spec: aiperf-latest-delta.md section 1.9, 2.2 run_info, 2.10)."""
import json
import math
import os

from common import Findings, csv_rows, folder, summary

base = folder()
f = Findings()
STATS = ["avg", "min", "max", "sum", "p1", "p5", "p10", "p25", "p50", "p75", "p90", "p95", "p99",
         "std"]
LABELS = ["run_0001", "run_0002"]

runs = [summary(os.path.join(base, "profile_runs", label)) for label in LABELS]
for trial, (label, s) in enumerate(zip(LABELS, runs)):
    f.check(s["schema_version"] == "1.3", f"{label}: schema_version {s['schema_version']!r}")
    f.check(s["request_count"]["avg"] == 6, f"{label}: request_count {s['request_count']}")
    info = s["run_info"]
    f.check(info.get("trial") == trial, f"{label}: run_info.trial {info.get('trial')!r}")
    f.check(info.get("run_label") == label, f"{label}: run_info.run_label")
    f.check(info.get("variation_label") == "base", f"{label}: run_info.variation_label")
    f.check(info.get("variation_index") == 0, f"{label}: run_info.variation_index")
    f.check(info.get("variation_values") == {}, f"{label}: run_info.variation_values")
    # 1.9: with more than one trial and no seed given, consistent seeding uses 42.
    f.check(info.get("random_seed") == 42, f"{label}: run_info.random_seed")
    f.check(info.get("benchmark_id") == s["benchmark_id"], f"{label}: run_info.benchmark_id")
    nulls = [k for k, v in info.items() if v is None]
    f.check(not nulls, f"{label}: run_info holds nulls {nulls} (2.2 Correction: dropped)")
    f.check(os.path.exists(os.path.join(base, "profile_runs", label, "profile_export_aiperf.csv")),
            f"{label}: no profile_export_aiperf.csv")

with open(os.path.join(base, "aggregate", "profile_export_aiperf_aggregate.json")) as fh:
    agg = json.load(fh)
f.check(list(agg) == ["schema_version", "aiperf_version", "metadata", "metrics"],
        f"aggregate JSON keys {list(agg)}")
f.check(agg.get("schema_version") == "1.0", f"aggregate schema_version {agg.get('schema_version')}")
f.check(agg.get("aiperf_version") == "0.11.0", "aggregate aiperf_version")
md = agg["metadata"]
expected_md = {"aggregation_type": "confidence", "num_profile_runs": 2, "num_successful_runs": 2,
               "failed_runs": [], "confidence_level": 0.95, "run_labels": LABELS}
for key, value in expected_md.items():
    f.check(md.get(key) == value, f"metadata.{key} {md.get(key)!r}, expected {value!r}")
f.check("cooldown_seconds" in md, "metadata.cooldown_seconds (2.10 Correction: always present)")
f.check(not md.get("single_run", False), "metadata.single_run with two successful runs")

metrics = agg["metrics"]
block = metrics["time_to_first_token_p99"]
f.check(list(block) == ["mean", "std", "min", "max", "cv", "se", "ci_low", "ci_high", "t_critical",
                        "unit"], f"aggregate metric keys {list(block)}")
values = [s["time_to_first_token"]["p99"] for s in runs]
mean = sum(values) / 2
std = math.sqrt(sum((v - mean) ** 2 for v in values) / (2 - 1))  # n - 1
se = std / math.sqrt(2)
t = block["t_critical"]
f.check(t is not None and abs(t - 12.7062) < 1e-3, f"t_critical {t} (1 df at 0.95 is 12.7062)")
near = lambda a, b: a is not None and abs(a - b) <= 1e-6 * max(1.0, abs(b))  # noqa: E731
f.check(near(block["mean"], mean), f"mean {block['mean']} vs trials' {mean}")
f.check(near(block["std"], std), f"std {block['std']} vs sample std {std}")
f.check(near(block["min"], min(values)) and near(block["max"], max(values)), "min/max of trials")
f.check(near(block["cv"], std / mean), "cv = std/mean")
f.check(near(block["se"], se), "se = std/sqrt(n)")
f.check(near(block["ci_low"], mean - 12.7062047 * se) and
        near(block["ci_high"], mean + 12.7062047 * se), "CI = mean -/+ t*se")
f.check(block["unit"] == "ms", f"unit {block['unit']!r}")
missing = []
for s in runs:
    for tag, m in s.items():
        if isinstance(m, dict) and "unit" in m and tag not in ("input_config",):
            missing += [f"{tag}_{st}" for st in STATS if m.get(st) is not None and
                        f"{tag}_{st}" not in metrics]
f.check(not missing, f"aggregate lacks keys for trial stats: {sorted(set(missing))[:8]}")
# n values of a key give n - 1 degrees of freedom; a key only one trial has is a single value.
n_of = {}
for s in runs:
    for tag, m in s.items():
        if isinstance(m, dict) and "unit" in m:
            for st in STATS:
                if isinstance(m.get(st), (int, float)) and math.isfinite(m[st]):
                    n_of[f"{tag}_{st}"] = n_of.get(f"{tag}_{st}", 0) + 1
bad_t = [k for k, n in n_of.items() if k in metrics and
         not (abs((metrics[k]["t_critical"] or 0) - 12.7062) < 1e-3 if n == 2
              else metrics[k]["t_critical"] is None)]
f.check(not bad_t, f"t_critical not 12.7062 for two values / null for one: {sorted(bad_t)[:6]}")
counts = [k for k in metrics if k.endswith("_count") and k[:-6] in runs[0] and
          isinstance(runs[0][k[:-6]], dict) and "count" in runs[0][k[:-6]]]
f.check(not counts, f"count is not an aggregated stat: {counts[:4]}")

rows = csv_rows(os.path.join(base, "aggregate", "profile_export_aiperf_aggregate.csv"))
f.check(rows[0] == ["metric", "mean", "std", "min", "max", "cv", "se", "ci_low", "ci_high",
                    "t_critical", "unit"], f"aggregate CSV header {rows[0]}")
by_key = {}
blank = None
for i, row in enumerate(rows[1:], 1):
    if not row:
        blank = i
        break
    by_key[row[0]] = dict(zip(rows[0], row))
p99 = by_key.get("time_to_first_token_p99", {})
f.check(p99.get("t_critical") == "12.7062", f"CSV t_critical {p99.get('t_critical')!r}")
f.check(len(p99.get("cv", "").split(".")[-1]) == 4 and len(p99.get("se", "").split(".")[-1]) == 4,
        "cv/se with 4 decimals")
f.check(p99.get("mean") == f"{block['mean']:.2f}", f"CSV mean {p99.get('mean')!r} (2 decimals)")
f.check(p99.get("unit") == "ms", "CSV unit")
f.check(set(by_key) == set(metrics), "CSV rows are the JSON metric keys")
meta = rows[blank + 1:] if blank else []
f.check(meta[:3] == [["Aggregation Type", "confidence"], ["Total Runs", "2"],
                     ["Successful Runs", "2"]], f"CSV metadata rows {meta[:3]}")
meta_d = {r[0]: r[1] for r in meta if len(r) == 2}
f.check(meta_d.get("Confidence Level") == "0.95", "CSV Confidence Level,0.95")
labels = meta_d.get("Run Labels", "")
f.check("run_0001" in labels and "run_0002" in labels, f"CSV Run Labels {labels!r}")
f.done()
