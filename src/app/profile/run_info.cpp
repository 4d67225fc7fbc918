#include "app/profile/run_info.hpp"

#include <spdlog/spdlog.h>

#include <deque>

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

std::map<std::string, int> agent_depths(const dataset::Dataset& ds) {
  std::map<std::string, int> depths;
  // Breadth first from the root sessions over the spawn links: a session's depth is its distance
  // from a root (in a tree, its number of ancestors); a session reached twice, or a malformed plan
  // that links in a cycle, keeps the first (smallest) depth.
  std::deque<std::pair<std::size_t, int>> todo;  // (conversation, its depth)
  for (std::size_t i = 0; i < ds.conversations.size(); ++i)
    if (!ds.conversations[i].child) todo.emplace_back(i, 0);
  while (!todo.empty()) {
    const auto [i, depth] = todo.front();
    todo.pop_front();
    for (const auto& link : ds.conversations[i].spawns) {
      if (link.child >= ds.conversations.size() || !ds.conversations[link.child].child) continue;
      if (!depths.emplace(ds.conversations[link.child].session_id, depth + 1).second) continue;
      todo.emplace_back(link.child, depth + 1);
    }
  }
  return depths;
}

}  // namespace inferperf::app
