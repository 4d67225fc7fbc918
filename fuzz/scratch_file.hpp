// Loaders that take a path get the fuzz input through a file in a private scratch folder, made
// once per process under $TMPDIR and removed at exit.
#pragma once
#include <filesystem>
#include <string_view>

namespace inferperf::fuzz {

// Writes `content` to `name` in the scratch folder (replacing it) and returns its path.
std::filesystem::path write_scratch_file(std::string_view name, std::string_view content);

}  // namespace inferperf::fuzz
