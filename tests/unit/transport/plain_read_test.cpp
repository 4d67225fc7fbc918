// The plain-socket read path (plain_read.hpp) through http_exchange, against a scripted server on
// its own thread: every split of a chunked SSE response across two reads, end of stream inside a
// chunk, the kernel's receive stamps on TCP (used, never later than the clock read after the
// read, and counted) against the clock on a Unix socket, and the kernel's "nothing queued" hint
// with an end of stream or a reset behind the last bytes (check_quiet_reads).
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "sse/sse_parser.hpp"
#include "transport/http_exchange.hpp"
#include "transport/plain_read.hpp"
#include "transport/response_reader.hpp"
#include "transport/rx_stamp.hpp"

namespace inferperf::transport {
namespace {

namespace asio = boost::asio;

// One response, written as these parts with a pause after each.
using Script = std::vector<std::pair<std::string, int>>;  // bytes, then sleep ms

// Answers each request with the next script on one connection; a negative pause closes the
// connection there (the next script then waits for a new one), kHalfClose only shuts its sending
// side, its end of stream in the segment of the part's last bytes (TCP_CORK): a request the client
// still sends there is never answered, and never reset either.
constexpr int kHalfClose = -2;
// Closes with SO_LINGER 0: a reset instead of an end of stream, right behind the part's bytes.
constexpr int kAbort = -3;
class ScriptServer {
 public:
  ScriptServer(int listen_fd, std::vector<Script> scripts)
      : fd_(listen_fd), thread_([this, s = std::move(scripts)] { serve(s); }) {}
  ~ScriptServer() {
    ::shutdown(fd_, SHUT_RDWR);  // a script the client never came for ends the accept, not the test
    thread_.join();
    ::close(fd_);
  }

 private:
  void serve(const std::vector<Script>& scripts) {
    int conn = -1;
    for (const Script& script : scripts) {
      if (conn < 0) {
        conn = ::accept(fd_, nullptr, nullptr);
        if (conn < 0) break;
        const int on = 1;  // each part goes out at once (no Nagle wait for the client's ACK)
        ::setsockopt(conn, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
      }
      std::string head;
      char c = 0;
      while (head.find("\r\n\r\n") == std::string::npos && ::recv(conn, &c, 1, 0) == 1) head += c;
      for (const auto& [bytes, pause_ms] : script) {
        const int cork = pause_ms == kHalfClose ? 1 : 0;  // the FIN rides on these bytes' segment
        if (cork) ::setsockopt(conn, IPPROTO_TCP, TCP_CORK, &cork, sizeof cork);
        ::send(conn, bytes.data(), bytes.size(), MSG_NOSIGNAL);
        if (pause_ms == kHalfClose) {  // the end of stream only: the socket stays open, unread
          ::shutdown(conn, SHUT_WR);
          half_closed_.push_back(conn);
          conn = -1;
          break;
        }
        if (pause_ms == kAbort) {
          const linger abort{1, 0};
          ::setsockopt(conn, SOL_SOCKET, SO_LINGER, &abort, sizeof abort);
        }
        if (pause_ms < 0) {
          ::close(conn);
          conn = -1;
          break;
        }
        if (pause_ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(pause_ms));
      }
    }
    if (conn >= 0) ::close(conn);
    for (int c : half_closed_) ::close(c);
  }

  int fd_;
  std::vector<int> half_closed_;
  std::thread thread_;
};

// A listening TCP socket on 127.0.0.1; its port in `port`.
int listen_tcp(int& port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  EXPECT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  EXPECT_EQ(::listen(fd, 4), 0);
  socklen_t len = sizeof a;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  port = ntohs(a.sin_port);
  return fd;
}

int listen_unix(const std::string& path) {
  const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  std::snprintf(a.sun_path, sizeof a.sun_path, "%s", path.c_str());
  ::unlink(path.c_str());
  EXPECT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  EXPECT_EQ(::listen(fd, 4), 0);
  return fd;
}

// Keeps the decoded body, the SSE events cut from it, and per read its stamp and the clock read
// when the bytes reached the sink; can make the loop lag after the first read.
class RecordingSink final : public ResponseSink {
 public:
  void on_headers(int s, std::string_view, std::string_view, core::MonoNs) override { status = s; }
  void on_body(std::string_view bytes, core::MonoNs ts, std::uint32_t) override {
    seen_at.push_back(core::SteadyClock::steady_now_ns());
    stamps.push_back(ts);
    body.append(bytes);
    sse.feed(bytes, events);
    if (stamps.size() == 1 && lag_ms > 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(lag_ms));
    }
    if (cancel != nullptr)
      cancel->cancel(core::RequestErrorKind::kRequestCancellation, "stop", 499);
  }
  int status = 0;
  int lag_ms = 0;
  bool cancel_from_sink = false;  // cancels the exchange from inside its first on_body
  CancelHandle* cancel = nullptr;
  std::string body;
  sse::SseParser sse;
  std::vector<sse::SseEvent> events;
  std::vector<core::MonoNs> stamps;
  std::vector<core::MonoNs> seen_at;
};

struct Result {
  std::optional<ExchangeError> error;
  ExchangeTimings t;
  RecordingSink sink;
};

// Runs one exchange per sink on one pool (so later ones reuse the connection).
void run_exchanges(const std::string& base_url, const std::string& unix_path,
                   std::vector<Result>& results) {
  asio::io_context io;
  auto url = parse_base_url(base_url);
  ASSERT_TRUE(url);
  ConnectionPool pool(io.get_executor(), *url, nullptr, unix_path);
  bool done = false;
  const core::SteadyClock clock;
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        const std::string request = "GET / HTTP/1.1\r\nHost: x\r\n\r\n";
        for (Result& r : results) {
          ExchangeRequest req{request};
          CancelHandle cancel;
          if (r.sink.cancel_from_sink) r.sink.cancel = &cancel;
          r.error = co_await http_exchange(pool, req, r.sink, clock, r.t, cancel);
        }
        done = true;
      },
      asio::detached);
  for (int spins = 0; !done && spins < 4000; ++spins) io.run_for(std::chrono::milliseconds(5));
  EXPECT_TRUE(done) << "the exchanges did not end";
}

