#include "ui/dashboard.hpp"

#include <curses.h>
#include <fmt/format.h>
#include <termios.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include "ui/text.hpp"

namespace inferperf::ui {

namespace {

// The terminal modes from before the dashboard, for emergency_restore_terminal().
std::atomic<bool> g_active{false};
termios g_saved_modes{};
bool g_have_modes = false;

// A crash (SIGSEGV, an abort from a failed check) must not leave the terminal on the alternate
// screen with echo off: these handlers restore it with async-signal-safe calls, then let the
// default action happen (SA_RESETHAND re-arms it; raise() delivers it again).
constexpr int kCrashSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
struct sigaction g_previous[sizeof(kCrashSignals) / sizeof(kCrashSignals[0])];

void restore_and_reraise(int sig) {
  emergency_restore_terminal();
  ::raise(sig);
}

void install_crash_handlers() {
  struct sigaction sa {};
  sa.sa_handler = restore_and_reraise;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESETHAND | SA_NODEFER;
  for (std::size_t i = 0; i < std::size(kCrashSignals); ++i)
    ::sigaction(kCrashSignals[i], &sa, &g_previous[i]);
}

void remove_crash_handlers() {
  for (std::size_t i = 0; i < std::size(kCrashSignals); ++i)
    ::sigaction(kCrashSignals[i], &g_previous[i], nullptr);
}

enum Pane : int {
  kProgress,
  kMetrics,
  kErrors,
  kThroughput,
  kHealth,
  kTelemetry,
  kLog,
  kPaneCount
};
constexpr const char* kPaneNames[kPaneCount] = {"Progress",   "Live metrics",  "Errors by type",
                                                "Throughput", "Client health", "Telemetry",
                                                "Log"};

class Dashboard final : public Frontend {
 public:
  explicit Dashboard(DashboardOptions o) : opts_(std::move(o)) {
    g_have_modes = tcgetattr(STDIN_FILENO, &g_saved_modes) == 0;
    screen_ = newterm(nullptr, stdout, stdin);
    if (!screen_) throw std::runtime_error("cannot initialise the terminal for the dashboard");
    set_term(screen_);
    g_active.store(true);
    install_crash_handlers();
    cbreak();
    noecho();
    keypad(stdscr, TRUE);
    curs_set(0);
    if (has_colors()) {
      start_color();
      use_default_colors();
      init_pair(1, COLOR_CYAN, -1);
      init_pair(2, COLOR_RED, -1);
      init_pair(3, COLOR_GREEN, -1);
    }
  }

  ~Dashboard() override {
    remove_crash_handlers();
    // endwin leaves the alternate screen and restores the modes newterm changed.
    if (screen_) {
      endwin();
      delscreen(screen_);
    }
    g_active.store(false);
  }

  std::chrono::milliseconds period() const override { return std::chrono::seconds(1); }

  void show(const ProgressSnapshot& s) override {
    last_ = s;
    draw();
  }

  void wait(std::chrono::milliseconds d, const std::atomic<bool>& stop) override {
    const auto end = std::chrono::steady_clock::now() + d;
    while (!stop.load() && std::chrono::steady_clock::now() < end) {
      // The first q stops issuing, the second cancels what is in flight (as the first and
      // second Ctrl-C); a third would be the signal path's _Exit, which q never takes.
      if (key(50) == 'q' && quits_ < 2) {
        ++quits_;
        if (opts_.on_quit) opts_.on_quit();
        draw();
      }
    }
  }

  void close(const ProgressSnapshot& last) override {
    show(last);
    const auto end = std::chrono::steady_clock::now() +
                     std::chrono::milliseconds(static_cast<long>(opts_.linger_s * 1000));
    while (std::chrono::steady_clock::now() < end) {
      if (key(100) == 'q') break;
    }
  }

 private:
  // Reads one key within `timeout_ms`; handles tab, resize and scrolling, returns the key.
  int key(int timeout_ms) {
    timeout(timeout_ms);
    const int ch = getch();
    if (ch == ERR) return ch;
    switch (ch) {
      case '\t':
        focus_ = (focus_ + 1) % kPaneCount;
        break;
      case KEY_BTAB:
        focus_ = (focus_ + kPaneCount - 1) % kPaneCount;
        break;
      case KEY_UP:
        if (focus_ == kLog) ++scroll_;
        break;
      case KEY_DOWN:
        if (focus_ == kLog) scroll_ = std::max(0, scroll_ - 1);
        break;
      case KEY_PPAGE:
        if (focus_ == kLog) scroll_ += 10;
        break;
      case KEY_NPAGE:
        if (focus_ == kLog) scroll_ = std::max(0, scroll_ - 10);
        break;
      case KEY_RESIZE:
        break;
      default:
        return ch;
    }
    draw();
    return ch;
  }

