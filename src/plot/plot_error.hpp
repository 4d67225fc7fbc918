// The one exception the plot module throws: its message names the path, line or field at fault.
#pragma once
#include <stdexcept>
#include <string>

namespace inferperf::plot {

class PlotError : public std::runtime_error {
 public:
  // exit_code 2: bad option or input; 1: rendering or writing failed.
  PlotError(const std::string& message, int exit_code)
      : std::runtime_error(message), exit_code_(exit_code) {}
  int exit_code() const { return exit_code_; }

 private:
  int exit_code_;
};

inline PlotError input_error(const std::string& message) {
  return PlotError(message, 2);
}
inline PlotError output_error(const std::string& message) {
  return PlotError(message, 1);
}

}  // namespace inferperf::plot
