#include "timing/shard.hpp"

#include <algorithm>
#include <type_traits>

#include "core/rng.hpp"

namespace inferperf::timing {

std::int64_t even_share(std::int64_t total, int index, int count) {
  if (count <= 1) return total;
  return total / count + (index < total % count ? 1 : 0);
}

int shard_of(std::string_view session_id, int count) {
  if (count <= 1) return 0;
  std::uint64_t h = 14695981039346656037ULL;
  for (const char ch : session_id) {
    h ^= static_cast<unsigned char>(ch);
    h *= 1099511628211ULL;
  }
  return static_cast<int>(h % static_cast<std::uint64_t>(count));
}

namespace {

struct Flags {
  const char* concurrency;
  const char* prefill;
  const char* requests;
  const char* sessions;
};

Flags flags_of(records::Phase phase) {
  if (phase == records::Phase::kWarmup)
    return {"--warmup-concurrency", "--warmup-prefill-concurrency", "--warmup-request-count",
            "--num-warmup-sessions"};
  return {"--concurrency", "--prefill-concurrency", "--request-count", "--num-sessions"};
}

bool rate_arrivals(const PhasePlan& p) {
  return p.pattern != ArrivalPattern::kConcurrencyBurst && !p.fixed_schedule && p.num_users == 0;
}

}  // namespace

core::Result<PhasePlan> shard_plan(const PhasePlan& global) {
  const ShardSpec s = global.shard;
  if (s.count <= 1) return global;
  PhasePlan p = global;
  const Flags f = flags_of(global.phase);
  std::string error;
  auto split = [&](auto& value, const char* flag) {
    if (!value || !error.empty()) return;
    const std::int64_t share = even_share(*value, s.index, s.count);
    if (share < 1) {
      error = std::string(flag) + " " + std::to_string(*value) + " cannot be split over " +
              std::to_string(s.count) + " shards: each shard needs at least one";
      return;
    }
    value = static_cast<std::remove_reference_t<decltype(*value)>>(share);
  };
  split(p.concurrency, f.concurrency);
  split(p.prefill_concurrency, f.prefill);
  split(p.num_sessions, f.sessions);
  // Rate arrivals count their requests on the global sequence (Scheduler: the shard's own among
  // the first N); every other mode splits the count.
  if (!rate_arrivals(p)) {
    split(p.request_count, f.requests);
  } else if (p.request_count && *p.request_count < s.count && error.empty()) {
    // Fewer arrivals than shards: some shard would surely have none.
    error = std::string(f.requests) + " " + std::to_string(*p.request_count) +
            " cannot be split over " + std::to_string(s.count) +
            " shards: each shard needs at least one";
  }
  if (p.num_users > 0) {
    const std::int64_t users = even_share(p.num_users, s.index, s.count);
    if (users < 1) {
      error = "--num-users " + std::to_string(p.num_users) + " cannot be split over " +
              std::to_string(s.count) + " shards: each shard needs at least one";
    } else {
      // Each user keeps the one-process turn gap (num_users / rate); the shards' first users are
      // 1 / rate apart, as consecutive users of one process.
      p.rate = global.rate * static_cast<double>(users) / global.num_users;
      p.num_users = static_cast<int>(users);
      p.start_offset_s = static_cast<double>(s.index) / global.rate;
    }
  }
  if (!error.empty()) return core::Error{core::ErrorKind::kConfig, error};
  return p;
}

ArrivalFilter::ArrivalFilter(ArrivalPattern pattern, ShardSpec shard, std::uint64_t seed)
    : pattern_(pattern), shard_(shard), assign_(seed) {}

bool ArrivalFilter::owns_next() {
  if (shard_.count <= 1) return true;
  const std::int64_t k = k_++;
  if (pattern_ == ArrivalPattern::kConstant) return k % shard_.count == shard_.index;
  const auto drawn = static_cast<int>(core::uniform_unit(assign_) * shard_.count);
  return std::min(drawn, shard_.count - 1) == shard_.index;
}

std::int64_t ArrivalFilter::owned_among(std::int64_t total) const {
  ArrivalFilter copy = *this;
  std::int64_t owned = 0;
  for (std::int64_t i = 0; i < total; ++i) owned += copy.owns_next() ? 1 : 0;
  return owned;
}

}  // namespace inferperf::timing
