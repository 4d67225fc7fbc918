// `inferperf profile ...`: a sweep or repeated runs go to the orchestrator, a single run straight
// to run_profile.
#pragma once
#include <string>
#include <vector>

namespace inferperf::app {

// `args` are the words after the program name, starting with "profile".
int run_profile_command(const std::vector<std::string>& args);

}  // namespace inferperf::app
