#include "transport/plain_read.hpp"

#include <boost/asio/async_result.hpp>
#include <boost/asio/detail/bind_handler.hpp>
#include <boost/asio/detail/fenced_block.hpp>
#include <boost/asio/detail/handler_alloc_helpers.hpp>
#include <boost/asio/detail/handler_cont_helpers.hpp>
#include <boost/asio/detail/handler_work.hpp>
#include <boost/asio/detail/memory.hpp>
#include <boost/asio/detail/reactor.hpp>
#include <boost/asio/detail/reactor_op.hpp>
#include <boost/asio/error.hpp>
#include <boost/asio/execution/context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/query.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <memory>
#include <string_view>
#include <utility>

#include "transport/rx_stamp.hpp"

namespace inferperf::transport {

namespace asio = boost::asio;
namespace adetail = boost::asio::detail;
using boost::system::error_code;

namespace {

// One read buffer per thread for every plain connection on it: a read's bytes are parsed (and the
// few kept, copied) before the read returns, so the buffer is free again by the next read, and a
// worker reading 1,000 streams touches one hot 16 KiB buffer instead of 16 MiB of cold ones. (TLS
// reads keep the connection's buffer: OpenSSL fills it across a suspension.) A read started from
// inside another's parsing (a sink callback that begins an exchange) takes its connection's own.
class ThreadReadBuffer {
 public:
  explicit ThreadReadBuffer(Connection& conn) {
    thread_local const std::unique_ptr<char[]> shared(new char[Connection::kReadBufferBytes]);
    thread_local bool busy = false;
    busy_ = busy ? nullptr : &busy;
    if (busy_) *busy_ = true;
    bytes_ = busy_ ? shared.get() : conn.read_buffer();
  }
  ~ThreadReadBuffer() {
    if (busy_) *busy_ = false;
  }
  ThreadReadBuffer(const ThreadReadBuffer&) = delete;
  ThreadReadBuffer& operator=(const ThreadReadBuffer&) = delete;
  char* bytes() const { return bytes_; }

 private:
  bool* busy_ = nullptr;  // the shared buffer's flag while this read holds it
  char* bytes_ = nullptr;
};

// An Asio socket's reactor registration (its descriptor and per-descriptor data), which
// basic_socket keeps protected: a pointer to the member formed in a derived class may be applied
// to any socket of the base type.
template <typename Socket>
struct SocketInternals : Socket {
  static auto& registration(Socket& s) {
    return (s.*(&SocketInternals::impl_)).get_implementation();
  }
};

// Set on a thread whose loop runs check_quiet_reads (set_quiet_reads_checked): elsewhere a read
// never parks and goes on to EAGAIN, as it would without the hint.
thread_local bool quiet_reads_checked = false;

// A read parked on the kernel's "nothing queued" (PlainReader::read) counts on a readiness edge
// for whatever comes next. Every byte and an end of stream raise one, but a reset that arrived
// with the last bytes does not (TCP_INQ counts an end of stream, not a reset), and that read would
// wait for its request's timeout. The parked reads of one io_context, in the order they parked, so
// that check_quiet_reads() can look at the socket error of those parked long.
struct QuietLink {
  QuietLink* prev = nullptr;
  QuietLink* next = nullptr;
  core::MonoNs since = 0;
  class PlainReader* reader = nullptr;
};

class QuietReads : public asio::execution_context::service {
 public:
  using key_type = QuietReads;
  static inline asio::execution_context::id id;

  explicit QuietReads(asio::execution_context& ctx) : service(ctx) {
    head_.prev = head_.next = &head_;
  }
  void shutdown() override {}

  // Appends at the tail: the list is in the order the reads parked, their times (the reads'
  // stamps) out of order by at most the loop's lag, nothing beside the check's half second.
  void park(QuietLink& l, core::MonoNs now) {
    l.since = now;
    l.prev = head_.prev;
    l.next = &head_;
    head_.prev->next = &l;
    head_.prev = &l;
  }
  static void unpark(QuietLink& l) {
    if (l.prev == nullptr) return;
    l.prev->next = l.next;
    l.next->prev = l.prev;
    l.prev = l.next = nullptr;
  }
  QuietLink* oldest() { return head_.next == &head_ ? nullptr : head_.next; }

