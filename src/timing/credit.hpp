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
  // When the credit was let go to be sent: the issuer's hand-out for a credit due at once, the
  // holding worker's release at intended_ns for one handed out ahead (CreditSink::dispatch_ahead).
  core::MonoNs issued_ns = 0;
  // --request-cancellation-rate: abort the request this long after its body is sent.
  std::optional<std::int64_t> cancel_after_ns;
  bool final_turn() const { return turn_index + 1 >= num_turns; }
};

// A finished request's credit going back to the issuer.
struct ReturnedCredit {
  std::int64_t id = 0;
  std::int64_t session = 0;
};

// Told of a credit handed out ahead that a stop took back before it was due: it was never sent
// and has no record. Called from the holding thread.
class WithdrawListener {
 public:
  virtual ~WithdrawListener() = default;
  virtual void credit_withdrawn(const Credit& credit) = 0;
};

class CreditSink {
 public:
  virtual ~CreditSink() = default;
  // Sends the credit now.
  virtual void dispatch(Credit credit) = 0;
  // Whether the sink can hold credits handed out before their intended time. Only then does the
  // issuer hand any out ahead (Scheduler::hand_ahead_ns).
  virtual bool holds_ahead() const { return false; }
  // Holds `credit` (intended_ns in the future) and sends it at intended_ns from the thread that
  // will run it, stamping issued_ns then; or, after withdraw_ahead(), gives it back to `listener`.
  // Only called when holds_ahead().
  virtual void dispatch_ahead(Credit credit, WithdrawListener& listener);
  // Any thread: no held credit intended from now on is sent; each goes back to its listener. One
  // intended before now still goes (its worker's timer was late: it was due before the stop),
  // unless `everything` (a grace period over: nothing more is sent at all).
  virtual void withdraw_ahead(bool everything = false) { (void)everything; }
  // A new phase: credits may be held (and sent when due) again.
  virtual void open_ahead() {}
  // Any thread: credits handed out ahead and neither sent nor given back yet.
  virtual std::int64_t held_ahead() const { return 0; }
};

}  // namespace inferperf::timing
