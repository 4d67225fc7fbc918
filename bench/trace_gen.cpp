// A synthetic mooncake_trace shaped like the reference agentic trace of the NIM LLM benchmarking
// guide ("Inspect the Trace"): 3,541 requests; ISL mean 68,435, p50 67,585, p90 101,392, max
// 1,351,695; OSL mean 2,455, p50 399, p90 6,943, max 26,600; about 94 % of referenced blocks
// shared; 512-token blocks, ceil(input_length / 512) hash ids per request. (The reference's 502.7
// tokens per hash_id cannot come out of ceil(): a partial last block wastes under 512 tokens per
// request, so with this mean ISL the ratio stays above 508; this generator gives about 510.)
//
// Usage: inferperf_trace_gen OUT.jsonl [--requests 3541] [--seed 1]
//
// Model: agentic sessions. Every session starts from one of a few shared system-prompt roots and
// each of its requests extends the previous request's hash-id chain: the previous request's full
// blocks are kept, its partial last block is re-hashed (its content grew) and new blocks follow.
// One request is a lone outlier (a huge pasted document). Lengths are drawn by stratified
// sampling from fixed quantile curves, so the percentiles land on the targets with little noise;
// everything is deterministic from the seed (mt19937_64 and the project's own distributions).
// The achieved statistics (from dataset::analyze_trace) go to stderr.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <numeric>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/rng.hpp"
#include "dataset/trace_analysis.hpp"

