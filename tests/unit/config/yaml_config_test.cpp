// The YAML configuration translator (translate_yaml, expand_config_file) and its hook in
// parse_command_line.
#include "config/yaml_config.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>

#include <map>
#include <string>
#include <vector>

#include "../test_files.hpp"
#include "config/cli.hpp"

namespace {

using inferperf::config::CliOutcome;
using inferperf::config::EnvLookup;
using inferperf::config::expand_config_file;
using inferperf::config::parse_command_line;
using inferperf::config::translate_yaml;
using inferperf::config::YamlTranslation;
using Words = std::vector<std::string>;

EnvLookup env_of(std::map<std::string, std::string> vars) {
  return [vars](const std::string& name) -> std::optional<std::string> {
    const auto it = vars.find(name);
    if (it == vars.end()) return std::nullopt;
    return it->second;
  };
}

YamlTranslation tr(const std::string& text, std::map<std::string, std::string> vars = {}) {
  return translate_yaml(text, "t.yaml", env_of(std::move(vars)));
}

std::string joined(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : "\n") + s;
  return out;
}

TEST(YamlTranslate, BodyBecomesFlagsWithKeyPaths) {
  const auto t = tr(R"(schemaVersion: "2.0"
random_seed: 7
benchmark:
  model: m
  endpoint: {url: "http://h:8000", type: chat, streaming: true, extra: {temperature: 0.5}}
  dataset: {type: synthetic, entries: 200, prompts: {isl: {mean: 256, stddev: 8}, osl: 64}}
  phases:
    - {name: warmup, type: concurrency, concurrency: 1, requests: 20}
    - {name: profiling, type: concurrency, concurrency: 4, requests: 200}
)");
  ASSERT_TRUE(t.errors.empty()) << joined(t.errors);
  EXPECT_EQ(t.words, (Words{"--model-names",
                            "m",
                            "--url",
                            "http://h:8000",
                            "--endpoint-type",
                            "chat",
                            "--streaming",
                            "--extra-inputs",
                            R"({"temperature":0.5})",
                            "--isl",
                            "256",
                            "--isl-stddev",
                            "8",
                            "--osl",
                            "64",
                            "--num-dataset-entries",
                            "200",
                            "--warmup-concurrency",
                            "1",
                            "--warmup-request-count",
                            "20",
                            "--concurrency",
                            "4",
                            "--request-count",
                            "200",
                            "--random-seed",
                            "7"}));
  ASSERT_EQ(t.origins.size(), t.groups.size());
  bool found = false;
  for (const auto& o : t.origins) {
    if (o.flag == "--concurrency") {
      EXPECT_EQ(o.path, "benchmark.phases.profiling.concurrency");
      EXPECT_EQ(o.line, 9);
      found = true;
    }
  }
  EXPECT_TRUE(found);
}

TEST(YamlTranslate, CamelCaseAliasesAndPhaseShorthands) {
  const auto t = tr(R"(benchmark:
  model: m
  endpoint: {useLegacyMaxTokens: true, connectionReuse: never}
  warmup: {type: constant, rate: 2, duration: 30s}
  profiling: {type: gamma, rate: 5, smoothness: 2, duration: 5m, gracePeriod: 1h}
)");
  ASSERT_TRUE(t.errors.empty()) << joined(t.errors);
  EXPECT_EQ(t.words, (Words{"--model-names",
                            "m",
                            "--connection-reuse-strategy",
                            "never",
                            "--use-legacy-max-tokens",
                            "--warmup-request-rate",
                            "2",
                            "--warmup-arrival-pattern",
                            "constant",
                            "--warmup-duration",
                            "30",
                            "--request-rate",
                            "5",
                            "--arrival-pattern",
                            "gamma",
                            "--arrival-smoothness",
                            "2",
                            "--benchmark-duration",
                            "300",
                            "--benchmark-grace-period",
                            "3600"}));
}

