// The token-count panels: they say which way output lengths differ and why, never advise a flag
// that was already given, and compare server and client prompt counts like with like (after the
// server's constant offset: a BOS token, a chat template).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <string_view>

#include "report/console_notes.hpp"

namespace inferperf::report {

namespace {

// An --extra-inputs key the run sent with a value that turns it on (true, or a number above 0),
// read from the input_config echo (so `inferperf analyze` sees the same).
bool extra_truthy(const nlohmann::ordered_json& v) {
  if (v.is_boolean()) return v.get<bool>();
  if (v.is_number()) return v.get<double>() > 0;
  return !v.is_null();
}

bool extra_given(const nlohmann::ordered_json& input_config, std::string_view key) {
  // AIPerf 0.11's body: endpoint.extra is a map.
  if (const auto e = input_config.find("endpoint"); e != input_config.end() && e->is_object()) {
    if (const auto x = e->find("extra"); x != e->end() && x->is_object()) {
      const auto v = x->find(std::string(key));
      return v != x->end() && extra_truthy(*v);
    }
  }
  // Folders written before 0.11's shape: input.extra as [key, value] pairs.
  if (!input_config.contains("input") || !input_config["input"].contains("extra")) return false;
  for (const auto& kv : input_config["input"]["extra"]) {
    if (kv.is_array() && kv.size() == 2 && kv[0] == key) return extra_truthy(kv[1]);
  }
  return false;
}

std::string osl_panel(const metrics::BenchmarkResult& result, const metrics::MetricOptions& o,
                      const ReportContext& ctx) {
  if (result.osl_mismatches == 0) return "";
  const metrics::OslSplit& s = result.osl_split;
  // Only longer outputs, each exactly as long as asked by the server's own count: the client's
  // re-tokenization of the text, not the server. A note, not a warning.
  if (s.shorter == 0 && s.longer > 0 && s.longer == s.longer_retokenized) {
    return fmt::format(
        "note: {} output(s) count more tokens with the client tokenizer than the server "
        "generated; the server's usage matches the requested max tokens on each (re-tokenizing "
        "the text splits it differently). --use-server-token-count reports the server's counts.\n",
        s.longer);
  }
  std::vector<std::string> lines = {
      fmt::format("{} of {} requests produced an output length that differs from the requested "
                  "max tokens",
                  result.osl_mismatches, result.valid_count),
      fmt::format("by more than min({:g} % of the request, {:g} tokens) (osl_mismatch_count):",
                  o.osl_mismatch_pct_threshold, o.osl_mismatch_max_token_threshold)};
  if (s.shorter > 0) {
    lines.push_back(fmt::format(
        "- {} shorter: the server stopped before max tokens (end of sequence, a stop string, its "
        "context length).",
        s.shorter));
    const bool ignore_eos = extra_given(ctx.input_config, "ignore_eos");
    const bool min_tokens = extra_given(ctx.input_config, "min_tokens");
    if (!ignore_eos && !min_tokens) {
      lines.push_back(
          "  Pass --extra-inputs ignore_eos:true (and/or min_tokens:<n>) if the server supports "
          "them.");
    } else if (!min_tokens) {
      lines.push_back(
          "  ignore_eos was sent: the server ignores it or stopped for another reason; "
          "min_tokens:<n> may help.");
    } else {
      lines.push_back(
          "  ignore_eos/min_tokens were sent: the server ignores them or hit its context length.");
    }
  }
  if (s.longer > 0) {
    lines.push_back(fmt::format("- {} longer{}.", s.longer,
                                s.longer_retokenized > 0
                                    ? fmt::format(" ({} only by the client tokenizer's count: the "
                                                  "server's usage matches the request)",
                                                  s.longer_retokenized)
                                    : std::string(": the server generated more than max tokens")));
  }
  return panel("Output Sequence Length Mismatch Warning", lines);
}

// The server's constant prompt-count offset: the most common (server - client) difference, when
// it holds for most requests.
struct PromptOffset {
  std::int64_t offset = 0;
  std::int64_t agreeing = 0;
  std::int64_t compared = 0;
};

PromptOffset prompt_offset(const metrics::BenchmarkResult& result) {
  constexpr auto kNone = metrics::TokenFacts::kNone;
  std::map<std::int64_t, std::int64_t> diffs;
  PromptOffset p;
  for (const metrics::TokenFacts& f : result.token_facts) {
    if (f.usage_prompt == kNone || f.client_input == kNone) continue;
    ++diffs[std::int64_t{f.usage_prompt} - f.client_input];
    ++p.compared;
  }
  for (const auto& [d, n] : diffs) {
    if (n > p.agreeing) {
      p.offset = d;
      p.agreeing = n;
    }
  }
  return p;
}

// Requests whose counts differ beyond the threshold once the prompt offset is taken out.
std::int64_t unexplained_discrepancies(const metrics::BenchmarkResult& result,
                                       const metrics::MetricOptions& o, std::int64_t offset) {
  std::int64_t n = 0;
  auto off = [&](std::optional<std::int64_t> server, std::optional<double> mine, double shift) {
    if (!server || !mine || *mine <= 0) return false;
    return std::abs(static_cast<double>(*server) - shift - *mine) / *mine * 100.0 >
           o.usage_pct_diff_threshold;
  };
  constexpr auto kNone = metrics::TokenFacts::kNone;
  auto opt = [](std::int32_t v) {
    return v == kNone ? std::optional<std::int64_t>() : std::optional<std::int64_t>(v);
  };
  for (const metrics::TokenFacts& f : result.token_facts) {
    std::optional<double> in, out;
    if (f.client_input != kNone) in = static_cast<double>(f.client_input);
    if (f.client_output != kNone) out = static_cast<double>(f.client_output);
    // Output the server generated exactly as asked but the client counts longer: re-tokenizing
    // the text, said in the OSL note, not a tokenizer mismatch.
    const bool retokenized = f.requested_osl != kNone && f.usage_completion != kNone && out &&
                             *out > static_cast<double>(f.usage_completion) &&
                             metrics::within_requested_osl(f.usage_completion, f.requested_osl, o);
    if (off(opt(f.usage_prompt), in, static_cast<double>(offset)) ||
        (!retokenized && off(opt(f.usage_completion), out, 0.0)))
      ++n;
  }
  return n;
}

std::string usage_panel(const metrics::BenchmarkResult& result, const metrics::MetricOptions& o) {
  if (result.usage_discrepancies == 0 || o.token_source != metrics::TokenSource::kClientTokenizer)
    return "";
  const PromptOffset p = prompt_offset(result);
  // A constant offset on most requests is the server's own additions, not a tokenizer mismatch
  // (0 too: then the prompts agree and only the outputs are compared).
  const bool constant = p.agreeing * 2 > p.compared;
  const std::int64_t shift = constant ? p.offset : 0;
  const std::int64_t unexplained = unexplained_discrepancies(result, o, shift);
  std::string note;
  if (constant && p.offset != 0) {
    note = fmt::format(
        "note: the server counts {:+d} prompt token(s) more than the client tokenizer on {} of {} "
        "requests (a BOS token or its chat template); compared after that offset.\n",
        p.offset, p.agreeing, p.compared);
  }
  if (unexplained == 0) return note;
  return note +
         panel("Token Count Discrepancy Warning",
               {fmt::format("{} of {} requests have server usage counts that differ from the "
                            "client tokenizer's by more than {:g} %{}",
                            unexplained, result.valid_count, o.usage_pct_diff_threshold,
                            shift != 0 ? fmt::format(" after the {:+d} prompt offset", shift)
                                       : std::string()),
                "(usage_*_diff_pct). Check that --tokenizer matches the served model, or use",
                "--use-server-token-count to report the server's counts."});
}

}  // namespace

std::string render_token_warnings(const metrics::BenchmarkResult& result,
                                  const metrics::MetricOptions& options, const ReportContext& ctx) {
  return osl_panel(result, options, ctx) + usage_panel(result, options);
}

}  // namespace inferperf::report
