#include "app/synthesize/agentic_sessions.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <optional>
#include <random>
#include <unordered_map>

#include "core/rng.hpp"

namespace inferperf::app::agentic {

namespace {

// AIPerf's prefix model: L1.5 regions of at most 200 blocks for at most 1000 groups after L1, then
// one region of 4000 blocks per session.
constexpr long long kMaxGroupBlocks = 200;
constexpr long long kMaxGroups = 1'000;
constexpr long long kMaxSessionBlocks = 4'000;
// Outputs are at least this long (or generation_length.max when that is lower).
constexpr long long kOutputFloor = 30;
// A restart's probability falls linearly to zero over the first 75 % of primary sessions.
constexpr double kRestartDecayEnd = 0.75;

long long ceil_div(long long a, long long b) {
  return a <= 0 ? 0 : (a + b - 1) / b;
}

class AgenticGenerator {
 public:
  AgenticGenerator(const Config& c, std::uint64_t seed)
      : c_(c), rng_(core::RngFactory(seed).stream("synthesize.agentic_code")) {
    double total = 0;
    for (long long k = 1; k <= c.cache.num_groups; ++k) {
      total += 1.0 / std::pow(static_cast<double>(k), c.cache.zipf_alpha);
      group_cdf_.push_back(total);
    }
    new_tokens_ = c.new_tokens;
    if (c.new_tokens_bias != 1.0) {  // shifts the median (mu) to offset the context-limit cut
      new_tokens_.mu += std::log(c.new_tokens_bias);
      new_tokens_.mean *= c.new_tokens_bias;
      new_tokens_.median *= c.new_tokens_bias;
    }
    output_min_ = c.generation.max
                      ? std::min<long long>(kOutputFloor, static_cast<long long>(*c.generation.max))
                      : kOutputFloor;
  }

  core::Result<std::vector<Session>> run(long long n);

 private:
  double draw(const Lognormal& l) {
    auto one = [&] { return std::exp(core::normal(rng_, l.mu, l.sigma)); };
    double x = one();
    for (int i = 0; i < 100 && ((l.min && x < *l.min) || (l.max && x > *l.max)); ++i) x = one();
    if (l.min) x = std::max(x, *l.min);
    if (l.max) x = std::min(x, *l.max);
    return x;
  }
  std::string session_id() { return fmt::format("sess-{:012x}", rng_() >> 16); }
  long long group() {
    const double u = core::uniform_unit(rng_) * group_cdf_.back();
    const auto it = std::upper_bound(group_cdf_.begin(), group_cdf_.end(), u);
    return std::min<long long>(it - group_cdf_.begin(), c_.cache.num_groups - 1);
  }
  long long initial_context() {
    const long long l2 = std::max<long long>(static_cast<long long>(draw(c_.cache.layer2)), 1);
    return std::max<long long>(1, std::min(c_.cache.layer1_tokens + c_.cache.layer1_5_tokens + l2,
                                           c_.max_prompt_tokens - 1));
  }
  long long output_length() {
    return std::max(static_cast<long long>(draw(c_.generation)), output_min_);
  }
  long long new_tokens() {
    return std::max<long long>(static_cast<long long>(draw(new_tokens_)), 1);
  }
  double delay_ms(long long prev_input) {
    const bool agentic = core::uniform_unit(rng_) < c_.delay.agentic_fraction;
    double d = draw(agentic ? c_.delay.agentic : c_.delay.human);
    if (c_.delay.max) d = std::min(d, *c_.delay.max);
    // A fuller context means a busier agent: the pause shrinks, to a fifth at most.
    d *= std::max(0.2, 1.0 - 0.8 * static_cast<double>(prev_input) /
                                 static_cast<double>(c_.max_prompt_tokens));
    if (c_.delay.max) d = std::min(d, *c_.delay.max);
    return d;
  }
  bool reset_now(long long input) {
    if (!c_.reset) return false;
    const double ratio = static_cast<double>(input) / static_cast<double>(c_.max_prompt_tokens);
    const double p = c_.reset->base_probability * (1.0 + (c_.reset->context_scaling - 1.0) * ratio);
    return core::uniform_unit(rng_) < p;
  }
  Session start(long long initial_input, long long group_id, bool continuation) {
    Session s;
    s.id = session_id();
    if (!continuation) s.index = next_index_++;
    s.group_id = group_id;
    s.restart_continuation = continuation;
    s.turns.push_back({initial_input, output_length(), initial_input, 0.0, 0.0});
    return s;
  }
  // Adds turns until the context limit, a reset, or (restart_at > 0) the turn restart_at.
  void grow(Session& s, long long restart_at);
  std::vector<Session> primary(bool inject_restart);
  core::Result<Session> explicit_turns();