  void text(int y, int x, int width, const std::string& s, int attrs = 0) {
    if (width <= 0 || y < 0 || y >= LINES) return;
    if (attrs) attron(attrs);
    mvaddnstr(y, x, s.c_str(), width);
    if (attrs) attroff(attrs);
  }

  // A box with its title in the top border; the focused pane's title is highlighted.
  void frame(int y, int x, int h, int w, Pane pane, const std::string& extra = "") {
    if (h < 2 || w < 4) return;
    mvaddch(y, x, ACS_ULCORNER);
    mvhline(y, x + 1, ACS_HLINE, w - 2);
    mvaddch(y, x + w - 1, ACS_URCORNER);
    mvvline(y + 1, x, ACS_VLINE, h - 2);
    mvvline(y + 1, x + w - 1, ACS_VLINE, h - 2);
    mvaddch(y + h - 1, x, ACS_LLCORNER);
    mvhline(y + h - 1, x + 1, ACS_HLINE, w - 2);
    mvaddch(y + h - 1, x + w - 1, ACS_LRCORNER);
    const std::string title = " " + std::string(kPaneNames[pane]) + extra + " ";
    text(y, x + 2, w - 4, title, focus_ == pane ? (A_REVERSE | A_BOLD) : A_BOLD);
  }

  void draw() {
    erase();
    const int w = COLS, h = LINES;
    const ProgressSnapshot& s = last_;
    const std::string state = s.finished    ? "finished"
                              : quits_ == 1 ? "stopping"
                              : quits_ >= 2 ? "cancelling"
                                            : "running";
    const char* q_does = s.finished    ? "close"
                         : quits_ == 0 ? "stop gracefully"
                         : quits_ == 1 ? "cancel requests in flight"
                                       : "-";
    std::string bar = fmt::format(
        " inferperf dashboard [{}]   q: {}   tab: switch pane   "
        "up/down: scroll log",
        state, q_does);
    bar.resize(static_cast<std::size_t>(std::max(0, w)), ' ');
    text(0, 0, w, bar, A_REVERSE);
    if (w < 60 || h < 20) {
      text(1, 0, w, fmt::format("terminal too small ({}x{}); 60x20 at least", w, h));
      int y = 2;
      for (const auto& l : simple_lines(s)) text(y++, 0, w, l);
      refresh();
      return;
    }
    int y = 1;
    // Progress: one line per phase.
    const int progress_h = 2 + std::max<int>(1, static_cast<int>(s.phases.size()));
    frame(y, 0, progress_h, w, kProgress);
    for (std::size_t i = 0; i < s.phases.size(); ++i)
      text(y + 1 + static_cast<int>(i), 2, w - 4, phase_line(s.phases[i]));
    if (s.phases.empty()) text(y + 1, 2, w - 4, "starting...");
    y += progress_h;

    // Live metrics (left) and errors (right).
    const int left_w = std::max(40, w * 3 / 5);
    const int right_w = w - left_w;
    const int metrics_h = 8;
    frame(y, 0, metrics_h, left_w, kMetrics, " (approximate, refreshed each second)");
    text(y + 1, 2, left_w - 4,
         fmt::format("{:<26}{:>10}{:>10}{:>10}{:>10}", "metric (ms)", "p50", "p90", "p99", "n"),
         A_BOLD);
    auto row = [&](int r, const char* name, const Percentiles& p) {
      text(y + r, 2, left_w - 4,
           fmt::format("{:<26}{:>10.2f}{:>10.2f}{:>10.2f}{:>10}", name, p.p50, p.p90, p.p99,
                       p.count));
    };
    row(2, "Time to First Token", s.ttft_ms);
    row(3, "Inter Token Latency", s.itl_ms);
    row(4, "Request Latency", s.latency_ms);
    text(y + 5, 2, left_w - 4,
         fmt::format("{:<26}{:>10.1f} req/s", "Request Throughput", s.requests_per_s));
    text(y + 6, 2, left_w - 4,
         fmt::format("{:<26}{:>10.1f} tok/s", "Output Token Throughput", s.output_tokens_per_s));
    if (right_w >= 10) {
      frame(y, left_w, metrics_h, right_w, kErrors);
      int r = 1;
      if (s.errors_by_type.empty()) text(y + r, left_w + 2, right_w - 4, "none");
      for (const auto& [type, n] : s.errors_by_type) {
        if (r >= metrics_h - 1) break;
        text(y + r++, left_w + 2, right_w - 4, fmt::format("{:>8}  {}", n, type),
             has_colors() ? COLOR_PAIR(2) : 0);
      }
    }
    y += metrics_h;

    // Throughput sparkline.
    const double peak =
        s.throughput_history.empty()
            ? 0.0
            : *std::max_element(s.throughput_history.begin(), s.throughput_history.end());
    frame(y, 0, 3, w, kThroughput,
          fmt::format(
              " (completed requests per second, last {} s, peak {:.0f})",
              std::min<std::size_t>(s.throughput_history.size(), static_cast<std::size_t>(w - 4)),
              peak));
    text(y + 1, 2, w - 4, sparkline(s.throughput_history, w - 4), has_colors() ? COLOR_PAIR(3) : 0);
    y += 3;

    // Client health (left) and telemetry (right).
    const int workers_rows = std::max<int>(1, static_cast<int>(s.workers.size()));
    const int tel_rows = std::max<int>(1, static_cast<int>(s.telemetry.size()));
    const int mid_h = std::min(2 + std::max(workers_rows + 1, tel_rows), std::max(4, h - y - 5));
    frame(y, 0, mid_h, left_w, kHealth);
    text(y + 1, 2, left_w - 4,
         fmt::format("schedule lag p99 {:.3f} ms   workers {}", s.schedule_lag_p99_ms,
                     s.workers.size()));
    for (std::size_t i = 0; i < s.workers.size() && 2 + static_cast<int>(i) < mid_h - 1; ++i) {
      const auto& wk = s.workers[i];
      text(y + 2 + static_cast<int>(i), 2, left_w - 4,
           fmt::format("worker {:<3} CPU {:5.1f} %   loop lag p99 {:.3f} ms", wk.id, wk.cpu_percent,
                       wk.loop_lag_p99_ms));
    }
    if (right_w >= 10) {
      frame(y, left_w, mid_h, right_w, kTelemetry);
      if (s.telemetry.empty()) text(y + 1, left_w + 2, right_w - 4, "no GPU or server telemetry");
      for (std::size_t i = 0; i < s.telemetry.size() && 1 + static_cast<int>(i) < mid_h - 1; ++i)
        text(y + 1 + static_cast<int>(i), left_w + 2, right_w - 4, s.telemetry[i]);
    }
    y += mid_h;

    // Log pane: the rest of the screen, newest at the bottom unless scrolled back.
    const int log_h = h - y;
    if (log_h >= 3) {
      const int rows = log_h - 2;
      std::vector<std::string> lines;
      if (opts_.log) lines = opts_.log->tail(static_cast<std::size_t>(rows + scroll_));
      scroll_ = std::min(scroll_, std::max(0, static_cast<int>(lines.size()) - rows));
      frame(y, 0, log_h, w, kLog, scroll_ > 0 ? fmt::format(" (scrolled back {})", scroll_) : "");
      const int last = static_cast<int>(lines.size()) - scroll_;
      const int first = std::max(0, last - rows);
      for (int i = first; i < last; ++i)
        text(y + 1 + (i - first), 2, w - 4, lines[static_cast<std::size_t>(i)]);
    }
    refresh();
  }

  DashboardOptions opts_;
  SCREEN* screen_ = nullptr;
  ProgressSnapshot last_;
  int focus_ = kMetrics;
  int scroll_ = 0;
  int quits_ = 0;  // q presses while the run goes
};

}  // namespace

std::unique_ptr<Frontend> make_dashboard(DashboardOptions options) {
  return std::make_unique<Dashboard>(std::move(options));
}

void emergency_restore_terminal() {
  if (!g_active.load()) return;
  // Leave the alternate screen, show the cursor, reset attributes: plain writes, no ncurses.
  static constexpr char kReset[] = "\x1b[?1049l\x1b[?25h\x1b[0m\r\n";
  [[maybe_unused]] const auto n = ::write(STDOUT_FILENO, kReset, sizeof(kReset) - 1);
  if (g_have_modes) tcsetattr(STDIN_FILENO, TCSANOW, &g_saved_modes);
}

}  // namespace inferperf::ui
