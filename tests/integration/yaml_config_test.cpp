// `inferperf profile -f FILE` against the mock: a YAML file and the same run given as flags send
// the same requests (byte-identical inputs.json) and report the same metrics.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <set>

#include "process.hpp"

namespace inferperf::testing {
namespace {

using json = nlohmann::json;
using namespace std::chrono_literals;

// The metrics whose presence does not depend on timing: a metric built from inter-token gaps is
// left out when the --fast mock's tokens of a request arrive in one read, which varies with load.
std::set<std::string> yaml_metric_keys(const json& summary) {
  std::set<std::string> keys;
  for (const auto& [k, v] : summary.items()) {
    if (v.is_object() && v.contains("unit") && k.find("per_user") == std::string::npos &&
        k.find("inter_token") == std::string::npos && k.find("itl") == std::string::npos)
      keys.insert(k);
  }
  return keys;
}

double yaml_avg(const json& summary, const char* metric) {
  return summary.at(metric).at("avg").get<double>();
}

// input_config names the artifact folder; everything else must match.
std::string yaml_input_config(const json& summary, const std::string& dir) {
  std::string text = summary.at("input_config").dump();
  for (std::size_t p = text.find(dir); p != std::string::npos; p = text.find(dir, p))
    text.replace(p, dir.size(), "DIR");
  return text;
}

TEST(YamlConfig, FileAndFlagsRunTheSameBenchmark) {
  MockServerProcess mock({"--fast"});
  const std::string root = make_temp_dir("ip-yaml-");
  const std::string from_file = root + "/file", from_flags = root + "/flags";
  const std::string yaml = root + "/run.yaml";
  std::ofstream(yaml)
      << "schemaVersion: \"2.0\"\n"
         "random_seed: 5\n"
         "benchmark:\n"
         "  model: mock-model\n"
         "  endpoint:\n"
         "    url: ${IP_YAML_URL}\n"
         "    type: chat\n"
         "    streaming: true\n"
         "    extra: {ignore_eos: true}\n"
         "  dataset:\n"
         "    type: synthetic\n"
         "    entries: 6\n"
         "    prompts: {isl: {mean: 16, stddev: 2}, osl: 8}\n"
         "  phases:\n"
         "    - {name: warmup, type: concurrency, concurrency: 1, requests: 2}\n"
         "    - {name: profiling, type: concurrency, concurrency: 2, requests: 12}\n"
         "  runtime: {ui: none}\n";
  const auto a = run_process({INFERPERF_BIN, "profile", "-f", yaml, "--artifact-dir", from_file},
                             120s, "", {"IP_YAML_URL=" + mock.url()});
  ASSERT_EQ(a.exit_code, 0) << a.out;
  const auto b = run_process({INFERPERF_BIN,
                              "profile",
                              "-m",
                              "mock-model",
                              "-u",
                              mock.url(),
                              "--endpoint-type",
                              "chat",
                              "--streaming",
                              "--extra-inputs",
                              "ignore_eos:true",
                              "--num-dataset-entries",
                              "6",
                              "--isl",
                              "16",
                              "--isl-stddev",
                              "2",
                              "--osl",
                              "8",
                              "--warmup-concurrency",
                              "1",
                              "--warmup-request-count",
                              "2",
                              "--concurrency",
                              "2",
                              "--request-count",
                              "12",
                              "--random-seed",
                              "5",
                              "--ui-type",
                              "none",
                              "--artifact-dir",
                              from_flags},
                             120s);
  ASSERT_EQ(b.exit_code, 0) << b.out;
  const std::string inputs_a = read_file(from_file + "/inputs.json");
  ASSERT_FALSE(inputs_a.empty());
  EXPECT_EQ(inputs_a, read_file(from_flags + "/inputs.json"));
  const json sa = load_summary(from_file), sb = load_summary(from_flags);
  EXPECT_EQ(summary_count(sa, "request_count"), 12);
  EXPECT_EQ(summary_count(sb, "request_count"), 12);
  EXPECT_EQ(yaml_metric_keys(sa), yaml_metric_keys(sb));
  // The token counts are the run's, not the clock's: equal to the last digit.
  EXPECT_EQ(yaml_avg(sa, "input_sequence_length"), yaml_avg(sb, "input_sequence_length"));
  EXPECT_EQ(yaml_avg(sa, "output_sequence_length"), yaml_avg(sb, "output_sequence_length"));
  EXPECT_EQ(yaml_input_config(sa, from_file), yaml_input_config(sb, from_flags));
  // The reproduction line is the command as typed.
  EXPECT_NE(sa.dump().find("profile -f '" + yaml + "'"), std::string::npos);
  EXPECT_EQ(mock.metric("inferperf_mock_requests_total"), 28);
}

}  // namespace
}  // namespace inferperf::testing
