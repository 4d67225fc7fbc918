// `inferperf analyze-trace` run as a process: the console report, the --output-file JSON (key order
// and values) and the refusals of bad traces (exit code 2, a message naming the problem).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "process.hpp"

namespace inferperf::testing {
namespace {

namespace fs = std::filesystem;

// The small trace of the unit tests with lengths x1000 (block size 4000): ISL 10k 12k 6k 9k 8k.
constexpr const char* kTrace =
    R"({"input_length": 10000, "output_length": 5, "hash_ids": [1, 2, 3]}
{"input_length": 12000, "output_length": 7, "hash_ids": [1, 2, 4]}
{"input_length": 6000, "output_length": 1, "hash_ids": [5, 6]}

{"input_length": 9000, "output_length": 3}
{"input_length": 8000, "output_length": 4, "hash_ids": [1, 2], "timestamp": 1000}
)";

class AnalyzeTrace : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = make_temp_dir("ip-analyze-trace-"); }
  void TearDown() override { fs::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& content) {
    const std::string path = dir_ + "/" + name;
    std::ofstream(path, std::ios::binary) << content;
    return path;
  }
  ProcessResult run(std::vector<std::string> args) {
    args.insert(args.begin(), {INFERPERF_BIN, "analyze-trace"});
    return run_process(args, std::chrono::seconds(30));
  }
  std::string dir_;
};

// The trimmed cells of the table row that starts with `label`.
std::vector<std::string> table_row(const std::string& out, const std::string& label) {
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("┃ " + label + " ", 0) != 0) continue;
    std::vector<std::string> cells;
    std::size_t pos = 0;
    const std::string bar = "┃";
    while ((pos = line.find(bar, pos)) != std::string::npos) {
      const std::size_t next = line.find(bar, pos + bar.size());
      if (next == std::string::npos) break;
      std::string cell = line.substr(pos + bar.size(), next - pos - bar.size());
      cell.erase(0, cell.find_first_not_of(' '));
      cell.erase(cell.find_last_not_of(' ') + 1);
      cells.push_back(cell);
      pos = next;
    }
    return cells;
  }
  return {};
}

TEST_F(AnalyzeTrace, ConsoleReport) {
  const std::string trace = write("trace.jsonl", kTrace);
  auto r = run({trace, "--block-size", "4000"});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  for (const char* line :
       {"Trace Analysis Report\n", "Total requests: 5\n", "Unique prefixes: 6\n",
        "Prefix groups: 1\n", "Trace Statistics\n", "Tokens per hash_id: 3,600.00\n",
        "Block reuse: 60.00% of referenced blocks are shared across requests\n"}) {
    EXPECT_NE(r.out.find(line), std::string::npos) << line << "\n" << r.out;
  }
  EXPECT_EQ(table_row(r.out, "Metric"),
            (std::vector<std::string>{"Metric", "Mean", "Std Dev", "Min", "P25", "Median", "P75",
                                      "P90", "Max"}));
  EXPECT_EQ(
      table_row(r.out, "Input Length"),
      (std::vector<std::string>{"Input Length", "9,000.00", "2,000.00", "6,000.00", "8,000.00",
                                "9,000.00", "10,000.00", "11,200.00", "12,000.00"}));
  // Contexts 8000 8000 0 0 8000 (the last row is repeated whole: its ISL).
  EXPECT_EQ(table_row(r.out, "Context Length"),
            (std::vector<std::string>{"Context Length", "4,800.00", "3,919.18", "0.00", "0.00",
                                      "8,000.00", "8,000.00", "8,000.00", "8,000.00"}));
  EXPECT_EQ(table_row(r.out, "Unique Prompt Length"),
            (std::vector<std::string>{"Unique Prompt Length", "4,200.00", "3,124.10", "0.00",
                                      "2,000.00", "4,000.00", "6,000.00", "7,800.00", "9,000.00"}));
  EXPECT_EQ(table_row(r.out, "Output Length"),
            (std::vector<std::string>{"Output Length", "4.00", "2.00", "1.00", "3.00", "4.00",
                                      "5.00", "6.20", "7.00"}));
  EXPECT_EQ(table_row(r.out, "Theoretical Hit Rates"),
            (std::vector<std::string>{"Theoretical Hit Rates", "0.42", "0.43", "0.00", "0.00",
                                      "0.33", "0.75", "0.90", "1.00"}));
  EXPECT_FALSE(fs::exists(dir_ + "/analysis.json"));
}

