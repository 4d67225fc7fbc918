// The full-screen dashboard (ncurses): phase progress, approximate live metrics, a throughput
// sparkline, errors by type, client health, telemetry and a log pane. Keys: q stops the run
// gracefully (on_quit, the same path as the first SIGINT), tab moves the focus between panes,
// up/down/page keys scroll the log pane when it has the focus. The terminal is restored when
// the front end is destroyed, whatever ended the run.
#pragma once
#include <functional>
#include <memory>

#include "ui/frontend.hpp"
#include "ui/log_buffer.hpp"

namespace inferperf::ui {

struct DashboardOptions {
  std::function<void()> on_quit;   // q while the run is going
  std::shared_ptr<LogBuffer> log;  // the log pane's lines (may be null)
  double linger_s = 1.0;           // the final frame stays up this long (q ends it sooner)
};

// Throws std::runtime_error when the terminal cannot be initialised.
std::unique_ptr<Frontend> make_dashboard(DashboardOptions options);

// Puts the terminal back (normal screen, cursor, saved terminal modes) without ncurses, from
// any thread; for the way out that skips destructors (the third signal's _Exit). Does nothing
// when no dashboard is up.
void emergency_restore_terminal();

}  // namespace inferperf::ui
