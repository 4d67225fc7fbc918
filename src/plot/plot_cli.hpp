// The `inferperf plot` command line (AIPerf's flag names), parsed into PlotOptions.
#pragma once
#include <string>
#include <vector>

#include "plot/plot.hpp"

namespace inferperf::plot {

struct PlotCommand {
  bool run = false;     // false: print `message` and exit with `exit_code`
  int exit_code = 0;    // 0 for --help, 2 for a bad command line
  std::string message;  // help text or the error
  PlotOptions options;
};

// `args` are the words after "plot".
PlotCommand parse_plot_command(const std::vector<std::string>& args);

}  // namespace inferperf::plot
