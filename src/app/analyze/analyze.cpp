#include "app/analyze/analyze.hpp"

#include <spdlog/spdlog.h>

#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>

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
// The sessions of inputs.json (each turn's body verbatim, under the run's context mode), for
// counting the client tokens of a run killed before it counted them.
core::Result<dataset::Dataset> recount_dataset(const fs::path& dir,
                                               const artifacts::TokenRecount& recount) {
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
  return ds;
}

// A run killed before it counted its client tokens: counted now with the run's tokenizer.
// Synthesized prompts, whose counts the run knew by construction, are tokenized from their text.
core::Result<bool> recount_tokens(const fs::path& dir, const artifacts::TokenRecount& recount,
                                  std::vector<records::RequestRecord>& recs) {
  auto tok = tokenizer::load_tokenizer_file(recount.tokenizer_file);
  if (!tok) return tok.error();
  auto ds = recount_dataset(dir, recount);
  if (!ds) return ds.error();
  count_tokens(**tok, *ds, recs);
  return true;
}

// Marks a run that did not finish as cancelled and says what its analysis does about it.
void note_unfinished(const fs::path& dir, artifacts::RunManifest& m) {
  if (m.complete) return;
  // Killed (kill -9, a crash, the machine): what finished is reported as a cancelled run.
  m.context.was_cancelled = true;
  if (m.recount) {
    spdlog::warn(
        "{}: the run did not finish: client token counts are made now from inputs.json with {}; "
        "the phase window is that of the records",
        dir.string(), m.recount->tokenizer_file);
  } else {
    spdlog::warn("{}: the run did not finish: the phase window is that of the records",
                 dir.string());
  }
}

}  // namespace

core::Result<artifacts::LoadedRun> load_run(const fs::path& dir) {
  auto run = artifacts::read_run(dir);
  if (!run) return run.error();
  artifacts::RunManifest& m = run->manifest;
  note_unfinished(dir, m);
  if (!m.complete && m.recount) {
    if (auto r = recount_tokens(dir, *m.recount, run->records); !r) return r.error();
  }
  return run;
}

int run_analyze(const std::string& artifact_dir) {
  init_console_logging("INFO");
  const fs::path dir = fs::absolute(artifact_dir);
  // One pass over the records file: memory stays flat whatever the run's length.
  auto manifest = artifacts::read_manifest(dir);
  if (!manifest) {
    std::cerr << "error: " << manifest.error().describe() << "\n";
    return kExitBadConfig;
  }
  artifacts::RunManifest& m = *manifest;
  note_unfinished(dir, m);
  std::unique_ptr<tokenizer::Tokenizer> tok;
  dataset::Dataset ds;
  std::optional<ClientTokenCounter> counter;
  if (!m.complete && m.recount) {
    auto loaded = tokenizer::load_tokenizer_file(m.recount->tokenizer_file);
    auto sessions =
        loaded ? recount_dataset(dir, *m.recount) : core::Result<dataset::Dataset>(loaded.error());
    if (!sessions) {
      std::cerr << "error: " << sessions.error().describe() << "\n";
      return kExitBadConfig;
    }
    tok = std::move(*loaded);
    ds = std::move(*sessions);
    counter.emplace(*tok, ds);
  }
  if (m.settings.export_level == config::ExportLevel::kRaw) {
    // Request bodies and raw responses are not in the records file.
    spdlog::info("{} is left as the run wrote it", artifacts::kRawExportFileName);
    m.settings.export_level = config::ExportLevel::kRecords;
  }
  const fs::path file = dir / artifacts::kRecordsFileName;
  ReportPass pass(m.settings, m.context);
  auto n = artifacts::for_each_record_read_ahead(file, [&](records::RequestRecord& r) {
    if (counter) counter->count_in_order(r);
    pass.add(r);
  });
  if (!n) {
    std::cerr << "error: " << n.error().describe() << "\n";
    return kExitBadConfig;
  }
  spdlog::info("analyze: {} record(s) from {}", *n, file.string());
  return pass.finish();
}

}  // namespace inferperf::app
