#include "fake_dcgm.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>

#include "metric_pages.hpp"

namespace inferperf::mock {

namespace {

// Seconds for the temperature to cover 63 % of the way to its target.
constexpr double kThermalTauS = 3.0;
// Each reading is multiplied by a factor drawn uniformly from [1 - kNoise, 1 + kNoise].
constexpr double kNoise = 0.02;

std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

std::uint64_t gpu_key(int node, int gpu) {
  return (static_cast<std::uint64_t>(node) << 8) | static_cast<std::uint64_t>(gpu);
}

// PCI buses of the GPUs of an eight-GPU HGX board.
constexpr std::array<int, 8> kPciBus = {0x18, 0x2A, 0x3A, 0x5D, 0x9A, 0xAB, 0xBA, 0xDB};

}  // namespace

const std::vector<GpuProfile>& gpu_profiles() {
  // key, modelName, idle/max W, idle/max °C, memory MiB, SM clock idle/max, memory clock idle/max
  static const std::vector<GpuProfile> profiles = {
      {"rtx6000", "NVIDIA RTX 6000 Ada Generation", 22, 300, 30, 84, 49140, 210, 2505, 405, 10001},
      {"a100", "NVIDIA A100-SXM4-80GB", 55, 400, 32, 78, 81920, 210, 1410, 1593, 1593},
      {"h100", "NVIDIA H100 PCIe", 48, 350, 31, 82, 81559, 345, 1755, 1593, 1593},
      {"h100-sxm", "NVIDIA H100 80GB HBM3", 70, 700, 30, 80, 81559, 345, 1980, 2619, 2619},
      {"h200", "NVIDIA H200", 75, 700, 30, 82, 143771, 345, 1980, 3201, 3201},
      {"b200", "NVIDIA B200", 140, 1000, 32, 85, 183359, 420, 1965, 3996, 3996},
      {"gb200", "NVIDIA GB200", 160, 1200, 33, 85, 189471, 420, 2062, 3996, 3996},
  };
  return profiles;
}

const GpuProfile* find_gpu_profile(std::string_view key) {
  for (const auto& p : gpu_profiles()) {
    if (p.key == key) return &p;
  }
  return nullptr;
}

GpuReading gpu_reading(const GpuProfile& p, double load) {
  const double x = std::clamp(load, 0.0, 1.0);
  GpuReading r{};
  r.gpu_util_pct = 5.0 + 95.0 * x;
  r.power_w = p.idle_power_w + (p.max_power_w - p.idle_power_w) * x;
  r.temp_c = p.idle_temp_c + (p.max_temp_c - p.idle_temp_c) * x;
  r.sm_clock_mhz = p.sm_clock_idle_mhz + (p.sm_clock_max_mhz - p.sm_clock_idle_mhz) * x;
  r.mem_clock_mhz = p.mem_clock_idle_mhz + (p.mem_clock_max_mhz - p.mem_clock_idle_mhz) * x;
  r.fb_used_mib = p.memory_mib * (0.10 + 0.75 * x);
  r.fb_free_mib = p.memory_mib - r.fb_used_mib;
  r.mem_copy_util_pct = 50.0 * x;
  r.sm_active = 0.95 * x;
  return r;
}

std::string fake_gpu_uuid(int node, int gpu) {
  const std::uint64_t a = splitmix64(gpu_key(node, gpu) ^ 0x6D6F636B64636700ULL);
  const std::uint64_t b = splitmix64(a);
  return fmt::format("GPU-{:08x}-{:04x}-{:04x}-{:04x}-{:012x}", a >> 32, (a >> 16) & 0xFFFF,
                     a & 0xFFFF, b >> 48, b & 0xFFFFFFFFFFFFULL);
}

FakeDcgm::FakeDcgm(FakeDcgmConfig config, MockClock::time_point start)
    : config_(std::move(config)), start_(start) {
  if (!config_.profile) config_.profile = find_gpu_profile("h200");
  config_.num_gpus = std::clamp(config_.num_gpus, 1, 8);
}

FakeDcgm::Node& FakeDcgm::node_state(int node) {
  auto it = nodes_.find(node);
  if (it != nodes_.end()) return it->second;
  Node n;
  n.last = start_;
  const std::uint64_t seed =
      config_.seed ? splitmix64(*config_.seed ^ gpu_key(node, 0xFF)) : std::random_device{}();
  n.rng.seed(seed);
  const GpuProfile& p = *config_.profile;
  for (int g = 0; g < config_.num_gpus; ++g) {
    Gpu gpu;
    // Energy since an imaginary boot one to eleven days ago, at idle power.
    const double uptime_s = 86400.0 * static_cast<double>(1 + splitmix64(gpu_key(node, g)) % 10);
    gpu.energy_mj = std::floor(p.idle_power_w * uptime_s * 1000.0);
    gpu.power_w = p.idle_power_w;
    gpu.temp_c = p.idle_temp_c;
    n.gpus.push_back(gpu);
  }
  return nodes_.emplace(node, std::move(n)).first->second;
}

std::string FakeDcgm::scrape(int node, double load, MockClock::time_point now) {
  const GpuProfile& p = *config_.profile;
  const GpuReading target = gpu_reading(p, load);
  struct Row {
    std::string labels;
    long long sm_clock, mem_clock, temp, util, copy_util, fb_free, fb_used;
    double power, sm_active;
    unsigned long long energy, violation;
  };
  std::vector<Row> rows;
  {
    std::lock_guard lock(mu_);
    Node& n = node_state(node);
    double dt = 0;
    if (now > n.last) {
      dt = std::chrono::duration<double>(now - n.last).count();
      n.last = now;
    }
    std::uniform_real_distribution<double> noise(1.0 - kNoise, 1.0 + kNoise);
    const double follow = 1.0 - std::exp(-dt / kThermalTauS);
    for (int g = 0; g < static_cast<int>(n.gpus.size()); ++g) {
      Gpu& gpu = n.gpus[static_cast<std::size_t>(g)];
      const double power = std::min(target.power_w * noise(n.rng), p.max_power_w);
      // Energy is the integral of power: trapezoids between consecutive scrapes.
      gpu.energy_mj += (gpu.power_w + power) / 2.0 * dt * 1000.0;
      if (power > 0.95 * p.max_power_w) {
        gpu.power_violation_ns += static_cast<std::uint64_t>(std::llround(dt * 1e9));
      }
      gpu.power_w = power;
      gpu.temp_c += (target.temp_c - gpu.temp_c) * follow;
      Row r;
      r.labels = fmt::format(
          R"(gpu="{}",UUID="{}",pci_bus_id="00000000:{:02X}:00.0",device="nvidia{}",modelName="{}",Hostname="{}")",
          g, fake_gpu_uuid(node, g), kPciBus[static_cast<std::size_t>(g)], g,
          prom_escape_label(p.model_name), prom_escape_label(config_.hostname));
      r.sm_clock = std::llround(std::min(target.sm_clock_mhz * noise(n.rng), p.sm_clock_max_mhz));
      r.mem_clock = std::llround(target.mem_clock_mhz);
      r.temp = std::llround(std::min(gpu.temp_c * (1.0 + (noise(n.rng) - 1.0) / 4), p.max_temp_c));
      r.util = std::llround(std::clamp(target.gpu_util_pct * noise(n.rng), 0.0, 100.0));
      r.copy_util = std::llround(std::clamp(target.mem_copy_util_pct * noise(n.rng), 0.0, 100.0));
      const double used = std::clamp(target.fb_used_mib * noise(n.rng), 0.0, p.memory_mib);
      r.fb_used = std::llround(used);
      r.fb_free = std::llround(p.memory_mib) - r.fb_used;
      r.power = power;
      r.sm_active = std::clamp(target.sm_active * noise(n.rng), 0.0, 1.0);
      r.energy = static_cast<unsigned long long>(std::llround(gpu.energy_mj));
      r.violation = gpu.power_violation_ns;
      rows.push_back(std::move(r));
    }
  }

  std::string out;
  auto family = [&](std::string_view name, std::string_view type, std::string_view help,
                    const std::function<std::string(const Row&)>& value) {
    out += fmt::format("# HELP {} {}\n# TYPE {} {}\n", name, help, name, type);
    for (const Row& r : rows) out += fmt::format("{}{{{}}} {}\n", name, r.labels, value(r));
  };
  auto integer = [](long long v) { return fmt::format("{}", v); };
  family("DCGM_FI_DEV_SM_CLOCK", "gauge", "SM clock frequency (in MHz).",
         [&](const Row& r) { return integer(r.sm_clock); });
  family("DCGM_FI_DEV_MEM_CLOCK", "gauge", "Memory clock frequency (in MHz).",
         [&](const Row& r) { return integer(r.mem_clock); });
  family("DCGM_FI_DEV_GPU_TEMP", "gauge", "GPU temperature (in C).",
         [&](const Row& r) { return integer(r.temp); });
  family("DCGM_FI_DEV_POWER_USAGE", "gauge", "Power draw (in W).",
         [](const Row& r) { return fmt::format("{:.6f}", r.power); });
  family("DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", "counter",
         "Total energy consumption since boot (in mJ).",
         [](const Row& r) { return fmt::format("{}", r.energy); });
  family("DCGM_FI_DEV_GPU_UTIL", "gauge", "GPU utilization (in %).",
         [&](const Row& r) { return integer(r.util); });
  family("DCGM_FI_DEV_MEM_COPY_UTIL", "gauge", "Memory utilization (in %).",
         [&](const Row& r) { return integer(r.copy_util); });
  family("DCGM_FI_DEV_ENC_UTIL", "gauge", "Encoder utilization (in %).",
         [](const Row&) { return std::string("0"); });
  family("DCGM_FI_DEV_DEC_UTIL", "gauge", "Decoder utilization (in %).",
         [](const Row&) { return std::string("0"); });
  family("DCGM_FI_DEV_XID_ERRORS", "gauge", "Value of the last XID error encountered.",
         [](const Row&) { return std::string("0"); });
  family("DCGM_FI_DEV_FB_FREE", "gauge", "Framebuffer memory free (in MiB).",
         [&](const Row& r) { return integer(r.fb_free); });
  family("DCGM_FI_DEV_FB_USED", "gauge", "Framebuffer memory used (in MiB).",
         [&](const Row& r) { return integer(r.fb_used); });
  family("DCGM_FI_DEV_POWER_VIOLATION", "counter",
         "Throttling duration due to power constraints (in ns).",
         [](const Row& r) { return fmt::format("{}", r.violation); });
  family("DCGM_FI_PROF_SM_ACTIVE", "gauge",
         "Ratio of cycles an SM has at least one warp assigned (0..1).",
         [](const Row& r) { return fmt::format("{:.6f}", r.sm_active); });
  return out;
}

}  // namespace inferperf::mock
