// What the mock's request handling shares across connections: the options, the start clocks, the
// statistics behind /metrics and the engine pages, the counters, the fault dice, the prefix cache
// and the video jobs. MockServer owns one; every connection refers to it.
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <random>
#include <string>

#include "capacity.hpp"
#include "core/clock.hpp"
#include "fake_dcgm.hpp"
#include "media_check.hpp"
#include "mock_options.hpp"
#include "prefix_cache.hpp"
#include "routes.hpp"
#include "served_stats.hpp"
#include "token_log.hpp"
#include "tokenizer/tokenizer.hpp"

namespace inferperf::mock {

struct MockCounters {
  std::atomic<std::int64_t> requests{0};  // inference requests received
  std::atomic<std::int64_t> in_flight{0};
  std::atomic<std::int64_t> max_in_flight{0};
  std::atomic<std::int64_t> errors_injected{0};
  std::atomic<std::int64_t> output_tokens{0};
  std::atomic<std::int64_t> connections{0};
  std::atomic<std::int64_t> connections_total{0};
  // Chat/completions requests carrying the client's warmup marker (GenerationRequest).
  std::atomic<std::int64_t> warmup_marked{0};
  // POST /v1/images/edits answered, the image files they uploaded, videos downloaded.
  std::atomic<std::int64_t> image_edits{0};
  std::atomic<std::int64_t> image_edit_files{0};
  std::atomic<std::int64_t> video_downloads{0};
};

class ServerState {
 public:
  // Throws on an unknown --dcgm-gpu-name or a --token-log or --media-log that cannot be opened.
  ServerState(MockOptions opts, std::shared_ptr<const tokenizer::Tokenizer> tok);
  ServerState(const ServerState&) = delete;
  ServerState& operator=(const ServerState&) = delete;

  // --error-rate: whether this request fails with a simulated 500.
  bool inject_error();
  // --fault-rate: the fault kind drawn for this request, or "" for none.
  std::string draw_fault();
  // Whether `seconds` have passed since the server started (the readiness delays).
  bool elapsed_since_start(double seconds) const;

  MockOptions options;
  SlotGate slots{options.slots};  // --slots; its count of holders feeds --itl-ms-per-stream
  MockClock::time_point start = MockClock::now();
  double start_unix_s = 0;
  ServedStats served;
  ServedStats unmeasured;  // what inferperf's preflight requests would add (never shown)
  FakeDcgm dcgm;
  // --token-log: wall-clock stamps use the client's conversion (one anchor, steady -> wall) so the
  // two files compare.
  core::WallAnchor anchor = core::WallAnchor::capture();
  std::unique_ptr<TokenLog> token_log;
  MockCounters counters;
  // The media chat requests carry, decoded and checked (media_check.hpp), and --media-log.
  MediaCounters media;
  std::unique_ptr<MediaLog> media_log;
  // Splits prompts into tokens; null selects the ~4-character chunker.
  std::shared_ptr<const tokenizer::Tokenizer> tokenizer;
  PrefixCache prefix_cache;
  VideoJobs videos;  // /v1/videos jobs

 private:
  std::mutex rng_mu_;
  std::mt19937_64 rng_;
};

}  // namespace inferperf::mock