TEST(YamlTranslate, UnknownKeyNamesFileLineAndSuggestion) {
  const auto t = tr("benchmark:\n  model: m\n  endpoint:\n    strem: true\n");
  ASSERT_EQ(t.errors.size(), 1u);
  EXPECT_EQ(t.errors[0],
            "t.yaml:4: benchmark.endpoint.strem: unknown key (did you mean 'streaming'?)");
  const auto top = tr("benchmark: {model: m}\nmulti_runs: {num_runs: 2}\n");
  ASSERT_EQ(top.errors.size(), 1u);
  EXPECT_EQ(top.errors[0], "t.yaml:2: multi_runs: unknown key (did you mean 'multi_run'?)");
}

TEST(YamlTranslate, EnvironmentAndExpressions) {
  const std::string text = R"(variables: {users: 8, per_user: 25}
benchmark:
  model: ${MODEL:fallback}
  endpoint: {url: "${URL}"}
  phases: {concurrency: "{{ users }}", requests: "{{ users * per_user + 1 }}"}
)";
  const auto t = tr(text, {{"URL", "http://x:1"}});
  ASSERT_TRUE(t.errors.empty()) << joined(t.errors);
  EXPECT_EQ(t.words, (Words{"--model-names", "fallback", "--url", "http://x:1", "--concurrency",
                            "8", "--request-count", "201"}));
  const auto missing = tr(text);
  ASSERT_EQ(missing.errors.size(), 1u);
  EXPECT_NE(missing.errors[0].find("t.yaml:4: benchmark.endpoint.url: environment variable URL "
                                   "is not set"),
            std::string::npos);
  const auto bad = tr("benchmark:\n  model: m\n  phases: {requests: \"{{ 2 | int }}\"}\n");
  ASSERT_EQ(bad.errors.size(), 1u);
  EXPECT_NE(bad.errors[0].find("benchmark.phases.requests"), std::string::npos);
  EXPECT_NE(bad.errors[0].find("not supported"), std::string::npos);
}

TEST(YamlTranslate, DurationsAndRamps) {
  const auto t = tr(R"(benchmark:
  model: m
  phases: {type: poisson, rate: 4, duration: 500ms, concurrency_ramp: {duration: 2m}, rate_ramp: 10}
)");
  ASSERT_TRUE(t.errors.empty()) << joined(t.errors);
  EXPECT_EQ(t.words,
            (Words{"--model-names", "m", "--request-rate", "4", "--benchmark-duration", "0.5",
                   "--concurrency-ramp-duration", "120", "--request-rate-ramp-duration", "10"}));
  const auto bad = tr("benchmark:\n  model: m\n  phases: {duration: 5 weeks}\n");
  ASSERT_EQ(bad.errors.size(), 1u);
  EXPECT_NE(bad.errors[0].find("is not a duration"), std::string::npos);
  const auto inf = tr("benchmark:\n  model: m\n  phases: {duration: inf}\n");
  ASSERT_EQ(inf.errors.size(), 1u);
  const auto exp =
      tr("benchmark:\n  model: m\n  phases: {concurrency_ramp: "
         "{duration: 5, strategy: exponential}}\n");
  ASSERT_EQ(exp.errors.size(), 1u);
  EXPECT_NE(exp.errors[0].find("concurrency_ramp.strategy"), std::string::npos);
}

TEST(YamlTranslate, SweepsBecomeMagicLists) {
  const auto t = tr(R"(sweep:
  type: zip
  parameters:
    concurrency: [4, 8]
    datasets.main.prompts.isl.mean: [128, 256]
benchmark:
  model: m
  datasets: [{name: main, type: synthetic, prompts: {isl: 64}}]
  phases: {concurrency: 2, requests: 10}
)");
  ASSERT_TRUE(t.errors.empty()) << joined(t.errors);
  // The sweep's list replaces the phase's and the prompt's single values.
  EXPECT_EQ(t.words, (Words{"--model-names", "m", "--request-count", "10", "--sweep-type", "zip",
                            "--concurrency", "4,8", "--isl", "128,256"}));
  ASSERT_EQ(t.sweep.size(), 2u);
  EXPECT_EQ(t.sweep[0].canonical, "phases.profiling.concurrency");
  EXPECT_EQ(t.sweep[1].canonical, "datasets.main.prompts.isl.mean");
  EXPECT_EQ(t.sweep_type, "zip");
}