TEST_F(AnalyzeTrace, OutputFileJsonInAiperfOrderThenExtras) {
  const std::string trace = write("trace.jsonl", kTrace);
  const std::string out = dir_ + "/reports/deeper/analysis.json";
  auto r = run({"--input-file", trace, "--block-size", "4000", "--output-file", out});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  ASSERT_TRUE(fs::exists(out)) << r.out;
  EXPECT_FALSE(fs::exists(out + ".tmp"));
  const std::string text = read_file(out);
  EXPECT_EQ(text.substr(0, 4), "{\n  ") << text;  // indented
  const auto j = nlohmann::ordered_json::parse(text);
  std::vector<std::string> keys;
  for (const auto& [k, v] : j.items()) keys.push_back(k);
  EXPECT_EQ(keys, (std::vector<std::string>{"total_requests",
                                            "unique_prefixes",
                                            "num_prefix_groups",
                                            "cache_hit_rate",
                                            "min_isl",
                                            "max_isl",
                                            "avg_isl",
                                            "min_osl",
                                            "max_osl",
                                            "avg_osl",
                                            "prefix_reuse_ratio",
                                            "isl_stats",
                                            "osl_stats",
                                            "context_length_stats",
                                            "unique_prompt_length_stats",
                                            "hit_rate_stats",
                                            "p90_isl",
                                            "p90_osl",
                                            "tokens_per_hash_id",
                                            "block_reuse_ratio"}));
  std::vector<std::string> stat_keys;
  for (const auto& [k, v] : j["hit_rate_stats"].items()) stat_keys.push_back(k);
  EXPECT_EQ(stat_keys, (std::vector<std::string>{"mean", "std_dev", "min", "p25", "median", "p75",
                                                 "max", "p90"}));
  EXPECT_EQ(j["total_requests"], 5);
  EXPECT_EQ(j["unique_prefixes"], 6);
  EXPECT_EQ(j["num_prefix_groups"], 1);
  EXPECT_DOUBLE_EQ(j["cache_hit_rate"].get<double>(), 5.0 / 12.0);
  EXPECT_EQ(j["min_isl"], 6000);
  EXPECT_EQ(j["max_isl"], 12000);
  EXPECT_DOUBLE_EQ(j["avg_isl"].get<double>(), 9000.0);
  EXPECT_EQ(j["min_osl"], 1);
  EXPECT_EQ(j["max_osl"], 7);
  EXPECT_DOUBLE_EQ(j["prefix_reuse_ratio"].get<double>(), 0.6);
  EXPECT_DOUBLE_EQ(j["isl_stats"]["std_dev"].get<double>(), 2000.0);
  EXPECT_DOUBLE_EQ(j["isl_stats"]["p90"].get<double>(), 11200.0);
  EXPECT_DOUBLE_EQ(j["context_length_stats"]["mean"].get<double>(), 4800.0);
  EXPECT_DOUBLE_EQ(j["hit_rate_stats"]["p75"].get<double>(), 0.75);
  EXPECT_DOUBLE_EQ(j["p90_isl"].get<double>(), 11200.0);
  EXPECT_DOUBLE_EQ(j["p90_osl"].get<double>(), 6.2);
  EXPECT_DOUBLE_EQ(j["tokens_per_hash_id"].get<double>(), 3600.0);
  EXPECT_DOUBLE_EQ(j["block_reuse_ratio"].get<double>(), 0.6);
}

