#include "core/error.hpp"

namespace inferperf::core {

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
