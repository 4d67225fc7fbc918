#include "scratch_file.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <system_error>

#include "fuzz_input.hpp"

namespace inferperf::fuzz {

namespace {

class ScratchDir {
 public:
  ScratchDir() {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/inferperf-fuzz-XXXXXX";
    if (mkdtemp(pattern.data()) == nullptr) fail("mkdtemp", __FILE__, __LINE__);
    path_ = pattern;
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace

std::filesystem::path write_scratch_file(std::string_view name, std::string_view content) {
  static const ScratchDir dir;
  std::filesystem::path path = dir.path() / name;
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) fail("cannot create the scratch file", __FILE__, __LINE__);
  const bool written = std::fwrite(content.data(), 1, content.size(), f) == content.size();
  if (std::fclose(f) != 0 || !written) fail("cannot write the scratch file", __FILE__, __LINE__);
  return path;
}

}  // namespace inferperf::fuzz
