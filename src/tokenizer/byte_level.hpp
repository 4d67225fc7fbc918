// GPT-2's reversible byte <-> printable code point mapping used by byte-level BPE.
#pragma once
#include <array>
#include <string>
#include <string_view>

namespace inferperf::tokenizer {

// UTF-8 encoding of the code point that stands for each byte.
const std::array<std::string, 256>& byte_to_unicode();
// Maps every byte of `text` to its stand-in code point.
std::string bytes_to_byte_level(std::string_view text);
// Inverse: each code point of `text` back to its byte; code points outside the table are kept as
// their UTF-8 bytes.
std::string byte_level_to_bytes(std::string_view text);

}  // namespace inferperf::tokenizer
