// Every numeric option, listed from the parser itself, refuses hostile values (NaN, infinities,
// negatives, zero where zero means nothing, 2^63, 1e300) with one short message naming the flag
// (issue 25); unknown options get a "did you mean"; derived quantities cannot overflow.
#include <gtest/gtest.h>

#include <cstdio>

#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "config/cli.hpp"
#include "config/cli_scan.hpp"
#include "config/numeric_ranges.hpp"

namespace inferperf::config {
namespace {

// A minimal valid command line of the option's subcommand.
std::vector<std::string> base_args(const CliOptionInfo& o) {
  if (o.subcommand == "analyze-trace") return {"analyze-trace", "trace.jsonl"};
  return {"profile", "-m", "x"};
}

CliOutcome parse_with(const CliOptionInfo& o, const std::string& value) {
  auto args = base_args(o);
  args.push_back(o.name);
  args.push_back(value);
  return parse_command_line(args);
}

std::vector<CliOptionInfo> numeric_options() {
  std::vector<CliOptionInfo> out;
  for (auto& o : cli_options()) {
    if (o.numeric) out.push_back(o);
  }
  return out;
}

TEST(NumericRanges, TheParserAndTheTableListTheSameFlags) {
  const auto options = numeric_options();
  ASSERT_GT(options.size(), 60u) << "the parser lists its numeric options";
  std::set<std::string> numeric;
  for (const auto& o : options) {
    numeric.insert(o.name);
    EXPECT_NE(find_numeric_range(o.name), nullptr)
        << o.name << " (" << o.type_name << ") has no range in numeric_ranges.cpp";
  }
  for (const auto& r : numeric_ranges())
    EXPECT_TRUE(numeric.count(std::string(r.flag))) << r.flag << " is no numeric option";
  // Options kept as text that mean numbers are tagged, so they are in the list too.
  for (const char* tagged : {"--max-dataset-memory", "--max-response-bytes",
                             "--max-sse-event-bytes", "--num-profile-runs", "--confidence-level"})
    EXPECT_TRUE(numeric.count(tagged)) << tagged;
  EXPECT_TRUE(numeric.count("--block-size")) << "analyze-trace's options are listed too";
}

TEST(NumericRanges, EveryNumericFlagRefusesEveryHostileValue) {
  const std::vector<std::string> hostile = {
      "nan", "inf", "-inf", "-1", "0", "9223372036854775808", "1e300", "abc", ""};
  for (const auto& o : numeric_options()) {
    const NumericRange* r = find_numeric_range(o.name);
    ASSERT_NE(r, nullptr) << o.name;
    for (const auto& v : hostile) {
      if (v == "0" && accepts_zero(*r)) continue;
      const CliOutcome out = parse_with(o, v);
      EXPECT_EQ(out.exit_code, 2) << o.name << " " << v;
      EXPECT_EQ(out.action, CliOutcome::Action::kExit) << o.name << " " << v;
      EXPECT_NE(out.message.find("error: " + o.name + " must be "), std::string::npos)
          << o.name << " " << v << ": " << out.message;
      std::istringstream lines(out.message);
      for (std::string line; std::getline(lines, line);)
        EXPECT_LT(line.size(), 300u) << o.name << " " << v << ": " << line;
    }
  }
}

// Zero where the table says it is fine, and both ends of every range, pass the range check (the
// command line may still fail a cross-field rule, never with "<flag> must be").
TEST(NumericRanges, BoundsAndAcceptedZeroPassTheRangeCheck) {
  for (const auto& o : numeric_options()) {
    const NumericRange& r = *find_numeric_range(o.name);
    std::vector<std::string> values;
    if (accepts_zero(r)) values.push_back("0");
    if (r.kind == NumberKind::kReal) {
      // Round-trip digits: std::to_string's six decimals would round a bound like 1 - 2^-53 up.
      const auto exact = [](double v) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.17g", v);
        return std::string(buf);
      };
      if (!r.min_exclusive) values.push_back(exact(r.min));
      values.push_back(exact(r.max));
    } else {
      values.push_back(std::to_string(r.whole_min));
      values.push_back(std::to_string(r.whole_max));
    }
    for (const auto& v : values) {
      const CliOutcome out = parse_with(o, v);
      EXPECT_EQ(out.message.find(o.name + " must be " + std::string(r.range)), std::string::npos)
          << o.name << " " << v << ": " << out.message;
    }
  }
}

TEST(NumericRanges, MessagesNameTheSpellingTheValueAndTheRange) {
  auto msg = [](std::vector<std::string> extra) {
    std::vector<std::string> args = {"profile", "-m", "x"};
    args.insert(args.end(), extra.begin(), extra.end());
    return parse_command_line(args).message;
  };
  EXPECT_EQ(msg({"--request-rate", "inf"}),
            "error: --request-rate must be a finite number of requests per second between 0.001 "
            "and 10,000,000 (got inf)\nRun 'inferperf profile --help' for the options.\n");
  EXPECT_NE(
      msg({"--osl", "0"})
          .find("error: --osl must be a whole number of tokens between 1 and 10,000,000 (got 0)"),
      std::string::npos);
  EXPECT_NE(msg({"--isl-stddev=nan"}).find("--isl-stddev must be a finite number of tokens"),
            std::string::npos);
  EXPECT_NE(msg({"-b0"}).find("-b must be a whole number of texts between 1 and 10,000 (got 0)"),
            std::string::npos);
  EXPECT_NE(msg({"--max-response-bytes", "12"})
                .find("--max-response-bytes must be a whole "
                      "number of bytes from 1K to 1T"),
            std::string::npos);
  // Every problem at once, in order.
  const std::string both = msg({"--request-rate", "0", "--concurrency", "-4"});
  EXPECT_LT(both.find("--request-rate must be"), both.find("--concurrency must be"));
  EXPECT_NE(both.find("(got -4)"), std::string::npos);
  // A huge value is quoted short.
  EXPECT_LT(msg({"--isl", std::string(5000, '9')}).size(), 300u);
}

TEST(NumericRanges, AcceptedValuesAreReadExactly) {
  const CliOutcome o = parse_command_line({"profile", "-m", "x", "--request-count", "1e6", "--isl",
                                           "010", "--osl=+32", "--random-seed",
                                           "9223372036854775807", "--max-response-bytes", "2K"});
  ASSERT_EQ(o.action, CliOutcome::Action::kProfile) << o.message;
  EXPECT_EQ(*o.config.load.request_count, 1'000'000);
  EXPECT_EQ(o.config.input.isl_mean, 10) << "decimal, not octal";
  EXPECT_EQ(*o.config.input.osl_mean, 32);
  EXPECT_EQ(*o.config.input.random_seed, 9223372036854775807ull);
  EXPECT_EQ(o.config.limits.max_response_bytes, 2048u);
  // The reproduction line keeps what the user typed.
  EXPECT_NE(o.config.cli_command.find("--isl '010'"), std::string::npos) << o.config.cli_command;
}

TEST(NumericRanges, DerivedQuantitiesCannotOverflow) {
  CliOutcome o = parse_command_line(
      {"profile", "-m", "x", "--isl", "10000000", "--request-count", "1000000000000"});
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_NE(o.message.find("more than 2^53"), std::string::npos) << o.message;
  o = parse_command_line({"profile", "-m", "x", "--user-centric-rate", "0.001", "--num-users",
                          "1000000", "--request-count", "2000000", "--session-turns-mean", "2"});
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_NE(o.message.find("each user would wait 1e+09 s between turns"), std::string::npos)
      << o.message;
}

TEST(TypoHelp, EditDistanceCountsSwapsAsOne) {
  EXPECT_EQ(edit_distance("--concurency", "--concurrency"), 1u);
  EXPECT_EQ(edit_distance("--cnocurrency", "--concurrency"), 1u);
  EXPECT_EQ(edit_distance("--request-rate", "--request-rate"), 0u);
  EXPECT_EQ(edit_distance("--abc", "--xyzw", 2), 3u) << "stops counting above the cap";
  EXPECT_EQ(closest_name("--ilss", {"--isl", "--osl"}), "") << "short names allow one edit";
  EXPECT_EQ(closest_name("--isll", {"--isl", "--osl"}), "--isl");
  EXPECT_EQ(closest_name("--totally-different", {"--isl", "--concurrency"}), "");
}

TEST(TypoHelp, UnknownOptionsAndCommandsGetASuggestion) {
  auto msg = [](std::vector<std::string> args) {
    const CliOutcome o = parse_command_line(args);
    EXPECT_EQ(o.exit_code, 2);
    return o.message;
  };
  EXPECT_EQ(msg({"profile", "-m", "x", "--concurency", "4"}),
            "error: unknown option --concurency; did you mean --concurrency?\n"
            "Run 'inferperf profile --help' for the options.\n");
  EXPECT_NE(msg({"profile", "--request-rat=5"}).find("did you mean --request-rate?"),
            std::string::npos);
  EXPECT_NE(msg({"profile", "--streming"}).find("did you mean --streaming?"), std::string::npos);
  EXPECT_NE(msg({"profile", "--qwertyuiop"}).find("error: unknown option --qwertyuiop\n"),
            std::string::npos);
  EXPECT_NE(msg({"analyze-trace", "t.jsonl", "--blok-size", "4"})
                .find("unknown option --blok-size; did you mean --block-size?"),
            std::string::npos);
  EXPECT_NE(msg({"analyze", "dir", "--verbos"}).find("unknown option --verbos"), std::string::npos);
  EXPECT_NE(msg({"profiel", "-m", "x"}).find("unknown command profiel; did you mean profile?"),
            std::string::npos);
  // A value that starts with a dash is the option's value, not an option.
  const CliOutcome ok = parse_command_line({"profile", "-m", "x", "--api-key", "-k-"});
  EXPECT_EQ(ok.action, CliOutcome::Action::kProfile) << ok.message;
}

TEST(TypoHelp, EverySpellingOfEveryOptionIsKnown) {
  for (const auto& o : cli_options()) {
    for (const auto& name : o.names) {
      auto args = base_args(o);
      args.push_back(name);
      EXPECT_EQ(parse_command_line(args).message.find("unknown option"), std::string::npos) << name;
    }
  }
  for (const char* negated :
       {"--no-set-consistent-seed", "--no-profile-run-disable-warmup-after-first", "-vv"}) {
    EXPECT_EQ(parse_command_line({"profile", "-m", "x", negated}).message.find("unknown option"),
              std::string::npos)
        << negated;
  }
}

TEST(ModelNames, AnEmptyNameIsRefusedByFlag) {
  for (const char* flag : {"-m", "--model-names", "--model"}) {
    const CliOutcome o = parse_command_line({"profile", flag, ""});
    EXPECT_EQ(o.exit_code, 2) << flag;
    EXPECT_NE(o.message.find("-m/--model-names: a model name cannot be empty"), std::string::npos)
        << o.message;
  }
}

TEST(NumericRanges, HelpStatesTheRanges) {
  const CliOutcome o = parse_command_line({"profile", "--help"});
  EXPECT_NE(o.message.find("[a finite number of requests per second between 0.001 and "
                           "10,000,000]"),
            std::string::npos);
  EXPECT_NE(o.message.find("[a whole number of bytes from 1K to 1T"), std::string::npos);
}

}  // namespace
}  // namespace inferperf::config