namespace {

using inferperf::core::normal;
using inferperf::core::RngFactory;
using inferperf::core::shuffle;
using inferperf::core::uniform_unit;
using inferperf::dataset::TraceRow;

constexpr std::int64_t kBlock = 512;
constexpr std::int64_t kOutlierIsl = 1'351'695;

struct Knot {
  double u;
  double value;
};

// Input lengths of the regular requests (everything but the outlier): linear between the knots.
// p50 and p90 are the reference's; the tails set the mean to 68,072 so that, with the outlier,
// the mean of all 3,541 requests is 68,435.
const std::vector<Knot> kIslCurve = {{0.0, 7'000},   {0.1, 33'000},   {0.5, 67'585},
                                     {0.9, 101'392}, {0.99, 135'000}, {1.0, 170'000}};
// Output lengths: log-linear between the knots (a heavy right tail, capped at 26,600).
const std::vector<Knot> kOslCurve = {
    {0.0, 12}, {0.5, 399}, {0.9, 6'943}, {0.98, 20'850}, {1.0, 26'600}};

// Shared system-prompt roots (blocks) and how often a session starts from each.
const std::vector<std::int64_t> kRootBlocks = {28, 20, 36, 12};
const std::vector<double> kRootWeights = {0.45, 0.30, 0.15, 0.10};

// Turns per session: log-normal around this median (at least one turn; mean about 7.5). The
// median sets the block reuse: the new blocks of a session's last request and every request's
// partial last block are the unshared ones; 5 gives 94 % (14 gives 97.7 %, 3 gives 89.7 %).
constexpr double kTurnsMedian = 5.0;
constexpr double kTurnsLogSigma = 0.9;

double curve_at(const std::vector<Knot>& curve, double u, bool log_linear) {
  for (std::size_t i = 1; i < curve.size(); ++i) {
    if (u > curve[i].u && i + 1 < curve.size()) continue;
    const Knot& a = curve[i - 1];
    const Knot& b = curve[i];
    const double t = std::clamp((u - a.u) / (b.u - a.u), 0.0, 1.0);
    return log_linear ? a.value * std::pow(b.value / a.value, t)
                      : a.value + (b.value - a.value) * t;
  }
  return curve.back().value;
}

// n values, one per stratum [i/n, (i+1)/n) of the curve, the last one at its top; shuffled.
std::vector<std::int64_t> stratified(const std::vector<Knot>& curve, std::size_t n, bool log_linear,
                                     std::mt19937_64& rng) {
  std::vector<std::int64_t> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double u =
        i + 1 == n ? 1.0 : (static_cast<double>(i) + uniform_unit(rng)) / static_cast<double>(n);
    out[i] = std::llround(curve_at(curve, u, log_linear));
  }
  shuffle(out, rng);
  return out;
}

std::size_t pick_weighted(const std::vector<double>& weights, std::mt19937_64& rng) {
  const double total = std::accumulate(weights.begin(), weights.end(), 0.0);
  double x = uniform_unit(rng) * total;
  for (std::size_t i = 0; i + 1 < weights.size(); ++i) {
    if (x < weights[i]) return i;
    x -= weights[i];
  }
  return weights.size() - 1;
}

struct Request {
  double time_s = 0;  // order in the file
  TraceRow row;
};

struct Trace {
  std::vector<TraceRow> rows;
  std::size_t sessions = 0;  // the outlier's included
};

Trace generate(std::size_t requests, std::uint64_t seed) {
  const RngFactory rngs(seed);
  auto isl_rng = rngs.stream("trace_gen.isl");
  auto osl_rng = rngs.stream("trace_gen.osl");
  auto session_rng = rngs.stream("trace_gen.sessions");
  auto time_rng = rngs.stream("trace_gen.times");

  const std::size_t regular = requests > 1 ? requests - 1 : requests;
  const std::vector<std::int64_t> isl = stratified(kIslCurve, regular, false, isl_rng);
  const std::vector<std::int64_t> osl = stratified(kOslCurve, requests, true, osl_rng);

  // Hash ids are made up as "virtual" ids here and renumbered in file order at the end.
  std::int64_t next_id = 0;
  std::vector<std::vector<std::int64_t>> roots;
  for (std::int64_t blocks : kRootBlocks) {
    roots.emplace_back(static_cast<std::size_t>(blocks));
    for (auto& id : roots.back()) id = next_id++;
  }
  auto blocks_of = [](std::int64_t tokens) { return (tokens + kBlock - 1) / kBlock; };
  // A first request: as much of the root as its full blocks cover, then new blocks.
  auto first_chain = [&](const std::vector<std::int64_t>& root, std::int64_t tokens) {
    const auto shared = static_cast<std::size_t>(
        std::min<std::int64_t>(static_cast<std::int64_t>(root.size()), tokens / kBlock));
    std::vector<std::int64_t> ids(root.begin(), root.begin() + static_cast<std::ptrdiff_t>(shared));
    while (static_cast<std::int64_t>(ids.size()) < blocks_of(tokens)) ids.push_back(next_id++);
    return ids;
  };

  std::vector<Request> out;
  out.reserve(requests);
  constexpr double kSpan_s = 4 * 3600.0;  // sessions start over four hours
  std::size_t taken = 0, sessions = 0;
  while (taken < regular) {
    const double draw = std::exp(normal(session_rng, std::log(kTurnsMedian), kTurnsLogSigma));
    const std::size_t turns =
        std::min<std::size_t>(regular - taken, std::max<std::size_t>(1, std::llround(draw)));
    std::vector<std::int64_t> lengths(isl.begin() + static_cast<std::ptrdiff_t>(taken),
                                      isl.begin() + static_cast<std::ptrdiff_t>(taken + turns));
    taken += turns;
    ++sessions;
    std::sort(lengths.begin(), lengths.end());  // the context grows through the session
    const auto& root = roots[pick_weighted(kRootWeights, session_rng)];
    double t = uniform_unit(time_rng) * kSpan_s;
    std::vector<std::int64_t> chain;
    std::int64_t previous = 0;
    for (std::size_t k = 0; k < turns; ++k) {
      const std::int64_t tokens = lengths[k];
      if (k == 0) {
        chain = first_chain(root, tokens);
      } else {
        // Keep the previous request's full blocks; its partial last block changed.
        chain.resize(static_cast<std::size_t>(previous / kBlock));
        while (static_cast<std::int64_t>(chain.size()) < blocks_of(tokens))
          chain.push_back(next_id++);
      }
      Request r;
      r.time_s = t;
      r.row.input_length = tokens;
      r.row.output_length = osl[out.size()];
      r.row.hash_ids = chain;
      out.push_back(std::move(r));
      previous = tokens;
      // Think time, tool calls and the reply itself before the next request.
      t += 2.0 + 30.0 * uniform_unit(time_rng) +
           static_cast<double>(out.back().row.output_length) / 40.0;
    }
  }
  if (requests > 1) {
    Request r;
    r.time_s = uniform_unit(time_rng) * kSpan_s;
    r.row.input_length = kOutlierIsl;
    r.row.output_length = osl[out.size()];
    r.row.hash_ids = first_chain(roots[0], kOutlierIsl);
    out.push_back(std::move(r));
  }

  std::stable_sort(out.begin(), out.end(),
                   [](const Request& a, const Request& b) { return a.time_s < b.time_s; });
  std::unordered_map<std::int64_t, std::int64_t> renumber;
  std::vector<TraceRow> rows;
  rows.reserve(out.size());
  for (Request& r : out) {
    for (auto& id : r.row.hash_ids) {
      id = renumber.try_emplace(id, static_cast<std::int64_t>(renumber.size())).first->second;
    }
    rows.push_back(std::move(r.row));
  }
  return Trace{std::move(rows), sessions + (requests > 1 ? 1 : 0)};
}

bool write_jsonl(const std::string& path, const std::vector<TraceRow>& rows) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (!f) return false;
  std::string line;
  for (const TraceRow& r : rows) {
    line = "{\"input_length\": " + std::to_string(r.input_length) +
           ", \"output_length\": " + std::to_string(r.output_length) + ", \"hash_ids\": [";
    for (std::size_t i = 0; i < r.hash_ids.size(); ++i) {
      if (i > 0) line += ", ";
      line += std::to_string(r.hash_ids[i]);
    }
    line += "]}\n";
    f << line;
  }
  f.flush();
  return static_cast<bool>(f);
}

void report(const Trace& trace) {
  const auto a = inferperf::dataset::analyze_trace(trace.rows, kBlock);
  const auto& i = *a.isl_stats;
  const auto& o = *a.osl_stats;
  std::fprintf(stderr, "requests            %lld (target 3,541)\n",
               static_cast<long long>(a.total_requests));
  std::fprintf(stderr,
               "ISL mean/p50/p90/max %.0f / %.0f / %.0f / %.0f (target 68,435 / 67,585 / "
               "101,392 / 1,351,695)\n",
               i.mean, i.median, i.p90, i.max);
  std::fprintf(stderr,
               "OSL mean/p50/p90/max %.0f / %.0f / %.0f / %.0f (target 2,455 / 399 / 6,943 / "
               "26,600)\n",
               o.mean, o.median, o.p90, o.max);
  std::fprintf(stderr, "block reuse         %.2f %% (target 94 %%)\n",
               a.block_reuse_ratio.value_or(0) * 100);
  std::fprintf(stderr, "tokens per hash_id  %.1f (target 502.7)\n",
               a.tokens_per_hash_id.value_or(0));
  std::fprintf(stderr, "sessions            %zu\n", trace.sessions);
  std::fprintf(stderr, "prefix groups       %lld, theoretical cache hit rate %.3f\n",
               static_cast<long long>(a.num_prefix_groups), a.cache_hit_rate);
}

}  // namespace

int main(int argc, char** argv) {
  std::string out_path;
  std::size_t requests = 3541;
  std::uint64_t seed = 1;
  bool ok = true;
  for (int i = 1; ok && i < argc; ++i) {
    const std::string arg = argv[i];
    try {
      if (arg == "--requests" && i + 1 < argc) {
        requests = std::stoul(argv[++i]);
      } else if (arg == "--seed" && i + 1 < argc) {
        seed = std::stoull(argv[++i]);
      } else if (!arg.starts_with("-") && out_path.empty()) {
        out_path = arg;
      } else {
        ok = false;
      }
    } catch (const std::exception&) {
      ok = false;
    }
  }
  if (!ok || out_path.empty() || requests == 0) {
    std::fprintf(stderr, "usage: %s OUT.jsonl [--requests 3541] [--seed 1]\n", argv[0]);
    return 2;
  }
  const Trace trace = generate(requests, seed);
  if (!write_jsonl(out_path, trace.rows)) {
    std::fprintf(stderr, "error: cannot write %s\n", out_path.c_str());
    return 1;
  }
  std::fprintf(stderr, "wrote %s\n", out_path.c_str());
  report(trace);
  return 0;
}