 private:
  QuietLink head_;
};

struct PlainReadArgs {
  Connection* conn;
  ResponseReader* reader;
  ResponseSink* sink;
  const core::Clock* clock;
  ExchangeTimings* t;
  bool kernel_stamps;
};

// The reads of one response, with their stamps: everything but how readiness is waited for.
class PlainReader {
 public:
  explicit PlainReader(PlainReadArgs a) : a_(a) {}

  enum class Step { kWait, kDone, kYield };
  // One turn's reads and bytes, whatever their sizes: then the loop is given to the worker's other
  // connections and timers (a body that keeps arriving as fast as it is parsed never leaves the
  // socket's queue empty).
  static constexpr int kReadsPerTurn = 8;
  static constexpr std::size_t kBytesPerTurn = 4 * Connection::kReadBufferBytes;

  // Reads until the socket has nothing more (kWait), the response is complete or failed (kDone,
  // `out` set) or the turn is used up (kYield). Until the response is complete a read goes on to
  // the next unless the kernel said nothing stays queued: the socket's readiness is
  // edge-triggered, and an end of stream that came with the last bytes raises no edge of its own
  // (without the kernel's hint, the reads go on to EAGAIN). The read that completes the response
  // stops there (drained() says whether it emptied the socket's queue; do_perform).
  Step read(ReadOutcome& out) {
    QuietReads::unpark(quiet_);
    int reads = 0;
    std::size_t bytes_read = 0;
    for (;;) {
      const int fd = a_.conn->plain_fd();
      if (fd < 0 || a_.conn->close_deferred()) {  // closed by a sink callback (a cancellation)
        out = ReadOutcome{asio::error::operation_aborted, {}, a_.clock->now_ns()};
        return Step::kDone;
      }
      const ThreadReadBuffer held(*a_.conn);
      char* buf = held.bytes();
      RecvNotes notes;
      const ssize_t n = recv_stamped(fd, buf, Connection::kReadBufferBytes, notes);
      const int err = errno;
      if (n < 0 && err == EINTR) continue;
      if (n < 0 && (err == EAGAIN || err == EWOULDBLOCK)) return Step::kWait;
      const core::MonoNs ts = stamp(notes.kernel_real_ns);
      // The kernel's hint says exactly whether the socket's queue is empty (an end of stream still
      // queued counts); without it, a read short of the space it was offered emptied the queue
      // (TCP and Unix stream sockets copy until the queue is empty or the space is full), and an
      // end of stream reads 0.
      drained_ = notes.queued >= 0 ? notes.queued == 0
                                   : n < static_cast<ssize_t>(Connection::kReadBufferBytes);
      if (n <= 0) {
        out = ReadOutcome{n == 0 ? error_code(asio::error::eof)
                                 : error_code(err, boost::system::system_category()),
                          {},
                          ts};
        return Step::kDone;
      }
      const std::string_view bytes(buf, static_cast<std::size_t>(n));
      if (const error_code pec = a_.reader->consume(bytes, ts, *a_.t, *a_.sink)) {
        out = ReadOutcome{{}, pec, ts};
        return Step::kDone;
      }
      if (a_.reader->done() || !a_.sink->wants_more()) {
        out = ReadOutcome{{}, {}, ts};
        return Step::kDone;
      }
      // The kernel says nothing stays queued, not even an end of stream (TCP_INQ counts one as a
      // byte): the next bytes raise an edge, so the read that would only find EAGAIN is skipped.
      // Sockets without the hint (Unix) read on to EAGAIN. A close a sink callback asked for is
      // carried out by the loop's next turn, not left waiting for an edge.
      if (notes.queued == 0 && quiet_reads_checked && !a_.conn->close_deferred()) {
        park(ts);
        return Step::kWait;
      }
      bytes_read += static_cast<std::size_t>(n);
      if (++reads == kReadsPerTurn || bytes_read >= kBytesPerTurn) return Step::kYield;
    }
  }

  ~PlainReader() { QuietReads::unpark(quiet_); }
  PlainReader(const PlainReader&) = delete;
  PlainReader& operator=(const PlainReader&) = delete;

  const PlainReadArgs& args() const { return a_; }
  // The socket error check_quiet_reads() found while this read was parked (0 if none): the read
  // ends with it when the connection's close completes the operation.
  int swept_error() const { return swept_error_; }
  void set_swept_error(int err) { swept_error_ = err; }
  // Whether the last read left nothing in the socket's queue (see do_perform).
  bool drained() const { return drained_; }

 private:
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

