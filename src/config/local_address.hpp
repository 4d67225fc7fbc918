// --local-address: the source addresses checked before anything runs.
#pragma once
#include <string>
#include <vector>

namespace inferperf::config {

// Every problem with the --local-address list: an entry that is not an IPv4 or IPv6 address (an
// IPv6 one may carry a %scope), the same address twice, an address a socket cannot bind to on
// this host (not configured here), or any address beside `unix_socket` (--unix-socket has no
// source address). Empty: the list is usable.
std::vector<std::string> check_local_addresses(const std::vector<std::string>& addresses,
                                               const std::string& unix_socket = {});

}  // namespace inferperf::config
