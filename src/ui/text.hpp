// Pure text formatting for the live views: a snapshot in, lines out. The simple front end prints
// these lines and the dashboard reuses them for its phase pane, so the unit tests pin one format.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "ui/progress_snapshot.hpp"

namespace inferperf::ui {

// "mm:ss", or "h:mm:ss" from an hour on; "--:--" for a negative or non-finite value.
std::string format_clock(double seconds);
// How far the phase is, 0..1, from its request count or its duration; nullopt when it has
// neither (a fixed schedule, sessions).
std::optional<double> phase_fraction(const PhaseProgress& p);
// Seconds left: the target count at the current completion rate, or the duration's rest.
std::optional<double> phase_eta_s(const PhaseProgress& p);
// `width` characters of '#' and '-' showing `fraction`.
std::string progress_bar(double fraction, int width);
// One line for a phase: bar, counts, rates, elapsed and ETA (or "done").
std::string phase_line(const PhaseProgress& p);
// The simple front end's lines: one per phase that has started.
std::vector<std::string> simple_lines(const ProgressSnapshot& s);
// A sparkline of `values` in ASCII levels (" .:-=+*#"), scaled to their maximum; the last
// `width` values.
std::string sparkline(const std::vector<double>& values, int width);

}  // namespace inferperf::ui
