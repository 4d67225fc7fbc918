// Fault injection: X-Mock-Fault (or a kind drawn with --fault-rate) parsed into a Fault, and the
// faults that act before any work (--error-rate, status, reset, close, slow-headers). The faults
// that act inside an answer (malformed, truncate, truncate-reset, error-event, stall, big-event,
// video-fail) are applied where the answer is written; close-after is left for the connection loop.
#pragma once
#include <boost/asio/awaitable.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "connection.hpp"

namespace inferperf::mock::detail {

struct Fault {
  std::string kind;  // "" = none
  int status = 0;
  int delay_ms = 1000;
  bool has_value = false;  // "kind=N" rather than "kind"
  // big-event[=bytes]: the size of the token that replaces the first one (1 MiB by default).
  std::size_t big_bytes = std::size_t{1} << 20;
};

// "kind" or "kind=N"; an unusable value makes the kind "invalid".
Fault parse_fault(std::string_view spec);

// The request's fault: its X-Mock-Fault header, else one drawn with --fault-rate; none for
// inferperf's preflight. Records close-after[=N] in the exchange.
Fault request_fault(Exchange& x);

// --error-rate and the faults that come before any work (status, reset, close, slow-headers).
// nullopt: go on; else the request has been answered and the value says whether to keep the
// connection. `on_reject` (when set) runs for requests turned away.
boost::asio::awaitable<std::optional<bool>> fault_gate(Exchange& x, const Fault& fault,
                                                       Clock::time_point start,
                                                       const std::function<void()>& on_reject);
// The same without a callback. No defaulted std::function temporary inside a co_await expression:
// GCC 12 may destroy such a temporary twice.
boost::asio::awaitable<std::optional<bool>> fault_gate(Exchange& x, const Fault& fault,
                                                       Clock::time_point start);

// Counts an injected error and answers `status` with the JSON `body`.
boost::asio::awaitable<bool> fail_status(Exchange& x, int status, std::string body);

}  // namespace inferperf::mock::detail
