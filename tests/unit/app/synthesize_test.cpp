// `inferperf synthesize --target agentic-code`: the config (defaults, errors by key path), the
// generator (row schema, determinism, caps, one size per hash id, turns and restart modes) and
// the command line.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "../test_files.hpp"
#include "app/synthesize/agentic_config.hpp"
#include "app/synthesize/agentic_sessions.hpp"
#include "app/synthesize/synthesize_command.hpp"
#include "app/validate/mooncake_check.hpp"

namespace inferperf::app {
namespace {

using agentic::Config;
using nlohmann::json;

Config parse_config(const std::string& text, std::vector<std::string>* ignored = nullptr) {
  auto c = agentic::config_from_json(json::parse(text), ignored);
  EXPECT_TRUE(c) << (c ? "" : c.error().describe());
  return c ? *c : Config{};
}

std::string config_error(const std::string& text) {
  auto c = agentic::config_from_json(json::parse(text), nullptr);
  EXPECT_FALSE(c) << text;
  return c ? "" : c.error().field + ": " + c.error().message;
}

std::vector<json> rows_of(const std::string& jsonl) {
  std::vector<json> out;
  std::istringstream in(jsonl);
  for (std::string line; std::getline(in, line);) out.push_back(json::parse(line));
  return out;
}

std::string generate(const Config& c, long long n, std::uint64_t seed) {
  auto s = agentic::synthesize_sessions(c, n, seed);
  EXPECT_TRUE(s);
  return agentic::dataset_jsonl(c, *s).jsonl;
}

// A small workload that keeps rows short: contexts of a few hundred tokens.
constexpr const char* kSmall = R"({"cache": {"layer1_tokens": 64, "layer1_5_tokens": 32,
  "layer2": {"mean": 80, "median": 40}}, "new_tokens_per_turn": {"mean": 30, "median": 20},
  "generation_length": {"mean": 12, "median": 8}, "max_prompt_tokens": 800, "block_size": 16})";

TEST(AgenticConfig, DefaultsAreAiperfsAndDeriveMuSigma) {
  const Config c;
  EXPECT_EQ(c.max_prompt_tokens, 200'000);
  EXPECT_EQ(c.block_size, 512);
  EXPECT_EQ(c.cache.layer1_tokens, 32'000);
  EXPECT_EQ(c.cache.layer1_5_tokens, 20'000);
  EXPECT_EQ(c.cache.num_groups, 50);
  EXPECT_DOUBLE_EQ(c.delay.agentic_fraction, 0.7);
  EXPECT_TRUE(c.reset.has_value());
  EXPECT_DOUBLE_EQ(c.reset->base_probability, 0.02);
  EXPECT_DOUBLE_EQ(c.new_tokens.mu, std::log(1800.0));
  EXPECT_DOUBLE_EQ(c.new_tokens.sigma, std::sqrt(2.0 * std::log(3500.0 / 1800.0)));
  const auto j = agentic::config_to_json(c);
  std::vector<std::string> keys;
  for (auto it = j.begin(); it != j.end(); ++it) keys.push_back(it.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"new_tokens_per_turn", "generation_length",
                                            "inter_turn_delay", "reset", "turns",
                                            "max_prompt_tokens", "block_size", "cache",
                                            "restart_initial_probability", "restart_turn_range"}));
  // The manifest's params load back to the same config.
  const Config back = parse_config(j.dump());
  EXPECT_EQ(agentic::config_to_json(back), j);
}

TEST(AgenticConfig, AcceptsCamelCaseAndListsIgnoredKeys) {
  std::vector<std::string> ignored;
  const Config c = parse_config(R"({"maxPromptTokens": 9000, "blockSize": 64, "foo": 1,
    "cache": {"layer2": {"mean": 10, "median": 5, "shape": 2}}, "system_prompt_tokens": 5})",
                                &ignored);
  EXPECT_EQ(c.max_prompt_tokens, 9000);
  EXPECT_EQ(c.block_size, 64);
  EXPECT_EQ(ignored, (std::vector<std::string>{"cache.layer2.shape", "foo"}));
}

TEST(AgenticConfig, EveryBadValueNamesItsKeyPath) {
  EXPECT_EQ(config_error(R"({"cache": {"layer2": {"mean": 1, "median": 5}}})"),
            "cache.layer2.mean: mean (1) must be >= median (5) for a lognormal");
  EXPECT_EQ(config_error(R"({"max_prompt_tokens": "big"})"),
            "max_prompt_tokens: must be an integer, got \"big\"");
  EXPECT_EQ(config_error(R"({"block_size": 0})"), "block_size: must be >= 1 (got 0)");
  EXPECT_EQ(config_error(R"({"generation_length": {"mean": 5}})"),
            "generation_length.median: is required");
  EXPECT_EQ(config_error(R"({"inter_turn_delay": {"agentic_fraction": 1.5}})"),
            "inter_turn_delay.agentic_fraction: must be between 0 and 1 (got 1.5)");
  EXPECT_EQ(config_error(R"({"cache": {"layer1_5_groups": {"num_groups": 0}}})"),
            "cache.layer1_5_groups.num_groups: must be >= 1 (got 0)");
  EXPECT_EQ(config_error(R"({"reset": {}, "turns": {"mean": 3, "median": 3, "min": 1, "max": 5}})"),
            "turns: turns mode cannot be combined with reset");
  EXPECT_EQ(config_error(R"({"restart_turn_range": [5, 5]})"),
            "restart_turn_range: must be [min, max) with max > min");
  EXPECT_EQ(config_error(R"({"new_tokens_per_turn": {"mean": 3, "median": 2, "mu": 1}})"),
            "new_tokens_per_turn.sigma: mu and sigma go together");
}

