// Fake DCGM exporter pages: per node (/dcgmN/metrics) a few GPUs of one profile whose readings
// follow a load in [0, 1]. Everything that evolves with time (energy, power-violation time,
// temperature) advances from the previous scrape of that node to this one, so nothing runs in the
// background and a test can drive time by hand.
#pragma once
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "served_stats.hpp"

namespace inferperf::mock {

struct GpuProfile {
  std::string_view key;         // --dcgm-gpu-name value
  std::string_view model_name;  // modelName label
  double idle_power_w, max_power_w;
  double idle_temp_c, max_temp_c;
  double memory_mib;  // framebuffer total
  double sm_clock_idle_mhz, sm_clock_max_mhz;
  double mem_clock_idle_mhz, mem_clock_max_mhz;
};

const std::vector<GpuProfile>& gpu_profiles();
const GpuProfile* find_gpu_profile(std::string_view key);

// Noise-free readings of one GPU at a load.
struct GpuReading {
  double gpu_util_pct;       // 5 + 95·load
  double power_w;            // idle → max
  double temp_c;             // idle → max (the target; the reported value lags it)
  double sm_clock_mhz;       // idle → max
  double mem_clock_mhz;      // idle → max
  double fb_used_mib;        // 10 % → 85 % of the total
  double fb_free_mib;        // total − used
  double mem_copy_util_pct;  // 50·load
  double sm_active;          // ratio 0..0.95
};
GpuReading gpu_reading(const GpuProfile& p, double load);

struct FakeDcgmConfig {
  const GpuProfile* profile = nullptr;  // required
  int num_gpus = 2;
  std::string hostname = "localhost";
  std::optional<std::uint64_t> seed;  // noise seed; none = from entropy
};

// "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", stable per (node, gpu).
std::string fake_gpu_uuid(int node, int gpu);

class FakeDcgm {
 public:
  // `start` is when the fake GPUs "booted": the first scrape of a node accounts energy from then.
  FakeDcgm(FakeDcgmConfig config, MockClock::time_point start);

  // The exporter page of node `node` (1-based) at `now` for `load`; thread-safe. A scrape whose
  // `now` is earlier than the node's previous one advances nothing.
  std::string scrape(int node, double load, MockClock::time_point now);

  // Nodes are numbered 1..kMaxNodes.
  static constexpr int kMaxNodes = 64;

 private:
  struct Gpu {
    double energy_mj = 0;
    double power_w = 0;
    double temp_c = 0;
    std::uint64_t power_violation_ns = 0;
  };
  struct Node {
    std::vector<Gpu> gpus;
    MockClock::time_point last;
    std::mt19937_64 rng;
  };
  Node& node_state(int node);

  FakeDcgmConfig config_;
  MockClock::time_point start_;
  std::mutex mu_;
  std::map<int, Node> nodes_;
};

}  // namespace inferperf::mock
