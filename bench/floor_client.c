// The floor client (bench/floor_ratio.sh, docs/benchmarks.md): the least a client can spend per
// streamed event. N keep-alive connections each send a streaming chat-completions request, read
// the answer with one recv per epoll readiness into the connection's own buffer, stamp every read
// with CLOCK_MONOTONIC, frame the chunked encoding and count SSE events in one pass, and send the
// next request on the same connection when the terminating chunk arrives, until --requests
// responses are complete. Prints one JSON line; CPU is getrusage over the load window.
// Usage: floor_client -a HOST:PORT [-c CONNECTIONS] [-n REQUESTS] [-o OSL] [-m MODEL]
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

enum phase { HEAD, SIZE, DATA, DATA_END, TRAILER };

struct conn {
  int fd;
  enum phase phase;
  size_t len;         // bytes of buf not parsed yet (a head or a chunk-size line in parts)
  size_t chunk_left;  // bytes left of the current chunk's data
  int newline;        // the last data byte was '\n' (an event ends at the next one)
  size_t event_at;    // bytes of the current event seen, and its first bytes, for [DONE]
  char event_head[12];
  int done_seen;
  int64_t sent_ns, first_ns, last_ns;
  char buf[65536];
};

static const char done_event[] = "data: [DONE]";  // compared without its NUL
static long long events, completed, issued, errors, total, reads, waits;
static double first_event_sum_ms;
static char request[2048];
static int request_len;

static int64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

// User and system CPU seconds of the process so far.
static void cpu_times(double* user, double* sys) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  *user = (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec;
  *sys = (double)ru.ru_stime.tv_sec + 1e-6 * (double)ru.ru_stime.tv_usec;
}

static void die(const char* what) {
  perror(what);
  exit(1);
}

static void send_request(struct conn* c) {
  if (send(c->fd, request, (size_t)request_len, MSG_NOSIGNAL) != request_len) die("send");
  ++issued;
  c->phase = HEAD;
  c->done_seen = 0;
  c->first_ns = 0;
  c->sent_ns = now_ns();
}

// Chunk data: counts the events that end in it (at a blank line; the mock ends lines with "\n")
// and remembers whether one was "data: [DONE]". memchr jumps from line end to line end.
static void scan_data(struct conn* c, const char* p, size_t n) {
  const char* end = p + n;
  while (p < end) {
    const char* nl = memchr(p, '\n', (size_t)(end - p));
    const char* stop = nl ? nl + 1 : end;
    if (c->event_at < sizeof c->event_head) {
      size_t k = sizeof c->event_head - c->event_at;
      if (k > (size_t)(stop - p)) k = (size_t)(stop - p);
      memcpy(c->event_head + c->event_at, p, k);
    }
    c->event_at += (size_t)(stop - p);
    if (!nl) {
      c->newline = 0;
      return;
    }
    if (nl == p && c->newline) {  // a blank line: the event is complete
      ++events;
      if (c->first_ns == 0) c->first_ns = c->last_ns;
      if (c->event_at >= sizeof c->event_head &&
          memcmp(c->event_head, done_event, sizeof c->event_head) == 0)
        c->done_seen = 1;
      c->event_at = 0;
      c->newline = 0;
    } else {
      c->newline = 1;
    }
    p = stop;
  }
}

// Frames the bytes in buf[0, len); returns 1 when the response is complete.
static int parse(struct conn* c) {
  char* p = c->buf;
  char* end = c->buf + c->len;
  while (p < end) {
    if (c->phase == DATA) {
      size_t n = (size_t)(end - p) < c->chunk_left ? (size_t)(end - p) : c->chunk_left;
      scan_data(c, p, n);
      p += n;
      c->chunk_left -= n;
      if (c->chunk_left == 0) c->phase = DATA_END;
      continue;
    }
    const char* crlf = memmem(p, (size_t)(end - p), "\r\n", 2);
    if (!crlf) break;  // a line in parts: kept for the next read
    if (c->phase == HEAD) {
      const char* blank = memmem(p, (size_t)(end - p), "\r\n\r\n", 4);
      if (!blank) break;
      if (strncmp(p, "HTTP/1.1 200", 12) != 0 || !memmem(p, (size_t)(blank - p), "chunked", 7)) {
        fprintf(stderr, "floor_client: not a 200 chunked answer: %.*s\n", (int)(blank - p), p);
        exit(1);
      }
      p = (char*)blank + 4;
      c->phase = SIZE;
    } else if (c->phase == SIZE) {
      c->chunk_left = strtoul(p, NULL, 16);
      p = (char*)crlf + 2;
      c->phase = c->chunk_left ? DATA : TRAILER;
    } else if (c->phase == DATA_END) {
      p = (char*)crlf + 2;
      c->phase = SIZE;
    } else {  // TRAILER: the empty line after the zero-size chunk ends the response
      const int empty = crlf == p;
      p = (char*)crlf + 2;
      if (empty) {
        c->len = (size_t)(end - p);
        memmove(c->buf, p, c->len);
        return 1;
      }
    }
  }
  c->len = (size_t)(end - p);
  memmove(c->buf, p, c->len);
  return 0;
}