  void park(core::MonoNs ts) {
    if (quiet_reads_ == nullptr) {
      quiet_reads_ = &asio::use_service<QuietReads>(
          asio::query(a_.conn->get_executor(), asio::execution::context));
    }
    quiet_.reader = this;
    quiet_reads_->park(quiet_, ts);
  }

  PlainReadArgs a_;
  core::MonoNs last_ts_ = 0;  // the previous read's stamp
  bool drained_ = false;
  QuietLink quiet_;
  QuietReads* quiet_reads_ = nullptr;  // looked up at the first park
  int swept_error_ = 0;
};

// The read of one response as an operation resident in the socket's read queue of Asio's
// reactor: the reactor runs its perform step on every readiness edge of the socket, and the step
// reads, stamps and parses in place. The operation stays queued until the response is complete,
// so a streamed event costs no operation, no handler call and no re-arming of the descriptor
// (Asio's waits re-arm with epoll_ctl(MOD) each time). It completes like Asio's own operations:
// through the reactor (closing the socket aborts it), with the handler's allocator and work.
template <typename Handler, typename IoExecutor>
class ResidentReadOp : public adetail::reactor_op {
 public:
  BOOST_ASIO_DEFINE_HANDLER_PTR(ResidentReadOp);

  ResidentReadOp(PlainReadArgs a, Handler& handler, const IoExecutor& io_ex)
      : reactor_op(error_code(), &ResidentReadOp::do_perform, &ResidentReadOp::do_complete),
        reader_(a),
        handler_(std::move(handler)),
        work_(handler_, io_ex),
        io_ex_(io_ex) {}

  // Queues the operation on the socket, reading first (the bytes may already be waiting).
  static void start(ResidentReadOp* op, bool is_continuation) {
    Connection& conn = *op->reader_.args().conn;
    auto& reactor =
        asio::use_service<adetail::reactor>(asio::query(op->io_ex_, asio::execution::context));
    const bool open = conn.visit_plain([&](auto& socket) {
      if (conn.drained_unchecked()) {
        // The previous response drained the socket and nothing has peeked since: the reactor
        // will not read speculatively, so this read does it (an end of stream may be pending).
        conn.set_drained_unchecked(false);
        if (do_perform(op) != not_done) {
          reactor.post_immediate_completion(op, is_continuation);
          return;
        }
      }
      auto& reg = SocketInternals<std::decay_t<decltype(socket)>>::registration(socket);
      reactor.start_op(adetail::reactor::read_op, reg.socket_, reg.reactor_data_, op,
                       is_continuation, true);
    });
    if (!open) {
      op->ec_ = asio::error::operation_aborted;  // closed while the operation yielded
      reactor.post_immediate_completion(op, is_continuation);
    }
  }

 private:
  // Runs with the descriptor's lock held: a socket closed from inside (a sink callback) is
  // closed later, by the completion (Connection::close_deferred).
  static status do_perform(reactor_op* base) {
    auto* o = static_cast<ResidentReadOp*>(base);
    Connection& conn = *o->reader_.args().conn;
    struct Deferral {  // cleared however the step ends
      Connection& conn;
      explicit Deferral(Connection& c) : conn(c) { conn.set_closing_deferred(true); }
      ~Deferral() { conn.set_closing_deferred(false); }
    } deferral(conn);
    const PlainReader::Step step = o->reader_.read(o->outcome_);
    if (step == PlainReader::Step::kWait) return not_done;
    o->yield_ = step == PlainReader::Step::kYield;
    // A response that ended with the socket drained says so with Asio's "done and exhausted"
    // (its own reads answer that only at an end of stream, a read of 0 bytes): the reactor skips
    // the speculative read of the connection's next response (a recvmsg that would find nothing,
    // the request just sent) until an edge, which sets it again, says bytes or an end of stream
    // came. An edge taken while no read is queued is not lost that way; an end of stream that came
    // with the last bytes raises none, and the pool's peek before reuse (or, without one, start())
    // reads it.
    if (step != PlainReader::Step::kDone || !o->reader_.drained()) return done;
    conn.set_drained_unchecked(true);
    return done_and_exhausted;
  }

