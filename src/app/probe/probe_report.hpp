// What `inferperf probe` prints: the findings as a report for people, or as one JSON object whose
// keys docs/probe.md lists (kept stable: scripts read them).
#pragma once
#include <nlohmann/json.hpp>

#include <iosfwd>

#include "app/probe/probe_checks.hpp"

namespace inferperf::app {

nlohmann::ordered_json probe_json(const ProbeFindings& f);
void print_probe_report(std::ostream& out, const ProbeFindings& f);

}  // namespace inferperf::app
