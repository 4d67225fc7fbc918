#include "artifacts/run_records.hpp"

#include <spdlog/spdlog.h>

#include <fstream>
#include <string>

#include "artifacts/run_folder.hpp"
#include "records/record_jsonl.hpp"
#include "records/record_line.hpp"
#include "report/exporters.hpp"

namespace inferperf::artifacts {

namespace fs = std::filesystem;

core::Result<LoadedRun> read_run(const fs::path& dir) {
  auto manifest = read_manifest(dir);
  if (!manifest) return manifest.error();
  const fs::path file = dir / kRecordsFileName;
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

}  // namespace inferperf::artifacts
