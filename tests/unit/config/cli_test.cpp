// parse_command_line and build_cli_command.
#include "config/cli.hpp"
#include "config/enum_token.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace {

using inferperf::config::build_cli_command;
using inferperf::config::CliOutcome;
using inferperf::config::EndpointType;
using inferperf::config::ExportLevel;
using inferperf::config::parse_command_line;
using inferperf::config::UiType;
using nlohmann::json;

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

TEST(ParseCommandLine, ValidProfileGivesRunConfig) {
  const std::vector<std::string> args = {
      "profile", "-m", "x", "--streaming", "--concurrency", "4", "--request-count", "10"};
  const CliOutcome o = parse_command_line(args);
  ASSERT_EQ(o.action, CliOutcome::Action::kProfile) << o.message;
  EXPECT_EQ(o.exit_code, 0);
  const auto& c = o.config;
  EXPECT_EQ(c.endpoint.model_names, std::vector<std::string>{"x"});
  EXPECT_TRUE(c.endpoint.streaming);
  EXPECT_EQ(c.endpoint.type, EndpointType::kChat);
  EXPECT_EQ(c.endpoint.urls, std::vector<std::string>{"http://localhost:8000"});
  EXPECT_EQ(c.endpoint.custom_endpoint, "");
  EXPECT_FALSE(c.endpoint.use_legacy_max_tokens);
  ASSERT_TRUE(c.load.concurrency.has_value());
  EXPECT_EQ(*c.load.concurrency, 4);
  ASSERT_TRUE(c.load.request_count.has_value());
  EXPECT_EQ(*c.load.request_count, 10);
  EXPECT_FALSE(c.load.duration_s.has_value());
  EXPECT_STREQ(to_string(c.log_level), "INFO");
  EXPECT_EQ(c.input.isl_mean, 550);
  EXPECT_FALSE(c.input.osl_mean.has_value());
  EXPECT_EQ(c.output.export_level, ExportLevel::kRecords);
  EXPECT_EQ(c.output.artifact_dir, "artifacts");
  EXPECT_FALSE(c.output.artifact_dir_explicit);
  EXPECT_TRUE(c.warnings.empty());
  EXPECT_EQ(c.cli_command,
            "inferperf profile -m 'x' --streaming --concurrency 4 --request-count 10");
  EXPECT_EQ(c.set_options.count("--streaming"), 1u);
  EXPECT_EQ(c.set_options.count("--concurrency"), 1u);
}

TEST(ParseCommandLine, TransportOptions) {
  const std::string ca =
      (std::filesystem::temp_directory_path() / "inferperf-cli-test-ca.pem").string();
  std::ofstream(ca) << "not checked at parse time\n";  // only its existence is
  const CliOutcome o = parse_command_line({"profile", "-m", "x", "-u", "https://h", "--ssl-ca-file",
                                           ca, "--insecure", "--unix-socket", "/tmp/s.sock"});
  ASSERT_EQ(o.action, CliOutcome::Action::kProfile) << o.message;
  EXPECT_EQ(o.config.endpoint.ssl_ca_file, ca);
  EXPECT_TRUE(o.config.endpoint.insecure);
  EXPECT_EQ(o.config.endpoint.unix_socket, "/tmp/s.sock");
  const CliOutcome plain = parse_command_line({"profile", "-m", "x"});
  ASSERT_EQ(plain.action, CliOutcome::Action::kProfile) << plain.message;
  EXPECT_TRUE(plain.config.endpoint.ssl_ca_file.empty());
  EXPECT_FALSE(plain.config.endpoint.insecure);
  EXPECT_TRUE(plain.config.endpoint.unix_socket.empty());
}

TEST(ParseCommandLine, MissingCaFileExitsTwo) {
  const CliOutcome o =
      parse_command_line({"profile", "-m", "x", "--ssl-ca-file", "/nonexistent/ca.pem"});
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_TRUE(contains(o.message, "--ssl-ca-file")) << o.message;
}

