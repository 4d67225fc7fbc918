// Byte sizes as people write them on a command line ("512M", "8GiB", "1048576") and as messages
// show them ("12.0 GiB"). Suffixes are binary (K = 1024), as memory limits are.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace inferperf::core {

// A whole number of bytes with an optional K, M, G or T suffix (also KB/KiB, ...; any case).
// nullopt for anything else: a fraction, a sign, an empty text, or a value above 2^63.
std::optional<std::uint64_t> parse_byte_size(std::string_view text);

// `bytes` in the largest binary unit that keeps it at or above 1: "512 B", "1.5 KiB", "12.0 GiB".
std::string format_byte_size(std::uint64_t bytes);

// The machine's physical memory in bytes (sysconf); 0 when it cannot be told.
std::uint64_t physical_memory_bytes();

}  // namespace inferperf::core
