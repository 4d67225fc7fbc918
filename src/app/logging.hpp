// Logging: console (stderr) plus logs/inferperf.log in the artifact folder, AIPerf's line format.
#pragma once
#include <spdlog/sinks/sink.h>

#include <filesystem>
#include <memory>
#include <string>

namespace inferperf::app {

void init_console_logging(const std::string& level);
// Adds the file sink once the artifact folder exists.
void add_log_file(const std::filesystem::path& file);
// While a full-screen view owns the terminal, the lines meant for the console go to `pane`
// instead (same level filter, same redacting format); nullptr sends them back to stderr. The
// log file is not affected.
void route_console_logging(std::shared_ptr<spdlog::sinks::sink> pane);

}  // namespace inferperf::app
