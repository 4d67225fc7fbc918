// Shared helpers for the tokenizer tests: temporary folders, small files and the real tokenizers
// that scripts/fetch-tokenizers.sh installs under .cache/tokenizers.
#pragma once
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <string_view>

#include "tokenizer/hf_tokenizer.hpp"

namespace inferperf::tokenizer::testing {

inline const std::filesystem::path kSourceDir = INFERPERF_SOURCE_DIR;

inline std::filesystem::path real_tokenizer_path(const std::string& name) {
  return kSourceDir / ".cache/tokenizers" / name / "tokenizer.json";
}

inline std::filesystem::path wordpiece_mini_path() {
  return kSourceDir / "tests/data/tokenizer/wordpiece-mini/tokenizer.json";
}

// A fresh folder under the system temp directory, removed with everything in it on destruction.
class TempDir {
 public:
  TempDir() {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "inferperf-test-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) {
      ADD_FAILURE() << "mkdtemp failed for " << pattern;
    }
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::filesystem::path& rel) const { return path_ / rel; }

 private:
  std::filesystem::path path_;
};

// Writes `content` to `file`, creating the parent folders.
inline void write_file(const std::filesystem::path& file, std::string_view content) {
  std::filesystem::create_directories(file.parent_path());
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out.write(content.data(), static_cast<std::streamsize>(content.size()));
  ASSERT_TRUE(out.good()) << "cannot write " << file;
}

inline std::string read_file(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Loads one of the real tokenizers; `out` stays null (with a test failure naming the fix) when the
// file is missing or does not load.
inline void load_real_tokenizer(const std::string& name, std::unique_ptr<HfTokenizer>& out) {
  const auto path = real_tokenizer_path(name);
  ASSERT_TRUE(std::filesystem::exists(path))
      << path << " is missing: run scripts/fetch-tokenizers.sh";
  auto tok = HfTokenizer::load(path);
  ASSERT_TRUE(tok.ok()) << tok.error().describe();
  out = std::move(*tok);
}

}  // namespace inferperf::tokenizer::testing