TEST(YamlTranslate, ConvergenceAndASampledDesignBecomeTheirFlags) {
  const auto t = tr(R"(benchmark: {model: m}
multi_run: {num_runs: 4, vary_seed_per_trial: true,
            convergence: {metric: time_to_first_token, stat: p99, mode: cv, threshold: 0.1}}
sweep:
  type: sobol
  samples: 8
  seed: 3
  dimensions: [{path: concurrency, lo: 1, hi: 16, scale: log},
               {path: datasets.main.prompts.isl, lo: 64, hi: 512}]
)");
  ASSERT_TRUE(t.errors.empty()) << joined(t.errors);
  const std::string words = [&] {
    std::string out;
    for (const auto& w : t.words) out += w + " ";
    return out;
  }();
  EXPECT_NE(words.find("--vary-seed-per-trial --convergence-metric time_to_first_token "
                       "--convergence-stat p99 --convergence-mode cv --convergence-threshold 0.1"),
            std::string::npos)
      << words;
  const auto at = std::find(t.words.begin(), t.words.end(), "--sweep-design");
  ASSERT_NE(at, t.words.end()) << words;
  const auto design = nlohmann::json::parse(*(at + 1));
  EXPECT_EQ(design["type"], "sobol");
  EXPECT_EQ(design["samples"], 8);
  EXPECT_EQ(design["dimensions"][0]["flag"], "--concurrency");
  EXPECT_EQ(design["dimensions"][0]["scale"], "log");
  EXPECT_EQ(design["dimensions"][1]["path"], "datasets.main.prompts.isl.mean");
  EXPECT_EQ(design["dimensions"][1]["flag"], "--isl");
}

TEST(YamlTranslate, AnAdaptiveSearchBecomesTheSearchFlags) {
  const auto t = tr(R"(benchmark: {model: m}
sweep:
  type: adaptive_search
  planner: monotonic_sla
  search_space: [{path: concurrency, lo: 1, hi: 64, kind: int}]
  objectives: [{metric: request_throughput, stat: avg, direction: maximize}]
  max_iterations: 12
  sla_filters:
    - time_to_first_token:p99:lt:500
    - {metric_tag: inter_token_latency, stat: p99, op: lt, threshold: 50}
  sla: {request_latency: {p99: {lt: 2000}}}
)");
  ASSERT_TRUE(t.errors.empty()) << joined(t.errors);
  std::string words;
  for (const auto& w : t.words) words += w + " ";
  for (const char* expected :
       {"--search-planner monotonic_sla", "--search-max-iterations 12",
        "--search-space phases.profiling.concurrency:1,64:int",
        "--search-metric request_throughput", "--search-stat avg", "--search-direction maximize",
        "--search-sla time_to_first_token:p99:lt:500", "--search-sla inter_token_latency:p99:lt:50",
        "--search-sla request_latency:p99:lt:2000"})
    EXPECT_NE(words.find(expected), std::string::npos) << expected << " in " << words;
  // Two objectives, or a stop rule other than inferperf's, are refused by name.
  const auto two = tr(R"(benchmark: {model: m}
sweep:
  type: adaptive_search
  search_space: [{path: concurrency, lo: 1, hi: 8}]
  objectives: [{metric: a, direction: maximize}, {metric: b, direction: minimize}]
  max_iterations: 4
  improvement_patience: 3
)");
  const std::string all = joined(two.errors);
  EXPECT_NE(all.find("sweep.objectives: not supported by inferperf"), std::string::npos) << all;
}

TEST(YamlTranslate, RefusalsNameTheKeyAndTheReason) {
  const auto t = tr(R"(sweep: {type: scenarios}
multi_run: {num_runs: 2, convergence: {metric: ttft, min_runs: 3}}
benchmark:
  model: {items: [{name: a, weight: 0.5}]}
  dataset: {type: synthetic, isl: {mean: 100, median: 90}}
  wandb: {project: p}
  accuracy: {benchmark: mmlu}
)");
  const std::string all = joined(t.errors);
  EXPECT_NE(all.find("sweep.type: not supported by inferperf: 'scenarios'"), std::string::npos)
      << all;
  EXPECT_NE(all.find("give scenarios as --variant"), std::string::npos);
  EXPECT_NE(all.find("multi_run.convergence.min_runs: not supported"), std::string::npos);
  EXPECT_NE(all.find("benchmark.model.items.0.weight"), std::string::npos);
  EXPECT_NE(all.find("benchmark.dataset.isl.median"), std::string::npos);
  EXPECT_NE(all.find("benchmark.wandb"), std::string::npos);
  EXPECT_NE(all.find("documented public HTTP API"), std::string::npos);
  EXPECT_NE(all.find("benchmark.accuracy"), std::string::npos);
}