const std::string kSseHead =
    "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n";
// Two SSE events cut across three chunks, then a trailer.
const std::string kChunkedBody =
    "8\r\ndata: he\r\n"
    "d\r\nllo\n\ndata: [D\r\n"
    "8\r\nONE]\r\n\r\n\r\n"
    "0\r\nX-Trailer: 1\r\n\r\n";

TEST(PlainRead, ChunkedSseSplitAtEveryByteAcrossTwoReads) {
  const std::string response = kSseHead + kChunkedBody;
  std::vector<Script> scripts;
  for (std::size_t cut = 1; cut < response.size(); ++cut) {
    scripts.push_back({{response.substr(0, cut), 10}, {response.substr(cut), 0}});
  }
  int port = 0;
  const int fd = listen_tcp(port);
  std::vector<Result> results(scripts.size());
  {
    ScriptServer server(fd, scripts);
    run_exchanges("http://127.0.0.1:" + std::to_string(port), "", results);
  }
  std::size_t two_reads = 0;
  for (std::size_t i = 0; i < results.size(); ++i) {
    const Result& r = results[i];
    SCOPED_TRACE("cut at byte " + std::to_string(i + 1));
    ASSERT_FALSE(r.error.has_value()) << r.error->message;
    EXPECT_EQ(r.sink.status, 200);
    EXPECT_EQ(r.sink.body, "data: hello\n\ndata: [DONE]\r\n\r\n");
    ASSERT_EQ(r.sink.events.size(), 2u);
    EXPECT_EQ(r.sink.events[0].data, "hello");
    EXPECT_EQ(r.sink.events[1].data, "[DONE]");
    EXPECT_EQ(r.t.bytes_received, static_cast<std::int64_t>(response.size()));
    EXPECT_EQ(r.t.connection_reused, i > 0);  // every response left the connection reusable
    EXPECT_GT(r.t.headers_ns, 0);
    EXPECT_LE(r.t.first_byte_ns, r.t.headers_ns);
    two_reads += r.t.reads == 2;
  }
  // The pause between the parts makes most cuts a read of their own (a loaded machine merges some).
  EXPECT_GT(two_reads, results.size() / 4);
}

