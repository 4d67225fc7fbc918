#include "worker/request_timeouts.hpp"

#include <boost/system/error_code.hpp>

#include <cassert>

namespace inferperf::worker {

void RequestTimeouts::Entry::leave() {
  if (list_ != nullptr) list_->remove(*this);
}

RequestTimeouts::~RequestTimeouts() {
  for (Entry* e = head_; e != nullptr;) {
    Entry* next = e->next_;
    e->list_ = nullptr;
    e->prev_ = e->next_ = nullptr;
    e = next;
  }
}

void RequestTimeouts::add(Entry& e, transport::CancelHandle& cancel, Clock::time_point deadline) {
  assert(!e.listed());  // a listed entry re-linked would cut the list
  e.deadline_ = deadline;
  e.cancel_ = &cancel;
  e.list_ = this;
  Entry* after = tail_;
  while (after != nullptr && after->deadline_ > deadline) after = after->prev_;
  e.prev_ = after;
  e.next_ = after != nullptr ? after->next_ : head_;
  (e.next_ != nullptr ? e.next_->prev_ : tail_) = &e;
  (after != nullptr ? after->next_ : head_) = &e;
  ++size_;
  if (!armed_for_ || deadline < *armed_for_) arm(deadline);
}

void RequestTimeouts::remove(Entry& e) {
  (e.prev_ != nullptr ? e.prev_->next_ : head_) = e.next_;
  (e.next_ != nullptr ? e.next_->prev_ : tail_) = e.prev_;
  e.list_ = nullptr;
  e.prev_ = e.next_ = nullptr;
  --size_;
  // The timer stays as it is: when it fires it finds the next deadline, if any, and waits again.
}

void RequestTimeouts::expire(Clock::time_point now) {
  while (head_ != nullptr && head_->deadline_ <= now) {
    Entry& due = *head_;
    remove(due);
    // Closes the request's socket; its operations complete later, on this thread's loop, so
    // nothing here runs into the list.
    due.cancel_->cancel(core::RequestErrorKind::kTimeout,
                        "request exceeded --request-timeout-seconds", std::nullopt);
  }
}

void RequestTimeouts::arm(Clock::time_point at) {
  armed_for_ = at;
  const std::uint64_t wait = ++wait_;
  timer_.expires_at(at);  // aborts a wait already pending
  timer_.async_wait([this, wait](const boost::system::error_code& ec) {
    // Aborted: re-armed (another wait is pending) or the timer destroyed with this list, which
    // must not be touched then. A wait that had already completed when the list was destroyed
    // would find it gone: the worker never runs its io_context after destroying the list.
    if (ec || wait != wait_) return;
    armed_for_.reset();
    expire(Clock::now());
    if (head_ != nullptr) arm(head_->deadline_);
  });
}

}  // namespace inferperf::worker
