#include "sweep/sweep_words.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>

#include "config/enum_token.hpp"
#include "sweep/confidence.hpp"

namespace inferperf::sweep::detail {

const std::vector<Sweepable>& sweepables() {
  static const std::vector<Sweepable> k = {
      {"concurrency", {"--concurrency"}, true, "phases.profiling.concurrency"},
      {"prefill_concurrency",
       {"--prefill-concurrency"},
       true,
       "phases.profiling.prefill_concurrency"},
      {"request_rate", {"--request-rate"}, false, "phases.profiling.rate"},
      {"request_count", {"--request-count", "--num-requests"}, true, "phases.profiling.requests"},
      {"benchmark_duration", {"--benchmark-duration"}, false, "phases.profiling.duration"},
      {"num_conversations",
       {"--num-sessions", "--num-conversations", "--conversation-num"},
       true,
       "phases.profiling.sessions"},
      {"num_users", {"--num-users"}, true, "phases.profiling.users"},
      {"isl",
       {"--synthetic-input-tokens-mean", "--prompt-input-tokens-mean", "--isl"},
       true,
       "datasets.main.prompts.isl.mean"},
      {"isl_stddev",
       {"--synthetic-input-tokens-stddev", "--prompt-input-tokens-stddev", "--isl-stddev"},
       false,
       "datasets.main.prompts.isl.stddev",
       true},
      {"osl",
       {"--output-tokens-mean", "--prompt-output-tokens-mean", "--osl"},
       true,
       "datasets.main.prompts.osl.mean"},
      {"osl_stddev",
       {"--output-tokens-stddev", "--prompt-output-tokens-stddev", "--osl-stddev"},
       false,
       "datasets.main.prompts.osl.stddev",
       true},
      {"conversation_turn_mean",
       {"--conversation-turn-mean", "--session-turns-mean"},
       true,
       "datasets.main.turns.mean"},
  };
  return k;
}

std::optional<std::string> canonical_sweep_value(const Sweepable& s, const std::string& item) {
  if (s.integer) {
    const auto v = parse_integer(item);
    if (v && (*v > 0 || (s.zero_ok && *v == 0))) return std::to_string(*v);
  } else {
    const auto v = parse_number(item);
    if (v && (*v > 0 || (s.zero_ok && *v == 0))) return python_float(*v);
  }
  return std::nullopt;
}

std::optional<std::vector<std::string>> drop_flag_words(std::vector<std::string>& base,
                                                        const std::vector<std::string>& flags) {
  const auto named = [&](const std::string& w) {
    return std::any_of(flags.begin(), flags.end(), [&](const std::string& f) {
      return w == f || (w.starts_with(f) && w.size() > f.size() && w[f.size()] == '=');
    });
  };
  // A value word: anything but a flag ("-5" is a value, "-m" a flag).
  const auto value_word = [](const std::string& w) {
    return w.empty() || w[0] != '-' ||
           (w.size() > 1 && (std::isdigit(static_cast<unsigned char>(w[1])) || w[1] == '.'));
  };
  std::optional<std::vector<std::string>> last;
  std::vector<std::string> out;
  for (std::size_t i = 0; i < base.size(); ++i) {
    if (!named(base[i])) {
      out.push_back(base[i]);
      continue;
    }
    last.emplace();
    if (const auto eq = base[i].find('='); eq != std::string::npos) {
      last->push_back(base[i].substr(eq + 1));
      continue;
    }
    while (i + 1 < base.size() && value_word(base[i + 1])) last->push_back(base[++i]);
  }
  base = std::move(out);
  return last;
}

const Sweepable* sweepable_for(const std::string& flag) {
  for (const auto& s : sweepables()) {
    if (std::find(s.flags.begin(), s.flags.end(), flag) != s.flags.end()) return &s;
  }
  return nullptr;
}

std::vector<std::string> split_commas(const std::string& v) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    const auto comma = v.find(',', start);
    // Items trimmed, as AIPerf 0.11 reads "1, 2, 4".
    out.push_back(config::trim_list_item(std::string_view(v).substr(
        start, comma == std::string::npos ? std::string::npos : comma - start)));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

std::optional<double> parse_number(const std::string& s) {
  double v = 0;
  const auto* end = s.data() + s.size();
  auto [p, ec] = std::from_chars(s.data(), end, v);
  if (ec != std::errc() || p != end || !std::isfinite(v)) return std::nullopt;
  return v;
}

std::optional<long long> parse_integer(const std::string& s) {
  long long v = 0;
  const auto* end = s.data() + s.size();
  auto [p, ec] = std::from_chars(s.data(), end, v);
  if (ec != std::errc() || p != end) return std::nullopt;
  return v;
}

std::optional<bool> parse_bool(const std::string& s) {
  if (s == "true" || s == "True" || s == "1") return true;
  if (s == "false" || s == "False" || s == "0") return false;
  return std::nullopt;
}

SweepFlagWord read_sweep_flag_word(const std::vector<std::string>& args, std::size_t& at,
                                   std::vector<std::string>& errors) {
  const std::string& word = args[at];
  const auto eq = word.find('=');
  if (eq == std::string::npos) return {args, at, errors, word, std::nullopt};
  return {args, at, errors, word.substr(0, eq), word.substr(eq + 1)};
}

}  // namespace inferperf::sweep::detail
