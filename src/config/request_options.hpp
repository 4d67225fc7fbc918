// The request-encoding options (cli_request.cpp): --request-content-type and
// --download-video-content, and their checks against --endpoint-type.
#pragma once
#include <string>
#include <vector>

#include "config/run_config.hpp"

namespace inferperf::config {

// AIPerf 0.11's rules: application/json with a form-data endpoint type, multipart/form-data with
// any other, and --download-video-content with anything but video_generation are errors.
void validate_request_options(const RunConfig& c, std::vector<std::string>& errors);

}  // namespace inferperf::config
