// File names built from data (model names, export prefixes): always one safe path component.
#pragma once
#include <string>
#include <string_view>

namespace inferperf::core {

// The longest file name most Linux file systems accept, in bytes.
inline constexpr std::size_t kMaxFileNameBytes = 255;

// `name` made into a single path component that stays where it is put: '/', '\', NUL, control
// characters and bytes that are not valid UTF-8 become '_', a leading '.' becomes '_' (so the
// result is never ".", ".." or hidden), and it is cut to `max_bytes` on a character boundary. An
// empty result is "_".
std::string safe_file_name(std::string_view name, std::size_t max_bytes = kMaxFileNameBytes);

// True when `name` contains a NUL or another control character (U+0000-U+001F, U+007F).
bool has_control_chars(std::string_view name);

// Whether a file name has a picture extension a folder source reads (.png .jpg .jpeg, any case):
// the --image-source check (config) and the folder's loader (dataset) agree on one list.
bool has_image_extension(std::string_view file_name);

}  // namespace inferperf::core
