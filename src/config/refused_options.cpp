#include "config/refused_options.hpp"

#include <algorithm>
#include <cctype>
#include <optional>

namespace inferperf::config {

namespace {

// The reasons, one per piece of work that would bring the options.
constexpr std::string_view kOptuna =
    "the optuna planner's samplers and acquisitions are Optuna/BoTorch internals inferperf does "
    "not have; --search-planner bayesian is inferperf's own Gaussian-process planner";
constexpr std::string_view kObservability =
    "Weights & Biases has no documented public HTTP API for logging runs (its SDK speaks an "
    "internal GraphQL/file-stream protocol), so inferperf does not imitate it; use "
    "--mlflow-tracking-uri or --otel-url (Observability), or log the profile_export files with "
    "the wandb SDK";
constexpr std::string_view kAccuracy =
    "accuracy mode needs benchmark datasets and answer graders, which are not part of this load "
    "generator; run an evaluation harness for accuracy";
constexpr std::string_view kAfterTarget =
    "an AIPerf option from after 0.11 (the version inferperf follows); not implemented";

std::vector<RefusedOption> build_refused_options() {
  std::vector<RefusedOption> out;
  const auto add = [&](std::initializer_list<std::string_view> flags, std::string_view why) {
    for (auto f : flags) out.push_back({f, why});
  };
  add({"--optuna-sampler", "--optuna-acquisition", "--optuna-terminator"}, kOptuna);
  add({"--wandb-project", "--wandb-entity", "--wandb-run-name", "--wandb-tag"}, kObservability);
  add({"--accuracy-benchmark", "--accuracy-tasks", "--accuracy-n-shots", "--accuracy-enable-cot",
       "--accuracy-grader", "--accuracy-system-prompt", "--accuracy-verbose"},
      kAccuracy);
  add({"--no-open-loop-replay", "--open-loop-replay", "--open-loop-strict", "--replay-speedup",
       "--max-idle-gap-cap-seconds", "--trace-session-sample-ratio", "--export-outputs-json",
       "--stats-interval"},
      kAfterTarget);
  return out;
}

// AIPerf 0.11's third model selection: each model's share comes from its `weight` in a YAML
// config's models.items[], which the command line cannot give.
std::optional<std::string> weighted_selection_error(const std::vector<std::string>& args,
                                                    std::size_t i) {
  const std::string& a = args[i];
  std::string value;
  if (a == "--model-selection-strategy" && i + 1 < args.size()) {
    value = args[i + 1];
  } else if (a.starts_with("--model-selection-strategy=")) {
    value = a.substr(a.find('=') + 1);
  } else {
    return std::nullopt;
  }
  for (auto& ch : value) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  if (value != "weighted") return std::nullopt;
  return std::string(
      "--model-selection-strategy weighted needs a weight for every model (models.items[].weight "
      "in a YAML config, summing to 1); the command line gives none: use round_robin or random");
}

}  // namespace

const std::vector<RefusedOption>& refused_options() {
  static const std::vector<RefusedOption> kTable = build_refused_options();
  return kTable;
}

std::vector<std::string> refused_option_errors(const std::vector<std::string>& args) {
  std::vector<std::string> errors;
  std::vector<std::string_view> named;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--") break;  // what follows is a value, not an option
    if (auto e = weighted_selection_error(args, i)) errors.push_back(*e);
    const std::string_view name = std::string_view(a).substr(0, a.find('='));
    const auto& table = refused_options();
    const auto it = std::find_if(table.begin(), table.end(),
                                 [&](const RefusedOption& r) { return r.flag == name; });
    if (it == table.end() || std::find(named.begin(), named.end(), it->flag) != named.end())
      continue;
    named.push_back(it->flag);
    errors.push_back("option " + std::string(it->flag) + " is refused: " + std::string(it->reason));
  }
  return errors;
}

}  // namespace inferperf::config
