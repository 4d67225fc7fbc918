// `inferperf validate --target mooncake-trace`: each kind of problem with its line and field, the
// summary of a valid file, the exit codes; and the answers of `plugins` and `service`.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>

#include "../test_files.hpp"
#include "app/plugins/plugins_command.hpp"
#include "app/validate/mooncake_check.hpp"
#include "app/validate/validate_command.hpp"
#include "config/endpoint_type.hpp"

namespace inferperf::app {
namespace {

// "LINE FIELD: MESSAGE" for each problem of a one-problem-per-line file.
std::vector<std::string> problems_of(const std::string& content, int block_size = 512) {
  const TraceCheck c = check_mooncake_trace(content, block_size);
  std::vector<std::string> out;
  for (const TraceProblem& p : c.problems)
    out.push_back(std::to_string(p.line) + " " + p.field + ": " + p.message);
  return out;
}

std::string first_problem(const std::string& content, int block_size = 512) {
  const auto p = problems_of(content, block_size);
  return p.empty() ? "" : p.front();
}

TEST(MooncakeCheck, EachProblemKindNamesItsLineAndField) {
  const std::string ok = R"({"input_length": 10})"
                         "\n";
  EXPECT_EQ(first_problem(ok + "{\"input_length\": 5,\n"),
            "2 : invalid JSON at column 20: syntax error while parsing object key - unexpected "
            "end of input; expected string literal (near '{\"input_length\": 5,')")
      << "the parse error's column";
  EXPECT_EQ(first_problem(ok + "\n[1, 2]\n"), "3 : must be a JSON object, got a list");
  EXPECT_EQ(first_problem(R"({"output_length": 4})"),
            "1 input_length: exactly one of input_length, text_input, messages or payload must "
            "be provided");
  EXPECT_EQ(first_problem(R"({"input_length": 4, "text_input": "x"})"),
            "1 text_input: input_length and text_input are mutually exclusive; use one");
  EXPECT_EQ(first_problem(R"({"input_length": "4"})"),
            "1 input_length: must be an integer, got a string");
  EXPECT_EQ(first_problem(R"({"input_length": 0})"), "1 input_length: must be at least 1, got 0");
  EXPECT_EQ(first_problem(R"({"text_input": "x", "hash_ids": [1]})"),
            "1 hash_ids: hash_ids are only allowed with input_length");
  EXPECT_EQ(first_problem(R"({"input_length": 4, "hash_ids": [1, "2"]})"),
            "1 hash_ids[1]: must be an integer, got a string");
  EXPECT_EQ(first_problem(R"({"input_length": 1100, "hash_ids": [5, 6, 7, 8]})"),
            "1 hash_ids: input_length 1100 with 4 hash_ids and block size 512 leaves -436 tokens "
            "for the last block (needs 1..512); the hash ids do not fit this input length at "
            "this block size");
  EXPECT_EQ(first_problem(ok +
                          R"({"input_length": 600, "hash_ids": [1, 2]})"
                          "\n" +
                          R"({"input_length": 20, "hash_ids": [1]})"
                          "\n"),
            "3 hash_ids: input_length 20 with 1 hash_ids and block size 512: hash id 1 was a "
            "block of 512 tokens on an earlier row and is 20 tokens here");
  EXPECT_EQ(first_problem(R"({"input_length": 20, "hash_ids": [1, 2]})", 16), "")
      << "the block size given decides the layout";
  EXPECT_EQ(first_problem(R"({"text_input": "x", "tools": [{}]})"),
            "1 tools: tools are only allowed with messages");
  EXPECT_EQ(first_problem(R"({"messages": [{"content": "x"}]})"),
            "1 messages[0]: each message needs a string 'role'");
  EXPECT_EQ(first_problem(R"({"messages": []})"), "1 messages: must be a non-empty list");
  EXPECT_EQ(first_problem(R"({"messages": [{"role": "user"}], "message_mode": "both"})"),
            "1 message_mode: must be \"history\" or \"delta\"");
  EXPECT_EQ(first_problem(R"({"text_input": "x", "message_mode": "delta"})"),
            "1 message_mode: delta mode is only allowed with messages");
  EXPECT_EQ(first_problem(R"({"input_length": 3, "output_length": 0})"),
            "1 output_length: must be at least 1, got 0");
  EXPECT_EQ(first_problem(R"({"input_length": 3, "timestamp": -1})"),
            "1 timestamp: must be a number of milliseconds >= 0, got -1");
  EXPECT_EQ(first_problem(R"({"input_length": 3, "delay": "5"})"),
            "1 delay: must be a number of milliseconds >= 0, got a string");
  EXPECT_EQ(first_problem(R"({"input_length": 3, "type": "single_turn"})"),
            "1 type: a mooncake_trace row's type must be \"mooncake_trace\"");
  EXPECT_EQ(first_problem(R"({"input_length": 3, "headers": {"x-a": 1}})"),
            "1 headers.x-a: header values must be strings");
  EXPECT_EQ(first_problem(R"({"input_length": 3, "session_id": [1]})"),
            "1 session_id: must be a string, got a list");
  EXPECT_EQ(first_problem(R"({"session_id": "s", "text_input": "a"})"
                          "\n" +
                          std::string(R"({"session_id": "s", "payload": {"a": 1}})")),
            "2 session_id: session 's' mixes input_length/text_input rows (first at line 1) with "
            "payload rows; a session's rows must use one input form");
}

TEST(MooncakeCheck, GoesOnAfterAProblemAndCountsPastTheListed) {
  std::string content;
  for (int i = 0; i < 60; ++i)
    content += R"({"input_length": 0})"
               "\n";
  const TraceCheck c = check_mooncake_trace(content, 512, 50);
  EXPECT_EQ(c.records, 60);
  EXPECT_EQ(c.problem_count, 60);
  EXPECT_EQ(c.problems.size(), 50u);
  EXPECT_EQ(c.problems.back().line, 50);
}

TEST(MooncakeCheck, SummaryOfAValidTrace) {
  const TraceCheck c = check_mooncake_trace(
      R"({"session_id": "a", "timestamp": 1000, "input_length": 600, "hash_ids": [1, 2]})"
      "\n"
      R"({"session_id": "a", "delay": 50, "input_length": 10, "hash_ids": [3]})"
      "\n"
      "\n"
      R"({"timestamp": 500.5, "text_input": "hi", "output_length": 4})"
      "\n"
      R"({"session_id": 7, "timestamp": 4000, "messages": [{"role": "user", "content": "x"}]})",
      512);
  EXPECT_EQ(c.problem_count, 0);
  EXPECT_EQ(c.records, 4);
  EXPECT_EQ(c.sessions, 3);
  EXPECT_EQ(c.hash_ids, 3);
  EXPECT_EQ(c.first_timestamp_ms, 500.5);
  EXPECT_EQ(c.last_timestamp_ms, 4000);
  EXPECT_FALSE(c.timestamps_sorted);
}

TEST(ValidateCommand, ExitCodesAndReport) {
  test_files::ScratchDir dir("ip-validate");
  std::ofstream(dir / "good.jsonl") << R"({"timestamp": 0, "input_length": 10})"
                                       "\n";
  std::ofstream(dir / "bad.jsonl") << R"({"input_length": 10})"
                                      "\n"
                                      R"({"input_length": -2})";
  ValidateOptions o;
  o.target = "mooncake-trace";
  std::ostringstream out, err;
  o.input = (dir / "good.jsonl").string();
  EXPECT_EQ(validate_trace_file(o, out, err), 0);
  EXPECT_NE(out.str().find("Validation passed: 1 rows are Mooncake-compatible."),
            std::string::npos);
  out.str("");
  o.input = (dir / "bad.jsonl").string();
  EXPECT_EQ(validate_trace_file(o, out, err), 1);
  EXPECT_NE(out.str().find("Validation failed with 1 problem(s) in 2 rows"), std::string::npos);
  EXPECT_NE(out.str().find("line 2: field 'input_length': must be at least 1, got -2"),
            std::string::npos)
      << out.str();
  o.input = (dir / "missing.jsonl").string();
  EXPECT_EQ(validate_trace_file(o, out, err), 2);
  EXPECT_NE(err.str().find("missing.jsonl"), std::string::npos);

  auto p = parse_validate_command({"mooncake-trace", "--input", "x.jsonl"});
  EXPECT_TRUE(p.run);
  EXPECT_EQ(p.options.block_size, 512);
  EXPECT_EQ(parse_validate_command({"--target", "mooncake-trace"}).exit_code, 2);
  EXPECT_EQ(parse_validate_command({"--target", "bailian", "--input", "x"}).exit_code, 2);
  EXPECT_EQ(parse_validate_command({"--input", "x"}).exit_code, 2);
  p = parse_validate_command({"mooncake-trace", "trace.jsonl"});  // both positional
  ASSERT_TRUE(p.run) << p.message;
  EXPECT_EQ(p.options.input, "trace.jsonl");
  EXPECT_EQ(parse_validate_command({"mooncake-trace", "a.jsonl", "--input", "b.jsonl"}).exit_code,
            2);
}

TEST(PluginsCommand, ListsTheParsersOwnChoices) {
  const auto cats = builtin_plugin_categories();
  auto find = [&](const std::string& name) {
    return std::find_if(cats.begin(), cats.end(),
                        [&](const PluginCategory& c) { return c.name == name; });
  };
  ASSERT_NE(find("endpoint"), cats.end());
  EXPECT_EQ(find("endpoint")->types, config::endpoint_type_names());
  EXPECT_EQ(find("endpoint")->flag, "--endpoint-type");
  ASSERT_NE(find("custom_dataset_loader"), cats.end());
  const auto& types = find("custom_dataset_loader")->types;
  EXPECT_NE(std::find(types.begin(), types.end(), "mooncake_trace"), types.end());
  ASSERT_NE(find("ui"), cats.end());
  EXPECT_EQ(find("ui")->types, (std::vector<std::string>{"dashboard", "simple", "none"}));
  ASSERT_NE(find("transport"), cats.end());
  EXPECT_EQ(find("transport")->types, std::vector<std::string>{"http"});
  for (const char* c :
       {"arrival_pattern", "dataset_sampler", "public_dataset_loader", "url_selection_strategy"})
    EXPECT_NE(find(c), cats.end()) << c;

  EXPECT_EQ(run_plugins_command({"plugins"}), 0);
  EXPECT_EQ(run_plugins_command({"plugins", "endpoint", "chat"}), 0);
  EXPECT_EQ(run_plugins_command({"plugins", "--category", "ui"}), 0);
  EXPECT_EQ(run_plugins_command({"plugins", "endpoint", "grpc"}), 2);
  EXPECT_EQ(run_plugins_command({"plugins", "zmq_proxy"}), 2);
  EXPECT_EQ(run_plugins_command({"plugins", "nonsense"}), 2);
  EXPECT_EQ(run_service_command({"service", "--type", "worker"}), 2);
  EXPECT_EQ(run_speed_bench_report_command({"speed-bench-report", "--paths", "a"}), 2);
}

}  // namespace
}  // namespace inferperf::app
