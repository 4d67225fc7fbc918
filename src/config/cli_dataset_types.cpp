// The options of the dataset types AIPerf 0.11 added: the trace-synthesis multipliers and the cap
// on recorded per-turn delays, and the --custom-dataset-type names (docs/datasets.md).
#include "config/cli_areas.hpp"

namespace inferperf::config {

std::vector<std::string> custom_dataset_type_choices() {
  std::vector<std::string> names = {"single_turn",    "multi_turn",    "random_pool",
                                    "mooncake_trace", "bailian_trace", "burst_gpt_trace",
                                    "raw_payload",    "inputs_json",   "weka_trace",
                                    "baseten_trace",  "dag_jsonl",     "sagemaker_data_capture"};
  // SPEED-Bench: the qualitative split and its categories, the throughput splits and theirs.
  names.emplace_back("speed_bench_qualitative");
  for (const char* category : {"coding", "humanities", "math", "multilingual", "qa", "rag",
                               "reasoning", "roleplay", "stem", "summarization", "writing"})
    names.push_back(std::string("speed_bench_") + category);
  for (const char* isl : {"1k", "2k", "8k", "16k", "32k"})
    names.push_back(std::string("speed_bench_throughput_") + isl);
  for (const char* isl : {"1k", "2k", "8k", "16k", "32k"})
    for (const char* entropy : {"low_entropy", "mixed", "high_entropy"})
      names.push_back(std::string("speed_bench_throughput_") + isl + "_" + entropy);
  return names;
}

void add_dataset_type_options(CLI::App* profile, CliTargets& t) {
  InputConfig& in = t.outcome.config.input;
  profile
      ->add_option("--synthesis-prefix-len-multiplier", in.synthesis_prefix_len_multiplier,
                   "Stretch (or shorten) the shared hash-id prefix of every trace row")
      ->group("Synthesis");
  profile
      ->add_option("--synthesis-prefix-root-multiplier", in.synthesis_prefix_root_multiplier,
                   "Spread the trace rows over this many independent prefix trees")
      ->group("Synthesis");
  profile
      ->add_option("--synthesis-output-len-multiplier", in.synthesis_output_len_multiplier,
                   "Scale every trace row's output_length (at least 1; --synthesis-max-osl "
                   "caps after)")
      ->group("Synthesis");
  profile
      ->add_option("--inter-turn-delay-cap-seconds", in.inter_turn_delay_cap_s,
                   "Cap the recorded per-turn delays of dag_jsonl and weka_trace datasets "
                   "(the number of capped delays is logged)")
      ->group("Input");
}

}  // namespace inferperf::config