// A body far larger than the read buffer: the read yields the loop every few full buffers and
// goes on from a posted continuation; every byte arrives in order and the connection stays good
// for the next request.
TEST(PlainRead, ALargeBodyIsReadWholeAcrossYields) {
  std::string body;
  for (int i = 0; body.size() < 1024 * 1024; ++i) body += std::to_string(i) + ",";
  const std::string head = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: " +
                           std::to_string(body.size()) + "\r\n\r\n";
  int port = 0;
  const int fd = listen_tcp(port);
  std::vector<Result> results(2);
  {
    ScriptServer server(fd,
                        {{{head + body, 0}},
                         {{head.substr(0, head.rfind("Length: ")) + "Length: 2\r\n\r\nok", 0}}});
    run_exchanges("http://127.0.0.1:" + std::to_string(port), "", results);
  }
  ASSERT_FALSE(results[0].error.has_value()) << results[0].error->message;
  EXPECT_EQ(results[0].sink.body.size(), body.size());
  EXPECT_TRUE(results[0].sink.body == body) << "the bytes came in order";
  // At least one read per 16 KiB buffer, so several turns of four full buffers.
  EXPECT_GE(results[0].t.reads, body.size() / Connection::kReadBufferBytes);
  ASSERT_FALSE(results[1].error.has_value()) << results[1].error->message;
  EXPECT_EQ(results[1].sink.body, "ok");
  EXPECT_TRUE(results[1].t.connection_reused);
}

TEST(PlainRead, EndOfStreamInsideAChunkIsAnIncompletePayload) {
  int port = 0;
  const int fd = listen_tcp(port);
  std::vector<Result> results(1);
  {
    ScriptServer server(fd, {{{kSseHead + "10\r\ndata: cut", -1}}});
    run_exchanges("http://127.0.0.1:" + std::to_string(port), "", results);
  }
  ASSERT_TRUE(results[0].error.has_value());
  EXPECT_EQ(results[0].error->type.name(), "ClientPayloadError");
  EXPECT_EQ(results[0].error->message, "Response payload is not completed");
  EXPECT_EQ(results[0].sink.body, "data: cut");
}

// A sink that cancels from inside a read (the read step holds the socket's reactor lock): the
// close waits for the read's completion, and the exchange ends at once with the cancellation.
TEST(PlainRead, ASinkThatCancelsInsideAReadEndsTheExchange) {
  int port = 0;
  const int fd = listen_tcp(port);
  std::vector<Result> results(1);
  results[0].sink.cancel_from_sink = true;
  const auto t0 = std::chrono::steady_clock::now();
  {
    ScriptServer server(fd, {{{kSseHead + "8\r\ndata: he\r\n", 1500}, {"0\r\n\r\n", -1}}});
    run_exchanges("http://127.0.0.1:" + std::to_string(port), "", results);
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::milliseconds(1200))
        << "the exchange waited for the server instead of ending at the cancel";
  }
  ASSERT_TRUE(results[0].error.has_value());
  EXPECT_EQ(results[0].error->message, "stop");
  EXPECT_EQ(results[0].error->code, 499);
  EXPECT_EQ(results[0].sink.body, "data: he");
}