TEST(ParseCommandLine, AliasesAndValues) {
  const CliOutcome o = parse_command_line({"profile",
                                           "--model",
                                           "m1",
                                           "--endpoint-type",
                                           "completions",
                                           "--url",
                                           "http://h:9/v1",
                                           "--endpoint",
                                           "/foo",
                                           "--isl",
                                           "100",
                                           "--osl",
                                           "20",
                                           "--random-seed",
                                           "7",
                                           "--num-requests",
                                           "3",
                                           "--extra-inputs",
                                           "ignore_eos:true",
                                           "--extra-inputs",
                                           R"({"min_tokens": 5})",
                                           "-H",
                                           "X-A:v",
                                           "--profile-export-level",
                                           "summary",
                                           "--artifact-dir",
                                           "out",
                                           "--use-legacy-max-tokens",
                                           "--log-level",
                                           "debug"});
  ASSERT_EQ(o.action, CliOutcome::Action::kProfile) << o.message;
  const auto& c = o.config;
  EXPECT_EQ(c.endpoint.model_names, std::vector<std::string>{"m1"});
  EXPECT_EQ(c.endpoint.type, EndpointType::kCompletions);
  EXPECT_EQ(c.endpoint.urls, std::vector<std::string>{"http://h:9/v1"});
  EXPECT_EQ(c.endpoint.custom_endpoint, "/foo");
  EXPECT_TRUE(c.endpoint.use_legacy_max_tokens);
  EXPECT_EQ(c.input.isl_mean, 100);
  ASSERT_TRUE(c.input.osl_mean.has_value());
  EXPECT_EQ(*c.input.osl_mean, 20);
  ASSERT_TRUE(c.input.random_seed.has_value());
  EXPECT_EQ(*c.input.random_seed, 7u);
  EXPECT_EQ(*c.load.request_count, 3);
  EXPECT_EQ(*c.load.concurrency, 1);  // defaulted, with a warning
  ASSERT_EQ(c.input.extra.size(), 2u);
  EXPECT_EQ(c.input.extra[0].first, "ignore_eos");
  EXPECT_EQ(c.input.extra[0].second, json(true));
  EXPECT_EQ(c.input.extra[1].first, "min_tokens");
  EXPECT_EQ(c.input.extra[1].second, json(5));
  ASSERT_EQ(c.input.headers.size(), 1u);
  EXPECT_EQ(c.input.headers[0].first, "X-A");
  EXPECT_EQ(c.input.headers[0].second, "v");
  EXPECT_EQ(c.output.export_level, ExportLevel::kSummary);
  EXPECT_EQ(c.output.artifact_dir, "out");
  EXPECT_TRUE(c.output.artifact_dir_explicit);
  EXPECT_STREQ(to_string(c.log_level), "DEBUG");
  ASSERT_EQ(c.warnings.size(), 1u);
  EXPECT_EQ(c.warnings[0], "no --concurrency given; using concurrency 1");
}

TEST(ParseCommandLine, UnsupportedAiperfFlagExitsTwoAndNamesIt) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"profile", "-m", "x", "--replay-speedup=2"}, "from after 0.11"}};
  for (const auto& [args, reason] : cases) {
    const CliOutcome o = parse_command_line(args);
    EXPECT_EQ(o.action, CliOutcome::Action::kExit);
    EXPECT_EQ(o.exit_code, 2);
    const std::string flag = args[3].substr(0, args[3].find('='));
    EXPECT_TRUE(contains(o.message, flag)) << o.message;
    EXPECT_TRUE(contains(o.message, reason)) << o.message;
  }
}

TEST(ParseCommandLine, TelemetryFlagsWithAndWithoutValues) {
  // No value, before other options: the defaults plus the console summary.
  CliOutcome o = parse_command_line(
      {"profile", "--gpu-telemetry", "-m", "x", "--server-metrics", "--url", "h:1"});
  ASSERT_EQ(o.action, CliOutcome::Action::kProfile) << o.message;
  EXPECT_TRUE(o.config.telemetry.gpu_flag_given);
  EXPECT_TRUE(o.config.telemetry.dcgm_urls.empty());
  EXPECT_TRUE(o.config.telemetry.server_urls.empty());
  EXPECT_EQ(o.config.endpoint.urls, std::vector<std::string>{"http://h:1"});

  o = parse_command_line({"profile", "-m", "x", "--gpu-telemetry", "node1:9400",
                          "http://node2:9400/metrics,custom.csv", "dashboard", "--server-metrics",
                          "http://a:1/metrics", "--server-metrics-formats", "json", "jsonl"});
  ASSERT_EQ(o.action, CliOutcome::Action::kProfile) << o.message;
  const auto& t = o.config.telemetry;
  EXPECT_EQ(t.dcgm_urls, (std::vector<std::string>{"node1:9400", "http://node2:9400/metrics"}));
  EXPECT_EQ(t.custom_metrics_csv, "custom.csv");
  EXPECT_TRUE(t.dashboard);
  EXPECT_FALSE(t.nvml);
  EXPECT_EQ(t.server_urls, std::vector<std::string>{"http://a:1/metrics"});
  EXPECT_EQ(t.server_formats, (std::vector<std::string>{"json", "jsonl"}));

  o = parse_command_line({"profile", "-m", "x", "--gpu-telemetry", "pynvml"});
  ASSERT_EQ(o.action, CliOutcome::Action::kProfile) << o.message;
  EXPECT_TRUE(o.config.telemetry.nvml);
  EXPECT_EQ(o.config.telemetry.server_formats, (std::vector<std::string>{"json", "csv"}));

  for (const auto& bad : std::vector<std::vector<std::string>>{
           {"profile", "-m", "x", "--gpu-telemetry", "nvml", "h:9400"},
           {"profile", "-m", "x", "--gpu-telemetry", "--no-gpu-telemetry"},
           {"profile", "-m", "x", "--server-metrics", "--no-server-metrics"},
           {"profile", "-m", "x", "--server-metrics-formats", "parquet"},
           {"profile", "-m", "x", "--server-metrics-formats", "xml"},
           {"profile", "-m", "x", "--gpu-telemetry", "amdsmi"}}) {
    o = parse_command_line(bad);
    EXPECT_EQ(o.action, CliOutcome::Action::kExit) << bad.back();
    EXPECT_EQ(o.exit_code, 2) << bad.back();
    EXPECT_TRUE(contains(o.message, "error: ")) << o.message;
  }
}

