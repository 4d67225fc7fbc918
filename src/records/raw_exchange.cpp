#include "records/raw_exchange.hpp"

#include "core/secrets.hpp"

namespace inferperf::records {

HeaderList redacted_request_headers(std::string_view head) {
  HeaderList out;
  if (auto end = head.find("\r\n\r\n"); end != std::string_view::npos) head = head.substr(0, end);
  std::size_t pos = head.find("\r\n");  // skip the request line
  while (pos != std::string_view::npos) {
    pos += 2;
    const std::size_t next = head.find("\r\n", pos);
    std::string_view line =
        head.substr(pos, next == std::string_view::npos ? head.npos : next - pos);
    pos = next;
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos || colon == 0) continue;
    std::string_view name = line.substr(0, colon);
    std::string_view value = line.substr(colon + 1);
    while (!value.empty() && (value.front() == ' ' || value.front() == '\t'))
      value.remove_prefix(1);
    while (!value.empty() && (value.back() == ' ' || value.back() == '\t')) value.remove_suffix(1);
    out.emplace_back(name, core::redact_value(name, value));
  }
  return out;
}

}  // namespace inferperf::records
