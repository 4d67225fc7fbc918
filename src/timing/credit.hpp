// A credit is the permission to send exactly one request (one turn of one session).
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "core/clock.hpp"
#include "records/phase.hpp"

namespace inferperf::timing {

struct Credit {
  std::int64_t id = 0;  // sequential per phase, exported as session_num
  records::Phase phase = records::Phase::kProfiling;
  std::int64_t session = 0;  // sequential per phase; every turn of a session has the same value
  std::size_t conversation_index = 0;
  int turn_index = 0;
  int num_turns = 1;
  std::string x_correlation_id;  // one per session
  int url_index = 0;             // which --url the session talks to
  core::MonoNs intended_ns = 0;  // when the schedule wanted this request to go out
  core::MonoNs issued_ns = 0;    // when the issuer handed it out
  // --request-cancellation-rate: abort the request this long after its body is sent.
  std::optional<std::int64_t> cancel_after_ns;
  bool final_turn() const { return turn_index + 1 >= num_turns; }
};

class CreditSink {
 public:
  virtual ~CreditSink() = default;
  virtual void dispatch(Credit credit) = 0;
};

}  // namespace inferperf::timing