TEST(ParseCommandLine, UnknownFlagExitsTwo) {
  const CliOutcome o = parse_command_line({"profile", "-m", "x", "--no-such-flag"});
  EXPECT_EQ(o.action, CliOutcome::Action::kExit);
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_TRUE(contains(o.message, "--no-such-flag")) << o.message;
}

// AIPerf 0.11 dropped the check: the extra sessions simply find nothing left to send.
TEST(ParseCommandLine, ConcurrencyAboveRequestCountIsAccepted) {
  const CliOutcome o =
      parse_command_line({"profile", "-m", "x", "--concurrency", "5", "--request-count", "2"});
  ASSERT_EQ(o.action, CliOutcome::Action::kProfile) << o.message;
  EXPECT_EQ(*o.config.load.concurrency, 5);
  EXPECT_EQ(*o.config.load.request_count, 2);
}

TEST(ParseCommandLine, InvalidValuesAreErrors) {
  const std::vector<std::vector<std::string>> bad = {
      {"profile", "-m", "x", "--concurrency", "0"},
      {"profile", "-m", "x", "--request-count", "0"},
      {"profile", "-m", "x", "--benchmark-grace-period", "-5"},  // negative
      {"profile", "-m", "x", "--endpoint-type", "embedding"},
      {"profile", "-m", "x", "--rankings-passages-mean", "3"},  // chat has no passages
      {"profile", "-m", "x", "--endpoint-type", "nim_rankings", "--isl", "10"},
      {"profile", "-m", "x", "--wait-for-model-timeout", "-1"},
      {"profile", "-m", "x", "--extra-inputs", "novalue"},
      {"profile", "-m", "x", "--url", "http://a:1", "--url-strategy", "random"},
      {"profile", "-m", "x", "--isl", "0"},
      {"profile", "-m", "x", "--export-level", "everything"},
      {"profile", "-m", "x", "--ui-type", "fancy"},
  };
  for (const auto& args : bad) {
    const CliOutcome o = parse_command_line(args);
    EXPECT_EQ(o.action, CliOutcome::Action::kExit) << args[3];
    EXPECT_EQ(o.exit_code, 2) << args[3] << ": " << o.message;
  }
}

TEST(ParseCommandLine, UiTypesAndVerbosity) {
  for (const auto& [value, ui] :
       std::vector<std::pair<std::string, UiType>>{{"dashboard", UiType::kDashboard},
                                                   {"simple", UiType::kSimple},
                                                   {"none", UiType::kNone}}) {
    for (const std::string flag : {"--ui-type", "--ui"}) {
      const CliOutcome o = parse_command_line({"profile", "-m", "x", flag, value});
      ASSERT_EQ(o.action, CliOutcome::Action::kProfile) << flag << " " << value << o.message;
      EXPECT_EQ(o.config.ui, ui) << value;
      EXPECT_EQ(o.config.set_options.count("--ui-type"), 1u);
      EXPECT_FALSE(o.config.verbose);
    }
  }
  const CliOutcome plain = parse_command_line({"profile", "-m", "x"});
  EXPECT_EQ(plain.config.set_options.count("--ui-type"), 0u);
  EXPECT_TRUE(parse_command_line({"profile", "-m", "x", "-v"}).config.verbose);
  EXPECT_TRUE(parse_command_line({"profile", "-m", "x", "-vv"}).config.verbose);
  EXPECT_FALSE(parse_command_line({"profile", "-m", "x", "--log-level", "DEBUG"}).config.verbose);
}

