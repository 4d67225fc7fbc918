// Enumerated words and list items read as AIPerf 0.11 reads them (delta §1.2), and --transport
// (§1.12): every accepted spelling stores the canonical member, a wrong one exits 2 naming it.
#include "config/enum_token.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "config/cli.hpp"

namespace inferperf::config {
namespace {

using Words = std::vector<std::string>;

CliOutcome parse_words(Words extra) {
  Words args = {"profile", "-m", "x"};
  args.insert(args.end(), extra.begin(), extra.end());
  return parse_command_line(args);
}

TEST(EnumToken, NormalisesCaseSeparatorsAndEnds) {
  EXPECT_EQ(normalise_enum_token("CHAT"), "chat");
  EXPECT_EQ(normalise_enum_token("chat_embeddings"), "chat-embeddings");
  EXPECT_EQ(normalise_enum_token("__Sticky_User-Sessions--"), "sticky-user-sessions");
  EXPECT_EQ(normalise_enum_token("-_-"), "");
  EXPECT_EQ(normalise_enum_token(""), "");
  EXPECT_TRUE(same_enum_token("round-robin", "ROUND_ROBIN"));
  EXPECT_FALSE(same_enum_token("roundrobin", "round_robin"));
}

TEST(EnumToken, TrimsListItems) {
  EXPECT_EQ(trim_list_item("  a b \t"), "a b");
  EXPECT_EQ(trim_list_item(" \t "), "");
  EXPECT_EQ(trim_list_item("x"), "x");
}

TEST(EnumToken, LookupsAcceptEverySpelling) {
  EXPECT_EQ(endpoint_type_from("CHAT_EMBEDDINGS"), EndpointType::kChatEmbeddings);
  EXPECT_EQ(connection_reuse_from("STICKY_USER_SESSIONS"), ConnectionReuse::kStickyUserSessions);
  EXPECT_EQ(log_level_from("warning"), LogLevel::kWarning);
  EXPECT_EQ(url_strategy_from("round-robin"), UrlStrategy::kRoundRobin);
  EXPECT_FALSE(arrival_pattern_from("burst").has_value());
}

TEST(EnumTokenCli, EverySpellingStoresTheMember) {
  const CliOutcome chat = parse_words({"--endpoint-type", "CHAT"});
  ASSERT_EQ(chat.action, CliOutcome::Action::kProfile) << chat.message;
  EXPECT_EQ(chat.config.endpoint.type, EndpointType::kChat);
  EXPECT_EQ(parse_words({"--endpoint-type", "Chat-Embeddings"}).config.endpoint.type,
            EndpointType::kChatEmbeddings);
  EXPECT_EQ(parse_words({"--export-level", "RAW"}).config.output.export_level, ExportLevel::kRaw);
  EXPECT_EQ(parse_words({"--profile-export-level", "_Summary_"}).config.output.export_level,
            ExportLevel::kSummary);
  EXPECT_EQ(parse_words({"--url-strategy", "round-robin"}).config.endpoint.url_strategy,
            UrlStrategy::kRoundRobin);
  EXPECT_EQ(parse_words({"--connection-reuse-strategy", "sticky_user_sessions"})
                .config.endpoint.connection_reuse,
            ConnectionReuse::kStickyUserSessions);
  EXPECT_EQ(parse_words({"--model-selection-strategy", "RANDOM"}).config.endpoint.model_selection,
            ModelSelection::kRandom);
  EXPECT_EQ(
      parse_words({"--dataset-sampling-strategy", "Sequential"}).config.input.sampling_strategy,
      SamplingStrategy::kSequential);
  EXPECT_EQ(parse_words({"--log-level", "debug"}).config.log_level, LogLevel::kDebug);
  const CliOutcome none = parse_words({"--ui-type", "NONE"});
  EXPECT_EQ(none.config.ui, UiType::kNone);
  EXPECT_EQ(none.config.set_options.count("--ui-type"), 1u);
  EXPECT_EQ(parse_words({"--ui", "Simple"}).config.ui, UiType::kSimple);
}

// Options kept as text hold the member's own spelling, so the echo in the exports is canonical.
TEST(EnumTokenCli, TextOptionsHoldTheCanonicalSpelling) {
  const CliOutcome file =
      parse_words({"--input-file", "prompts.jsonl", "--custom-dataset-type", "single-turn"});
  EXPECT_EQ(file.config.input.custom_dataset_type, "single_turn") << file.message;
  EXPECT_EQ(parse_words({"--input-file", "t.jsonl", "--custom-dataset-type", "MOONCAKE-TRACE"})
                .config.input.custom_dataset_type,
            "mooncake_trace");
  EXPECT_EQ(parse_words({"--public-dataset", "ShareGPT"}).config.input.public_dataset, "sharegpt");
}

TEST(EnumTokenCli, ArrivalPatternsInAnySpelling) {
  const CliOutcome o =
      parse_words({"--request-rate", "5", "--arrival-pattern", "POISSON", "--warmup-request-count",
                   "2", "--warmup-request-rate", "2", "--warmup-arrival-pattern", "Constant"});
  ASSERT_EQ(o.action, CliOutcome::Action::kProfile) << o.message;
  EXPECT_EQ(o.config.load.arrival_pattern, ArrivalPattern::kPoisson);
  EXPECT_EQ(o.config.load.warmup.arrival_pattern, ArrivalPattern::kConstant);
}

TEST(EnumTokenCli, AWrongWordExitsTwoWithTheMembers) {
  const CliOutcome bad = parse_words({"--endpoint-type", "chatty"});
  EXPECT_EQ(bad.action, CliOutcome::Action::kExit);
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.message.find("--endpoint-type: chatty not in {chat,completions,embeddings,"),
            std::string::npos)
      << bad.message;
  const CliOutcome level = parse_words({"--export-level", "everything"});
  EXPECT_EQ(level.exit_code, 2);
  EXPECT_NE(level.message.find("--export-level: everything not in {summary,records,raw}"),
            std::string::npos)
      << level.message;
  // Only `-` and `_` are separators: other punctuation is not folded away.
  EXPECT_EQ(parse_words({"--ui-type", "non.e"}).exit_code, 2);
}

TEST(EnumTokenCli, TransportHttpOnly) {
  for (const std::string flag : {"--transport", "--transport-type"}) {
    const CliOutcome o = parse_words({flag, "HTTP"});
    ASSERT_EQ(o.action, CliOutcome::Action::kProfile) << flag << ": " << o.message;
    EXPECT_EQ(o.config.endpoint.transport, "http");
    EXPECT_EQ(o.config.set_options.count("--transport"), 1u);
  }
  EXPECT_EQ(parse_words({}).config.endpoint.transport, "http");
  const CliOutcome grpc = parse_words({"--transport", "grpc"});
  EXPECT_EQ(grpc.exit_code, 2);
  EXPECT_NE(grpc.message.find("error: --transport: 'grpc' is not a transport inferperf has (http)"),
            std::string::npos)
      << grpc.message;
}

TEST(EnumTokenCli, ListItemsAreTrimmed) {
  const CliOutcome o =
      parse_words({"-m", " a , b", "-u", " http://h1:1 ,http://h2:2 ", "--server-metrics-formats",
                   " JSON, jsonl ", "--gpu-telemetry", " NVML "});
  ASSERT_EQ(o.action, CliOutcome::Action::kProfile) << o.message;
  EXPECT_EQ(o.config.endpoint.model_names, (Words{"x", "a", "b"}));
  EXPECT_EQ(o.config.endpoint.urls, (Words{"http://h1:1", "http://h2:2"}));
  EXPECT_EQ(o.config.telemetry.server_formats, (Words{"json", "jsonl"}));
  EXPECT_TRUE(o.config.telemetry.nvml);
  const CliOutcome bad = parse_words({"--server-metrics-formats", "json, xml"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.message.find("--server-metrics-formats: unknown format 'xml' (json, csv, jsonl)"),
            std::string::npos)
      << bad.message;
}

}  // namespace
}  // namespace inferperf::config
