// The names of the files in the artifact folder: the export prefix (checked, reduced to a file
// name, never able to name a file outside the folder) and the check that the folder can be written
// before anything is sent.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "artifacts/artifact_folder.hpp"
#include "artifacts/export_names.hpp"

namespace inferperf::artifacts {
namespace {

namespace fs = std::filesystem;

TEST(ExportNames, DefaultsAndPrefixWithItsSuffixStrippedOnce) {
  const ExportNames d = export_names("");
  EXPECT_EQ(d.summary_json, "profile_export_aiperf.json");
  EXPECT_EQ(d.records_jsonl, "profile_export.jsonl");
  EXPECT_EQ(d.timeslices_csv, "profile_export_aiperf_timeslices.csv");
  for (const char* given : {"run1", "run1.json", "run1.csv", "run1_raw.jsonl",
                            "run1_timeslices.json", "run1_server_metrics.parquet"}) {
    const ExportNames n = export_names(given);
    EXPECT_EQ(n.summary_json, "run1.json") << given;
    EXPECT_EQ(n.summary_csv, "run1.csv") << given;
    EXPECT_EQ(n.records_jsonl, "run1.jsonl") << given;
    EXPECT_EQ(n.raw_jsonl, "run1_raw.jsonl") << given;
    EXPECT_EQ(n.timeslices_csv, "run1_timeslices.csv") << given;
    EXPECT_EQ(n.timeslices_json, "run1_timeslices.json") << given;
  }
  EXPECT_EQ(export_names("a.json.json").summary_json, "a.json.json") << "stripped once";
}

TEST(ExportPrefix, AFileNameIsUsedAsGiven) {
  std::string prefix = "my_run.json", warning;
  EXPECT_EQ(check_export_prefix(prefix, warning), "");
  EXPECT_EQ(prefix, "my_run.json");
  EXPECT_EQ(warning, "");
  EXPECT_EQ(export_names(prefix).summary_json, "my_run.json");
  EXPECT_EQ(export_names(prefix).raw_jsonl, "my_run_raw.jsonl");
  prefix.clear();
  EXPECT_EQ(check_export_prefix(prefix, warning), "");
}

TEST(ExportPrefix, FoldersAreDroppedWithAWarning) {
  for (const std::string given : {"../../outside/run", "/tmp/run", "sub/run", "./run"}) {
    std::string prefix = given, warning;
    EXPECT_EQ(check_export_prefix(prefix, warning), "") << given;
    EXPECT_EQ(prefix, "run") << given;
    EXPECT_NE(warning.find("always written inside the artifact folder; using 'run'"),
              std::string::npos)
        << warning;
  }
}

TEST(ExportPrefix, UnusableNamesAreErrors) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"..", "is not a file name"},
      {"a/..", "is not a file name"},
      {"dir/", "is not a file name"},
      {".", "is not a file name"},
      {std::string("a\nb"), "control character"},
      {std::string("a\0b", 3), "control character"},
      {std::string(250, 'x'), "too long for a file name"},
      {"inputs", "would overwrite the run's own inputs.json"},
      {"inferperf_records.jsonl", "would overwrite the run's own inferperf_records.jsonl"},
      {"inferperf_run", "would overwrite the run's own inferperf_run.json"},
  };
  for (const auto& [given, message] : cases) {
    std::string prefix = given, warning;
    const std::string e = check_export_prefix(prefix, warning);
    EXPECT_NE(e.find(message), std::string::npos) << "'" << given << "': " << e;
    EXPECT_TRUE(e.starts_with("--profile-export-prefix")) << e;
  }
}

