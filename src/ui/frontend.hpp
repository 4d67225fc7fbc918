// Live views of a running benchmark. One UI thread (UiThread) asks a source for a
// ProgressSnapshot every period() and hands it to a Frontend; front ends never read the
// benchmark's state themselves. `none` has no thread at all.
#pragma once
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

#include <spdlog/sinks/sink.h>

#include "ui/progress_snapshot.hpp"

namespace inferperf::ui {

class Frontend {
 public:
  virtual ~Frontend() = default;
  // How often a fresh snapshot is wanted.
  virtual std::chrono::milliseconds period() const = 0;
  virtual void show(const ProgressSnapshot& s) = 0;
  // Waits up to `d`, returning early once `stop` is set; a front end that reads keys does so
  // here (and may redraw the last snapshot on a key or a resize).
  virtual void wait(std::chrono::milliseconds d, const std::atomic<bool>& stop);
  // The run is over: show the last snapshot (the dashboard keeps it up a moment).
  virtual void close(const ProgressSnapshot& last) = 0;
};

// `simple`: one line per phase on `out`. On a terminal the lines are redrawn in place 4 times a
// second; otherwise a phase's line is printed (never redrawn, no escape codes) when it moved by
// at least 1 % and a second has passed, and when it ends.
// On a terminal, `log_sink` (when given) receives an spdlog sink that prints log lines above the
// progress lines, which are then drawn again: logging straight to the terminal would be
// overwritten by the next redraw.
std::unique_ptr<Frontend> make_simple_frontend(
    std::FILE* out, bool terminal, std::shared_ptr<spdlog::sinks::sink>* log_sink = nullptr);

class UiThread {
 public:
  using Source = std::function<ProgressSnapshot()>;
  UiThread(std::unique_ptr<Frontend> frontend, Source source);
  ~UiThread();
  UiThread(const UiThread&) = delete;
  UiThread& operator=(const UiThread&) = delete;

  void start();
  // Stops the thread, shows the final snapshot and releases the front end (which restores the
  // terminal). Idempotent; the destructor calls it (an exception unwinding past the run).
  void finish();

 private:
  std::unique_ptr<Frontend> frontend_;
  Source source_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace inferperf::ui
