#include "artifacts/artifact_folder.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "artifacts/run_folder.hpp"

namespace inferperf::artifacts {

namespace fs = std::filesystem;

namespace {

// Creates and removes an empty folder in `dir`: the one test of "can files be made here" that
// permissions, ACLs, read-only mounts, pseudo file systems and root all answer truthfully.
std::string probe_writable(const fs::path& dir) {
  std::string templ = (dir / ".inferperf-write-test-XXXXXX").string();
  if (::mkdtemp(templ.data()) == nullptr) return std::strerror(errno);
  ::rmdir(templ.c_str());
  return "";
}

}  // namespace

std::string check_artifact_folder(const fs::path& given, const ExportNames& names) {
  std::error_code ec;
  const fs::path dir = fs::absolute(given, ec).lexically_normal();
  if (ec) return "artifact folder " + given.string() + ": " + ec.message();
  const std::string where = "artifact folder " + given.string();
  // The folder itself, or the nearest part of its path that exists.
  fs::path existing = dir;
  while (!fs::exists(fs::symlink_status(existing, ec)) && existing.has_relative_path()) {
    existing = existing.parent_path();
  }
  if (!fs::is_directory(existing, ec)) {
    return where + ": " + existing.string() + " is " +
           (fs::exists(existing, ec) ? "a file, not a folder" : "a broken link");
  }
  if (const std::string problem = probe_writable(existing); !problem.empty()) {
    return where + ": cannot create files in " + existing.string() + " (" + problem + ")";
  }
  if (existing != dir) return "";
  // An earlier run's folder: every name this run writes must be free for a file.
  for (const std::string* f : {&names.summary_json, &names.summary_csv, &names.records_jsonl,
                               &names.raw_jsonl, &names.timeslices_csv, &names.timeslices_json}) {
    if (fs::is_directory(dir / *f, ec))
      return where + ": " + (dir / *f).string() + " is a folder; the export file cannot be written";
  }
  for (const char* f : {kInputsFileName, kRecordsFileName, kManifestFileName}) {
    if (fs::is_directory(dir / f, ec))
      return where + ": " + (dir / f).string() + " is a folder; the run's file cannot be written";
  }
  const fs::path logs = dir / kLogsFolderName;
  if (fs::exists(logs, ec) && !fs::is_directory(logs, ec))
    return where + ": " + logs.string() + " is a file, not the logs folder";
  if (fs::is_directory(logs, ec)) {
    if (const std::string problem = probe_writable(logs); !problem.empty())
      return where + ": cannot create files in " + logs.string() + " (" + problem + ")";
  }
  return "";
}

}  // namespace inferperf::artifacts
