// --adaptive-scale in a run: the profiling phase's records feed the controller
// (timing::AdaptiveScale) from the collector thread, the phase runner's watcher asks it for the
// limit every 50 ms and applies it to the issuer, each event is appended to
// adaptive_scale_events.jsonl as it happens, and adaptive_scale_summary.json is written at the end.
#pragma once
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "config/run_config.hpp"
#include "records/request_record.hpp"
#include "timing/adaptive_scale.hpp"

namespace inferperf::app {

class AdaptiveFeed {
 public:
  AdaptiveFeed(timing::AdaptiveScaleSettings settings, std::filesystem::path folder);

  // The collector thread: every record; the profiling phase's count once the phase has started.
  void on_record(const records::RequestRecord& r);
  // The phase runner, before the profiling phase's issuer starts: the first limit.
  int start(core::MonoNs start_ns);
  struct Tick {
    std::optional<int> new_limit;  // apply it
    bool done = false;             // the sustain is over: stop sending
  };
  // The phase runner's watcher thread.
  Tick tick(core::MonoNs now);
  // After the phase: the terminal event when the sustain did not end it ("budget_exhausted",
  // "stopped"), then adaptive_scale_summary.json; the summary's file, or "" when not written.
  std::string finish(core::MonoNs now, const std::string& reason);

 private:
  void write_event(const timing::AdaptiveEvent& e);

  timing::AdaptiveScaleSettings settings_;
  std::filesystem::path folder_;
  std::mutex mu_;
  std::optional<timing::AdaptiveScale> scale_;  // from start()
  std::ofstream events_;
  std::string terminal_reason_;
  double terminal_t_s_ = 0;
};

// The feed a run with --adaptive-scale needs (nullptr without it); `folder` is the artifact folder.
std::unique_ptr<AdaptiveFeed> make_adaptive_feed(const config::RunConfig& c,
                                                 const std::filesystem::path& folder);

inline constexpr const char* kAdaptiveEventsFileName = "adaptive_scale_events.jsonl";
inline constexpr const char* kAdaptiveSummaryFileName = "adaptive_scale_summary.json";

}  // namespace inferperf::app
