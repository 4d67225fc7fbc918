// The input options: prompts, sequence lengths, conversations, and where the dataset comes from.
#include "config/cli_areas.hpp"

namespace inferperf::config {

// Rankings, extra inputs, headers, sequence lengths, prefixes and conversations.
void add_input_options(CLI::App* profile, CliTargets& t) {
  RunConfig& c = t.outcome.config;
  struct RankingFlag {
    const char* name;
    double* value;
    const char* help;
  };
  for (const RankingFlag& f :
       {RankingFlag{"--rankings-passages-mean", &c.input.rankings.passages_mean,
                    "rankings endpoints: passages per query, mean"},
        RankingFlag{"--rankings-passages-stddev", &c.input.rankings.passages_stddev,
                    "rankings endpoints: passages per query, standard deviation"},
        RankingFlag{"--rankings-passages-prompt-token-mean", &c.input.rankings.passage_tokens_mean,
                    "rankings endpoints: tokens per passage, mean"},
        RankingFlag{"--rankings-passages-prompt-token-stddev",
                    &c.input.rankings.passage_tokens_stddev,
                    "rankings endpoints: tokens per passage, standard deviation"},
        RankingFlag{"--rankings-query-prompt-token-mean", &c.input.rankings.query_tokens_mean,
                    "rankings endpoints: tokens per query, mean"},
        RankingFlag{"--rankings-query-prompt-token-stddev", &c.input.rankings.query_tokens_stddev,
                    "rankings endpoints: tokens per query, standard deviation"}}) {
    profile->add_option(f.name, *f.value, f.help)->group("Input");
  }
  profile
      ->add_option("--extra-inputs", t.extra_inputs,
                   "key:value pairs or a JSON object merged into every body")
      ->group("Input");
  profile->add_option("-H,--header", t.headers, "Header:Value pairs or a JSON object")
      ->group("Input");
  profile->add_option("--random-seed", c.input.random_seed, "Seed for every random stream")
      ->group("Input");
  profile
      ->add_option("--synthetic-input-tokens-mean,--prompt-input-tokens-mean,--isl",
                   c.input.isl_mean, "Mean input sequence length (tokens; a comma list sweeps)")
      ->group("Input Sequence Length");
  profile
      ->add_option("--synthetic-input-tokens-stddev,--prompt-input-tokens-stddev,--isl-stddev",
                   c.input.isl_stddev, "Input sequence length standard deviation")
      ->group("Input Sequence Length");
  profile
      ->add_option("--output-tokens-mean,--prompt-output-tokens-mean,--osl", c.input.osl_mean,
                   "Mean output sequence length (max tokens requested; a comma list sweeps)")
      ->group("Output Sequence Length");
  profile
      ->add_option("--output-tokens-stddev,--prompt-output-tokens-stddev,--osl-stddev",
                   c.input.osl_stddev, "Output sequence length standard deviation")
      ->group("Output Sequence Length");
  profile
      ->add_option("-b,--prompt-batch-size,--batch-size-text,--batch-size",
                   c.input.prompt_batch_size, "Texts per turn")
      ->group("Prompt");
  profile
      ->add_option("--prompt-prefix-pool-size,--prefix-prompt-pool-size,--num-prefix-prompts",
                   c.input.prefix_pool_size,
                   "Number of prefix prompts; each first turn starts with one of them")
      ->group("Prefix Prompt");
  profile
      ->add_option("--prompt-prefix-length,--prefix-prompt-length", c.input.prefix_length,
                   "Tokens per prefix prompt")
      ->group("Prefix Prompt");
  profile
      ->add_option("--shared-system-prompt-length", c.input.shared_system_prompt_length,
                   "Tokens of one system prompt shared by every conversation")
      ->group("Prefix Prompt");
  profile
      ->add_option("--user-context-prompt-length", c.input.user_context_prompt_length,
                   "Tokens of a per-conversation user context prompt (needs --num-dataset-entries)")
      ->group("Prefix Prompt");
  profile
      ->add_option("--seq-dist,--sequence-distribution", c.input.sequence_distribution,
                   "ISL,OSL:P;ISL,OSL:P pairs (percent), optional |stddev per number, or JSON")
      ->group("Input Sequence Length");
  profile
      ->add_option("--conversation-turn-mean,--session-turns-mean", c.input.turn_mean,
                   "Mean turns per conversation")
      ->group("Conversation Input");
  profile
      ->add_option("--conversation-turn-stddev,--session-turns-stddev", c.input.turn_stddev,
                   "Turns per conversation standard deviation")
      ->group("Conversation Input");
  profile
      ->add_option("--conversation-turn-delay-mean,--session-turn-delay-mean",
                   c.input.turn_delay_mean_ms, "Mean delay before each later turn, ms")
      ->group("Conversation Input");
  profile
      ->add_option("--conversation-turn-delay-stddev,--session-turn-delay-stddev",
                   c.input.turn_delay_stddev_ms, "Turn delay standard deviation, ms")
      ->group("Conversation Input");
  profile
      ->add_option("--conversation-turn-delay-ratio,--session-delay-ratio",
                   c.input.turn_delay_ratio, "Multiplies every sampled turn delay")
      ->group("Conversation Input");
}

// Files, public datasets, trace synthesis and sampling.
void add_dataset_options(CLI::App* profile, CliTargets& t) {
  RunConfig& c = t.outcome.config;
  profile
      ->add_option("--connection-reuse-strategy", t.connection_reuse,
                   "pooled (keep-alive, shared) | never (a connection per request) | "
                   "sticky-user-sessions (a connection per session)")
      ->transform(enum_choice({"pooled", "never", "sticky-user-sessions"}))
      ->group("Endpoint");
  profile
      ->add_option("--model-selection-strategy", t.model_selection,
                   "Which of several -m models each turn targets: round_robin | random")
      ->transform(enum_choice({"round_robin", "random"}))
      ->group("Endpoint");
  profile
      ->add_option("--input-file", c.input.input_file,
                   "Dataset file or folder (see --custom-dataset-type) instead of synthetic "
                   "prompts")
      ->group("Input");
  profile
      ->add_option("--custom-dataset-type", c.input.custom_dataset_type,
                   "single_turn | multi_turn | random_pool | mooncake_trace | bailian_trace | "
                   "burst_gpt_trace | raw_payload | inputs_json | weka_trace | baseten_trace | "
                   "dag_jsonl | sagemaker_data_capture | speed_bench_* (default: detected from "
                   "the file)")
      ->transform(enum_choice(custom_dataset_type_choices()))
      ->group("Input");
  profile
      ->add_option("--public-dataset", c.input.public_dataset,
                   "Public dataset to replay (docs/datasets.md): exgentic_v2, exgentic, sharegpt, "
                   "aimo, mmstar, mmvu, vision_arena, llava_onevision, aimo_aime, "
                   "aimo_numina_cot, aimo_numina_1_5, spec_bench, spec_al_gsm8k, "
                   "spec_al_math500, spec_al_humaneval, spec_al_mbpp, spec_al_mtbench, "
                   "instruct_coder, blazedit_5k, blazedit_10k, librispeech, voxpopuli, "
                   "gigaspeech, ami, spgispeech; read from --input-file, the Hugging Face cache "
                   "or downloaded")
      ->transform(enum_choice(public_dataset_names()))
      ->group("Input");
  profile
      ->add_option(
          "--prompt-input-tokens-block-size,--synthetic-input-tokens-block-size,"
          "--isl-block-size",
          c.input.block_size,
          "Tokens per trace hash id (default: the format's, 512 mooncake, 16 bailian)")
      ->group("Input Sequence Length");
  profile
      ->add_flag("--no-force-min-tokens", c.input.no_force_min_tokens,
                 "baseten_trace: do not send min_tokens = output_tokens")
      ->group("Input");
  profile
      ->add_flag("--omit-kv-hints", c.input.omit_kv_hints,
                 "baseten_trace: do not send the rows' hash_ids and block_size")
      ->group("Input");
  profile
      ->add_option("--synthesis-speedup-ratio", c.input.synthesis_speedup_ratio,
                   "Trace replay speed: timestamps and delays are divided by it")
      ->group("Synthesis");
  profile
      ->add_option("--synthesis-prompt-len-multiplier", c.input.synthesis_prompt_len_multiplier,
                   "Scale every trace row's input_length")
      ->group("Synthesis");
  profile
      ->add_option("--synthesis-max-isl", c.input.synthesis_max_isl,
                   "Drop trace rows whose input_length exceeds this")
      ->group("Synthesis");
  profile
      ->add_option("--synthesis-max-osl", c.input.synthesis_max_osl,
                   "Cap every trace row's output_length at this")
      ->group("Synthesis");
  profile
      ->add_flag("--fixed-schedule", c.load.fixed_schedule,
                 "Send every first turn at its file timestamp (ms)")
      ->group("Input");
  profile
      ->add_flag("--fixed-schedule-auto-offset", c.load.fixed_schedule_auto_offset,
                 "Start the schedule at the first timestamp")
      ->group("Input");
  profile
      ->add_option("--fixed-schedule-start-offset", c.load.fixed_schedule_start_offset_ms,
                   "Skip entries before this timestamp (ms); the schedule starts here")
      ->group("Input");
  profile
      ->add_option("--fixed-schedule-end-offset", c.load.fixed_schedule_end_offset_ms,
                   "Skip entries after this timestamp (ms)")
      ->group("Input");
  profile
      ->add_flag("--no-fixed-schedule", c.load.no_fixed_schedule,
                 "Never switch to a fixed schedule automatically")
      ->group("Input");
  profile
      ->add_option("--dataset-sampling-strategy", t.sampling_strategy,
                   "sequential (default, for every dataset as in AIPerf 0.11) | random | shuffle")
      ->transform(enum_choice({"sequential", "random", "shuffle"}))
      ->group("Input");
  profile
      ->add_option("--num-dataset-entries,--num-prompts", c.input.num_dataset_entries,
                   "Dataset size: synthetic conversations made, or the cap on those read from a "
                   "file (default: the typed --num-conversations, else --request-count, else 100 "
                   "for synthetic data)")
      ->group("Conversation Input");
}

}  // namespace inferperf::config
