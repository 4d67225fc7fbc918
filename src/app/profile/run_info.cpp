#include "app/profile/run_info.hpp"

#include <spdlog/spdlog.h>

namespace inferperf::app {

namespace {

using nlohmann::ordered_json;

// The plan's fields, type-checked: a wrong type drops the field, never the run.
ordered_json plan_fields(const char* plan) {
  ordered_json fields = ordered_json::object();
  if (!plan) return fields;
  const ordered_json j = ordered_json::parse(plan, nullptr, false);
  if (!j.is_object()) {
    spdlog::warn("{} is not a JSON object; run_info holds this run only", kRunInfoEnv);
    return fields;
  }
  auto copy = [&](const char* key, bool (ordered_json::*is)() const noexcept) {
    const auto it = j.find(key);
    if (it != j.end() && ((*it).*is)()) fields[key] = *it;
  };
  copy("sweep_id", &ordered_json::is_string);
  copy("trial", &ordered_json::is_number_integer);
  copy("run_label", &ordered_json::is_string);
  copy("variation_label", &ordered_json::is_string);
  copy("variation_index", &ordered_json::is_number_integer);
  copy("variation_values", &ordered_json::is_object);
  return fields;
}

}  // namespace

ordered_json build_run_info(const std::string& benchmark_id,
                            std::optional<std::uint64_t> random_seed,
                            const std::string& cli_command, const char* plan) {
  const ordered_json p = plan_fields(plan);
  ordered_json info;
  info["benchmark_id"] = benchmark_id;
  if (p.contains("sweep_id")) info["sweep_id"] = p["sweep_id"];
  if (random_seed) info["random_seed"] = *random_seed;
  info["trial"] = p.contains("trial") ? p["trial"] : ordered_json(0);
  for (const char* key : {"run_label", "variation_label", "variation_index", "variation_values"}) {
    if (p.contains(key)) info[key] = p[key];
  }
  info["cli_command"] = cli_command;
  return info;
}

}  // namespace inferperf::app
