// inputs.json (docs/architecture.md, Analysis and exports): every conversation's request bodies, as
// the run sends them. Written streamed, one conversation at a time, so a trace whose prompts would
// not fit in memory together is still written in full; read back by `analyze` to count the tokens
// of a run killed before it counted them.
#pragma once
#include <cstddef>
#include <filesystem>
#include <functional>
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

// Writes `conversations` entries, asking `entry(i)` for each in order, through a temporary file
// renamed into place (no half-written inputs.json is ever left under its name).
core::Result<InputsJsonStats> write_inputs_json(
    const std::filesystem::path& path, std::size_t conversations,
    const std::function<InputsEntry(std::size_t)>& entry);

// Every entry of dir/inputs.json.
core::Result<std::vector<InputsEntry>> read_inputs_json(const std::filesystem::path& dir);

}  // namespace inferperf::artifacts