static void on_readable(struct conn* c, int ep) {
  ssize_t n = recv(c->fd, c->buf + c->len, sizeof c->buf - c->len, 0);
  if (n < 0) {
    if (errno == EAGAIN || errno == EINTR) return;  // a spurious wake-up
    die("recv");
  }
  if (n == 0) {
    fprintf(stderr, "floor_client: the server closed a connection\n");
    exit(1);
  }
  c->last_ns = now_ns();
  ++reads;
  c->len += (size_t)n;
  if (!parse(c)) return;
  if (!c->done_seen) ++errors;
  first_event_sum_ms += 1e-6 * (double)(c->first_ns - c->sent_ns);
  ++completed;
  if (issued < total) {
    send_request(c);
  } else {
    epoll_ctl(ep, EPOLL_CTL_DEL, c->fd, NULL);
    close(c->fd);
  }
}

static int build_request(const char* addr, const char* model, int osl) {
  // A prompt of 32 words, as inferperf's --isl 32 gives the mock about as much text to echo.
  char prompt[512] = "";
  for (int i = 0; i < 32; ++i) strcat(prompt, i % 2 ? "floor " : "client ");
  char body[1024];
  int body_len =
      snprintf(body, sizeof body,
               "{\"model\":\"%s\",\"messages\":[{\"role\":\"user\",\"content\":\"%s\"}],"
               "\"max_tokens\":%d,\"stream\":true,\"stream_options\":{\"include_usage\":true},"
               "\"ignore_eos\":true}",
               model, prompt, osl);
  request_len = snprintf(request, sizeof request,
                         "POST /v1/chat/completions HTTP/1.1\r\nHost: %s\r\n"
                         "User-Agent: floor_client\r\nContent-Type: application/json\r\n"
                         "Accept: text/event-stream\r\nContent-Length: %d\r\n\r\n%s",
                         addr, body_len, body);
  return body_len < (int)sizeof body && request_len < (int)sizeof request;
}

static int connect_to(const char* addr) {
  char host[256];
  const char* colon = strrchr(addr, ':');
  if (!colon || (size_t)(colon - addr) >= sizeof host) return -1;
  memcpy(host, addr, (size_t)(colon - addr));
  host[colon - addr] = 0;
  struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)atoi(colon + 1))};
  if (inet_pton(AF_INET, host, &sa.sin_addr) != 1) return -1;
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) die("socket");
  if (connect(fd, (struct sockaddr*)&sa, sizeof sa) != 0) die("connect");
  if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) != 0) die("fcntl");
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  return fd;
}

int main(int argc, char** argv) {
  const char* addr = NULL;
  const char* model = "mock-model";
  int conns = 64, osl = 100;
  total = 640;
  int bad = 0;
  for (int opt; (opt = getopt(argc, argv, "a:c:n:o:m:")) != -1;) {
    switch (opt) {
      case 'a':
        addr = optarg;
        break;
      case 'c':
        conns = atoi(optarg);
        break;
      case 'n':
        total = atoll(optarg);
        break;
      case 'o':
        osl = atoi(optarg);
        break;
      case 'm':
        model = optarg;
        break;
      default:
        bad = 1;
    }
  }
  if (bad || optind != argc || !addr || conns < 1 || total < 1 || osl < 1) {
    fprintf(stderr,
            "usage: floor_client -a HOST:PORT [-c CONNECTIONS] [-n REQUESTS] [-o OSL] "
            "[-m MODEL]\n");
    return 2;
  }
  if (conns > total) conns = (int)total;
  if (!build_request(addr, model, osl)) {
    fprintf(stderr, "floor_client: -a or -m too long\n");
    return 2;
  }
  int ep = epoll_create1(EPOLL_CLOEXEC);
  struct conn* cs = calloc((size_t)conns, sizeof *cs);
  if (ep < 0 || !cs) die("setup");
  for (int i = 0; i < conns; ++i) {
    cs[i].fd = connect_to(addr);
    if (cs[i].fd < 0) {
      fprintf(stderr, "floor_client: -a wants IPv4 HOST:PORT, got '%s'\n", addr);
      return 2;
    }
    struct epoll_event ev = {.events = EPOLLIN, .data.ptr = &cs[i]};
    if (epoll_ctl(ep, EPOLL_CTL_ADD, cs[i].fd, &ev) != 0) die("epoll_ctl");
  }
  double user0, sys0, user1, sys1;
  cpu_times(&user0, &sys0);
  const int64_t t0 = now_ns();
  for (int i = 0; i < conns; ++i) send_request(&cs[i]);
  struct epoll_event ready[256];
  while (completed < total) {
    int n = epoll_wait(ep, ready, 256, -1);
    ++waits;
    if (n < 0 && errno != EINTR) die("epoll_wait");
    for (int i = 0; i < n; ++i) on_readable(ready[i].data.ptr, ep);
  }
  const double wall = 1e-9 * (double)(now_ns() - t0);
  cpu_times(&user1, &sys1);
  const double user = user1 - user0, sys = sys1 - sys0;
  printf(
      "{\"requests\":%lld,\"events\":%lld,\"errors\":%lld,\"connections\":%d,"
      "\"wall_s\":%.3f,\"cpu_user_s\":%.6f,\"cpu_sys_s\":%.6f,\"cpu_us_per_event\":%.3f,"
      "\"events_per_s\":%.0f,\"reads_per_event\":%.3f,\"waits_per_event\":%.3f,"
      "\"first_event_avg_ms\":%.3f}\n",
      completed, events, errors, conns, wall, user, sys, 1e6 * (user + sys) / (double)events,
      (double)events / wall, (double)reads / (double)events, (double)waits / (double)events,
      first_event_sum_ms / (double)completed);
  return errors ? 1 : 0;
}
