// Logging: console (stderr) plus logs/inferperf.log in the artifact folder, AIPerf's line format.
#pragma once
#include <filesystem>
#include <string>

namespace inferperf::app {

void init_console_logging(const std::string& level);
// Adds the file sink once the artifact folder exists.
void add_log_file(const std::filesystem::path& file);

}  // namespace inferperf::app
