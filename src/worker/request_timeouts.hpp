// A worker's requests in flight, in deadline order (the order they started), under one timer for
// their --request-timeout-seconds deadlines; cancel_all walks the same list. A request that timed
// out leaves it at once (it is cancelled already; its exchange ends on its own).
//
// Why one timer: a steady_timer per request was constructed (a service lookup under the registry's
// lock), armed, cancelled and its aborted handler run for every request, and the request's cancel
// handle was shared with that handler. A worker's requests all have the same timeout, so their
// deadlines come in the order they started and the earliest is the oldest request's: one timer
// waits for the head's, a request that ends just leaves the list (the timer, when it fires, finds
// the next deadline later and waits for that one). Entries live in the requests' own state: the
// list allocates nothing and holds no more than the requests in flight.
//
// Everything runs on the worker's thread.
#pragma once
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>

#include "transport/http_exchange.hpp"

namespace inferperf::worker {

class RequestTimeouts {
 public:
  using Clock = std::chrono::steady_clock;

  // One request's place in the list, in its state. Leaves the list when destroyed.
  class Entry {
   public:
    Entry() = default;
    Entry(const Entry&) = delete;
    Entry& operator=(const Entry&) = delete;
    ~Entry() { leave(); }
    // Out of the list (the request ended): nothing when it is not in one (never added, already
    // timed out, or the list is gone).
    void leave();
    bool listed() const { return list_ != nullptr; }

   private:
    friend class RequestTimeouts;
    RequestTimeouts* list_ = nullptr;  // null while not listed
    Entry* prev_ = nullptr;
    Entry* next_ = nullptr;
    Clock::time_point deadline_{};
    transport::CancelHandle* cancel_ = nullptr;
  };

  explicit RequestTimeouts(boost::asio::io_context& io) : timer_(io) {}
  RequestTimeouts(const RequestTimeouts&) = delete;
  RequestTimeouts& operator=(const RequestTimeouts&) = delete;
  // Unlists every entry: a request state destroyed later (the io_context's shutdown destroys the
  // unfinished ones) finds its entry out of any list.
  ~RequestTimeouts();

  boost::asio::any_io_executor executor() { return timer_.get_executor(); }

  // Lists `e` (not listed) until `deadline`, when `cancel` is cancelled as a timeout and `e`
  // leaves the list. Placed by deadline: after the last entry unless a later deadline is there
  // (a timeout that changed; never with one plan), so the head is always the earliest.
  void add(Entry& e, transport::CancelHandle& cancel, Clock::time_point deadline);
  // Cancels as a timeout, and unlists, every entry due at `now`: the timer's handler, with the
  // clock's time.
  void expire(Clock::time_point now);
  // Every listed request's cancel handle, oldest first; `f` must not add or remove entries.
  template <typename F>
  void for_each(F&& f) const {
    for (Entry* e = head_; e != nullptr; e = e->next_) f(*e->cancel_);
  }
  std::size_t size() const { return size_; }
  // The deadline the timer waits for; nullopt when it waits for none.
  std::optional<Clock::time_point> armed_for() const { return armed_for_; }

 private:
  void remove(Entry& e);
  void arm(Clock::time_point at);

  boost::asio::steady_timer timer_;
  Entry* head_ = nullptr;
  Entry* tail_ = nullptr;
  std::size_t size_ = 0;
  std::optional<Clock::time_point> armed_for_;
  // Tells the current wait's handler from one that had already fired, and was queued, when the
  // timer was re-armed.
  std::uint64_t wait_ = 0;
};

}  // namespace inferperf::worker