// The io_context going away while a read is queued (a stalled stream): the operation and the
// exchange's coroutine are destroyed unrun, nothing leaks (ASan) and nothing more is read.
TEST(PlainRead, AnIoContextDestroyedWithAReadQueuedDestroysIt) {
  int port = 0;
  const int fd = listen_tcp(port);
  ScriptServer server(fd, {{{kSseHead + "8\r\ndata: he\r\n", 400}, {"", -1}}});
  RecordingSink sink;
  ExchangeTimings t;
  CancelHandle cancel;
  const core::SteadyClock clock;
  bool ended = false;
  {
    asio::io_context io;
    auto url = parse_base_url("http://127.0.0.1:" + std::to_string(port));
    ASSERT_TRUE(url);
    ConnectionPool pool(io.get_executor(), *url, nullptr, "");
    asio::co_spawn(
        io,
        [&]() -> asio::awaitable<void> {
          ExchangeRequest req{std::string_view("GET / HTTP/1.1\r\nHost: x\r\n\r\n")};
          co_await http_exchange(pool, req, sink, clock, t, cancel);
          ended = true;
        },
        asio::detached);
    for (int spins = 0; sink.body.empty() && spins < 400; ++spins)
      io.run_for(std::chrono::milliseconds(5));
  }
  EXPECT_FALSE(ended);
  EXPECT_EQ(sink.body, "data: he");
}

// A keep-alive response whose last bytes come with the server's end of stream (a half close: a
// request sent there later is neither answered nor reset): the read that ends the response drains
// the socket and tells the reactor to skip the next speculative read, so nothing reads the end of
// stream. The pool's check before reuse must find it, and the next request go out on a new
// connection; a blind reuse would wait for an answer that never comes.
TEST(PlainRead, AResponseEndedByTheServersCloseIsNotReusedBlindly) {
  const std::string ok = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\n";
  int port = 0;
  const int fd = listen_tcp(port);
  std::vector<Result> results(3);
  const auto t0 = std::chrono::steady_clock::now();
  {
    ScriptServer server(fd, {{{ok + "ab", kHalfClose}}, {{ok + "cd", 0}}, {{ok + "ef", 0}}});
    run_exchanges("http://127.0.0.1:" + std::to_string(port), "", results);
  }
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(2));
  const char* bodies[] = {"ab", "cd", "ef"};
  for (std::size_t i = 0; i < results.size(); ++i) {
    SCOPED_TRACE("exchange " + std::to_string(i));
    ASSERT_FALSE(results[i].error.has_value()) << results[i].error->message;
    EXPECT_EQ(results[i].sink.body, bodies[i]);
  }
  EXPECT_FALSE(results[1].t.connection_reused);
  EXPECT_TRUE(results[2].t.connection_reused);  // the second connection stayed good
}

// Reads on this thread may park on the kernel's "nothing queued", as on a worker's, while it lives.
struct QuietReadsChecked {
  QuietReadsChecked() { set_quiet_reads_checked(true); }
  ~QuietReadsChecked() { set_quiet_reads_checked(false); }
};

// One request to the scripted server on `port`, then, once the whole answer has arrived (200 ms),
// its read, on a thread where reads park on "nothing queued"; check_quiet_reads runs with
// `quiet_check_age_ns` between turns of the loop, as the worker's probe runs it. `outcome` stays
// empty if the read did not end in 2 s.
struct SettledRead {
  std::optional<ReadOutcome> outcome;
  RecordingSink sink;
  bool open_after = true;
  std::chrono::steady_clock::duration took{};
};
SettledRead read_settled_response(int port, std::int64_t quiet_check_age_ns) {
  const QuietReadsChecked parking;
  SettledRead r;
  asio::io_context io;
  asio::ip::tcp::socket sock(io);
  sock.connect({asio::ip::make_address("127.0.0.1"), static_cast<unsigned short>(port)});
  Connection conn(std::move(sock));
  const core::SteadyClock clock;
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        const std::string request = "GET / HTTP/1.1\r\nHost: x\r\n\r\n";
        co_await asio::async_write(conn, asio::buffer(request), asio::use_awaitable);
        asio::steady_timer settle(io, std::chrono::milliseconds(200));
        co_await settle.async_wait(asio::use_awaitable);
        ResponseReader reader(1 << 20);
        ExchangeTimings t;
        r.outcome = co_await read_plain_response(conn, reader, r.sink, clock, t, true);
      },
      asio::detached);
  const auto t0 = std::chrono::steady_clock::now();
  for (int spins = 0; !r.outcome && spins < 400; ++spins) {
    io.run_for(std::chrono::milliseconds(5));
    check_quiet_reads(io, clock.now_ns(), quiet_check_age_ns);
  }
  r.took = std::chrono::steady_clock::now() - t0;
  r.open_after = conn.is_open();
  return r;
}