  static void do_complete(void* owner, adetail::operation* base, const error_code& /*ec*/,
                          std::size_t /*bytes*/) {
    auto* o = static_cast<ResidentReadOp*>(base);
    Connection& conn = *o->reader_.args().conn;
    if (owner && o->yield_) {
      o->yield_ = false;
      if (!o->ec_ && !conn.close_deferred()) {
        // A turn given up: reading goes on after what is queued (the bytes left behind stay
        // readable; no edge is needed).
        asio::post(o->io_ex_, Resume{o});
        return;
      }
      if (!o->ec_) o->ec_ = asio::error::operation_aborted;  // cancelled during the turn
    }
    ptr p = {adetail::addressof(o->handler_), o, o};
    adetail::handler_work<Handler, IoExecutor> w(std::move(o->work_));
    const error_code aborted = o->ec_;  // closed under the operation, or cancelled in a turn
    const int swept = o->reader_.swept_error();  // copied, as all the op's state, before p.reset()
    const core::Clock& clock = *o->reader_.args().clock;
    // Make a copy of the handler so that the memory can be deallocated before the upcall.
    adetail::binder1<Handler, ReadOutcome> handler(o->handler_, o->outcome_);
    p.h = adetail::addressof(handler.handler_);
    p.reset();
    if (!owner) return;  // destroyed unrun (the io_context is going away): nothing more is read
    if (aborted) {
      handler.arg1_ =
          ReadOutcome{swept != 0 ? error_code(swept, boost::system::system_category()) : aborted,
                      {},
                      clock.now_ns()};
    }
    if (conn.close_deferred()) {
      error_code ignored;
      conn.close(ignored);
    }
    adetail::fenced_block b(adetail::fenced_block::half);
    w.complete(handler, handler.handler_);
  }

  // Owns a yielded operation until it is queued again (or destroys it, with its handler, when the
  // io_context goes away first).
  struct Resume {
    ResidentReadOp* op;
    Resume(ResidentReadOp* o) : op(o) {}
    Resume(Resume&& other) noexcept : op(std::exchange(other.op, nullptr)) {}
    Resume& operator=(Resume&&) = delete;
    ~Resume() {
      if (op) op->destroy();
    }
    void operator()() { start(std::exchange(op, nullptr), true); }
  };

  PlainReader reader_;
  ReadOutcome outcome_;
  bool yield_ = false;
  Handler handler_;
  adetail::handler_work<Handler, IoExecutor> work_;
  IoExecutor io_ex_;
};

}  // namespace

asio::awaitable<ReadOutcome> read_plain_response(Connection& conn, ResponseReader& reader,
                                                 ResponseSink& sink, const core::Clock& clock,
                                                 ExchangeTimings& t, bool kernel_stamps) {
  const PlainReadArgs args{&conn, &reader, &sink, &clock, &t, kernel_stamps && conn.rx_stamped()};
  return asio::async_initiate<const asio::use_awaitable_t<>&, void(ReadOutcome)>(
      [args](auto handler) {
        using Handler = std::decay_t<decltype(handler)>;
        using IoExecutor = Connection::executor_type;
        using Op = ResidentReadOp<Handler, IoExecutor>;
        const bool is_continuation = boost_asio_handler_cont_helpers::is_continuation(handler);
        typename Op::ptr p = {adetail::addressof(handler), Op::ptr::allocate(handler), nullptr};
        p.p = new (p.v) Op(args, handler, args.conn->get_executor());
        Op::start(p.p, is_continuation);
        p.v = p.p = nullptr;
      },
      asio::use_awaitable);
}

void set_quiet_reads_checked(bool on) {
  quiet_reads_checked = on;
}

void check_quiet_reads(asio::execution_context& ctx, core::MonoNs now_ns,
                       std::int64_t older_than_ns) {
  if (!asio::has_service<QuietReads>(ctx)) return;  // nothing was ever parked here
  QuietReads& quiet = asio::use_service<QuietReads>(ctx);
  // Each parked read is checked at most once per call: one found healthy goes back to the tail
  // with a new time, and the walk stops when it comes round to the first of those.
  const QuietLink* first_requeued = nullptr;
  while (QuietLink* l = quiet.oldest()) {
    if (l == first_requeued || now_ns - l->since < older_than_ns) break;
    PlainReader& reader = *l->reader;
    QuietReads::unpark(*l);
    Connection& conn = *reader.args().conn;
    const int fd = conn.plain_fd();
    if (fd < 0) continue;
    int err = 0;
    socklen_t len = sizeof err;
    if (::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0 || err == 0) {
      quiet.park(*l, now_ns);
      if (first_requeued == nullptr) first_requeued = l;
      continue;
    }
    // The reset the edge never announced: closing completes the read, with this error.
    reader.set_swept_error(err);
    error_code ignored;
    conn.close(ignored);
  }
}

}  // namespace inferperf::transport
