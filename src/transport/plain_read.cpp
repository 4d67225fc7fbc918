#include "transport/plain_read.hpp"

#include <boost/asio/associated_executor.hpp>
#include <boost/asio/async_result.hpp>
#include <boost/asio/error.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <algorithm>
#include <cerrno>
#include <memory>
#include <string_view>
#include <utility>

#include "transport/rx_stamp.hpp"

namespace inferperf::transport {

namespace asio = boost::asio;
using boost::system::error_code;

namespace {

struct PlainReadArgs {
  Connection* conn;
  ResponseReader* reader;
  ResponseSink* sink;
  const core::Clock* clock;
  ExchangeTimings* t;
  bool kernel_stamps;
};

// One read buffer per thread for every plain connection on it: a read's bytes are parsed (and the
// few kept, copied) before the read returns, so the buffer is free again by the next read, and a
// worker reading 1,000 streams touches one hot 16 KiB buffer instead of 16 MiB of cold ones. (TLS
// reads keep the connection's buffer: OpenSSL fills it across a suspension.)
char* thread_read_buffer() {
  thread_local const std::unique_ptr<char[]> buf(new char[Connection::kReadBufferBytes]);
  return buf.get();
}

// The operation's state travels inside the handler it hands the socket's wait (moved, never
// copied), so a read allocates nothing: the wait operation's memory comes from Asio's per-thread
// recycling allocator.
template <typename Handler>
class PlainReadOp {
 public:
  using executor_type = asio::associated_executor_t<Handler, Connection::executor_type>;

  PlainReadOp(PlainReadArgs a, Handler h) : a_(a), handler_(std::move(h)) {}

  // Full-buffer reads in a row before the loop is given to others (4 x 16 KiB per turn).
  static constexpr int kFullReadsPerTurn = 4;

  executor_type get_executor() const noexcept {
    return asio::get_associated_executor(handler_, a_.conn->get_executor());
  }

  // Called once from the initiation. The bytes may already be waiting (the response came while the
  // request's write completed): read first, then wait. Completing here is posted, as Asio's own
  // operations do, never run inside the initiating call.
  void start() { read(true); }

  // The socket is readable (or was closed under the wait).
  void operator()(error_code ec) {
    if (ec) {
      complete(ReadOutcome{ec, {}, a_.clock->now_ns()}, false);
      return;
    }
    read(false);
  }

 private:
  void read(bool initiating) {
    int full_reads = 0;
    for (;;) {
      const int fd = a_.conn->plain_fd();
      if (fd < 0) {  // closed by a sink callback (a cancellation)
        complete(ReadOutcome{asio::error::operation_aborted, {}, a_.clock->now_ns()}, initiating);
        return;
      }
      char* buf = thread_read_buffer();
      std::int64_t kernel_real = 0;
      const ssize_t n = recv_stamped(fd, buf, Connection::kReadBufferBytes, kernel_real);
      const int err = errno;
      if (n < 0 && err == EINTR) continue;
      if (n < 0 && (err == EAGAIN || err == EWOULDBLOCK)) {
        a_.conn->async_wait_readable(std::move(*this));
        return;
      }
      const core::MonoNs ts = stamp(kernel_real);
      if (n < 0) {
        complete(ReadOutcome{error_code(err, boost::system::system_category()), {}, ts},
                 initiating);
        return;
      }
      if (n == 0) {
        complete(ReadOutcome{asio::error::eof, {}, ts}, initiating);
        return;
      }
      const std::string_view bytes(buf, static_cast<std::size_t>(n));
      if (const error_code pec = a_.reader->consume(bytes, ts, *a_.t, *a_.sink)) {
        complete(ReadOutcome{{}, pec, ts}, initiating);
        return;
      }
      if (a_.reader->done() || !a_.sink->wants_more()) {
        complete(ReadOutcome{{}, {}, ts}, initiating);
        return;
      }
      // A read that filled the buffer may have left bytes behind, and the readiness edge that
      // announced them is spent: read again before waiting.
      if (static_cast<std::size_t>(n) < Connection::kReadBufferBytes) {
        a_.conn->async_wait_readable(std::move(*this));
        return;
      }
      // ... but not forever: a connection that keeps the buffer full (a large or flooding answer)
      // yields the loop to the other connections every kFullReadsPerTurn reads, going on from a
      // posted continuation (the bytes left behind stay readable; no edge is needed).
      if (++full_reads == kFullReadsPerTurn) {
        auto ex = get_executor();
        asio::post(ex, [op = std::move(*this)]() mutable { op(error_code{}); });
        return;
      }
    }
  }

  // The clock read after the read, moved back to the kernel's receive time when there is one.
  core::MonoNs stamp(std::int64_t kernel_real) {
    last_ts_ = std::max(last_ts_, stamp_of_read(kernel_real));
    return last_ts_;
  }

  // Never earlier than the read before it: a read whose kernel stamp could not be used (the
  // first segments of a process, a delay over a second) carries the later clock read, and the
  // next read's kernel stamp may precede it; the gaps between reads stay non-negative.
  core::MonoNs stamp_of_read(std::int64_t kernel_real) {
    const core::MonoNs now = a_.clock->now_ns();
    if (!a_.kernel_stamps || kernel_real == 0) return now;
    const auto k = kernel_stamp_to_mono(kernel_real, now, realtime_now_ns());
    if (!k) return now;
    ++a_.t->kernel_stamped_reads;
    // A response cannot arrive before its request went out: when the loop lagged after the write,
    // the write's own stamp is the later, truer bound (durations stay non-negative).
    return std::max(*k, a_.t->send_end_ns);
  }

  void complete(ReadOutcome o, bool initiating) {
    if (initiating) {
      auto ex = get_executor();
      asio::post(ex, [h = std::move(handler_), o]() mutable { std::move(h)(o); });
      return;
    }
    std::move(handler_)(o);
  }

  PlainReadArgs a_;
  Handler handler_;
  core::MonoNs last_ts_ = 0;  // the previous read's stamp
};

}  // namespace

asio::awaitable<ReadOutcome> read_plain_response(Connection& conn, ResponseReader& reader,
                                                 ResponseSink& sink, const core::Clock& clock,
                                                 ExchangeTimings& t, bool kernel_stamps) {
  const PlainReadArgs args{&conn, &reader, &sink, &clock, &t, kernel_stamps && conn.rx_stamped()};
  return asio::async_initiate<const asio::use_awaitable_t<>&, void(ReadOutcome)>(
      [args](auto handler) {
        PlainReadOp<std::decay_t<decltype(handler)>> op(args, std::move(handler));
        op.start();
      },
      asio::use_awaitable);
}

}  // namespace inferperf::transport