// An end of stream queued behind a response's middle bytes (both arrived before the read): the
// read that takes those bytes learns from the kernel that something stays queued (the end of
// stream counts as a byte), reads on and ends with the end of stream at once; taking "a short
// read" for "nothing queued" would wait for an edge that never comes.
TEST(PlainRead, AnEndOfStreamQueuedBehindMidResponseBytesEndsTheReadAtOnce) {
  int port = 0;
  const int fd = listen_tcp(port);
  ScriptServer server(fd, {{{kSseHead + "10\r\ndata: cut", kHalfClose}}});
  const SettledRead r = read_settled_response(port, 60'000'000'000);  // the check never due
  ASSERT_TRUE(r.outcome.has_value()) << "the read waited for an edge after the end of stream";
  EXPECT_EQ(r.outcome->ec, asio::error::eof);
  EXPECT_EQ(r.sink.body, "data: cut");
}

// A reset queued behind a response's middle bytes: the kernel's hint counts an end of stream but
// not a reset, so the read that takes the bytes is parked on "nothing queued" and no edge follows.
// check_quiet_reads (the worker runs it every second) finds the socket's error and the read ends
// with the reset, not at its request's timeout.
TEST(PlainRead, AResetQueuedBehindMidResponseBytesEndsTheReadAtTheQuietCheck) {
  int port = 0;
  const int fd = listen_tcp(port);
  ScriptServer server(fd, {{{kSseHead + "10\r\ndata: cut", kAbort}}});
  const SettledRead r = read_settled_response(port, 50'000'000);
  ASSERT_TRUE(r.outcome.has_value()) << "the read waited for an edge after the reset";
  EXPECT_LT(r.took, std::chrono::seconds(1));
  EXPECT_EQ(r.outcome->ec, asio::error::connection_reset);
  EXPECT_EQ(r.sink.body, "data: cut");
  EXPECT_FALSE(r.open_after);
}

// A read parked on "nothing queued" whose socket is healthy is left alone by the check, and ends
// normally when the rest of the response comes.
TEST(PlainRead, AQuietCheckLeavesAHealthyParkedReadWaiting) {
  const QuietReadsChecked parking;
  int port = 0;
  const int fd = listen_tcp(port);
  std::vector<Result> results(1);
  {
    ScriptServer server(fd,
                        {{{kSseHead + "8\r\ndata: he\r\n", 300}, {kChunkedBody.substr(13), 0}}});
    asio::io_context io;
    auto url = parse_base_url("http://127.0.0.1:" + std::to_string(port));
    ASSERT_TRUE(url);
    ConnectionPool pool(io.get_executor(), *url, nullptr, "");
    bool done = false;
    const core::SteadyClock clock;
    asio::co_spawn(
        io,
        [&]() -> asio::awaitable<void> {
          ExchangeRequest req{"GET / HTTP/1.1\r\nHost: x\r\n\r\n"};
          CancelHandle cancel;
          results[0].error =
              co_await http_exchange(pool, req, results[0].sink, clock, results[0].t, cancel);
          done = true;
        },
        asio::detached);
    for (int spins = 0; !done && spins < 400; ++spins) {
      io.run_for(std::chrono::milliseconds(5));
      check_quiet_reads(io, clock.now_ns(), 0);  // every parked read, every turn
    }
    ASSERT_TRUE(done);
  }
  ASSERT_FALSE(results[0].error.has_value()) << results[0].error->message;
  EXPECT_EQ(results[0].sink.events.size(), 2u);
}

// The same end of stream read by a second read on the connection that nothing has peeked at (no
// pool in between): the reactor was told the socket was drained, so that read reads once itself
// and ends at the end of stream instead of waiting for a readiness edge that never comes.
TEST(PlainRead, ASecondReadWithNoPeekBetweenStillSeesTheEndOfStream) {
  int port = 0;
  const int fd = listen_tcp(port);
  ScriptServer server(
      fd, {{{"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nab",
             kHalfClose}}});
  asio::io_context io;
  asio::ip::tcp::socket sock(io);
  sock.connect({asio::ip::make_address("127.0.0.1"), static_cast<unsigned short>(port)});
  Connection conn(std::move(sock));
  const core::SteadyClock clock;
  std::vector<ReadOutcome> outcomes;
  RecordingSink sink;
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        const std::string request = "GET / HTTP/1.1\r\nHost: x\r\n\r\n";
        co_await asio::async_write(conn, asio::buffer(request), asio::use_awaitable);
        for (int i = 0; i < 2; ++i) {
          ResponseReader reader(1 << 20);
          ExchangeTimings t;
          outcomes.push_back(co_await read_plain_response(conn, reader, sink, clock, t, true));
        }
      },
      asio::detached);
  for (int spins = 0; outcomes.size() < 2 && spins < 400; ++spins)
    io.run_for(std::chrono::milliseconds(5));
  ASSERT_EQ(outcomes.size(), 2u) << "the second read waited for an edge after the end of stream";
  EXPECT_FALSE(outcomes[0].ec);
  EXPECT_EQ(sink.body, "ab");
  EXPECT_EQ(outcomes[1].ec, asio::error::eof);
}

