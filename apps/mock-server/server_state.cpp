#include "server_state.hpp"

#include <chrono>
#include <stdexcept>
#include <utility>

namespace inferperf::mock {

namespace {
FakeDcgmConfig fake_dcgm_config(const MockOptions& o) {
  FakeDcgmConfig c;
  c.profile = find_gpu_profile(o.dcgm_gpu_name);
  if (!c.profile) throw std::runtime_error("unknown --dcgm-gpu-name " + o.dcgm_gpu_name);
  c.num_gpus = o.dcgm_num_gpus;
  c.hostname = o.dcgm_hostname;
  c.seed = o.dcgm_seed;
  return c;
}
}  // namespace

ServerState::ServerState(MockOptions opts, std::shared_ptr<const tokenizer::Tokenizer> tok)
    : options(std::move(opts)),
      start_unix_s(
          std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch())
              .count()),
      served(options.dcgm_window_sec, start),
      unmeasured(options.dcgm_window_sec, start),
      dcgm(fake_dcgm_config(options), start),
      tokenizer(std::move(tok)),
      rng_(options.random_seed.value_or(std::random_device{}())) {
  if (!options.token_log.empty()) token_log = std::make_unique<TokenLog>(options.token_log);
  if (!options.media_log.empty()) media_log = std::make_unique<MediaLog>(options.media_log);
}

std::string ServerState::draw_fault() {
  if (options.fault_rate <= 0 || options.fault_kinds.empty()) return {};
  std::lock_guard lock(rng_mu_);
  if (!(std::uniform_real_distribution<double>(0.0, 100.0)(rng_) < options.fault_rate)) return {};
  std::uniform_int_distribution<std::size_t> pick(0, options.fault_kinds.size() - 1);
  return options.fault_kinds[pick(rng_)];
}

bool ServerState::inject_error() {
  if (options.error_rate <= 0) return false;
  std::lock_guard lock(rng_mu_);
  const bool hit = std::uniform_real_distribution<double>(0.0, 100.0)(rng_) < options.error_rate;
  return hit;
}

bool ServerState::elapsed_since_start(double seconds) const {
  return MockClock::now() - start >=
         std::chrono::duration_cast<MockClock::duration>(std::chrono::duration<double>(seconds));
}

}  // namespace inferperf::mock