// Keys whose flags exist become those flags (they were refused while the flags were missing).
TEST(YamlTranslate, EndpointArtifactAndPublicDatasetKeysBecomeTheirFlags) {
  const auto t = tr(R"(benchmark:
  model: m
  endpoint: {type: video_generation, download_video_content: true, wait_for_model_interval: 2s,
             wait_for_model_mode: both, wait_for_model_timeout: 30, request_content_type: multipart/form-data}
  dataset: {type: public, dataset: exgentic, hf_subset: tau2, filters: {domain: "${DOM}"}}
  artifacts: {plot_required: true, auto_plot: true}
)",
                    {{"DOM", "airline"}});
  ASSERT_TRUE(t.errors.empty()) << joined(t.errors);
  const std::string words = joined(t.words);
  for (const char* want :
       {"--download-video-content", "--wait-for-model-interval\n2", "--wait-for-model-mode\nboth",
        "--request-content-type\nmultipart/form-data", "--hf-subset\ntau2",
        "--dataset-filter\ndomain=airline", "--plot-required"})
    EXPECT_NE(words.find(want), std::string::npos) << want << " in\n" << words;
  const auto listed = tr(R"(benchmark:
  model: m
  dataset: {type: public, dataset: exgentic, filters: [domain=retail, split=test]}
)");
  ASSERT_TRUE(listed.errors.empty()) << joined(listed.errors);
  EXPECT_NE(joined(listed.words).find("--dataset-filter\ndomain=retail\nsplit=test"),
            std::string::npos)
      << joined(listed.words);
  const auto bad = tr(R"(benchmark:
  model: m
  dataset: {type: public, dataset: exgentic, filters: [domain=retail, [nested]]}
  network_latency: {enabled: true}
)");
  const std::string all = joined(bad.errors);
  EXPECT_NE(all.find("benchmark.dataset.filters.1: expected a single value"), std::string::npos)
      << all;
  EXPECT_NE(all.find("--network-latency-* flags"), std::string::npos) << all;
}

TEST(YamlTranslate, MlflowTableBecomesTheMlflowFlags) {
  const auto t = tr(R"(benchmark:
  mlflow:
    tracking_uri: http://mlflow:5000
    experiment: e
    run_name: r
    tags: {team: perf}
    parent_run_id: p
    artifact_globs: ["profile_export*", "logs/*"]
)");
  ASSERT_TRUE(t.errors.empty()) << joined(t.errors);
  EXPECT_EQ(t.words,
            (Words{"--mlflow-tracking-uri", "http://mlflow:5000", "--mlflow-experiment", "e",
                   "--mlflow-run-name", "r", "--mlflow-parent-run-id", "p", "--mlflow-tag",
                   R"({"team":"perf"})", "--mlflow-artifact-glob", "profile_export*", "logs/*"}));
  EXPECT_TRUE(tr("benchmark: {mlflow: {enabled: false, tracking_uri: x}}").words.empty());
}

