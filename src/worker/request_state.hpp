// One request's state that lives across its awaits (the record, the response collector, the
// deadlines, the exchange's timings), kept out of Worker::launch()'s coroutine frame in blocks
// the worker recycles itself.
//
// Why: in the frame they made it 2,672 bytes, above the 1,020 bytes Asio recycles and above
// glibc's per-thread cache, so every request took a block from malloc's bins (and consolidated
// its fast bins; measured with glibc's malloc, before the binary linked jemalloc). A worker's
// blocks are allocated and freed on its own thread, so a free list with no lock serves them; it
// keeps as many as were ever in flight at once.
#pragma once
#include <boost/asio/steady_timer.hpp>

#include <algorithm>
#include <memory>
#include <new>
#include <optional>
#include <utility>
#include <vector>

#include "records/request_record.hpp"
#include "transport/http_exchange.hpp"
#include "worker/request_timeouts.hpp"
#include "worker/response_collector.hpp"

namespace inferperf::worker {

// A request's two deadlines, --request-timeout-seconds from the start (in the worker's
// RequestTimeouts) and --request-cancellation-rate from when the request is written (a timer of
// its own). Each closes the exchange through `cancel`.
struct RequestDeadlines {
  explicit RequestDeadlines(RequestTimeouts& list) : timeouts(list) {}
  RequestDeadlines(const RequestDeadlines&) = delete;
  RequestDeadlines& operator=(const RequestDeadlines&) = delete;
  ~RequestDeadlines() { disarm(); }
  void arm_timeout(double seconds);
  // Called once the whole request is written: the cancellation clock starts there.
  void arm_cancellation(const std::optional<std::int64_t>& after_ns);
  void disarm();

  transport::CancelHandle cancel;
  RequestTimeouts& timeouts;
  RequestTimeouts::Entry timeout;
  // Made only for a request that is to be cancelled: constructing a timer looks its service up
  // under the io_context's registry lock, and most runs cancel nothing.
  std::optional<boost::asio::steady_timer> cancellation;
  // How the cancellation timer's handler reaches `cancel`: it may already be queued when the
  // request ends, and disarm() empties this first. Made with the timer.
  std::shared_ptr<transport::CancelHandle*> cancellation_target;
};

struct RequestState {
  explicit RequestState(RequestTimeouts& timeouts) : deadlines(timeouts) {}

  records::RequestRecord rec;
  // Writes into rec. Made once the request is built: it reads the record's raw exchange, which
  // building the request adds (--export-level raw).
  std::optional<ResponseCollector> collector;
  RequestDeadlines deadlines;
  transport::ExchangeTimings t;
};

// Blocks come from plain operator new, which aligns for any ordinary type.
static_assert(alignof(RequestState) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__);

// The worker's RequestState blocks: used by one thread only; must outlive every state it made
// (the Worker declares it before its io_context, whose shutdown destroys unfinished requests).
class RequestStatePool {
 public:
  struct Release {
    RequestStatePool* pool;
    void operator()(RequestState* s) const {
      s->~RequestState();
      pool->free_.push_back(s);
    }
  };
  using Handle = std::unique_ptr<RequestState, Release>;

  RequestStatePool() = default;
  RequestStatePool(const RequestStatePool&) = delete;
  RequestStatePool& operator=(const RequestStatePool&) = delete;
  ~RequestStatePool() {
    for (void* block : free_) ::operator delete(block);
  }

  template <class... Args>
  Handle make(Args&&... args) {
    void* block = nullptr;
    if (free_.empty()) {
      // Room for every block on the free list, reserved as each is made: a release never
      // allocates (or fails).
      if (free_.capacity() == blocks_) free_.reserve(std::max<std::size_t>(16, 2 * blocks_));
      block = ::operator new(sizeof(RequestState));
      ++blocks_;
    } else {
      block = free_.back();
      free_.pop_back();
    }
    try {
      return Handle(new (block) RequestState(std::forward<Args>(args)...), Release{this});
    } catch (...) {
      free_.push_back(block);
      throw;
    }
  }
  std::size_t blocks() const { return blocks_; }  // made so far: the most ever in use at once
  std::size_t idle() const { return free_.size(); }

 private:
  std::vector<void*> free_;
  std::size_t blocks_ = 0;
};

}  // namespace inferperf::worker
