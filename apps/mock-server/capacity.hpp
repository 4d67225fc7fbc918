// The mock's capacity model (docs/mock-server.md, Capacity): at most --slots generations hold a
// slot at once and the rest wait for one in arrival order; the first token comes --ttft plus
// --prefill-ms-per-token per prompt token after the slot is granted; each later token comes
// --itl plus --itl-ms-per-stream for every other generation holding a slot at that moment. With
// the defaults (no slot limit, both slopes 0) every request is timed on its own, as before.
#pragma once
#include <boost/asio/awaitable.hpp>
#include <boost/asio/steady_timer.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>

namespace inferperf::mock {

class SlotGate;

// A granted slot; given back (to the first waiter, else freed) when destroyed.
class Slot {
 public:
  Slot() = default;
  Slot(SlotGate* gate, bool waited) : gate_(gate), waited_(waited) {}
  Slot(Slot&& o) noexcept : gate_(o.gate_), waited_(o.waited_) { o.gate_ = nullptr; }
  Slot& operator=(Slot&& o) noexcept;
  ~Slot();
  Slot(const Slot&) = delete;
  Slot& operator=(const Slot&) = delete;
  bool held() const { return gate_ != nullptr; }
  // It was not free at once: the request queued for it.
  bool waited() const { return waited_; }

 private:
  SlotGate* gate_ = nullptr;
  bool waited_ = false;
};

class SlotGate {
 public:
  // slots <= 0: no limit (every request gets a slot at once; the count still feeds the ITL).
  explicit SlotGate(int slots);
  SlotGate(const SlotGate&) = delete;
  SlotGate& operator=(const SlotGate&) = delete;

  // Waits for a slot, first come first served. An empty Slot only when the wait was cancelled
  // (the server stopping).
  boost::asio::awaitable<Slot> acquire();
  // Generations holding a slot now.
  int active() const { return active_.load(std::memory_order_relaxed); }
  // Requests waiting for a slot now.
  int queued() const;

 private:
  friend class Slot;
  struct Waiter {
    explicit Waiter(const boost::asio::any_io_executor& ex) : timer(ex) {}
    boost::asio::steady_timer timer;
    bool granted = false;  // under mu_
  };
  // Leaves the queue when a waiting frame is destroyed (the server stopping) before its grant, and
  // gives the slot on when it is destroyed between the grant and the Slot taking it: the queue
  // never outlives a waiter's frame, nor its timer the io_context. A member type, not a local
  // one: it lives in a coroutine frame.
  struct Leave {
    SlotGate& gate;
    std::shared_ptr<Waiter>& w;
    bool taken = false;
    ~Leave();
  };
  void release();
  template <typename Token>
  auto wait_for_grant(const std::shared_ptr<Waiter>& w, Token&& token);

  const int slots_;
  mutable std::mutex mu_;
  int held_ = 0;  // under mu_; active_ mirrors it for lock-free reads
  std::atomic<int> active_{0};
  std::deque<std::shared_ptr<Waiter>> queue_;
};

// The gap before a token after the first: itl + per_stream x (the other generations holding a
// slot), never below itl.
std::chrono::nanoseconds token_gap(std::chrono::nanoseconds itl,
                                   std::chrono::nanoseconds per_stream, int active);

// What prefill adds to the first token's delay: per_token x prompt tokens.
std::chrono::nanoseconds prefill_delay(std::chrono::nanoseconds per_token,
                                       std::int64_t prompt_tokens);

}  // namespace inferperf::mock
