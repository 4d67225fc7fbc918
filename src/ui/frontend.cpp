#include "ui/frontend.hpp"

#include <fmt/format.h>
#include <spdlog/details/null_mutex.h>
#include <spdlog/sinks/base_sink.h>

#include <sys/ioctl.h>

#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "ui/text.hpp"

namespace inferperf::ui {

void Frontend::wait(std::chrono::milliseconds d, const std::atomic<bool>& stop) {
  const auto end = std::chrono::steady_clock::now() + d;
  while (!stop.load() && std::chrono::steady_clock::now() < end) {
    std::this_thread::sleep_for(std::min<std::chrono::milliseconds>(
        std::chrono::milliseconds(50), std::chrono::duration_cast<std::chrono::milliseconds>(
                                           end - std::chrono::steady_clock::now()) +
                                           std::chrono::milliseconds(1)));
  }
}

namespace {

// The progress block at the bottom of a terminal, shared by the front end (redraws) and the log
// sink (lines printed above it).
class SimpleScreen {
 public:
  explicit SimpleScreen(std::FILE* out) : out_(out) {}

  void draw(std::vector<std::string> lines) {
    std::lock_guard lock(mu_);
    lines_ = std::move(lines);
    std::string buf = back_to_top();
    append_lines(buf);
    write(buf);
  }

  // `text` (whole lines, each ending in '\n') where the block was, then the block again below.
  void print_above(const std::string& text) {
    std::lock_guard lock(mu_);
    std::string buf = back_to_top() + text;
    drawn_ = 0;
    append_lines(buf);
    write(buf);
  }

  void end() {
    std::lock_guard lock(mu_);
    if (drawn_ > 0) write("\n");
    drawn_ = 0;
  }

 private:
  // To the start of the block's first line, and everything from there down cleared.
  std::string back_to_top() const {
    if (drawn_ == 0) return {};
    std::string s = "\r";
    if (drawn_ > 1) s += fmt::format("\x1b[{}A", drawn_ - 1);
    return s + "\x1b[J";
  }
  void append_lines(std::string& buf) {
    // A line wider than the terminal would wrap, and going back up by the number of lines drawn
    // would then miss the top of the block: each line is cut to the width.
    winsize ws{};
    const std::size_t width = ::ioctl(::fileno(out_), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1
                                  ? static_cast<std::size_t>(ws.ws_col - 1)
                                  : std::string::npos;
    for (std::size_t i = 0; i < lines_.size(); ++i) {
      buf += lines_[i].substr(0, width);
      if (i + 1 < lines_.size()) buf += "\n";
    }
    drawn_ = static_cast<int>(lines_.size());
  }
  void write(const std::string& buf) {
    std::fwrite(buf.data(), 1, buf.size(), out_);
    std::fflush(out_);
  }

  std::mutex mu_;
  std::FILE* out_;
  std::vector<std::string> lines_;
  int drawn_ = 0;
};

class SimpleLogSink final : public spdlog::sinks::base_sink<spdlog::details::null_mutex> {
 public:
  explicit SimpleLogSink(std::shared_ptr<SimpleScreen> screen) : screen_(std::move(screen)) {}

 protected:
  void sink_it_(const spdlog::details::log_msg& msg) override {
    spdlog::memory_buf_t formatted;
    formatter_->format(msg, formatted);
    screen_->print_above(std::string(formatted.data(), formatted.size()));
  }
  void flush_() override {}

 private:
  std::shared_ptr<SimpleScreen> screen_;
};

class SimpleFrontend final : public Frontend {
 public:
  SimpleFrontend(std::FILE* out, bool terminal)
      : out_(out), terminal_(terminal), screen_(std::make_shared<SimpleScreen>(out)) {}

  std::chrono::milliseconds period() const override { return std::chrono::milliseconds(250); }

  void show(const ProgressSnapshot& s) override {
    if (terminal_) {
      screen_->draw(simple_lines(s));
    } else {
      print_changes(s);
    }
  }

  void close(const ProgressSnapshot& last) override {
    show(last);
    if (terminal_) screen_->end();
    std::fflush(out_);
  }

  std::shared_ptr<SimpleScreen> screen() const { return screen_; }

 private:
  void print_changes(const ProgressSnapshot& s) {
    const auto now = std::chrono::steady_clock::now();
    for (const auto& p : s.phases) {
      auto& seen = printed_[p.name];
      if (seen.done) continue;
      const double fraction = phase_fraction(p).value_or(0.0);
      const bool moved = fraction - seen.fraction >= 0.01 || !phase_fraction(p);
      if (p.done || (moved && now - seen.at >= std::chrono::seconds(1))) {
        std::fputs((phase_line(p) + "\n").c_str(), out_);
        seen = {fraction, now, p.done};
      }
    }
    std::fflush(out_);
  }

  struct Printed {
    double fraction = -1;
    std::chrono::steady_clock::time_point at{};
    bool done = false;
  };
  std::FILE* out_;
  bool terminal_;
  std::shared_ptr<SimpleScreen> screen_;
  std::map<std::string, Printed> printed_;
};

}  // namespace

std::unique_ptr<Frontend> make_simple_frontend(std::FILE* out, bool terminal,
                                               std::shared_ptr<spdlog::sinks::sink>* log_sink) {
  auto fe = std::make_unique<SimpleFrontend>(out, terminal);
  if (log_sink && terminal) *log_sink = std::make_shared<SimpleLogSink>(fe->screen());
  return fe;
}

UiThread::UiThread(std::unique_ptr<Frontend> frontend, Source source)
    : frontend_(std::move(frontend)), source_(std::move(source)) {}

UiThread::~UiThread() {
  try {
    finish();
  } catch (...) {
    // A destructor during unwinding must not throw; the front end is released below anyway.
  }
  frontend_.reset();
}

void UiThread::start() {
  if (!frontend_ || thread_.joinable()) return;
  thread_ = std::thread([this] {
    while (!stop_.load()) {
      frontend_->show(source_());
      frontend_->wait(frontend_->period(), stop_);
    }
  });
}

void UiThread::finish() {
  stop_.store(true);
  if (thread_.joinable()) thread_.join();
  if (!frontend_) return;
  // Released even if the last frame throws: the terminal is restored by the destructor.
  std::unique_ptr<Frontend> fe = std::move(frontend_);
  ProgressSnapshot last = source_();
  last.finished = true;
  fe->close(last);
}

}  // namespace inferperf::ui