TEST(ParseCommandLine, ExportLevelRawIsAccepted) {
  for (const std::string flag : {"--export-level", "--profile-export-level"}) {
    const CliOutcome o = parse_command_line({"profile", "-m", "x", flag, "raw"});
    ASSERT_EQ(o.action, CliOutcome::Action::kProfile) << flag << ": " << o.message;
    EXPECT_EQ(o.config.output.export_level, ExportLevel::kRaw) << flag;
  }
}

struct DefaultCountCase {
  std::vector<std::string> args;
  int concurrency;
  std::int64_t request_count;
};

TEST(ParseCommandLine, MissingStopConditionDefaultsRequestCount) {
  const std::vector<DefaultCountCase> table = {
      {{"profile", "-m", "x"}, 1, 10},
      {{"profile", "-m", "x", "--concurrency", "4"}, 4, 10},
      {{"profile", "-m", "x", "--concurrency", "5"}, 5, 10},
      // AIPerf 0.11: 10 whatever the concurrency (its help's max(10, 2 x concurrency) is not
      // what it does).
      {{"profile", "-m", "x", "--concurrency", "8"}, 8, 10},
      {{"profile", "-m", "x", "--concurrency", "30"}, 30, 10},
  };
  for (const auto& c : table) {
    const CliOutcome o = parse_command_line(c.args);
    ASSERT_EQ(o.action, CliOutcome::Action::kProfile) << o.message;
    EXPECT_EQ(*o.config.load.concurrency, c.concurrency);
    ASSERT_TRUE(o.config.load.request_count.has_value());
    EXPECT_EQ(*o.config.load.request_count, c.request_count);
    bool warned = false;
    for (const auto& w : o.config.warnings) {
      warned |=
          w == "no stop condition given; using --request-count " + std::to_string(c.request_count);
    }
    EXPECT_TRUE(warned);
  }
}

TEST(ParseCommandLine, DurationIsAStopCondition) {
  const CliOutcome o = parse_command_line(
      {"profile", "-m", "x", "--concurrency", "2", "--benchmark-duration", "1.5"});
  ASSERT_EQ(o.action, CliOutcome::Action::kProfile) << o.message;
  EXPECT_FALSE(o.config.load.request_count.has_value());
  ASSERT_TRUE(o.config.load.duration_s.has_value());
  EXPECT_DOUBLE_EQ(*o.config.load.duration_s, 1.5);
  EXPECT_DOUBLE_EQ(o.config.grace_period_s(), 30.0);
}

TEST(ParseCommandLine, SliceDurationIsStoredInSeconds) {
  const CliOutcome o = parse_command_line({"profile", "-m", "x", "--slice-duration", "0.25"});
  ASSERT_EQ(o.action, CliOutcome::Action::kProfile) << o.message;
  ASSERT_TRUE(o.config.output.slice_duration_s.has_value());
  EXPECT_DOUBLE_EQ(*o.config.output.slice_duration_s, 0.25);
  EXPECT_TRUE(o.config.set_options.count("--slice-duration"));
  EXPECT_FALSE(parse_command_line({"profile", "-m", "x"}).config.output.slice_duration_s);
}

TEST(ParseCommandLine, SliceDurationMustBePositiveAndFinite) {
  for (const char* v : {"0", "-1", "inf", "nan"}) {
    const CliOutcome o = parse_command_line({"profile", "-m", "x", "--slice-duration", v});
    EXPECT_EQ(o.action, CliOutcome::Action::kExit) << v;
    EXPECT_EQ(o.exit_code, 2) << v;
    EXPECT_TRUE(contains(o.message, "--slice-duration must be a finite number of seconds"))
        << v << ": " << o.message;
  }
}

TEST(ParseCommandLine, VerbosityFlags) {
  struct Case {
    std::vector<std::string> args;
    std::string level;
  };
  const std::vector<Case> table = {
      {{"profile", "-m", "x", "-vv"}, "TRACE"},
      {{"profile", "-m", "x", "--extra-verbose"}, "TRACE"},
      {{"profile", "-m", "x", "-v"}, "DEBUG"},
      {{"profile", "-m", "x", "--verbose"}, "DEBUG"},
      {{"profile", "-m", "x", "--log-level", "warning"}, "WARNING"},
      {{"profile", "-m", "x"}, "INFO"},
  };
  for (const auto& c : table) {
    const CliOutcome o = parse_command_line(c.args);
    ASSERT_EQ(o.action, CliOutcome::Action::kProfile) << c.args.back() << ": " << o.message;
    EXPECT_EQ(to_string(o.config.log_level), c.level) << c.args.back();
  }
}