TEST(AgenticSessions, RowsHaveAiperfsSchemaAndGrowingContexts) {
  const Config c = parse_config(kSmall);
  const auto rows = rows_of(generate(c, 20, 42));
  ASSERT_FALSE(rows.empty());
  std::map<std::string, long long> context;  // session -> context after the last row's output
  for (const json& r : rows) {
    const std::string sid = r.at("session_id");
    EXPECT_EQ(sid.size(), 17u);
    EXPECT_EQ(sid.rfind("sess-", 0), 0u);
    const long long in = r.at("input_length"), out = r.at("output_length");
    EXPECT_GE(in, 1);
    EXPECT_GE(out, 1);
    EXPECT_EQ(static_cast<long long>(r.at("hash_ids").size()), (in + 15) / 16) << r.dump();
    const bool first = !context.count(sid);
    if (first) {
      EXPECT_EQ(r.at("timestamp"), 0.0);
      EXPECT_TRUE(r.contains("group_id"));
      EXPECT_FALSE(r.contains("delay"));
    } else {
      EXPECT_GE(r.at("delay").get<double>(), 0.0);
      EXPECT_FALSE(r.contains("timestamp"));
    }
    context[sid] += in;
    EXPECT_LT(context[sid], c.max_prompt_tokens) << "every turn's whole context fits";
    context[sid] += out;
  }
  EXPECT_EQ(context.size(), 20u);
}

TEST(AgenticSessions, OneSeedGivesTheSameBytesAnotherSeedOthers) {
  const Config c;
  const std::string a = generate(c, 30, 42);
  EXPECT_EQ(a, generate(c, 30, 42));
  EXPECT_NE(a, generate(c, 30, 43));
}

