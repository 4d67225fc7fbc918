// The AIPerf 0.11 subcommands beside profile, run as the real binary: synthesize's dataset replayed
// by profile against the mock (every request answered), validate on a good and a bad file, and the
// answers and exit codes of plugins and service.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "process.hpp"

namespace inferperf::testing {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

// Short contexts (a few hundred tokens, 16-token blocks) and pauses of at most 5 ms.
constexpr const char* kSubcmdsConfig =
    R"({"cache": {"layer1_tokens": 64, "layer1_5_tokens": 32, "layer2": {"mean": 80, "median": 40},
        "layer1_5_groups": {"num_groups": 2}}, "new_tokens_per_turn": {"mean": 30, "median": 20},
        "generation_length": {"mean": 12, "median": 8}, "inter_turn_delay": {"max": 5},
        "max_prompt_tokens": 400, "block_size": 16})";

std::string synthesized_file(const std::string& out_dir) {
  for (const auto& e : fs::directory_iterator(out_dir))
    if (fs::exists(e.path() / "dataset.jsonl")) return (e.path() / "dataset.jsonl").string();
  return "";
}

TEST(Subcommands, SynthesizedWorkloadReplaysAndValidates) {
  const std::string dir = make_temp_dir("ip-subcmds-");
  auto s = run_process({INFERPERF_BIN, "synthesize", "--target", "agentic-code", "--num-sessions",
                        "3", "--seed", "7", "--config", kSubcmdsConfig, "--output", dir + "/gen"},
                       std::chrono::seconds(30));
  ASSERT_EQ(s.exit_code, 0) << s.out;
  const std::string jsonl = synthesized_file(dir + "/gen");
  ASSERT_FALSE(jsonl.empty()) << s.out;
  const json manifest = json::parse(read_file(fs::path(jsonl).parent_path() / "manifest.json"));
  EXPECT_EQ(manifest["seed"], 7);
  EXPECT_EQ(manifest["config_name"], "inline");
  EXPECT_EQ(manifest["generation_params"]["block_size"], 16);
  int rows = 0;
  std::istringstream in(read_file(jsonl));
  for (std::string line; std::getline(in, line);) rows += line.empty() ? 0 : 1;
  ASSERT_GT(rows, 3);

  auto v = run_process(
      {INFERPERF_BIN, "validate", "mooncake-trace", "--input", jsonl, "--isl-block-size", "16"},
      std::chrono::seconds(30));
  EXPECT_EQ(v.exit_code, 0) << v.out;
  EXPECT_NE(v.out.find("Validation passed: " + std::to_string(rows) + " rows"), std::string::npos)
      << v.out;
  EXPECT_NE(v.out.find("sessions: 3"), std::string::npos) << v.out;

  MockServerProcess mock({"--fast"});
  const std::string out = dir + "/run";
  auto p =
      run_process({INFERPERF_BIN, "profile", "-m", "mock-model", "-u", mock.url(), "--input-file",
                   jsonl, "--custom-dataset-type", "mooncake_trace", "--isl-block-size", "16",
                   "--streaming", "--artifact-dir", out, "--ui-type", "none"},
                  std::chrono::seconds(60));
  ASSERT_EQ(p.exit_code, 0) << p.out;
  const json summary = json::parse(read_file(out + "/profile_export_aiperf.json"));
  EXPECT_EQ(summary["request_count"]["avg"], rows) << "every turn of every session is sent";
  EXPECT_FALSE(summary.contains("error_request_count") &&
               summary["error_request_count"]["avg"] != 0);
}

TEST(Subcommands, BadInputsAndTheAnswersForAiperfsProcessCommands) {
  const std::string dir = make_temp_dir("ip-subcmds-bad-");
  const std::string bad = dir + "/bad.jsonl";
  std::ofstream(bad) << R"({"input_length": 10, "hash_ids": [1]})"
                        "\n"
                     << R"({"input_length": 10, "text_input": "x"})"
                        "\n";
  auto v = run_process({INFERPERF_BIN, "validate", "--target", "mooncake-trace", "--input", bad},
                       std::chrono::seconds(30));
  EXPECT_EQ(v.exit_code, 1) << v.out;
  EXPECT_NE(v.out.find("line 2: field 'text_input'"), std::string::npos) << v.out;

  auto c = run_process({INFERPERF_BIN, "synthesize", "agentic-code", "--output", dir, "--config",
                        R"({"cache": {"layer2": {"mean": 1, "median": 2}}})"},
                       std::chrono::seconds(30));
  EXPECT_EQ(c.exit_code, 2) << c.out;
  EXPECT_NE(c.out.find("key 'cache.layer2.mean'"), std::string::npos) << c.out;

  auto svc = run_process({INFERPERF_BIN, "service", "--type", "worker"}, std::chrono::seconds(30));
  EXPECT_EQ(svc.exit_code, 2);
  EXPECT_NE(svc.out.find("no service processes"), std::string::npos) << svc.out;
  auto pl = run_process({INFERPERF_BIN, "plugins"}, std::chrono::seconds(30));
  EXPECT_EQ(pl.exit_code, 0);
  EXPECT_NE(pl.out.find("endpoint (--endpoint-type):"), std::string::npos) << pl.out;
  auto one =
      run_process({INFERPERF_BIN, "plugins", "--category", "nonsense"}, std::chrono::seconds(30));
  EXPECT_EQ(one.exit_code, 2);
  auto help = run_process({INFERPERF_BIN, "--help"}, std::chrono::seconds(30));
  for (const char* name : {"synthesize", "validate", "plugins", "service", "speed-bench-report"})
    EXPECT_NE(help.out.find(name), std::string::npos) << name;
}

// `--install-completion` (AIPerf's root option) writes a bash script that completes the commands
// and, from each command's --help, its options; zsh gets the same through bashcompinit.
TEST(Completion, InstallCompletionWritesAScriptThatCompletes) {
  const std::string dir = make_temp_dir("ip-completion-");
  const std::string script = dir + "/inferperf.bash";
  auto r = run_process({INFERPERF_BIN, "--install-completion", "--shell", "bash", "-o", script},
                       std::chrono::seconds(30));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("completion written to " + script), std::string::npos) << r.out;
  const auto complete = [&](const std::string& words, int cword) {
    return run_process({"/bin/bash", "-c",
                        "source '" + script + "'; COMP_WORDS=(" + words + "); COMP_CWORD=" +
                            std::to_string(cword) + "; _inferperf; echo \"${COMPREPLY[*]}\""},
                       std::chrono::seconds(30))
        .out;
  };
  EXPECT_EQ(complete("inferperf pro", 1), "profile probe\n");
  EXPECT_EQ(complete(std::string(INFERPERF_BIN) + " plot --mlflow-u", 2), "--mlflow-upload\n");
  auto printed = run_process({INFERPERF_BIN, "--install-completion", "--shell", "zsh", "-o", "-"},
                             std::chrono::seconds(30));
  ASSERT_EQ(printed.exit_code, 0) << printed.out;
  EXPECT_NE(printed.out.find("bashcompinit"), std::string::npos);
  EXPECT_NE(printed.out.find("complete -o default -F _inferperf inferperf"), std::string::npos);
  EXPECT_EQ(run_process({INFERPERF_BIN, "--install-completion", "--shell", "fish", "-o", "-"},
                        std::chrono::seconds(30))
                .exit_code,
            2);
}

}  // namespace
}  // namespace inferperf::testing
