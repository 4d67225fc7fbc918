// Closed-loop issuer: keeps exactly N requests in flight until a stop condition is reached.
// Runs on its own thread; workers report returned credits from theirs.
#pragma once
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>

#include "core/clock.hpp"
#include "timing/conversation_sampler.hpp"
#include "timing/credit.hpp"

namespace inferperf::timing {

struct ConcurrencyPlan {
  int concurrency = 1;
  std::optional<std::int64_t> request_count;  // credits to send
  std::optional<double> duration_s;           // stop issuing after this long
  records::Phase phase = records::Phase::kProfiling;
};

class ConcurrencyIssuer {
 public:
  ConcurrencyIssuer(const core::Clock& clock, CreditSink& sink, ConcurrencyPlan plan,
                    ShuffleSampler sampler);

  // Issues credits until the request count is sent, the duration elapses or stop() is called.
  void run();
  // Called (from any thread) when a request has finished, successfully or not.
  void credit_returned();
  void stop();
  // Waits until every issued credit has returned or `deadline_ns` (monotonic) passes.
  bool wait_all_returned(std::optional<core::MonoNs> deadline_ns);

  std::int64_t issued() const;
  std::int64_t returned() const;
  core::MonoNs phase_start_ns() const { return phase_start_ns_; }
  // When issuing stopped (duration end, count reached or stop()).
  core::MonoNs sending_end_ns() const { return sending_end_ns_; }

 private:
  const core::Clock& clock_;
  CreditSink& sink_;
  ConcurrencyPlan plan_;
  ShuffleSampler sampler_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::int64_t issued_ = 0;
  std::int64_t returned_ = 0;
  bool stopped_ = false;
  core::MonoNs phase_start_ns_ = 0;
  core::MonoNs sending_end_ns_ = 0;
};

}  // namespace inferperf::timing