TEST(ParseCommandLine, InternalAiperfFlagIsIgnoredWithAWarning) {
  const CliOutcome o = parse_command_line({"profile", "-m", "x", "--zmq-host", "127.0.0.1"});
  ASSERT_EQ(o.action, CliOutcome::Action::kProfile) << o.message;
  bool warned = false;
  for (const auto& w : o.config.warnings) warned |= contains(w, "--zmq-host");
  EXPECT_TRUE(warned);
}

TEST(ParseCommandLine, HelpExitsZero) {
  const CliOutcome o = parse_command_line({"profile", "--help"});
  EXPECT_EQ(o.action, CliOutcome::Action::kExit);
  EXPECT_EQ(o.exit_code, 0);
  EXPECT_TRUE(contains(o.message, "--concurrency")) << o.message;
}

TEST(ParseCommandLine, MissingSubcommandExitsTwo) {
  const CliOutcome o = parse_command_line({});
  EXPECT_EQ(o.action, CliOutcome::Action::kExit);
  EXPECT_EQ(o.exit_code, 2);
}

// PRODUCTION BUG (reported, not fixed): src/config/cli.cpp records set options with
// opt->get_name(false, true), which for options with aliases is the whole comma-joined list
// ("-u,--url", "--ui-type,--ui", ...), so the lookups by long name in
// app/profile/input_config.cpp and app/profile/runner.cpp ("--url", "--ui-type", ...) never match.
// Enable once fixed.
TEST(ParseCommandLine, SetOptionsHoldLongNamesOfAliasedOptions) {
  const CliOutcome o = parse_command_line({"profile", "-m", "x", "--url", "h:1", "--ui", "simple",
                                           "--isl", "10", "--custom-endpoint", "/v1/x"});
  ASSERT_EQ(o.action, CliOutcome::Action::kProfile) << o.message;
  EXPECT_EQ(o.config.set_options.count("--url"), 1u);
  EXPECT_EQ(o.config.set_options.count("--ui-type"), 1u);
  EXPECT_EQ(o.config.set_options.count("--synthetic-input-tokens-mean"), 1u);
  EXPECT_EQ(o.config.set_options.count("--custom-endpoint"), 1u);
}

TEST(BuildCliCommand, QuotesStringsOnly) {
  EXPECT_EQ(build_cli_command({"profile", "-m", "x", "--concurrency", "4", "--streaming"}),
            "inferperf profile -m 'x' --concurrency 4 --streaming");
  EXPECT_EQ(build_cli_command({"profile", "--extra-inputs", "a:1", "--benchmark-duration", "2.5",
                               "--random-seed", "-5", "--flag-value", "true"}),
            "inferperf profile --extra-inputs 'a:1' --benchmark-duration 2.5 --random-seed -5 "
            "--flag-value true");
  EXPECT_EQ(build_cli_command({}), "inferperf");
}

TEST(BuildCliCommand, RedactsSecrets) {
  EXPECT_EQ(build_cli_command({"profile", "--api-key", "sk-1", "-H", "Authorization:Bearer t", "-H",
                               "X-Trace:keep", "--header", "x-api-key:abc", "--api-key=sk-2"}),
            "inferperf profile --api-key '<redacted>' -H 'Authorization:<redacted>' -H "
            "'X-Trace:keep' --header 'x-api-key:<redacted>' --api-key=<redacted>");
  EXPECT_EQ(build_cli_command({"profile", "-H", R"({"Authorization":"Bearer t","X-A":"b"})"}),
            R"(inferperf profile -H '{"Authorization":"<redacted>","X-A":"b"}')");
}

TEST(ParseCommandLine, GoodputObjectivesAreValidated) {
  auto ok = parse_command_line(
      {"profile", "-m", "x", "--goodput", "time_to_first_token:100 inter_token_latency:10"});
  ASSERT_EQ(ok.action, CliOutcome::Action::kProfile) << ok.message;
  EXPECT_EQ(ok.config.metrics.goodput, "time_to_first_token:100 inter_token_latency:10");
  ASSERT_EQ(ok.config.metrics.goodput_targets.size(), 2u);
  EXPECT_EQ(ok.config.metrics.goodput_targets[1].tag, "inter_token_latency");
  EXPECT_EQ(ok.config.metrics.goodput_targets[1].value, 10.0);
  for (const char* bad : {"time_to_first_token:x", "time_to_first_token", "a:1 a:2", "a:-1"}) {
    auto o = parse_command_line({"profile", "-m", "x", "--goodput", bad});
    EXPECT_EQ(o.exit_code, 2) << bad;
    EXPECT_NE(o.message.find("--goodput"), std::string::npos) << o.message;
  }
  // The tags are the metric catalogue's to check (app::goodput_problem, before the run starts).
  auto unknown = parse_command_line({"profile", "-m", "x", "--goodput", "ttft:100"});
  ASSERT_EQ(unknown.action, CliOutcome::Action::kProfile) << unknown.message;
  EXPECT_EQ(unknown.config.metrics.goodput_targets.front().tag, "ttft");
}

}  // namespace

