// The `profile` options by area, one file each (cli_endpoint.cpp, cli_input.cpp, cli_load.cpp,
// cli_output.cpp, cli_telemetry.cpp); add_profile_options (cli_app.cpp) mounts them in this order,
// which is the order --help lists them in.
#pragma once
#include <CLI/CLI.hpp>

#include "config/cli_app.hpp"

namespace inferperf::config {

// -f/--config FILE, the YAML configuration file (cli_config_file.cpp).
void add_config_file_option(CLI::App* profile, CliTargets& t);
// -m, -u, the endpoint type and the connection options (cli_endpoint.cpp).
void add_endpoint_options(CLI::App* profile, CliTargets& t);
// Rankings, extra inputs, headers, sequence lengths, prefixes and conversations (cli_input.cpp).
void add_input_options(CLI::App* profile, CliTargets& t);
// Files, public datasets, trace synthesis and sampling (cli_input.cpp).
void add_dataset_options(CLI::App* profile, CliTargets& t);
// The --public-dataset choices of AIPerf 0.11, in its order (cli_public.cpp; the dataset module's
// registry holds what each one reads, and a test keeps the two lists equal).
const std::vector<std::string>& public_dataset_names();
// --hf-subset and --dataset-filter, after --public-dataset (cli_public.cpp).
void add_public_dataset_options(CLI::App* profile, CliTargets& t);
// --dataset-filter items as (key, value) pairs; an item without '=', an empty key or value, or a
// repeated key throws CLI::ValidationError.
std::vector<std::pair<std::string, std::string>> parse_dataset_filters(
    const std::vector<std::string>& items);
// Trace-synthesis multipliers and the per-turn delay cap of the newer dataset types
// (cli_dataset_types.cpp).
void add_dataset_type_options(CLI::App* profile, CliTargets& t);
// Every --custom-dataset-type name (cli_dataset_types.cpp; the dataset module's type table holds
// the same names, a unit test checks).
std::vector<std::string> custom_dataset_type_choices();
// The AIPerf 0.11 image, audio and video options, accepted at their no-media values
// (cli_media.cpp).
void add_media_options(CLI::App* profile, CliTargets& t);
// Tokenizer, load generator, warmup, sweeps and the run's length (cli_load.cpp).
void add_load_options(CLI::App* profile, CliTargets& t);
// --max-*, artifacts, shards and timeslices (cli_output.cpp).
void add_limits_and_output_options(CLI::App* profile, CliTargets& t);
// Telemetry, server metrics, metrics, logging and the UI (cli_telemetry.cpp).
void add_telemetry_and_service_options(CLI::App* profile, CliTargets& t);
// --otel-url, --stream, --otel-resource-attributes, --gen-ai-provider, --prometheus-port and
// --prometheus-host (cli_observe.cpp); apply_observability turns them into RunConfig after
// parsing, one message per problem.
void add_observability_options(CLI::App* profile, CliTargets& t);
void apply_observability(CliTargets& t, const CLI::App& profile, std::vector<std::string>& errors);
// --mlflow-* (cli_mlflow.cpp), called by the two above.
void add_mlflow_options(CLI::App* profile, CliTargets& t);
void apply_mlflow(CliTargets& t, const CLI::App& profile, std::vector<std::string>& errors);
// --wait-for-model-mode/-interval and --network-latency-* (cli_readiness.cpp).
void add_readiness_options(CLI::App* profile, CliTargets& t);
// --request-content-type and --download-video-content (cli_request.cpp).
void add_request_options(CLI::App* profile, CliTargets& t);

// The validators of cli_tokens.cpp; each goes in ->transform(), as it rewrites the value.
// One of `members`, spelled in any case with `-` or `_` (AIPerf 0.11); stores the member.
CLI::Validator enum_choice(std::vector<std::string> members);
// Drops the blanks around one comma item of a list option.
CLI::Validator trimmed_item();
// One --url item: trimmed, and "http://" put in front when it has no scheme (url_with_scheme).
CLI::Validator url_item();
// --transport: only http, in any spelling; anything else is refused by name.
CLI::Validator transport_choice();

}  // namespace inferperf::config