  const Config& c_;
  std::mt19937_64 rng_;
  std::vector<double> group_cdf_;
  Lognormal new_tokens_;
  long long output_min_ = kOutputFloor;
  long long next_index_ = 0;
};

void AgenticGenerator::grow(Session& s, long long restart_at) {
  for (long long t = 1;; ++t) {
    if (t == restart_at) {
      s.end = EndReason::kRestartSplit;
      return;
    }
    const SessionTurn& prev = s.turns.back();
    const double delay = delay_ms(prev.input_length);
    const long long added = new_tokens();
    const long long input = prev.input_length + prev.output_length + added;
    if (input >= c_.max_prompt_tokens) {
      s.end = EndReason::kForcedRetire;
      return;
    }
    if (reset_now(input)) {
      s.end = EndReason::kProbabilisticReset;
      return;
    }
    s.turns.push_back({input, output_length(), added, delay, prev.timestamp_ms + delay});
  }
}

std::vector<Session> AgenticGenerator::primary(bool inject_restart) {
  const long long restart_at =
      inject_restart
          ? c_.restart_turn_min +
                static_cast<long long>(core::uniform_index(
                    rng_, static_cast<std::uint64_t>(c_.restart_turn_max - c_.restart_turn_min)))
          : -1;
  const long long group_id = group();
  std::vector<Session> out;
  out.push_back(start(initial_context(), group_id, false));
  grow(out.back(), restart_at);
  if (out.back().end != EndReason::kRestartSplit) return out;
  // The continuation starts with everything the first half had built up, in the same group and
  // over the same session blocks.
  const SessionTurn& last = out.back().turns.back();
  const long long carried =
      std::min(last.input_length + last.output_length, c_.max_prompt_tokens - 1);
  Session b = start(carried, group_id, true);
  b.index = out.back().index;
  grow(b, -1);
  out.push_back(std::move(b));
  return out;
}

core::Result<Session> AgenticGenerator::explicit_turns() {
  const TurnCount& tc = *c_.turns;
  Lognormal target_dist = lognormal(static_cast<double>(tc.mean), static_cast<double>(tc.median));
  target_dist.min = static_cast<double>(tc.min);
  target_dist.max = static_cast<double>(tc.max);
  const long long target =
      std::clamp(static_cast<long long>(std::llround(draw(target_dist))), tc.min, tc.max);
  const long long attempts = tc.max_session_attempts.value_or(1);
  for (long long a = 0; a < attempts; ++a) {
    Session s = start(initial_context(), group(), false);
    bool realised = true;
    for (long long t = 1; t < target; ++t) {
      const SessionTurn& prev = s.turns.back();
      const double delay = delay_ms(prev.input_length);
      const long long added = new_tokens();
      const long long input = prev.input_length + prev.output_length + added;
      if (input >= c_.max_prompt_tokens) {
        realised = false;
        break;
      }
      s.turns.push_back({input, output_length(), added, delay, prev.timestamp_ms + delay});
    }
    if (realised || tc.allow_truncation) {
      s.end = realised ? EndReason::kTargetTurnCount : EndReason::kForcedRetire;
      return s;
    }
  }
  return core::Error{core::ErrorKind::kConfig,
                     fmt::format("turns mode: no session of {} turns fits max_prompt_tokens {} "
                                 "after {} attempts",
                                 target, c_.max_prompt_tokens, attempts)};
}

core::Result<std::vector<Session>> AgenticGenerator::run(long long n) {
  std::vector<Session> out;
  if (c_.turns) {
    for (long long i = 0; i < n; ++i) {
      auto s = explicit_turns();
      if (!s) return s.error();
      out.push_back(std::move(*s));
    }
    return out;
  }
  std::vector<std::pair<std::size_t, Session>> continuations;  // (parent's position, session)
  for (long long i = 0; i < n; ++i) {
    const double progress = static_cast<double>(i) / static_cast<double>(std::max(1LL, n - 1));
    const double p =
        c_.restart_initial_probability * std::max(0.0, 1.0 - progress / kRestartDecayEnd);
    const bool inject = p > 0 && core::uniform_unit(rng_) < p;
    auto made = primary(inject);
    out.push_back(std::move(made[0]));
    if (made.size() > 1) continuations.emplace_back(out.size() - 1, std::move(made[1]));
  }
  // Each continuation goes somewhere after its parent with a small gap, so the two halves are not
  // in flight together; parents keep their order.
  const std::size_t gap = std::max<std::size_t>(1, static_cast<std::size_t>(n) / 50);
  std::vector<std::vector<Session>> after(out.size());
  for (auto& [parent, s] : continuations) {
    const std::size_t lo = std::min(parent + gap, out.size() - 1);
    const std::size_t at = lo + core::uniform_index(rng_, out.size() - lo);
    after[at].push_back(std::move(s));
  }
  std::vector<Session> placed;
  for (std::size_t i = 0; i < out.size(); ++i) {
    placed.push_back(std::move(out[i]));
    for (Session& s : after[i]) placed.push_back(std::move(s));
  }
  return placed;
}

}  // namespace

const char* to_string(EndReason r) {
  switch (r) {
    case EndReason::kForcedRetire:
      return "forced_retire";
    case EndReason::kProbabilisticReset:
      return "probabilistic_reset";
    case EndReason::kRestartSplit:
      return "restart_split";
    case EndReason::kTargetTurnCount:
      return "target_turn_count";
  }
  return "";
}

core::Result<std::vector<Session>> synthesize_sessions(const Config& c, long long num_sessions,
                                                       std::uint64_t seed) {
  AgenticGenerator g(c, seed);
  return g.run(num_sessions);
}

std::vector<long long> prefix_hash_ids(const Config& c, long long session_index, long long group_id,
                                       long long input_length) {
  const long long b = c.block_size;
  const long long l1 = ceil_div(c.cache.layer1_tokens, b);
  const long long l15 = ceil_div(c.cache.layer1_5_tokens, b);
  const long long total = ceil_div(input_length, b);
  std::vector<long long> ids;
  ids.reserve(static_cast<std::size_t>(total));
  for (long long k = 0; k < std::min(l1, total); ++k) ids.push_back(k);
  const long long group_base = l1 + group_id * kMaxGroupBlocks;
  for (long long k = 0; k < std::min(l15, total - l1); ++k) ids.push_back(group_base + k);
  const long long session_base =
      l1 + kMaxGroups * kMaxGroupBlocks + session_index * kMaxSessionBlocks;
  for (long long k = 0; k < total - l1 - l15; ++k) ids.push_back(session_base + k);
  return ids;
}

DatasetText dataset_jsonl(const Config& c, const std::vector<Session>& sessions) {
  const long long b = c.block_size;
  struct Row {
    const Session* s;
    const SessionTurn* t;
    bool first;
    std::vector<long long> ids;
  };
  std::vector<Row> rows;
  long long next_id = 0;
  for (const Session& s : sessions) {
    for (std::size_t i = 0; i < s.turns.size(); ++i) {
      const SessionTurn& t = s.turns[i];
      Row r{&s, &t, i == 0, {}};
      if (i == 0) {
        r.ids = prefix_hash_ids(c, s.index, s.group_id, t.new_tokens);
        if (!r.ids.empty()) next_id = std::max(next_id, r.ids.back() + 1);
      } else {
        for (long long k = 0; k < ceil_div(t.new_tokens, b); ++k) r.ids.push_back(next_id++);
      }
      rows.push_back(std::move(r));
    }
  }
  // One size per id: a row whose block would differ in size from an earlier row's use of the id
  // gets a new id there instead.
  long long fresh = next_id;
  for (const Row& r : rows)
    for (long long id : r.ids) fresh = std::max(fresh, id + 1);
  DatasetText out;
  std::unordered_map<long long, long long> sizes;
  for (Row& r : rows) {
    const auto m = static_cast<long long>(r.ids.size());
    for (long long k = 0; k < m; ++k) {
      const long long need = k + 1 == m ? r.t->new_tokens - (m - 1) * b : b;
      auto [it, inserted] = sizes.emplace(r.ids[static_cast<std::size_t>(k)], need);
      if (!inserted && it->second != need) {
        r.ids[static_cast<std::size_t>(k)] = fresh;
        sizes.emplace(fresh++, need);
        ++out.renumbered_blocks;
      }
    }
    nlohmann::ordered_json j;
    j["session_id"] = r.s->id;
    j["input_length"] = r.t->new_tokens;
    j["output_length"] = r.t->output_length;
    j["hash_ids"] = r.ids;
    if (r.first) {
      j["timestamp"] = std::round(r.t->timestamp_ms * 10.0) / 10.0;
      j["group_id"] = r.s->group_id;
      if (r.s->restart_continuation) j["is_restart"] = true;
    } else {
      j["delay"] = std::round(r.t->delay_ms * 10.0) / 10.0;
    }
    out.jsonl += j.dump();
    out.jsonl += '\n';
    ++out.rows;
  }
  return out;
}

}  // namespace inferperf::app::agentic
