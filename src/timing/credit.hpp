// A credit is the permission to send exactly one request (one turn).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/clock.hpp"
#include "records/request_record.hpp"

namespace inferperf::timing {

struct Credit {
  std::int64_t id = 0;  // sequential per phase, exported as session_num
  records::Phase phase = records::Phase::kProfiling;
  std::size_t conversation_index = 0;
  int turn_index = 0;
  std::string x_correlation_id;
  core::MonoNs intended_ns = 0;  // when the schedule wanted this request to go out
  core::MonoNs issued_ns = 0;    // when the issuer handed it out
};

class CreditSink {
 public:
  virtual ~CreditSink() = default;
  virtual void dispatch(Credit credit) = 0;
};

}  // namespace inferperf::timing
