// Setting up one profile run: everything that can be refused (bad flags, an unknown model, bad
// input, a failed preflight) is settled before the artifact folder is created; the folder then
// gets its log file and inputs.json (a large one written beside the run, finished by
// finish_run_inputs).
#pragma once
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/profile/dataset_setup.hpp"
#include "app/profile/run_inputs.hpp"
#include "app/profile/telemetry_setup.hpp"
#include "artifacts/export_names.hpp"
#include "config/run_config.hpp"
#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/rlimit.hpp"
#include "core/rng.hpp"
#include "endpoint/endpoint.hpp"
#include "tokenizer/tokenizer.hpp"
#include "transport/http_policy.hpp"
#include "transport/url.hpp"
#include "worker/worker_pool.hpp"

namespace inferperf::app {

// Why a stage ends the run: the exit code and the text for stderr (whole lines), printed in one
// place (print_stage_stop) by whoever ran the stages.
struct StageStop {
  int exit_code;
  std::string message;
};
// A stage either lets the run go on (nullopt) or stops it.
using StageExit = std::optional<StageStop>;

// Stops the run with "error: WHAT\n"; `what` may quote a URL the user gave: its credentials are
// never repeated.
StageStop stage_error(int exit_code, const core::Error& what);
// Stops the run with `message` as it is (already ending with a newline).
StageStop stage_stop(int exit_code, std::string message);
// Prints the stop's message on stderr; returns its exit code.
int print_stage_stop(const StageStop& stop);

// What the stages of one profile run hand on to each other, filled in stage order.
struct ProfileSetup {
  explicit ProfileSetup(config::RunConfig& config)
      : c(config), fds(core::raise_fd_limit()), rngs(config.input.random_seed) {}

  const endpoint::EndpointInfo& info() const { return endpoint->info(); }
  const dataset::Dataset& ds() const { return prepared->dataset; }
  // Client-side token counts (the metrics' default); a tokenizer loaded only for prompt synthesis
  // under --use-server-token-count does not count.
  bool client_counts() const { return tok && !c.endpoint.use_server_token_count; }

  config::RunConfig& c;  // the stages settle what the flags left open (model, streaming, schedule)
  const core::FdLimit fds;
  artifacts::ExportNames names;
  std::vector<transport::BaseUrl> urls;
  transport::HttpPolicy http_policy;  // every client's TLS and keys
  std::unique_ptr<endpoint::Endpoint> endpoint;
  core::SteadyClock clock;
  std::optional<RunTelemetry> tel;
  std::unique_ptr<tokenizer::Tokenizer> tok;
  std::string tokenizer_file;
  std::string token_source = "server usage";
  core::RngFactory rngs;
  std::string benchmark_id;
  std::optional<PreparedDataset> prepared;
  worker::RequestPlan plan;  // its transport and TLS context are set with the targets
  std::filesystem::path artifact_dir;
  // inputs.json still being written (it reads the dataset and the plan: declared after them, so
  // it stops first).
  std::unique_ptr<InputsJsonWriter> inputs_writer;
};

// The stages from the output names to inputs.json, in order; `artifact_dir_out`, when given,
// receives the artifact folder once it exists.
StageExit set_up_profile(ProfileSetup& s, std::filesystem::path* artifact_dir_out);

// Waits for inputs.json when it is written beside the run (call it once the requests are done,
// before the exports). False when writing it failed: the error is logged, and the run's exit code
// is then 1, as when the write failed before the run.
bool finish_run_inputs(ProfileSetup& s);

}  // namespace inferperf::app