TEST(PlainRead, ConnectionCloseBodyEndsAtEndOfStream) {
  int port = 0;
  const int fd = listen_tcp(port);
  std::vector<Result> results(1);
  {
    ScriptServer server(
        fd, {{{"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\nab", 2},
              {"cd", -1}}});
    run_exchanges("http://127.0.0.1:" + std::to_string(port), "", results);
  }
  ASSERT_FALSE(results[0].error.has_value()) << results[0].error->message;
  EXPECT_EQ(results[0].sink.body, "abcd");
}

// The loop lags 300 ms after the first read while the second part arrives 50 ms after the first:
// the second read is stamped with its arrival, not with when the loop got to it. (Wide margins: the
// loop must read the first part before the second lands, also on a loaded sanitizer machine.)
TEST(PlainRead, TcpReadsCarryTheKernelReceiveTime) {
  int port = 0;
  const int fd = listen_tcp(port);
  std::vector<Result> results(1);
  results[0].sink.lag_ms = 300;
  {
    ScriptServer server(fd, {{{kSseHead + "8\r\ndata: he\r\n", 50}, {kChunkedBody.substr(13), 0}}});
    run_exchanges("http://127.0.0.1:" + std::to_string(port), "", results);
  }
  const Result& r = results[0];
  ASSERT_FALSE(r.error.has_value()) << r.error->message;
  ASSERT_EQ(r.sink.stamps.size(), 2u);
  EXPECT_EQ(r.t.reads, 2u);
  // The lagged read is stamped by the kernel. The first may not be: Linux turns its receive
  // stamping on system-wide through a deferred work item when the first socket asks, so a process
  // that is the only one asking can see its very first segment unstamped (clock read instead).
  EXPECT_GE(r.t.kernel_stamped_reads, 1u);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_LE(r.sink.stamps[i], r.sink.seen_at[i]);  // never later than the clock after the read
    EXPECT_GE(r.sink.stamps[i], r.t.send_end_ns);
  }
  // Arrived about 50 ms after the first part; the loop read it about 300 ms after.
  EXPECT_LT(r.sink.stamps[1] - r.sink.stamps[0], 250'000'000);
  EXPECT_GE(r.sink.seen_at[1] - r.sink.stamps[1], 150'000'000);
}

