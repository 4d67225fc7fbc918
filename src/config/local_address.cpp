#include "config/local_address.hpp"

#include <arpa/inet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <set>

namespace inferperf::config {

namespace {

// The address in binary (family byte + 16 bytes, + the scope for IPv6), or empty when `text` is
// not one. The binary form makes "::1" and "0::1" the same address.
std::string binary_address(const std::string& text) {
  std::array<unsigned char, 16> buf{};
  if (inet_pton(AF_INET, text.c_str(), buf.data()) == 1)
    return "4" + std::string(reinterpret_cast<const char*>(buf.data()), 4);
  const auto pct = text.find('%');
  const std::string host = text.substr(0, pct);
  if (pct != std::string::npos && pct + 1 == text.size()) return {};  // "fe80::1%"
  if (inet_pton(AF_INET6, host.c_str(), buf.data()) != 1) return {};
  std::string out = "6" + std::string(reinterpret_cast<const char*>(buf.data()), 16);
  if (pct != std::string::npos) out += text.substr(pct);
  return out;
}

// Empty when a TCP socket can bind to `text` on this host, else why not (the address is not
// configured here, say). With IP_BIND_ADDRESS_NO_PORT the probe takes no port.
std::string bind_problem(const std::string& text, bool v4) {
  const int fd = ::socket(v4 ? AF_INET : AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return {};  // no socket at all: the run will say so
  const int one = 1;
  ::setsockopt(fd, IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &one, sizeof one);
  int rc = 0;
  if (v4) {
    sockaddr_in sa{};
    sa.sin_family = AF_INET;
    ::inet_pton(AF_INET, text.c_str(), &sa.sin_addr);
    rc = ::bind(fd, reinterpret_cast<const sockaddr*>(&sa), sizeof sa);
  } else {
    const auto pct = text.find('%');
    sockaddr_in6 sa{};
    sa.sin6_family = AF_INET6;
    ::inet_pton(AF_INET6, text.substr(0, pct).c_str(), &sa.sin6_addr);
    if (pct != std::string::npos) sa.sin6_scope_id = ::if_nametoindex(text.c_str() + pct + 1);
    rc = ::bind(fd, reinterpret_cast<const sockaddr*>(&sa), sizeof sa);
  }
  const int err = errno;
  ::close(fd);
  return rc == 0 ? std::string() : std::strerror(err);
}

}  // namespace

std::vector<std::string> check_local_addresses(const std::vector<std::string>& addresses,
                                               const std::string& unix_socket) {
  std::vector<std::string> errors;
  if (addresses.empty()) return errors;
  if (!unix_socket.empty()) {
    errors.push_back(
        "--local-address cannot be combined with --unix-socket (a Unix socket has no source IP "
        "address)");
  }
  std::set<std::string> seen;
  for (const auto& a : addresses) {
    const std::string bin = binary_address(a);
    if (bin.empty()) {
      errors.push_back("--local-address " + a + ": not an IPv4 or IPv6 address");
    } else if (!seen.insert(bin).second) {
      errors.push_back("--local-address " + a + ": given twice");
    } else if (const std::string why = bind_problem(a, bin[0] == '4'); !why.empty()) {
      errors.push_back("--local-address " + a + ": cannot bind to it on this host: " + why);
    }
  }
  return errors;
}

}  // namespace inferperf::config