TEST(YamlTranslate, MediaTablesBecomeTheMediaFlags) {
  const auto t = tr(R"(benchmark:
  model: m
  dataset:
    images: {batch_size: 2, width: {mean: 64, stddev: 2}, height: 32, format: png,
             source: assets, source_sampling: shuffle-cycle}
    audio: {batch_size: 1, length: 2, sample_rates: [16, 44.1], depths: 24, channels: 2}
    video: {width: 64, height: 48, fps: 2, synth_type: grid_clock, audio: {channels: 1, depth: 8}}
)");
  ASSERT_TRUE(t.errors.empty()) << joined(t.errors);
  EXPECT_EQ(t.words, (Words{"--model-names",
                            "m",
                            "--image-batch-size",
                            "2",
                            "--image-width-mean",
                            "64",
                            "--image-width-stddev",
                            "2",
                            "--image-height-mean",
                            "32",
                            "--image-format",
                            "png",
                            "--image-source",
                            "assets",
                            "--image-source-sampling",
                            "shuffle-cycle",
                            "--audio-batch-size",
                            "1",
                            "--audio-length-mean",
                            "2",
                            "--audio-sample-rates",
                            "16,44.1",
                            "--audio-depths",
                            "24",
                            "--audio-num-channels",
                            "2",
                            "--video-batch-size",
                            "0",
                            "--video-fps",
                            "2",
                            "--video-width",
                            "64",
                            "--video-height",
                            "48",
                            "--video-synth-type",
                            "grid_clock",
                            "--video-audio-num-channels",
                            "1",
                            "--video-audio-depth",
                            "8"}));
  // AIPerf's YAML model: a table without batch_size makes nothing; unknown keys are named.
  const auto bad = tr("benchmark: {model: m, dataset: {images: {widht: 3}}}\n");
  EXPECT_NE(joined(bad.errors).find("benchmark.dataset.images.widht"), std::string::npos)
      << joined(bad.errors);
}

TEST(YamlTranslate, BrokenYamlNamesTheLine) {
  const auto t = tr("benchmark:\n  model: m\n  endpoint: {url: [\n");
  ASSERT_EQ(t.errors.size(), 1u);
  EXPECT_EQ(t.errors[0].rfind("t.yaml:", 0), 0u);
  EXPECT_NE(t.errors[0].find("not valid YAML"), std::string::npos);
  EXPECT_EQ(tr("random_seed: 1\n").errors,
            Words{"t.yaml:1: the file needs a benchmark: section (the workload)"});
}

class YamlFile : public ::testing::Test {
 protected:
  inferperf::test_files::ScratchDir dir{"yaml-config-test"};
  std::string write(const std::string& text) {
    const auto p = dir / "run.yaml";
    std::ofstream(p) << text;
    return p.string();
  }
};

TEST_F(YamlFile, TypedFlagsOverrideTheFile) {
  const std::string f = write(R"(benchmark:
  model: [a, b]
  endpoint: {url: "http://h:1", streaming: true}
  phases: {concurrency: 4, requests: 50}
)");
  const auto w = expand_config_file({"profile", "--request-count", "7", "-f", f, "-m", "c"});
  ASSERT_TRUE(w.errors.empty()) << w.error_text();
  EXPECT_EQ(w.words, (Words{"profile", "--url", "http://h:1", "--streaming", "--concurrency", "4",
                            "--request-count", "7", "-m", "c"}));
  const CliOutcome o = parse_command_line({"profile", "--config", f, "--num-requests=9"});
  ASSERT_EQ(o.action, CliOutcome::Action::kProfile) << o.message;
  EXPECT_EQ(o.config.load.request_count, 9);
  EXPECT_EQ(o.config.endpoint.model_names, (Words{"a", "b"}));
  EXPECT_TRUE(o.config.endpoint.streaming);
  EXPECT_EQ(o.config.cli_command, "inferperf profile --config '" + f + "' --num-requests=9");
}

TEST_F(YamlFile, ParserErrorsPointAtTheFile) {
  const std::string f = write("benchmark:\n  model: m\n  phases:\n    concurrency: 0\n");
  const CliOutcome o = parse_command_line({"profile", "-f", f});
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_NE(o.message.find("error: " + f + ":4: benchmark.phases.concurrency: --concurrency"),
            std::string::npos)
      << o.message;
  const CliOutcome missing = parse_command_line({"profile", "-f", f + ".nope"});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.message.find("no such configuration file"), std::string::npos);
}

TEST_F(YamlFile, TypedScalarGivesWayToTheFileSweep) {
  const std::string f =
      write("sweep: {type: grid, parameters: {concurrency: [2, 3]}}\nbenchmark: {model: m}\n");
  const auto w = expand_config_file({"profile", "-f", f, "--concurrency", "9", "--streaming"});
  ASSERT_TRUE(w.errors.empty()) << w.error_text();
  EXPECT_EQ(w.words,
            (Words{"profile", "--model-names", "m", "--concurrency", "2,3", "--streaming"}));
}

}  // namespace
