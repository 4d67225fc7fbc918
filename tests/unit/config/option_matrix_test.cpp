// Every AIPerf 0.11 `profile` option has a status (tests/data/options/aiperf_0_11_options.tsv):
// accepted, warned or refused by name with its reason, and every option `profile --help` lists is
// in the table, so nothing hides either way.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "../test_files.hpp"
#include "config/cli.hpp"
#include "config/refused_options.hpp"

namespace inferperf::config {
namespace {

struct OptionRow {
  int line = 0;
  std::string option, value, status, reason;
  std::vector<std::string> extra;
};

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string item;
  std::istringstream in(s);
  while (std::getline(in, item, sep)) out.push_back(item);
  if (!s.empty() && s.back() == sep) out.emplace_back();
  return out;
}

std::vector<OptionRow> load_rows() {
  std::ifstream in(std::string(INFERPERF_SOURCE_DIR) +
                   "/tests/data/options/aiperf_0_11_options.tsv");
  std::vector<OptionRow> rows;
  int n = 0;
  for (std::string line; std::getline(in, line);) {
    ++n;
    if (line.empty() || line.front() == '#') continue;
    const auto cols = split(line, '\t');
    if (cols.size() != 5) {
      ADD_FAILURE() << "line " << n << ": 5 tab-separated columns expected";
      continue;
    }
    OptionRow r{n, cols[0], cols[1], cols[2], cols[3], {}};
    for (auto& w : split(cols[4], ' '))
      if (!w.empty()) r.extra.push_back(w);
    rows.push_back(std::move(r));
  }
  return rows;
}

// The row's command line; the sample files it names are made in `dir`.
std::vector<std::string> row_args(const OptionRow& r, const std::filesystem::path& dir) {
  std::vector<std::string> args = {"profile", "-m", "x", r.option};
  if (!r.value.empty()) args.push_back(r.value);
  args.insert(args.end(), r.extra.begin(), r.extra.end());
  for (auto& a : args) {
    if (a == "trace.jsonl" || a == "config.yaml") a = (dir / a).string();
  }
  return args;
}

std::string joined(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : " ") + w;
  return out;
}

class OptionMatrix : public ::testing::Test {
 protected:
  void SetUp() override {
    std::ofstream(dir_.path() / "trace.jsonl") << "{\"timestamp\":0,\"input_length\":10,"
                                                  "\"output_length\":5,\"hash_ids\":[1]}\n";
    // The smallest AIPerf 0.11 configuration: `benchmark` is its one required key.
    std::ofstream(dir_.path() / "config.yaml") << "benchmark:\n  model: x\n";
  }
  test_files::ScratchDir dir_{"option-matrix"};
};

TEST_F(OptionMatrix, EveryRowBehavesAsItsStatusSays) {
  const auto rows = load_rows();
  ASSERT_GT(rows.size(), 300u);
  for (const auto& r : rows) {
    const auto args = row_args(r, dir_.path());
    const CliOutcome o = parse_command_line(args);
    const std::string where = "line " + std::to_string(r.line) + ": " + joined(args);
    const auto naming =
        std::count_if(o.config.warnings.begin(), o.config.warnings.end(),
                      [&](const std::string& w) { return w.find(r.option) != std::string::npos; });
    if (r.status == "accepted" || r.status == "extension") {
      EXPECT_EQ(o.exit_code, 0) << where << "\n" << o.message;
      EXPECT_EQ(naming, 0) << where;
    } else if (r.status == "warned") {
      EXPECT_EQ(o.exit_code, 0) << where << "\n" << o.message;
      EXPECT_EQ(naming, 1) << where;
    } else if (r.status == "refused") {
      EXPECT_EQ(o.exit_code, 2) << where;
      EXPECT_NE(o.message.find(r.option), std::string::npos) << where << "\n" << o.message;
      EXPECT_FALSE(r.reason.empty()) << where;
      EXPECT_NE(o.message.find(r.reason), std::string::npos) << where << "\n" << o.message;
    } else {
      ADD_FAILURE() << where << ": unknown status " << r.status;
    }
  }
}

// Each name `profile --help` lists is in the table, and no refused option is in the help.
TEST_F(OptionMatrix, TheHelpAndTheTableListTheSameOptions) {
  std::set<std::string> in_table;
  for (const auto& r : load_rows()) in_table.insert(r.option);
  std::set<std::string> in_help;
  for (const auto& o : cli_options()) {
    if (o.subcommand != "profile") continue;
    for (const auto& name : o.names) {
      in_help.insert(name);
      if (name == "--help" || name == "-h") continue;
      EXPECT_TRUE(in_table.count(name)) << name << " is in --help but not in the option table";
    }
  }
  for (const auto& r : refused_options())
    EXPECT_FALSE(in_help.count(std::string(r.flag))) << r.flag << " is refused yet in --help";
  for (const auto& r : refused_options())
    EXPECT_TRUE(in_table.count(std::string(r.flag)))
        << r.flag << " is refused but not in the table";
}

TEST(RefusedOptions, EachOptionOnceInTheOrderTyped) {
  const auto errors = refused_option_errors(
      {"profile", "--optuna-sampler", "tpe", "--stats-interval=h", "--optuna-sampler", "gp"});
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors[0].find("option --optuna-sampler is refused: "), 0u) << errors[0];
  EXPECT_NE(errors[0].find("--search-planner bayesian"), std::string::npos);
  EXPECT_EQ(errors[1].find("option --stats-interval is refused: "), 0u) << errors[1];
  EXPECT_TRUE(
      refused_option_errors({"profile", "--extra-inputs", "--", "--optuna-sampler"}).empty());
}

}  // namespace
}  // namespace inferperf::config
