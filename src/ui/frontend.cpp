#include "ui/frontend.hpp"

#include <fmt/format.h>

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

class SimpleFrontend final : public Frontend {
 public:
  SimpleFrontend(std::FILE* out, bool terminal) : out_(out), terminal_(terminal) {}

  std::chrono::milliseconds period() const override { return std::chrono::milliseconds(250); }

  void show(const ProgressSnapshot& s) override {
    if (terminal_) {
      redraw(simple_lines(s));
    } else {
      print_changes(s);
    }
  }

  void close(const ProgressSnapshot& last) override {
    show(last);
    if (terminal_ && drawn_ > 0) std::fputs("\n", out_);
    std::fflush(out_);
  }

 private:
  // Back to the first line drawn last time, then every line cleared and written again.
  void redraw(const std::vector<std::string>& lines) {
    std::string buf = "\r";
    if (drawn_ > 1) buf += fmt::format("\x1b[{}A", drawn_ - 1);
    for (std::size_t i = 0; i < lines.size(); ++i) {
      buf += "\x1b[2K" + lines[i];
      if (i + 1 < lines.size()) buf += "\n";
    }
    std::fputs(buf.c_str(), out_);
    std::fflush(out_);
    drawn_ = static_cast<int>(lines.size());
  }

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
  int drawn_ = 0;
  std::map<std::string, Printed> printed_;
};

}  // namespace

std::unique_ptr<Frontend> make_simple_frontend(std::FILE* out, bool terminal) {
  return std::make_unique<SimpleFrontend>(out, terminal);
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
