#include "transport/rx_stamp.hpp"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cstring>

namespace inferperf::transport {

namespace {
// The longest a read can plausibly lag its data: beyond it the clocks were stepped.
constexpr std::int64_t kRxStampMaxDelayNs = 1'000'000'000;
}  // namespace

bool enable_rx_timestamps(int fd) {
  const int on = 1;
  return ::setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &on, sizeof on) == 0;
}

bool enable_queue_hints(int fd) {
  const int on = 1;
  return ::setsockopt(fd, IPPROTO_TCP, TCP_INQ, &on, sizeof on) == 0;
}

ssize_t recv_stamped(int fd, char* buf, std::size_t len, RecvNotes& notes) {
  notes = RecvNotes{};
  iovec iov{buf, len};
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(timespec)) + CMSG_SPACE(sizeof(int))];
  msghdr msg{};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  msg.msg_control = control;
  msg.msg_controllen = sizeof control;
  // The system call itself, not glibc's recvmsg: that one is a thread-cancellation point and (in
  // Debian 12's glibc 2.36) switches asynchronous cancellation on and off around every call, about
  // 50 instructions a read, some 2 % of a streamed event's; no thread here is ever cancelled. The
  // sanitizers do not see it either: ThreadSanitizer's socket ordering (a send before a receive)
  // is not recorded, which no test relies on (their servers run in threads they join, or in
  // processes of their own).
  const auto n = static_cast<ssize_t>(::syscall(SYS_recvmsg, fd, &msg, MSG_DONTWAIT));
  if (n <= 0 || msg.msg_controllen == 0) return n;
  for (cmsghdr* c = CMSG_FIRSTHDR(&msg); c != nullptr; c = CMSG_NXTHDR(&msg, c)) {
    if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_TIMESTAMPNS) {
      timespec ts{};
      std::memcpy(&ts, CMSG_DATA(c), sizeof ts);
      notes.kernel_real_ns = static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
    } else if (c->cmsg_level == IPPROTO_TCP && c->cmsg_type == TCP_CM_INQ) {
      std::memcpy(&notes.queued, CMSG_DATA(c), sizeof notes.queued);
    }
  }
  return n;
}

std::int64_t realtime_now_ns() {
  timespec ts{};
  ::clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

std::optional<core::MonoNs> kernel_stamp_to_mono(std::int64_t kernel_real_ns, core::MonoNs mono_now,
                                                 std::int64_t real_now) {
  if (kernel_real_ns <= 0) return std::nullopt;
  const std::int64_t delay = real_now - kernel_real_ns;
  if (delay < 0 || delay > kRxStampMaxDelayNs) return std::nullopt;
  return mono_now - delay;
}

}  // namespace inferperf::transport
