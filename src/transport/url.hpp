// Base URL parsing: scheme, host, port and base path of the server under test.
#pragma once
#include <cstdint>
#include <string>

#include "core/error.hpp"

namespace inferperf::transport {

struct BaseUrl {
  std::string scheme = "http";
  std::string host;
  std::uint16_t port = 80;
  std::string base_path;  // without trailing '/', may be empty
  std::string query;      // without '?', may be empty

  std::string host_header() const;
  std::string to_string() const;
};

// "localhost:8000", "http://h:1/v1", "[::1]:8000". No scheme means http://.
core::Result<BaseUrl> parse_base_url(const std::string& text);

}  // namespace inferperf::transport
