// The profile's inputs.json: every turn's body built from the request plan (the first turn's
// exactly as sent; later turns built in isolation, as AIPerf), credentials redacted. The file's
// format and its streaming are artifacts::write_inputs_json's.
//
// inputs.json does not decide the load, so a large one is written on a background thread at the
// lowest CPU priority while the run goes on (docs/decisions.md, "inputs.json is written beside
// the run"): only the first-turn bodies the workers send are built before the first request.
#pragma once
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <thread>

#include "artifacts/inputs_json.hpp"
#include "core/error.hpp"
#include "dataset/conversation.hpp"
#include "worker/request_plan.hpp"

namespace inferperf::app {

// Keeps each conversation's first body in `plan.bodies` (compact JSON, as sent) unless its prompt
// is assembled per request (left empty then). Run before the first request.
void prebuild_first_bodies(const dataset::Dataset& ds, worker::RequestPlan& plan);

// inputs.json's entry for conversation `i`: one body per turn, credentials redacted.
artifacts::InputsEntry run_inputs_entry(const dataset::Dataset& ds, const worker::RequestPlan& plan,
                                        std::size_t i);

// About the bytes inputs.json will take for `ds`, erring high (JSON escapes, indentation and
// each body's fields beside its texts); `bytes_per_token` sizes prompts assembled per request.
std::uint64_t inputs_json_size_estimate(const dataset::Dataset& ds, double bytes_per_token);

// Estimates at or below this are written before the run, as they always were (a few tens of
// milliseconds), so the run's CPU window never holds them.
inline constexpr std::uint64_t kInputsJsonBackgroundBytes = 32ull << 20;
// kInputsJsonBackgroundBytes, or for tests only INFERPERF_TEST_INPUTS_JSON_BACKGROUND_BYTES (a
// byte count: 0 writes every inputs.json beside the run).
std::uint64_t inputs_json_background_bytes();

// Whether the artifact folder has room: inputs.json is written only when its estimate fits in
// half the free space, so the records and the exports keep at least as much room as it takes.
// "" when it fits (or the free space cannot be told), else the warning to log.
std::string inputs_json_room_problem(const std::filesystem::path& path, std::uint64_t estimate,
                                     std::optional<std::uint64_t> free_bytes);

// Writes inputs.json at `path` from a dataset and plan that stay unchanged until finish(): on
// its own thread (nice 19, SIGINT/SIGTERM blocked) when `background`, else at once in the
// constructor. `reserved`: reserve_inputs_json made the temporary file.
class InputsJsonWriter {
 public:
  InputsJsonWriter(std::filesystem::path path, const dataset::Dataset& ds,
                   const worker::RequestPlan& plan, bool reserved, bool background);
  // A writer never finished (a run refused after set-up) stops and leaves no file.
  ~InputsJsonWriter();
  InputsJsonWriter(const InputsJsonWriter&) = delete;
  InputsJsonWriter& operator=(const InputsJsonWriter&) = delete;

  // Waits for the file; its statistics or the write's error (as the synchronous write gave it).
  const core::Result<artifacts::InputsJsonStats>& finish();
  bool background() const { return background_; }
  double seconds() const { return seconds_; }  // the write's wall time, once finished

 private:
  void write();

  std::filesystem::path path_;
  const dataset::Dataset& ds_;
  const worker::RequestPlan& plan_;
  bool reserved_;
  bool background_;
  std::atomic<bool> cancel_{false};
  std::atomic<bool> written_{false};  // write() returned
  std::optional<core::Result<artifacts::InputsJsonStats>> result_;
  double seconds_ = 0;
  std::thread thread_;
};

}  // namespace inferperf::app
