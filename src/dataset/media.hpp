// Media fields of single_turn rows (trace-formats §7): URLs and data: URIs pass through; local
// files are read and base64-encoded into data: URIs (audio: format and data).
#pragma once
#include <filesystem>
#include <optional>

#include "dataset/loader_internal.hpp"

namespace inferperf::dataset {

// Reads image/images, audio/audios, video/videos and image_uuids of one turn object into
// `out.media`. Relative paths are tried as given, then next to the dataset file.
std::optional<core::Error> parse_media(const ojson& j, const LineContext& at,
                                       const std::string& where,
                                       const std::filesystem::path& dataset_dir, Turn& out);

}  // namespace inferperf::dataset
