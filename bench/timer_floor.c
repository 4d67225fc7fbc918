/* The timer floor for bench/pacing.sh: what a bare loop gets from the kernel's timer at a
 * constant rate, with inferperf's own waiting recipe (timer slack 1 ns, an absolute
 * CLOCK_MONOTONIC timerfd armed 20 us before each deadline, the rest spun) and no other work.
 * Lateness = the clock after the spin - the deadline; its percentiles are the floor beside the
 * client's schedule lag. As the client's rate schedules do, deadlines more than 2 ms old when
 * the loop wakes are skipped and counted, not measured (the client records no lag for them).
 * Usage: inferperf_timer_floor RATE SECONDS */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

static int64_t floor_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int floor_cmp(const void* a, const void* b) {
  const int64_t x = *(const int64_t*)a, y = *(const int64_t*)b;
  return (x > y) - (x < y);
}

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s RATE SECONDS\n", argv[0]);
    return 2;
  }
  const double rate = atof(argv[1]), secs = atof(argv[2]);
  if (!(rate > 0) || !(secs > 0)) {
    fprintf(stderr, "RATE and SECONDS must be positive\n");
    return 2;
  }
  const int64_t spin = 20000, interval = (int64_t)(1e9 / rate), window = 2000000;
  const size_t total = (size_t)(rate * secs);
  size_t n = 0, skipped = 0;
  int64_t* late = malloc(total * sizeof *late);
  const int fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
  if (!late || fd < 0) return 1;
  prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
  const int64_t start = floor_now_ns();
  for (size_t i = 0; i < total; ++i) {
    const int64_t deadline = start + (int64_t)(i + 1) * interval;
    if (deadline + window <= floor_now_ns()) {
      ++skipped;
      continue;
    }
    if (deadline - floor_now_ns() > spin) {
      struct itimerspec spec = {0};
      spec.it_value.tv_sec = (deadline - spin) / 1000000000;
      spec.it_value.tv_nsec = (deadline - spin) % 1000000000;
      timerfd_settime(fd, TFD_TIMER_ABSTIME, &spec, NULL);
      uint64_t expirations;
      if (read(fd, &expirations, sizeof expirations) < 0) return 1;
    }
    int64_t t;
    while ((t = floor_now_ns()) < deadline) {
    }
    late[n++] = t - deadline;
  }
  if (n == 0) return 1;
  qsort(late, n, sizeof *late, floor_cmp);
  printf("timer floor (us): p50 %.1f  p99 %.1f  max %.1f  (%zu deadlines, %zu skipped)\n",
         (double)late[(n - 1) / 2] / 1e3, (double)late[(size_t)(0.99 * (double)(n - 1))] / 1e3,
         (double)late[n - 1] / 1e3, n, skipped);
  free(late);
  close(fd);
  return 0;
}
