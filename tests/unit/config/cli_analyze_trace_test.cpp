// parse_command_line for `inferperf analyze-trace`.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "config/cli.hpp"

namespace {

using inferperf::config::CliOutcome;
using inferperf::config::parse_command_line;

TEST(ParseAnalyzeTrace, PositionalFileAndDefaults) {
  const CliOutcome o = parse_command_line({"analyze-trace", "t.jsonl"});
  ASSERT_EQ(o.action, CliOutcome::Action::kAnalyzeTrace) << o.message;
  EXPECT_EQ(o.analyze_trace.input_file, "t.jsonl");
  EXPECT_EQ(o.analyze_trace.block_size, 512);
  EXPECT_EQ(o.analyze_trace.output_file, "");
}

TEST(ParseAnalyzeTrace, Options) {
  const CliOutcome o = parse_command_line({"analyze-trace", "--input-file", "t.jsonl",
                                           "--block-size", "64", "--output-file", "out/a.json"});
  ASSERT_EQ(o.action, CliOutcome::Action::kAnalyzeTrace) << o.message;
  EXPECT_EQ(o.analyze_trace.input_file, "t.jsonl");
  EXPECT_EQ(o.analyze_trace.block_size, 64);
  EXPECT_EQ(o.analyze_trace.output_file, "out/a.json");
  // The same file both ways is accepted.
  const CliOutcome same =
      parse_command_line({"analyze-trace", "t.jsonl", "--input-file", "t.jsonl"});
  EXPECT_EQ(same.action, CliOutcome::Action::kAnalyzeTrace) << same.message;
}

TEST(ParseAnalyzeTrace, Refusals) {
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"analyze-trace"},
           {"analyze-trace", "a.jsonl", "--input-file", "b.jsonl"},
           {"analyze-trace", "a.jsonl", "--block-size", "0"},
           {"analyze-trace", "a.jsonl", "--block-size", "x"},
           {"analyze-trace", "a.jsonl", "--url", "http://x"},
       }) {
    const CliOutcome o = parse_command_line(args);
    EXPECT_EQ(o.action, CliOutcome::Action::kExit) << args.back();
    EXPECT_EQ(o.exit_code, 2) << args.back();
    EXPECT_EQ(o.message.rfind("error: ", 0), 0u) << o.message;
  }
}

TEST(ParseAnalyzeTrace, HelpNamesTheOptions) {
  const CliOutcome o = parse_command_line({"analyze-trace", "--help"});
  EXPECT_EQ(o.exit_code, 0);
  for (const char* opt : {"--input-file", "--block-size", "--output-file", "INPUT_FILE"})
    EXPECT_NE(o.message.find(opt), std::string::npos) << opt << "\n" << o.message;
}

}  // namespace