TEST(ExportPrefix, ExportNamesNeverLeaveTheFolder) {
  // A manifest read by `inferperf analyze` carries the prefix too: export_names() alone is safe.
  for (const std::string given : {"../../x", "/etc/passwd", "..", "a/b/../c"}) {
    const ExportNames n = export_names(given);
    for (const std::string* f : {&n.summary_json, &n.summary_csv, &n.records_jsonl, &n.raw_jsonl,
                                 &n.timeslices_csv, &n.server_metrics_jsonl}) {
      EXPECT_EQ(f->find('/'), std::string::npos) << given << " -> " << *f;
      EXPECT_NE(*f, "..");
    }
  }
  EXPECT_EQ(export_names("..").summary_json, "profile_export_aiperf.json");  // the defaults
  EXPECT_EQ(export_names("../../x.csv").summary_json, "x.json");
}

class ArtifactFolder : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() /
            ("ip-artifact-check-" + std::to_string(::getpid()) + "-" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::permissions(root_, fs::perms::owner_all, fs::perm_options::add, ec);
    fs::remove_all(root_, ec);
  }
  // The folder holds exactly what it held before the check.
  std::size_t entries() const {
    return static_cast<std::size_t>(std::distance(fs::directory_iterator(root_), {}));
  }
  fs::path root_;
  ExportNames names_;
};

TEST_F(ArtifactFolder, NewOrExistingFoldersAreFine) {
  EXPECT_EQ(check_artifact_folder(root_, names_), "");
  EXPECT_EQ(check_artifact_folder(root_ / "a" / "b" / "c", names_), "");
  EXPECT_EQ(entries(), 0u);  // the probe leaves nothing, and nothing was created
  fs::create_directories(root_ / "run" / "logs");
  std::ofstream(root_ / "run" / "profile_export_aiperf.json") << "{}";  // an earlier run
  EXPECT_EQ(check_artifact_folder(root_ / "run", names_), "");
  EXPECT_EQ(entries(), 1u);
}

TEST_F(ArtifactFolder, AFileInThePathIsAnError) {
  std::ofstream(root_ / "file") << "x";
  std::string e = check_artifact_folder(root_ / "file", names_);
  EXPECT_NE(e.find("is a file, not a folder"), std::string::npos) << e;
  e = check_artifact_folder(root_ / "file" / "sub" / "dir", names_);
  EXPECT_NE(e.find((root_ / "file").string() + " is a file, not a folder"), std::string::npos) << e;
}

TEST_F(ArtifactFolder, UnwritablePlacesAreErrors) {
  std::string e = check_artifact_folder("/proc/inferperf-artifacts", names_);
  EXPECT_NE(e.find("cannot create files in /proc"), std::string::npos) << e;
  if (::geteuid() == 0) GTEST_SKIP() << "root writes through permission bits";
  fs::create_directories(root_ / "ro");
  fs::permissions(root_ / "ro", fs::perms::owner_read | fs::perms::owner_exec);
  e = check_artifact_folder(root_ / "ro" / "run", names_);
  EXPECT_NE(e.find("cannot create files in " + (root_ / "ro").string()), std::string::npos) << e;
  e = check_artifact_folder(root_ / "ro", names_);
  EXPECT_NE(e.find("Permission denied"), std::string::npos) << e;
}

TEST_F(ArtifactFolder, ExportNamesTakenByFoldersAreErrors) {
  fs::create_directories(root_ / "profile_export_aiperf.json");
  std::string e = check_artifact_folder(root_, names_);
  EXPECT_NE(e.find("profile_export_aiperf.json is a folder"), std::string::npos) << e;
  fs::remove(root_ / "profile_export_aiperf.json");
  fs::create_directories(root_ / "inputs.json");
  e = check_artifact_folder(root_, names_);
  EXPECT_NE(e.find("inputs.json is a folder"), std::string::npos) << e;
  fs::remove(root_ / "inputs.json");
  std::ofstream(root_ / "logs") << "x";
  e = check_artifact_folder(root_, names_);
  EXPECT_NE(e.find("logs is a file, not the logs folder"), std::string::npos) << e;
}

}  // namespace
}  // namespace inferperf::artifacts
