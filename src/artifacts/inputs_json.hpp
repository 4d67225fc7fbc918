// inputs.json (docs/architecture.md, Analysis and exports): every conversation's request bodies, as
// the run sends them. Written streamed, one conversation at a time, so a trace whose prompts would
// not fit in memory together is still written in full; read back by `analyze` to count the tokens
// of a run killed before it counted them.
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/error.hpp"

namespace inferperf::artifacts {

// One conversation of inputs.json.
struct InputsEntry {
  std::string session_id;
  nlohmann::ordered_json payloads = nlohmann::ordered_json::array();  // one body per turn
};

struct InputsJsonStats {
  std::size_t conversations = 0;
  std::size_t payloads = 0;
  std::size_t bytes = 0;
};

// How write_inputs_json goes about it.
struct InputsJsonWrite {
  // The temporary file was made by reserve_inputs_json: it is written over from its start and cut
  // to what was written.
  bool reserved = false;
  // Once set, the writer stops between entries, removes the temporary file and fails ("not
  // finished").
  const std::atomic<bool>* cancel = nullptr;
};

// Writes `conversations` entries, asking `entry(i)` for each in order, through a temporary file
// renamed into place (no half-written inputs.json is ever left under its name).
core::Result<InputsJsonStats> write_inputs_json(
    const std::filesystem::path& path, std::size_t conversations,
    const std::function<InputsEntry(std::size_t)>& entry, const InputsJsonWrite& how = {});

// How reserve_inputs_json's error for a disk without the room begins.
inline constexpr const char* kInputsNoRoom = "no room: ";

// The disk space for inputs.json at `path`, taken before anything else can take it: its temporary
// file made `bytes` long (fallocate). False when the file system cannot reserve space (nothing is
// left behind then); an error when the space is not there (kInputsNoRoom...) or the file cannot be
// made ("cannot be written", as write_inputs_json says it).
core::Result<bool> reserve_inputs_json(const std::filesystem::path& path, std::uint64_t bytes);

// The bytes free to this user on the file system that holds `dir` (statvfs; nullopt when it
// cannot be told).
std::optional<std::uint64_t> free_bytes_at(const std::filesystem::path& dir);

// Every entry of dir/inputs.json.
core::Result<std::vector<InputsEntry>> read_inputs_json(const std::filesystem::path& dir);

}  // namespace inferperf::artifacts