namespace inferperf::config {
namespace {

CliOutcome parse_profile(std::vector<std::string> extra) {
  std::vector<std::string> args = {"profile",         "-m", "x", "--concurrency", "1",
                                   "--request-count", "2"};
  args.insert(args.end(), extra.begin(), extra.end());
  return parse_command_line(args);
}

TEST(PromptOptions, ParsedWithAliases) {
  auto o = parse_profile({"--num-prefix-prompts", "3", "--prefix-prompt-length", "16", "-b", "2",
                          "--seq-dist", "10,2:100", "--tokenizer", "builtin",
                          "--tokenizer-revision", "v1"});
  ASSERT_EQ(o.action, CliOutcome::Action::kProfile) << o.message;
  EXPECT_EQ(o.config.input.prefix_pool_size, 3);
  EXPECT_EQ(o.config.input.prefix_length, 16);
  EXPECT_EQ(o.config.input.prompt_batch_size, 2);
  EXPECT_EQ(o.config.input.sequence_distribution, "10,2:100");
  EXPECT_EQ(o.config.tokenizer.name, "builtin");
  EXPECT_EQ(o.config.tokenizer.revision, "v1");
}

TEST(PromptOptions, ValidationErrors) {
  struct Case {
    std::vector<std::string> args;
    const char* expect;
  };
  const std::vector<Case> cases = {
      {{"--num-prefix-prompts", "3"}, "must be given together"},
      {{"--num-prefix-prompts", "3", "--prefix-prompt-length", "4", "--shared-system-prompt-length",
        "5"},
       "cannot be combined"},
      {{"--user-context-prompt-length", "5"}, "needs an explicit --num-dataset-entries"},
      {{"--shared-system-prompt-length", "0"},
       "--shared-system-prompt-length must be a whole number of tokens between 1 and 10,000,000"},
      {{"--seq-dist", "10,2:100", "--isl", "5"}, "do not combine it"},
  };
  for (const auto& c : cases) {
    auto o = parse_profile(c.args);
    EXPECT_EQ(o.exit_code, 2) << c.expect;
    EXPECT_NE(o.message.find(c.expect), std::string::npos) << o.message;
  }
}

TEST(ParseCommandLine, PublicDatasetShareGpt) {
  CliOutcome o = parse_command_line({"profile", "-m", "x", "--public-dataset", "sharegpt"});
  ASSERT_EQ(o.action, CliOutcome::Action::kProfile) << o.message;
  EXPECT_EQ(o.config.input.public_dataset, "sharegpt");
  EXPECT_EQ(o.config.input.sampling_strategy, SamplingStrategy::kSequential)
      << "as for file datasets";

  // --input-file names the local ShareGPT JSON.
  o = parse_command_line(
      {"profile", "-m", "x", "--public-dataset", "sharegpt", "--input-file", "sg.json"});
  ASSERT_EQ(o.action, CliOutcome::Action::kProfile) << o.message;
  EXPECT_EQ(o.config.input.input_file, "sg.json");

  // Server token counts with a named tokenizer: the filter can still count.
  o = parse_command_line({"profile", "-m", "x", "--public-dataset", "sharegpt",
                          "--use-server-token-count", "--tokenizer", "builtin"});
  ASSERT_EQ(o.action, CliOutcome::Action::kProfile) << o.message;
}

TEST(ParseCommandLine, PublicDatasetErrorsExitTwo) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--public-dataset", "mt_bench"}, "sharegpt"},
      {{"--public-dataset", "sharegpt", "--input-file", "sg.json", "--custom-dataset-type",
        "single_turn"},
       "--public-dataset sharegpt cannot be combined with --custom-dataset-type"},
      {{"--public-dataset", "sharegpt", "--use-server-token-count"},
       "with --use-server-token-count it needs --tokenizer"},
      {{"--public-dataset", "sharegpt", "--fixed-schedule"},
       "--fixed-schedule replays timestamps, which --public-dataset sharegpt does not have"},
      {{"--public-dataset", "sharegpt", "--input-file", "sg.json", "--synthesis-max-isl", "9"},
       "they do not apply to --public-dataset sharegpt"},
  };
  for (const auto& [extra, message] : cases) {
    std::vector<std::string> args = {"profile", "-m", "x"};
    args.insert(args.end(), extra.begin(), extra.end());
    const CliOutcome o = parse_command_line(args);
    EXPECT_EQ(o.action, CliOutcome::Action::kExit) << extra[1];
    EXPECT_EQ(o.exit_code, 2) << extra[1];
    EXPECT_TRUE(contains(o.message, message)) << "expected '" << message << "' in: " << o.message;
  }
}

}  // namespace
}  // namespace inferperf::config

