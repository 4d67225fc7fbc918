// The read side of an exchange on a plain (TCP or Unix) connection as one asynchronous operation:
// "read until the response is complete". It is an operation resident in Asio's reactor: queued
// once in the socket's read queue, it stays there while the response lasts, and the reactor runs
// its step on every readiness edge: recvmsg into the thread's buffer until the kernel says nothing
// is queued (TCP_INQ) or, without that hint, until EAGAIN -> stamp (the kernel's receive time
// where the socket has it, else the clock) -> parse and hand to the sink. No operation, handler
// call or re-arm per read; the coroutine that runs the exchange resumes once per response
// (docs/decisions.md, "The response is read by one operation resident in Asio's reactor").
#pragma once
#include <boost/asio/awaitable.hpp>
#include <boost/asio/execution_context.hpp>
#include <boost/system/error_code.hpp>

#include <cstdint>

#include "core/clock.hpp"
#include "transport/connection.hpp"
#include "transport/http_exchange.hpp"
#include "transport/response_reader.hpp"

namespace inferperf::transport {

struct ReadOutcome {
  boost::system::error_code ec;   // the socket's error (eof at end of stream), empty when done
  boost::system::error_code pec;  // the parser's error: an invalid or oversized response
  core::MonoNs ts = 0;            // stamp of the last read (or of the failure)
};

// Reads from `conn` (plain_fd() >= 0) into `reader` until the response is complete, the sink
// stops wanting bytes, or a read fails. `kernel_stamps`: use the kernel's receive stamps where the
// connection has them (only meaningful with a clock that reads CLOCK_MONOTONIC). Closing the
// connection under it (CancelHandle) completes it with operation_aborted.
boost::asio::awaitable<ReadOutcome> read_plain_response(Connection& conn, ResponseReader& reader,
                                                        ResponseSink& sink,
                                                        const core::Clock& clock,
                                                        ExchangeTimings& t, bool kernel_stamps);

// Whether reads on the calling thread may stop at the kernel's "nothing queued" (TCP_INQ): only
// where the thread's loop runs check_quiet_reads below (the workers' threads). Elsewhere (the
// preflight, probes) a read goes on to EAGAIN, which also reads a reset that came with its last
// bytes.
void set_quiet_reads_checked(bool on);

// The reads of `ctx` that have waited on the kernel's "nothing queued" for `older_than_ns` or more
// get their socket's pending error checked: a reset that came with their last bytes raised no
// readiness edge, and such a read ends with it (its connection closed). Run it periodically on the
// thread that runs `ctx` (the worker does, every second).
void check_quiet_reads(boost::asio::execution_context& ctx, core::MonoNs now_ns,
                       std::int64_t older_than_ns);

}  // namespace inferperf::transport
