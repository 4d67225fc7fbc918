// --public-dataset's 25 names, --hf-subset and --dataset-filter as the command line takes them.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "config/cli.hpp"
#include "config/cli_areas.hpp"

namespace {

using inferperf::config::CliOutcome;
using inferperf::config::parse_command_line;

CliOutcome parse(std::vector<std::string> extra) {
  std::vector<std::string> args = {"profile", "-m", "x"};
  args.insert(args.end(), extra.begin(), extra.end());
  return parse_command_line(args);
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(PublicOptions, EveryAiperfNameIsAChoiceInAnySpelling) {
  const auto& names = inferperf::config::public_dataset_names();
  ASSERT_EQ(names.size(), 25u);
  EXPECT_EQ(names.front(), "exgentic_v2");
  EXPECT_EQ(names.back(), "spgispeech");
  for (const auto& n : names) {
    const CliOutcome o = parse({"--public-dataset", n});
    EXPECT_EQ(o.exit_code, 0) << n << ": " << o.message;
    EXPECT_EQ(o.config.input.public_dataset, n);
  }
  EXPECT_EQ(parse({"--public-dataset", "SPEC-AL-GSM8K"}).config.input.public_dataset,
            "spec_al_gsm8k");
  const CliOutcome bad = parse({"--public-dataset", "speed_bench_coding"});
  EXPECT_EQ(bad.exit_code, 2) << "a custom dataset type at 0.11, not a public dataset";
}

TEST(PublicOptions, HfSubsetIsStoredAndNeedsAPublicDataset) {
  const CliOutcome o = parse({"--public-dataset", "spec_al_mbpp", "--hf-subset", "sanitized"});
  ASSERT_EQ(o.exit_code, 0) << o.message;
  ASSERT_TRUE(o.config.input.hf_subset.has_value());
  EXPECT_EQ(*o.config.input.hf_subset, "sanitized");
  EXPECT_EQ(o.config.set_options.count("--hf-subset"), 1u);
  EXPECT_FALSE(parse({"--public-dataset", "aimo"}).config.input.hf_subset.has_value());

  const CliOutcome alone = parse({"--hf-subset", "main"});
  EXPECT_EQ(alone.exit_code, 2);
  EXPECT_TRUE(has(alone.message, "--hf-subset requires --public-dataset")) << alone.message;
}

TEST(PublicOptions, DatasetFiltersAreKeyValuePairsInOrder) {
  const CliOutcome o = parse({"--public-dataset", "exgentic_v2", "--dataset-filter",
                              "harness=claude_code, source_model = gpt-4.1", "--dataset-filter",
                              "benchmark=swebench=x"});
  ASSERT_EQ(o.exit_code, 0) << o.message;
  const std::vector<std::pair<std::string, std::string>> want = {
      {"harness", "claude_code"}, {"source_model", "gpt-4.1"}, {"benchmark", "swebench=x"}};
  EXPECT_EQ(o.config.input.dataset_filters, want);
  EXPECT_EQ(o.config.set_options.count("--dataset-filter"), 1u);
}

TEST(PublicOptions, MalformedOrRepeatedFiltersExitTwo) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"=claude_code", "'=claude_code' has an empty key"},
      {"harness=", "'harness=' has an empty value"},
      {"harness", "'harness' is not KEY=VALUE"},
      {"harness=a,harness=b", "the key 'harness' is given more than once"},
  };
  for (const auto& [item, message] : cases) {
    const CliOutcome o = parse({"--public-dataset", "exgentic", "--dataset-filter", item});
    EXPECT_EQ(o.exit_code, 2) << item;
    EXPECT_TRUE(has(o.message, message)) << item << ": " << o.message;
    EXPECT_TRUE(has(o.message, "--dataset-filter")) << o.message;
  }
  const CliOutcome alone = parse({"--dataset-filter", "harness=claude_code"});
  EXPECT_EQ(alone.exit_code, 2);
  EXPECT_TRUE(has(alone.message, "--dataset-filter requires --public-dataset")) << alone.message;
}

}  // namespace
