#include "config/validate.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace inferperf::config {

const char* to_string(EndpointType t) {
  return t == EndpointType::kCompletions ? "completions" : "chat";
}

const char* to_string(ExportLevel l) {
  switch (l) {
    case ExportLevel::kSummary:
      return "summary";
    case ExportLevel::kRaw:
      return "raw";
    case ExportLevel::kRecords:
      break;
  }
  return "records";
}

std::vector<std::string> validate_and_resolve(RunConfig& c) {
  std::vector<std::string> errors;
  auto& load = c.load;
  if (load.concurrency && *load.concurrency < 1) {
    errors.push_back("--concurrency must be at least 1 (got " + std::to_string(*load.concurrency) +
                     ")");
  }
  if (load.request_count && *load.request_count < 1) {
    errors.push_back("--request-count must be at least 1 (got " +
                     std::to_string(*load.request_count) + ")");
  }
  if (load.benchmark_duration_s && !(*load.benchmark_duration_s > 0)) {
    errors.push_back("--benchmark-duration must be greater than 0");
  }
  if (load.grace_period_s) {
    if (!load.benchmark_duration_s) {
      errors.push_back("--benchmark-grace-period can only be used with --benchmark-duration");
    } else if (*load.grace_period_s < 0 || std::isnan(*load.grace_period_s)) {
      errors.push_back("--benchmark-grace-period must be >= 0");
    }
  }
  if (c.input.isl_mean < 1) {
    errors.push_back(
        "All synthetic data are disabled: --synthetic-input-tokens-mean must be at least 1");
  }
  const auto& in = c.input;
  if ((in.prefix_pool_size > 0) != (in.prefix_length > 0)) {
    errors.push_back("--prompt-prefix-pool-size and --prompt-prefix-length must be given together");
  }
  if (in.shared_system_prompt_length && *in.shared_system_prompt_length < 1) {
    errors.push_back("--shared-system-prompt-length must be at least 1");
  }
  if (in.user_context_prompt_length && *in.user_context_prompt_length < 1) {
    errors.push_back("--user-context-prompt-length must be at least 1");
  }
  if ((in.prefix_pool_size > 0 || in.prefix_length > 0) &&
      (in.shared_system_prompt_length || in.user_context_prompt_length)) {
    errors.push_back(
        "--prompt-prefix-pool-size/--prompt-prefix-length cannot be combined with "
        "--shared-system-prompt-length/--user-context-prompt-length");
  }
  if (in.user_context_prompt_length && !c.set_options.count("--num-dataset-entries")) {
    errors.push_back("--user-context-prompt-length needs an explicit --num-dataset-entries");
  }
  if (!in.sequence_distribution.empty() && (c.set_options.count("--synthetic-input-tokens-mean") ||
                                            c.set_options.count("--output-tokens-mean"))) {
    errors.push_back("--seq-dist sets ISL and OSL itself; do not combine it with --isl or --osl");
  }
  if (c.endpoint.urls.empty()) errors.push_back("--url needs at least one value");
  if (c.endpoint.urls.size() > 1) {
    errors.push_back("several --url values (client-side load balancing) are not supported yet");
  }
  if (c.endpoint.model_names.size() > 1) {
    errors.push_back("several --model values are not supported yet");
  }
  if (!errors.empty()) return errors;

  if (!load.concurrency) {
    load.concurrency = 1;
    c.warnings.push_back("no --concurrency given; using concurrency 1");
  }
  if (!load.request_count && !load.benchmark_duration_s) {
    load.request_count =
        std::max<std::int64_t>(10, 2 * static_cast<std::int64_t>(*load.concurrency));
    c.warnings.push_back("no stop condition given; using --request-count " +
                         std::to_string(*load.request_count));
  }
  if (load.request_count && *load.concurrency > *load.request_count) {
    errors.push_back("--concurrency (" + std::to_string(*load.concurrency) +
                     ") must not exceed --request-count (" + std::to_string(*load.request_count) +
                     ")");
  }
  return errors;
}

}  // namespace inferperf::config