TEST(AgenticSessions, MaxIslAndMaxOslCapContextsAndOutputs) {
  auto capped = agentic::apply_caps(Config{}, 60'000, 100);
  ASSERT_TRUE(capped);
  EXPECT_EQ(capped->max_prompt_tokens, 60'000);
  const auto rows = rows_of(generate(*capped, 40, 1));
  std::map<std::string, long long> context;
  for (const json& r : rows) {
    const long long out = r.at("output_length");
    EXPECT_LE(out, 100);
    EXPECT_GE(out, 30);
    context[r.at("session_id")] += r.at("input_length").get<long long>();
    EXPECT_LT(context[r.at("session_id")], 60'000);
    context[r.at("session_id")] += out;
  }
  // A cap below the generation floor lowers the floor with it.
  auto tiny = agentic::apply_caps(parse_config(kSmall), std::nullopt, 5);
  ASSERT_TRUE(tiny);
  for (const json& r : rows_of(generate(*tiny, 5, 2))) EXPECT_EQ(r.at("output_length"), 5);
}

TEST(AgenticSessions, EveryHashIdNamesBlocksOfOneSize) {
  Config c;
  c.restart_initial_probability = 0.5;  // continuations carry their parent's partial blocks
  auto s = agentic::synthesize_sessions(c, 300, 42);
  ASSERT_TRUE(s);
  const auto text = agentic::dataset_jsonl(c, *s);
  EXPECT_GT(text.renumbered_blocks, 0) << "the default mix has short L2s that end in a group block";
  std::map<long long, long long> size;
  for (const json& r : rows_of(text.jsonl)) {
    const auto& ids = r.at("hash_ids");
    const long long in = r.at("input_length");
    for (std::size_t k = 0; k < ids.size(); ++k) {
      const long long need = k + 1 == ids.size() ? in - static_cast<long long>(k) * 512 : 512;
      auto [it, fresh] = size.emplace(ids[k].get<long long>(), need);
      EXPECT_EQ(it->second, need) << "hash id " << it->first;
    }
  }
  EXPECT_EQ(check_mooncake_trace(text.jsonl, 512).problem_count, 0);
}

TEST(AgenticSessions, TurnsModeGivesTheTargetTurnCount) {
  const Config c = parse_config(
      R"({"cache": {"layer1_tokens": 64, "layer1_5_tokens": 32, "layer2": {"mean": 80, "median": 40}},
          "turns": {"mean": 4, "median": 4, "min": 4, "max": 4}, "max_prompt_tokens": 100000})");
  EXPECT_FALSE(c.reset.has_value()) << "turns mode drops the reset rule";
  auto s = agentic::synthesize_sessions(c, 10, 3);
  ASSERT_TRUE(s);
  ASSERT_EQ(s->size(), 10u);
  for (const auto& session : *s) {
    EXPECT_EQ(session.turns.size(), 4u);
    EXPECT_EQ(session.end, agentic::EndReason::kTargetTurnCount);
  }
}

TEST(AgenticSessions, RestartsAddContinuationsAfterTheirParent) {
  Config c = parse_config(kSmall);
  c.max_prompt_tokens = 100'000;
  c.reset.reset();
  c.restart_initial_probability = 1.0;
  c.restart_turn_min = 2;
  c.restart_turn_max = 3;
  auto s = agentic::synthesize_sessions(c, 20, 5);
  ASSERT_TRUE(s);
  EXPECT_GT(s->size(), 20u);
  std::map<long long, std::size_t> parent_at;
  for (std::size_t i = 0; i < s->size(); ++i) {
    const auto& session = (*s)[i];
    if (!session.restart_continuation) {
      parent_at[session.index] = i;
      continue;
    }
    ASSERT_TRUE(parent_at.count(session.index)) << "a continuation comes after its parent";
    const auto& parent = (*s)[parent_at[session.index]];
    EXPECT_EQ(parent.end, agentic::EndReason::kRestartSplit);
    EXPECT_EQ(parent.turns.size(), 2u);
    const auto& last = parent.turns.back();
    EXPECT_EQ(session.turns.front().input_length, last.input_length + last.output_length);
  }
  long long restart_rows = 0;
  for (const json& r : rows_of(agentic::dataset_jsonl(c, *s).jsonl)) {
    if (!r.contains("is_restart")) continue;
    ++restart_rows;
    EXPECT_TRUE(r.contains("group_id"));
  }
  EXPECT_EQ(restart_rows, static_cast<long long>(s->size()) - 20);
}

TEST(SynthesizeConfig, LoadsFilesManifestsAndInlineJson) {
  test_files::ScratchDir dir("ip-synth-config");
  std::string name;
  std::vector<std::string> ignored;
  auto d = load_synthesize_config("", name, &ignored);
  ASSERT_TRUE(d);
  EXPECT_EQ(name, "default");
  std::ofstream(dir / "mine.json") << R"({"max_prompt_tokens": 5000})";
  auto f = load_synthesize_config((dir / "mine.json").string(), name, &ignored);
  ASSERT_TRUE(f);
  EXPECT_EQ(name, "mine");
  EXPECT_EQ(f->max_prompt_tokens, 5000);
  std::ofstream(dir / "manifest.json")
      << json{{"seed", 1}, {"generation_params", {{"block_size", 64}}}}.dump();
  auto m = load_synthesize_config((dir / "manifest.json").string(), name, &ignored);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->block_size, 64);
  auto i = load_synthesize_config(R"({"block_size": 32})", name, &ignored);
  ASSERT_TRUE(i);
  EXPECT_EQ(name, "inline");
  EXPECT_EQ(i->block_size, 32);

  std::ofstream(dir / "bad.json") << "{\n  \"block_size\": 4,\n  oops\n}";
  auto bad = load_synthesize_config((dir / "bad.json").string(), name, &ignored);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().describe().find("invalid JSON at line 3"), std::string::npos)
      << bad.error().describe();
  auto key = load_synthesize_config(R"({"cache": {"layer1_tokens": -1}})", name, &ignored);
  ASSERT_FALSE(key);
  EXPECT_EQ(key.error().describe(),
            "--config (inline JSON): key 'cache.layer1_tokens': must be >= 0 (got -1)");
  auto manifest_key =
      load_synthesize_config(R"({"generation_params": {"block_size": 0}})", name, &ignored);
  ASSERT_FALSE(manifest_key);
  EXPECT_NE(manifest_key.error().describe().find("key 'generation_params.block_size'"),
            std::string::npos);
  EXPECT_FALSE(load_synthesize_config((dir / "missing.json").string(), name, &ignored));
}

TEST(SynthesizeCommand, TargetPositionalOrFlagAndChecks) {
  auto a = parse_synthesize_command({"agentic-code", "--num-sessions", "5", "--seed", "7"});
  ASSERT_TRUE(a.run) << a.message;
  EXPECT_EQ(a.options.target, "agentic-code");
  EXPECT_EQ(a.options.num_sessions, 5);
  EXPECT_EQ(a.options.seed, 7u);
  EXPECT_EQ(a.options.output, ".");
  auto b = parse_synthesize_command({"--target", "agentic-code", "--max-isl", "9000"});
  ASSERT_TRUE(b.run);
  EXPECT_EQ(b.options.max_isl, 9000);
  EXPECT_EQ(b.options.num_sessions, 1000);
  for (const auto& words :
       std::vector<std::vector<std::string>>{{},
                                             {"--target", "chat"},
                                             {"agentic-code", "--num-sessions", "0"},
                                             {"agentic-code", "--max-osl", "0"},
                                             {"agentic-code", "--seed", "-1"}}) {
    auto r = parse_synthesize_command(words);
    EXPECT_FALSE(r.run);
    EXPECT_EQ(r.exit_code, 2) << r.message;
  }
  EXPECT_EQ(synthesize_run_name("default", 1000, 42, 0), "default_1000s_seed42_19700101-000000");
}

}  // namespace
}  // namespace inferperf::app