TEST(PlainRead, UnixSocketReadsCarryTheClockRead) {
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("inferperf-plain-read-" + std::to_string(::getpid()) + ".sock"))
                               .string();
  const int fd = listen_unix(path);
  std::vector<Result> results(1);
  {
    ScriptServer server(fd, {{{kSseHead + kChunkedBody, 0}}});
    run_exchanges("http://localhost", path, results);
  }
  ::unlink(path.c_str());
  ASSERT_FALSE(results[0].error.has_value()) << results[0].error->message;
  EXPECT_EQ(results[0].sink.events.size(), 2u);
  EXPECT_GE(results[0].t.reads, 1u);
  EXPECT_EQ(results[0].t.kernel_stamped_reads, 0u);
}

// TCP_INQ: each read says how many bytes stay queued, and a received end of stream counts as one
// (what lets the read path stop at "nothing queued" without a read that finds EAGAIN).
TEST(RxStamp, QueueHintCountsTheBytesLeftAndAPendingEndOfStream) {
  int port = 0;
  const int lfd = listen_tcp(port);
  const int client = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = htons(static_cast<std::uint16_t>(port));
  ASSERT_EQ(::connect(client, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  const int server = ::accept(lfd, nullptr, nullptr);
  ASSERT_GE(server, 0);
  if (!enable_queue_hints(client)) {
    ::close(server);
    ::close(client);
    ::close(lfd);
    GTEST_SKIP() << "this kernel has no TCP_INQ (Linux < 4.18): reads go on to EAGAIN";
  }
  auto wait_for = [&](short events) {
    pollfd p{client, events, 0};
    ASSERT_EQ(::poll(&p, 1, 2000), 1);
  };
  char buf[16];
  RecvNotes notes;
  ASSERT_EQ(::send(server, "abcde", 5, 0), 5);
  wait_for(POLLIN);
  EXPECT_EQ(recv_stamped(client, buf, 2, notes), 2);
  EXPECT_EQ(notes.queued, 3);
  EXPECT_EQ(recv_stamped(client, buf, sizeof buf, notes), 3);
  EXPECT_EQ(notes.queued, 0);
  ASSERT_EQ(::send(server, "xy", 2, 0), 2);
  ::shutdown(server, SHUT_WR);
  wait_for(POLLRDHUP);
  EXPECT_EQ(recv_stamped(client, buf, sizeof buf, notes), 2);
  EXPECT_EQ(notes.queued, 1);  // the end of stream
  EXPECT_EQ(recv_stamped(client, buf, sizeof buf, notes), 0);
  ::close(server);
  ::close(client);
  ::close(lfd);
  // Not TCP: no hint, the reads go on to EAGAIN.
  int pair[2];
  ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM, 0, pair), 0);
  EXPECT_FALSE(enable_queue_hints(pair[0]));
  ASSERT_EQ(::send(pair[1], "q", 1, 0), 1);
  EXPECT_EQ(recv_stamped(pair[0], buf, sizeof buf, notes), 1);
  EXPECT_EQ(notes.queued, -1);
  ::close(pair[0]);
  ::close(pair[1]);
}

TEST(RxStamp, KernelStampMovesTheClockReadBackByTheReadsDelay) {
  // Read 3 ms after arrival: the monotonic reading moves back by 3 ms.
  EXPECT_EQ(kernel_stamp_to_mono(1'000'000'000, 50'000'000, 1'003'000'000), 47'000'000);
  EXPECT_EQ(kernel_stamp_to_mono(1'000'000'000, 50'000'000, 1'000'000'000), 50'000'000);
  // A real-time clock stepped back (negative delay) or forward (over a second): no stamp.
  EXPECT_FALSE(kernel_stamp_to_mono(1'000'000'000, 50'000'000, 999'999'999).has_value());
  EXPECT_FALSE(kernel_stamp_to_mono(1'000'000'000, 50'000'000, 2'000'000'001).has_value());
  EXPECT_FALSE(kernel_stamp_to_mono(0, 50'000'000, 1'000'000'000).has_value());
}

}  // namespace
}  // namespace inferperf::transport
