#include "transport/url.hpp"

#include <charconv>

#include "core/secrets.hpp"

namespace inferperf::transport {

std::string BaseUrl::host_header() const {
  std::string h = host.find(':') != std::string::npos ? "[" + host + "]" : host;
  bool default_port = (scheme == "http" && port == 80) || (scheme == "https" && port == 443);
  if (!default_port) h += ":" + std::to_string(port);
  return h;
}

std::string BaseUrl::to_string() const {
  return scheme + "://" + host_header() + base_path + (query.empty() ? "" : "?" + query);
}

core::Result<BaseUrl> parse_base_url(const std::string& text) {
  auto fail = [&](const std::string& why) {
    return core::Error{core::ErrorKind::kConfig,
                       "invalid --url '" + core::redact_urls(text) + "': " + why, "", 0, "url"};
  };
  BaseUrl u;
  std::string rest = text;
  if (auto p = rest.find("://"); p != std::string::npos) {
    u.scheme = rest.substr(0, p);
    rest = rest.substr(p + 3);
  }
  for (auto& c : u.scheme) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (u.scheme != "http" && u.scheme != "https") return fail("unknown scheme '" + u.scheme + "'");
  u.port = u.scheme == "https" ? 443 : 80;
  if (auto q = rest.find('?'); q != std::string::npos) {
    u.query = rest.substr(q + 1);
    rest = rest.substr(0, q);
  }
  std::string authority = rest;
  if (auto slash = rest.find('/'); slash != std::string::npos) {
    authority = rest.substr(0, slash);
    u.base_path = rest.substr(slash);
    while (!u.base_path.empty() && u.base_path.back() == '/') u.base_path.pop_back();
  }
  if (authority.find('@') != std::string::npos) {
    return core::Error{core::ErrorKind::kConfig,
                       "invalid --url: credentials in the URL (user:password@) are not supported",
                       "", 0, "url"};
  }
  std::string port_text;
  if (!authority.empty() && authority.front() == '[') {
    auto close = authority.find(']');
    if (close == std::string::npos) return fail("unterminated IPv6 address");
    u.host = authority.substr(1, close - 1);
    if (close + 1 < authority.size()) {
      if (authority[close + 1] != ':') return fail("unexpected text after IPv6 address");
      port_text = authority.substr(close + 2);
    }
  } else if (auto colon = authority.rfind(':'); colon != std::string::npos) {
    u.host = authority.substr(0, colon);
    port_text = authority.substr(colon + 1);
  } else {
    u.host = authority;
  }
  if (u.host.empty()) return fail("missing host");
  if (!port_text.empty()) {
    unsigned v = 0;
    auto [ptr, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), v);
    if (ec != std::errc() || ptr != port_text.data() + port_text.size() || v == 0 || v > 65535) {
      return fail("invalid port '" + port_text + "'");
    }
    u.port = static_cast<std::uint16_t>(v);
  }
  return u;
}

}  // namespace inferperf::transport
