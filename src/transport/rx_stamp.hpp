// Kernel receive timestamps for plain sockets: SO_TIMESTAMPNS makes the kernel stamp each arriving
// segment (CLOCK_REALTIME, in software, as the packet reaches the socket layer) and recvmsg hands
// the stamp of the last segment a read took back as a control message. A read is then stamped with
// when its bytes arrived, not when a busy event loop got round to reading them.
#pragma once
#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <optional>

#include "core/clock.hpp"

namespace inferperf::transport {

// Asks the kernel to stamp what arrives on `fd`; false when the socket refuses (then reads carry
// no stamp and are timed by the clock read after them).
bool enable_rx_timestamps(int fd);

// Asks the kernel to tell each read how many bytes stay queued after it (TCP_INQ); false when the
// socket refuses (not TCP). A received end of stream counts as a byte there, so a read that
// learns "nothing queued" knows the next bytes or the end of stream will raise a readiness edge.
bool enable_queue_hints(int fd);

// What a read learned besides its bytes.
struct RecvNotes {
  std::int64_t kernel_real_ns = 0;  // the kernel's CLOCK_REALTIME stamp of the data, 0 if none
  int queued = -1;                  // bytes left queued (an end of stream counts 1); -1 unknown
};

// One non-blocking recvmsg on `fd` into `buf`: the byte count (0 at end of stream), or -1 with
// errno set; `notes` from the read's control messages.
ssize_t recv_stamped(int fd, char* buf, std::size_t len, RecvNotes& notes);

// CLOCK_REALTIME now, in ns.
std::int64_t realtime_now_ns();

// The monotonic time of a kernel stamp, from the monotonic and real-time clocks read just after
// the read: mono_now - (real_now - kernel_real). Only the read's delay (microseconds to a few
// milliseconds) crosses clock bases, so a slewing real-time clock (NTP, at most 500 ppm) moves the
// result by at most 0.5 us per ms of delay. nullopt when the delay is negative or over a second:
// the real-time clock was stepped between arrival and read, and the caller keeps its clock read.
std::optional<core::MonoNs> kernel_stamp_to_mono(std::int64_t kernel_real_ns, core::MonoNs mono_now,
                                                 std::int64_t real_now);

}  // namespace inferperf::transport
