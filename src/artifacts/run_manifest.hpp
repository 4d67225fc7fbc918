// inferperf_run.json: what `analyze` needs besides the records to rebuild a run's reports
// byte for byte: identity, the configuration echo, metric options and the phase window. Written
// before the run (complete: false) and again after it.
#pragma once
#include <filesystem>
#include <optional>
#include <string>

#include "artifacts/export_settings.hpp"
#include "artifacts/run_folder.hpp"
#include "core/error.hpp"
#include "report/report_context.hpp"

namespace inferperf::artifacts {

// What `analyze` needs to count client tokens itself when the run died before counting them:
// the tokenizer file and how the sessions' requests carried their history.
struct TokenRecount {
  std::string tokenizer_file;
  std::string context_mode;  // "deltas_without_responses", "deltas_with_responses", "message_array"
};

struct RunManifest {
  report::ReportContext context;  // wall-clock times; anchor is the identity
  ExportSettings settings;
  bool complete = false;  // false: the run did not get to write its final state
  std::optional<TokenRecount> recount;
};

core::Result<bool> write_manifest(const std::filesystem::path& dir,
                                  const report::ReportContext& ctx, const ExportSettings& settings,
                                  bool complete,
                                  const std::optional<TokenRecount>& recount = std::nullopt);
core::Result<RunManifest> read_manifest(const std::filesystem::path& dir);

}  // namespace inferperf::artifacts
