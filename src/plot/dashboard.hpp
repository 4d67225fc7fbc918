// `--dashboard`: the output folder served over HTTP (report.html at /) until SIGINT or SIGTERM.
#pragma once
#include <filesystem>
#include <functional>
#include <string>

namespace inferperf::plot {

// Binds host:port (port 0: any free one), calls `on_listening` with the URL actually bound, then
// serves GET and HEAD of the files under `root` until SIGINT/SIGTERM. Returns 0 after a signal;
// throws PlotError (exit 2) when the address cannot be bound.
int serve_dashboard(const std::filesystem::path& root, const std::string& host, int port,
                    const std::function<void(const std::string& url)>& on_listening);

// The file a request target names under `root`, or empty when it names nothing servable (outside
// root, a folder, missing). "/" is report.html. Pure path logic, for tests.
std::filesystem::path resolve_target(const std::filesystem::path& root, const std::string& target);

std::string content_type(const std::filesystem::path& file);

}  // namespace inferperf::plot
