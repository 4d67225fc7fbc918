#include "core/error.hpp"

namespace inferperf::core {

std::string excerpt(std::string_view text, std::size_t max_bytes) {
  std::size_t cut = text.size();
  if (cut > max_bytes) {
    cut = max_bytes;
    // Back up over UTF-8 continuation bytes so no character is split.
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  }
  std::string out(text.substr(0, cut));
  for (char& ch : out) {
    const auto u = static_cast<unsigned char>(ch);
    if (u < 0x20 || u == 0x7F) ch = '?';
  }
  if (cut < text.size()) out += "... (" + std::to_string(text.size()) + " bytes)";
  return out;
}

std::string Error::describe() const {
  std::string out;
  if (!file.empty()) {
    out += file;
    if (line > 0) out += ":" + std::to_string(line);
    out += ": ";
  }
  if (!field.empty()) out += "field '" + field + "': ";
  out += message;
  return out;
}

}  // namespace inferperf::core
