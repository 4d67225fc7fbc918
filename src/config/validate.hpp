// Cross-field validation: pure checks that return every problem at once, in the order reported.
// The defaults they rely on are filled by resolve.hpp; validate_and_resolve composes the two.
#pragma once
#include <string>
#include <vector>

#include "config/run_config.hpp"

namespace inferperf::config {

// The checks of the options as given, before any default (empty = ok).
std::vector<std::string> validate_given_options(const RunConfig& c);

// The media options (cli_media.cpp): sources, depths, rates and the video size pairing.
void validate_media_options(const RunConfig& c, std::vector<std::string>& errors);
// The media options with AIPerf 0.11's implicit values applied (a typed option of a medium
// brings batch 1; videos need both sizes); resolve_defaults stores it.
MediaConfig resolved_media(const RunConfig& c);

// --adaptive-scale and its options (validate_adaptive.cpp).
void validate_adaptive_scale(const RunConfig& c, std::vector<std::string>& errors);

// The checks that need the resolved defaults: the warmup load after its fallbacks. (AIPerf 0.11
// dropped the check of the concurrency against the request or session count.)
std::vector<std::string> validate_resolved_options(const RunConfig& c);

// Checks the given options, settles what they settle even when refused (resolve_given_options),
// and when they pass fills the defaults (resolve_defaults) and checks those. Returns the errors.
std::vector<std::string> validate_and_resolve(RunConfig& c);

}  // namespace inferperf::config
