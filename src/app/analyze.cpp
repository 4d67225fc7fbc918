#include "app/analyze.hpp"

#include <spdlog/spdlog.h>

#include <filesystem>
#include <fstream>
#include <iostream>

#include "app/logging.hpp"
#include "app/run_manifest.hpp"
#include "records/record_jsonl.hpp"

namespace inferperf::app {

namespace fs = std::filesystem;

int run_analyze(const std::string& artifact_dir) {
  init_console_logging("INFO");
  const fs::path dir = fs::absolute(artifact_dir);
  auto manifest = read_manifest(dir);
  if (!manifest) {
    std::cerr << "error: " << manifest.error().describe() << "\n";
    return 2;
  }
  const fs::path file = dir / records::kRecordsFileName;
  std::ifstream in(file);
  if (!in) {
    std::cerr << "error: " << file.string() << ": cannot read the records file\n";
    return 2;
  }
  std::vector<records::RequestRecord> recs;
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
      std::cerr << "error: " << file.string() << ":" << line_no << ": " << r.error().message
                << "\n";
      return 2;
    }
    recs.push_back(std::move(*r));
  }
  if (!manifest->complete) {
    spdlog::warn(
        "the run did not finish: its records carry no client tokenizer counts (token metrics "
        "need --use-server-token-count data) and the phase window is unknown");
  }
  if (manifest->settings.export_level == config::ExportLevel::kRaw) {
    // Request bodies and raw responses are not in the records file.
    spdlog::info("profile_export_raw.jsonl is left as the run wrote it");
    manifest->settings.export_level = config::ExportLevel::kRecords;
  }
  spdlog::info("analyze: {} record(s) from {}", recs.size(), file.string());
  return report_results(recs, manifest->settings, manifest->context);
}

}  // namespace inferperf::app