TEST_F(AnalyzeTrace, DefaultBlockSizeIs512) {
  const std::string trace = write("trace.jsonl", kTrace);
  const std::string out = dir_ + "/a.json";
  auto r = run({trace, "--output-file", out});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const auto j = nlohmann::json::parse(read_file(out));
  // Two repeated blocks of 512 in rows 1 and 2, the whole 8000 in row 5.
  EXPECT_DOUBLE_EQ(j["context_length_stats"]["mean"].get<double>(), (1024 + 1024 + 8000) / 5.0);
}

TEST_F(AnalyzeTrace, BadCommandLines) {
  const std::string trace = write("trace.jsonl", kTrace);
  auto none = run({});
  EXPECT_EQ(none.exit_code, 2) << none.out;
  EXPECT_NE(none.out.find("analyze-trace needs the trace"), std::string::npos) << none.out;
  auto both = run({trace, "--input-file", dir_ + "/other.jsonl"});
  EXPECT_EQ(both.exit_code, 2) << both.out;
  EXPECT_NE(both.out.find("takes one trace"), std::string::npos) << both.out;
  auto zero = run({trace, "--block-size", "0"});
  EXPECT_EQ(zero.exit_code, 2) << zero.out;
  EXPECT_NE(zero.out.find("--block-size"), std::string::npos) << zero.out;
  EXPECT_NE(zero.out.find("inferperf analyze-trace --help"), std::string::npos) << zero.out;
}

struct BadTrace {
  const char* name;
  const char* content;  // nullptr: no file at all
  std::vector<std::string> expected;
};

TEST_F(AnalyzeTrace, BadTracesExitTwoWithTheProblemNamed) {
  const std::vector<BadTrace> cases = {
      {"missing.jsonl", nullptr, {"missing.jsonl: the file does not exist"}},
      {"empty.jsonl", "\n\n", {"empty.jsonl: is empty"}},
      {"syntax.jsonl",
       "{\"input_length\": 5}\n{\"input_length\": 5,, \"output_length\": 1}\n",
       {"syntax.jsonl:2: invalid JSON at column 20"}},
      {"list.jsonl", "{\"input_length\": 5}\n[1, 2]\n", {"list.jsonl:2: expected a JSON object"}},
      {"type.jsonl",
       "{\"input_length\": 5}\n\n{\"input_length\": 5, \"hash_ids\": \"1,2\"}\n",
       {"type.jsonl:3: field 'hash_ids': must be a list of integers, got a string"}},
      {"length.jsonl",
       "{\"input_length\": \"5\"}\n",
       {"length.jsonl:1: field 'input_length': must be a non-negative integer"}},
      {"lfs.jsonl",
       "version https://git-lfs.github.com/spec/v1\noid sha256:abc\nsize 12345\n",
       {"lfs.jsonl:1: is a Git LFS pointer"}},
      {"utf8.jsonl", "{\"input_length\": 5}\n{\"x\": \"\xff\"}\n", {"utf8.jsonl:2: invalid UTF-8"}},
  };
  for (const BadTrace& c : cases) {
    const std::string path = c.content ? write(c.name, c.content) : dir_ + "/" + c.name;
    auto r = run({path, "--output-file", dir_ + "/never.json"});
    EXPECT_EQ(r.exit_code, 2) << c.name << "\n" << r.out;
    for (const auto& e : c.expected)
      EXPECT_NE(r.out.find("error: " + dir_ + "/" + e), std::string::npos) << e << "\n" << r.out;
    EXPECT_EQ(r.out.find("Trace Analysis Report"), std::string::npos) << r.out;
    EXPECT_FALSE(fs::exists(dir_ + "/never.json")) << c.name;
  }
  auto folder = run({dir_});
  EXPECT_EQ(folder.exit_code, 2) << folder.out;
  EXPECT_NE(folder.out.find("is a folder"), std::string::npos) << folder.out;
}

}  // namespace
}  // namespace inferperf::testing
