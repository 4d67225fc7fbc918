// The public dataset options of AIPerf 0.11 beside --public-dataset: --hf-subset and
// --dataset-filter (its KEY=VALUE syntax is checked here; which keys a dataset takes is checked
// against the dataset's declaration when it is loaded).
#include <set>

#include "config/cli_areas.hpp"
#include "config/run_config.hpp"

namespace inferperf::config {

namespace {

std::string cli_public_trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

}  // namespace

const std::vector<std::string>& public_dataset_names() {
  static const std::vector<std::string> names = {"exgentic_v2",
                                                 "exgentic",
                                                 "sharegpt",
                                                 "aimo",
                                                 "mmstar",
                                                 "mmvu",
                                                 "vision_arena",
                                                 "llava_onevision",
                                                 "aimo_aime",
                                                 "aimo_numina_cot",
                                                 "aimo_numina_1_5",
                                                 "spec_bench",
                                                 "spec_al_gsm8k",
                                                 "spec_al_math500",
                                                 "spec_al_humaneval",
                                                 "spec_al_mbpp",
                                                 "spec_al_mtbench",
                                                 "instruct_coder",
                                                 "blazedit_5k",
                                                 "blazedit_10k",
                                                 "librispeech",
                                                 "voxpopuli",
                                                 "gigaspeech",
                                                 "ami",
                                                 "spgispeech"};
  return names;
}

std::vector<std::pair<std::string, std::string>> parse_dataset_filters(
    const std::vector<std::string>& items) {
  std::vector<std::pair<std::string, std::string>> out;
  std::set<std::string> seen;
  for (const auto& item : items) {
    const auto eq = item.find('=');
    if (eq == std::string::npos)
      throw CLI::ValidationError("--dataset-filter", "'" + item + "' is not KEY=VALUE");
    std::string key = cli_public_trim(item.substr(0, eq));
    std::string value = cli_public_trim(item.substr(eq + 1));
    if (key.empty())
      throw CLI::ValidationError("--dataset-filter", "'" + item + "' has an empty key");
    if (value.empty())
      throw CLI::ValidationError("--dataset-filter", "'" + item + "' has an empty value");
    if (!seen.insert(key).second) {
      throw CLI::ValidationError("--dataset-filter",
                                 "the key '" + key + "' is given more than once");
    }
    out.emplace_back(std::move(key), std::move(value));
  }
  return out;
}

void add_public_dataset_options(CLI::App* profile, CliTargets& t) {
  RunConfig& c = t.outcome.config;
  CLI::Option* public_dataset = profile->get_option("--public-dataset");
  profile
      ->add_option_function<std::string>(
          "--hf-subset", [&c](const std::string& v) { c.input.hf_subset = v; },
          "Hugging Face subset (config) of --public-dataset, instead of the dataset's default")
      ->needs(public_dataset)
      ->group("Input");
  profile
      ->add_option_function<std::vector<std::string>>(
          "--dataset-filter",
          [&c](const std::vector<std::string>& items) {
            c.input.dataset_filters = parse_dataset_filters(items);
          },
          "KEY=VALUE filters of --public-dataset (comma list or repeated; only datasets that "
          "declare filters take them: exgentic, exgentic_v2)")
      ->delimiter(',')
      ->transform(trimmed_item())
      ->needs(public_dataset)
      ->group("Input");
}

}  // namespace inferperf::config