// ---- bad input and secrets (Reliability and security) ------------------------------------------

namespace {

using inferperf::config::build_cli_command;
using inferperf::config::CliOutcome;
using inferperf::config::parse_command_line;

struct BadInput {
  std::vector<std::string> args;  // after "profile -m x"
  std::string message;            // part of the one error line
};

TEST(BadInput, EachCaseExitsTwoWithItsMessage) {
  const std::vector<BadInput> cases = {
      {{"--extra-inputs", "foo"}, "--extra-inputs: expected key:value, got 'foo' (no ':')"},
      {{"--extra-inputs", "a:"}, "--extra-inputs: expected key:value, got 'a:' (empty value"},
      {{"--extra-inputs", "{"}, "--extra-inputs: invalid JSON object '{': parse error"},
      {{"--extra-inputs", R"("text")"},
       "--extra-inputs: expected a JSON object or key:value "
       "pairs, got a JSON string"},
      // CLI11 splits "[a,b]" into values itself; each is then not key:value.
      {{"--extra-inputs", "[1]"}, "--extra-inputs: expected key:value, got '1' (no ':')"},
      {{"-H", "NoColon"}, "--header: expected key:value, got 'NoColon' (no ':')"},
      {{"-H", ":v"}, "--header: expected key:value, got ':...' (empty key)"},
      {{"-H", "X A:v"}, "--header: header name 'X A' may only hold letters, digits"},
      {{"-H", "X-A\x01:v"}, "--header: header name 'X-A?' may only hold"},
      {{"-H", "X-A:v\r\nX-Injected: 1"}, "--header: the value of header X-A holds a line break"},
      {{"-H", R"({"X-A": "v\r\nX-Injected: 1"})"}, "the value of header X-A holds a line break"},
      {{"-H", R"({"Bad Name": "v"})"}, "header name 'Bad Name'"},
      {{"-H", "X-A:v\x7f"}, "the value of header X-A holds a control character"},
      {{"--api-key", "k\r\nX-Injected: 1"}, "--api-key holds a line break or control character"},
      // Unknown tags are refused before the run (app::goodput_problem; Security.* checks it).
      {{"--goodput", "time_to_first_token"}, "is not tag:value"},
      {{"--goodput", "time_to_first_token:"}, "is not tag:value"},
      {{"--goodput", "time_to_first_token=100"}, "is not tag:value"},
      {{"--goodput", "time_to_first_token:-5"},
       "threshold of time_to_first_token must not be "
       "negative"},
      {{"--goodput", "time_to_first_token:abc"}, "'abc' is not a number"},
      {{"--goodput", "time_to_first_token:100,request_latency:300"},
       "separate objectives with spaces"},
      {{"--goodput", "request_latency:1 request_latency:2"}, "request_latency is given twice"},
      {{"--url", "http://user:hunter2@h:8000"}, "credentials in the URL"},
      {{"--url", "user:hunter2@h:8000"}, "credentials in the URL"},
      {{"--url", "http://h:8000/v1 x"}, "--url: the URL holds a space"},
      {{"--server-metrics", "http://u:hunter2@h:9/metrics"},
       "--server-metrics http://h:9/metrics: credentials"},
      {{"--endpoint", "/v1/x HTTP/1.1\r\nX: y"}, "--endpoint: the path holds a space"},
  };
  for (const auto& c : cases) {
    std::vector<std::string> args = {"profile", "-m", "x"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    const CliOutcome o = parse_command_line(args);
    EXPECT_EQ(o.action, CliOutcome::Action::kExit) << c.args[1];
    EXPECT_EQ(o.exit_code, 2) << c.args[1];
    EXPECT_TRUE(contains(o.message, c.message))
        << "expected '" << c.message << "' in: " << o.message;
    EXPECT_FALSE(contains(o.message, "hunter2")) << o.message;
    EXPECT_FALSE(contains(o.message, "X-Injected")) << o.message;
  }
}

TEST(BadInput, GoodObjectivesAndHeadersStillParse) {
  const CliOutcome o = parse_command_line(
      {"profile", "-m", "x", "--goodput", "time_to_first_token:0 request_latency:250.5", "-H",
       R"({"X-A": "1", "X-B": 2})", "-H", "X-C: a b\tc", "--extra-inputs", R"({"stop": ""})"});
  ASSERT_EQ(o.action, CliOutcome::Action::kProfile) << o.message;
  EXPECT_EQ(o.config.input.headers.size(), 3u);
  EXPECT_EQ(o.config.input.headers[2].second, "a b\tc");
}

// -u as AIPerf 0.11 reads it: http://localhost:8000 when not given, "http://" in front of an item
// without a scheme; a foreign scheme is refused by name. cli_command keeps what was typed.
TEST(ParseCommandLine, UrlsGetADefaultScheme) {
  CliOutcome o = parse_command_line({"profile", "-m", "x", "-u", "h:1/v1, [::1]:8000", "--url",
                                     "https://s:2", "-u", "localhost"});
  ASSERT_EQ(o.action, CliOutcome::Action::kProfile) << o.message;
  EXPECT_EQ(o.config.endpoint.urls, (std::vector<std::string>{"http://h:1/v1", "http://[::1]:8000",
                                                              "https://s:2", "http://localhost"}));
  EXPECT_NE(o.config.cli_command.find("-u 'h:1/v1, [::1]:8000'"), std::string::npos)
      << o.config.cli_command;
  for (const char* bad : {"javascript:alert(1)", "data:text/plain,x", "ftp://h:21"}) {
    o = parse_command_line({"profile", "-m", "x", "--url", bad});
    EXPECT_EQ(o.exit_code, 2) << bad;
    EXPECT_TRUE(contains(o.message, "only http:// and https:// URLs are supported")) << o.message;
  }
}

TEST(UrlWithScheme, HostsPortsAndForeignSchemes) {
  using inferperf::config::url_with_scheme;
  EXPECT_EQ(url_with_scheme("localhost:8000"), "http://localhost:8000");
  EXPECT_EQ(url_with_scheme("h:8000?x=1"), "http://h:8000?x=1");
  EXPECT_EQ(url_with_scheme("10.0.0.1"), "http://10.0.0.1");
  EXPECT_EQ(url_with_scheme("HTTPS://h"), "HTTPS://h");
  EXPECT_EQ(url_with_scheme("javascript:x"), "javascript:x");
  EXPECT_EQ(url_with_scheme("user:pw@h:1"), "user:pw@h:1");  // refused later as user info
  EXPECT_EQ(url_with_scheme(""), "");
}

// --session-header renames X-Correlation-ID; the name must be an HTTP token that inferperf does
// not set itself.
TEST(ParseCommandLine, SessionHeaderName) {
  CliOutcome o = parse_command_line({"profile", "-m", "x"});
  ASSERT_EQ(o.action, CliOutcome::Action::kProfile) << o.message;
  EXPECT_EQ(o.config.endpoint.session_header, "X-Correlation-ID");
  o = parse_command_line({"profile", "-m", "x", "--session-header", "X-Session-Id"});
  ASSERT_EQ(o.action, CliOutcome::Action::kProfile) << o.message;
  EXPECT_EQ(o.config.endpoint.session_header, "X-Session-Id");
  for (const char* bad : {"X Session", "X-Session:", "", "X-Sess\r\nX-Injected: 1"}) {
    o = parse_command_line({"profile", "-m", "x", "--session-header", bad});
    EXPECT_EQ(o.exit_code, 2) << bad;
    EXPECT_TRUE(contains(o.message, "--session-header: ")) << o.message;
    EXPECT_TRUE(contains(o.message, "is not an HTTP header name")) << o.message;
  }
  o = parse_command_line({"profile", "-m", "x", "--session-header", "content-LENGTH"});
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_TRUE(contains(o.message, "--session-header: content-LENGTH is a header inferperf sets"))
      << o.message;
}

TEST(BuildCliCommand, RedactsEverySecretForm) {
  EXPECT_EQ(build_cli_command({"profile", "-H", "X-A:1", "Authorization:Bearer t", "--extra-inputs",
                               "api_key:s1,max_tokens:5", "hf_token:s2", "--streaming"}),
            "inferperf profile -H 'X-A:1' 'Authorization:<redacted>' --extra-inputs "
            "'api_key:<redacted>,max_tokens:5' 'hf_token:<redacted>' --streaming");
  EXPECT_EQ(build_cli_command({"profile", "--extra-inputs", R"({"api_key":"s","n":1})"}),
            R"(inferperf profile --extra-inputs '{"api_key":"<redacted>","n":1}')");
  EXPECT_EQ(build_cli_command({"profile", "--extra-inputs=password:p", "-HCookie:c=1"}),
            "inferperf profile --extra-inputs=password:<redacted> -HCookie:<redacted>");
  EXPECT_EQ(build_cli_command({"profile", "-u", "http://h:1/v1?api_key=s&x=1", "--server-metrics",
                               "https://u:p@m:9/metrics"}),
            "inferperf profile -u 'http://h:1/v1?api_key=<redacted>&x=1' --server-metrics "
            "'https://m:9/metrics'");
}

}  // namespace
