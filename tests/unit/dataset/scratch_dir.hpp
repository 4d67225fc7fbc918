// A per-test scratch folder for dataset files, removed when the test ends.
#pragma once
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace inferperf::dataset {

class ScratchDir {
 public:
  explicit ScratchDir(std::string prefix) : prefix_(std::move(prefix)) {}
  ~ScratchDir() {
    std::error_code ec;
    if (!dir_.empty()) std::filesystem::remove_all(dir_, ec);
  }
  // ctest runs tests in parallel processes: the pid and the test name keep folders apart.
  std::filesystem::path dir() {
    if (dir_.empty()) {
      dir_ = std::filesystem::temp_directory_path() /
             (prefix_ + std::to_string(::getpid()) + "-" +
              ::testing::UnitTest::GetInstance()->current_test_info()->name());
      std::filesystem::create_directories(dir_);
    }
    return dir_;
  }
  // Writes `content` to `name` (sub-folders created) and returns its path.
  std::filesystem::path write(const std::string& content, const std::string& name) {
    const std::filesystem::path p = dir() / name;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << content;
    return p;
  }

 private:
  std::string prefix_;
  std::filesystem::path dir_;
};

}  // namespace inferperf::dataset
