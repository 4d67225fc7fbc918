#include "app/analyze/analyze.hpp"

#include <spdlog/spdlog.h>

#include <filesystem>
#include <iostream>

#include "app/exit_codes.hpp"
#include "app/logging.hpp"
#include "app/results.hpp"
#include "app/tokenizer_setup.hpp"
#include "artifacts/inputs_json.hpp"
#include "artifacts/run_folder.hpp"
#include "tokenizer/resolve.hpp"

namespace inferperf::app {

namespace fs = std::filesystem;

namespace {

// A run killed before it counted its client tokens: the sessions are rebuilt from inputs.json
// (each turn's body verbatim, under the run's context mode) and counted with the run's tokenizer.
// Synthesized prompts, whose counts the run knew by construction, are tokenized from their text.
core::Result<bool> recount_tokens(const fs::path& dir, const artifacts::TokenRecount& recount,
                                  std::vector<records::RequestRecord>& recs) {
  auto tok = tokenizer::load_tokenizer_file(recount.tokenizer_file);
  if (!tok) return tok.error();
  auto entries = artifacts::read_inputs_json(dir);
  if (!entries) return entries.error();
  const auto mode =
      context_mode_of(recount.context_mode).value_or(dataset::ContextMode::kDeltasWithoutResponses);
  dataset::Dataset ds;
  for (auto& entry : *entries) {
    dataset::Conversation conv;
    conv.session_id = std::move(entry.session_id);
    conv.context_mode = mode;
    for (auto& body : entry.payloads) {
      dataset::Turn t;
      t.payload = std::make_shared<const nlohmann::ordered_json>(std::move(body));
      conv.turns.push_back(std::move(t));
    }
    ds.conversations.push_back(std::move(conv));
  }
  count_tokens(**tok, ds, recs);
  return true;
}

}  // namespace

core::Result<artifacts::LoadedRun> load_run(const fs::path& dir) {
  auto run = artifacts::read_run(dir);
  if (!run) return run.error();
  artifacts::RunManifest& m = run->manifest;
  if (!m.complete) {
    // Killed (kill -9, a crash, the machine): what finished is reported as a cancelled run.
    m.context.was_cancelled = true;
    if (m.recount) {
      spdlog::warn(
          "{}: the run did not finish: client token counts are made now from inputs.json with {}; "
          "the phase window is that of the records",
          dir.string(), m.recount->tokenizer_file);
      if (auto r = recount_tokens(dir, *m.recount, run->records); !r) return r.error();
    } else {
      spdlog::warn("{}: the run did not finish: the phase window is that of the records",
                   dir.string());
    }
  }
  return run;
}

int run_analyze(const std::string& artifact_dir) {
  init_console_logging("INFO");
  const fs::path dir = fs::absolute(artifact_dir);
  auto run = load_run(dir);
  if (!run) {
    std::cerr << "error: " << run.error().describe() << "\n";
    return kExitBadConfig;
  }
  artifacts::RunManifest& m = run->manifest;
  if (m.settings.export_level == config::ExportLevel::kRaw) {
    // Request bodies and raw responses are not in the records file.
    spdlog::info("{} is left as the run wrote it", artifacts::kRawExportFileName);
    m.settings.export_level = config::ExportLevel::kRecords;
  }
  spdlog::info("analyze: {} record(s) from {}", run->records.size(),
               (dir / artifacts::kRecordsFileName).string());
  return report_results(run->records, m.settings, m.context);
}

}  // namespace inferperf::app
