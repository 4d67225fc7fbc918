#include "app/analyze.hpp"

#include <spdlog/spdlog.h>

#include <filesystem>
#include <fstream>
#include <iostream>

#include "app/logging.hpp"
#include "app/run_manifest.hpp"
#include "app/tokenizer_setup.hpp"
#include "records/record_jsonl.hpp"
#include "records/record_line.hpp"
#include "report/exporters.hpp"
#include "tokenizer/resolve.hpp"

namespace inferperf::app {

namespace fs = std::filesystem;

namespace {

// A run killed before it counted its client tokens: the sessions are rebuilt from inputs.json
// (each turn's body verbatim, under the run's context mode) and counted with the run's tokenizer.
// Synthesized prompts, whose counts the run knew by construction, are tokenized from their text.
core::Result<bool> recount_tokens(const fs::path& dir, const TokenRecount& recount,
                                  std::vector<records::RequestRecord>& recs) {
  auto tok = tokenizer::load_tokenizer_file(recount.tokenizer_file);
  if (!tok) return tok.error();
  const fs::path inputs = dir / "inputs.json";
  std::ifstream in(inputs);
  if (!in) return core::Error{core::ErrorKind::kIo, "cannot be read", inputs.string()};
  const auto doc = nlohmann::ordered_json::parse(in, nullptr, false);
  if (doc.is_discarded() || !doc.contains("data") || !doc["data"].is_array())
    return core::Error{core::ErrorKind::kInput, "not an inputs.json document", inputs.string()};
  const auto mode =
      context_mode_of(recount.context_mode).value_or(dataset::ContextMode::kDeltasWithoutResponses);
  dataset::Dataset ds;
  for (const auto& entry : doc["data"]) {
    dataset::Conversation conv;
    conv.session_id = entry.value("session_id", "");
    conv.context_mode = mode;
    if (auto p = entry.find("payloads"); p != entry.end() && p->is_array()) {
      for (const auto& body : *p) {
        dataset::Turn t;
        t.payload = std::make_shared<const nlohmann::ordered_json>(body);
        conv.turns.push_back(std::move(t));
      }
    }
    ds.conversations.push_back(std::move(conv));
  }
  count_tokens(**tok, ds, recs);
  return true;
}

}  // namespace

core::Result<LoadedRun> load_run(const fs::path& dir) {
  auto manifest = read_manifest(dir);
  if (!manifest) return manifest.error();
  const fs::path file = dir / records::kRecordsFileName;
  std::ifstream in(file);
  if (!in) return core::Error{core::ErrorKind::kIo, "cannot read the records file", file.string()};
  LoadedRun run{std::move(*manifest), {}};
  std::string line;
  int line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.empty()) continue;
    auto j = nlohmann::json::parse(line, nullptr, false);
    auto r = j.is_discarded() ? core::Result<records::RequestRecord>(
                                    core::Error{core::ErrorKind::kInput, "not valid JSON"})
                              : records::record_from_json(j);
    if (!r) {
      // A run killed mid-write leaves a partial last line; anything else is a damaged file.
      if (in.peek() == std::char_traits<char>::eof()) {
        spdlog::warn("{}:{}: incomplete last record skipped", file.string(), line_no);
        break;
      }
      core::Error e = r.error();
      e.file = file.string();
      e.line = line_no;
      return e;
    }
    run.records.push_back(std::move(*r));
  }
  RunManifest& m = run.manifest;
  if (!m.complete) {
    // Killed (kill -9, a crash, the machine): what finished is reported as a cancelled run.
    m.context.was_cancelled = true;
    if (m.recount) {
      spdlog::warn(
          "{}: the run did not finish: client token counts are made now from inputs.json with {}; "
          "the phase window is that of the records",
          dir.string(), m.recount->tokenizer_file);
      if (auto r = recount_tokens(dir, *m.recount, run.records); !r) return r.error();
    } else {
      spdlog::warn("{}: the run did not finish: the phase window is that of the records",
                   dir.string());
    }
  }
  return run;
}

core::Result<bool> save_records(const fs::path& file,
                                const std::vector<records::RequestRecord>& recs,
                                const core::WallAnchor& anchor) {
  return report::write_atomically(file, [&](std::ostream& out) {
    std::string line;
    for (const auto& r : recs) {
      line.clear();
      records::append_record_line(r, anchor, line);
      line += '\n';
      out.write(line.data(), static_cast<std::streamsize>(line.size()));
    }
  });
}

int run_analyze(const std::string& artifact_dir) {
  init_console_logging("INFO");
  const fs::path dir = fs::absolute(artifact_dir);
  auto run = load_run(dir);
  if (!run) {
    std::cerr << "error: " << run.error().describe() << "\n";
    return 2;
  }
  RunManifest& m = run->manifest;
  if (m.settings.export_level == config::ExportLevel::kRaw) {
    // Request bodies and raw responses are not in the records file.
    spdlog::info("profile_export_raw.jsonl is left as the run wrote it");
    m.settings.export_level = config::ExportLevel::kRecords;
  }
  spdlog::info("analyze: {} record(s) from {}", run->records.size(),
               (dir / records::kRecordsFileName).string());
  return report_results(run->records, m.settings, m.context);
}

}  // namespace inferperf::app
