// inferperf: run the command the arguments name (app/commands.hpp), return its exit code.
#include <string>
#include <vector>

#include "app/commands.hpp"
#include "app/last_resort.hpp"

int main(int argc, char** argv) {
  inferperf::app::install_terminate_handler();
  return inferperf::app::run_command_line(std::vector<std::string>(argv + 1, argv + argc));
}
