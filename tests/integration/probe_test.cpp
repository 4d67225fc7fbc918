// `inferperf probe` against the mock server: each behaviour the probe reports is one the mock is
// told to have (close after streams, llama.cpp timings, tokens per event, an API key), so the
// findings are checked against what is known to be true.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "process.hpp"

namespace inferperf::testing {
namespace {

using nlohmann::json;

ProcessResult probe(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {INFERPERF_BIN, "probe"};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_process(argv, std::chrono::seconds(60));
}

// The --json object (run_process interleaves stderr, which the probe leaves empty on success).
json probe_json(const std::string& url, std::vector<std::string> more = {}) {
  more.insert(more.begin(), {url, "--json"});
  const ProcessResult r = probe(more);
  EXPECT_EQ(r.exit_code, 0) << r.out;
  const auto brace = r.out.find('{');
  if (brace == std::string::npos) return json::object();
  return json::parse(r.out.substr(brace));
}

bool has_flag(const json& j, const std::string& flag) {
  const auto& flags = j.at("suggested_flags");
  return std::find(flags.begin(), flags.end(), flag) != flags.end();
}

TEST(Probe, LlamaCppLikeServer) {
  MockServerProcess mock({"--fast", "--close-after-response-delay-ms", "5",
                          "--close-only-after-streams", "--timings", "--tokens-per-event", "2"});
  const json j = probe_json(mock.url());
  EXPECT_EQ(j.at("models"), json::array({"mock-model"}));
  EXPECT_EQ(j.at("model"), "mock-model");
  EXPECT_EQ(j.at("endpoint_type"), "chat");
  EXPECT_TRUE(j.at("endpoints").at("chat").at("ok").get<bool>());
  EXPECT_EQ(j.at("endpoints").at("completions").at("status"), 200);
  const json& s = j.at("streaming");
  EXPECT_TRUE(s.at("ok").get<bool>());
  EXPECT_TRUE(s.at("usage").get<bool>());
  EXPECT_EQ(s.at("content_events"), 8);  // 16 tokens, 2 a event
  EXPECT_DOUBLE_EQ(s.at("tokens_per_event").get<double>(), 2.0);
  EXPECT_TRUE(s.at("timings").get<bool>());
  EXPECT_EQ(j.at("connection").at("closes_after_stream"), true);
  EXPECT_EQ(j.at("connection").at("closes_after_response"), false);
  EXPECT_EQ(j.at("output_length").at("ignore_eos"), true);
  EXPECT_EQ(j.at("output_length").at("min_tokens"), true);
  EXPECT_EQ(j.at("output_length").at("max_tokens"), true);
  // The mock counts the message text alone, with the builtin o200k the client also loads.
  EXPECT_EQ(j.at("prompt_offset").at("chat"), 0);
  EXPECT_EQ(j.at("prompt_offset").at("completions"), 0);
  EXPECT_EQ(j.at("prompt_offset").at("constant"), true);
  EXPECT_GT(j.at("prefix_cache").at("cached_tokens").get<int>(), 0);
  EXPECT_LE(j.at("requests").get<int>(), 12);
  EXPECT_TRUE(has_flag(j, "--extra-inputs ignore_eos:true")) << j.dump();
  EXPECT_TRUE(has_flag(j, "--streaming"));
  EXPECT_TRUE(has_flag(j, "--use-server-token-count"));
  EXPECT_TRUE(has_flag(j, "-m mock-model"));

  const ProcessResult human = probe({mock.url()});
  EXPECT_EQ(human.exit_code, 0) << human.out;
  for (const char* finding :
       {"closes the connection after streamed responses",
        "keeps the connection after non-streamed responses", "2.0 tokens per event",
        "llama.cpp timings stamped", "ignore_eos honoured", "cached", "suggested flags",
        "--extra-inputs ignore_eos:true"})
    EXPECT_NE(human.out.find(finding), std::string::npos) << finding << "\n" << human.out;
}

TEST(Probe, PlainServerKeepsItsConnections) {
  MockServerProcess mock({"--fast"});
  const json j = probe_json(mock.url(), {"--endpoint-type", "completions"});
  EXPECT_EQ(j.at("endpoints").at("chat"), nullptr);  // not probed
  EXPECT_EQ(j.at("endpoint_type"), "completions");
  EXPECT_EQ(j.at("connection").at("closes_after_stream"), false);
  EXPECT_EQ(j.at("connection").at("closes_after_response"), false);
  EXPECT_DOUBLE_EQ(j.at("streaming").at("tokens_per_event").get<double>(), 1.0);
  EXPECT_EQ(j.at("streaming").at("timings"), false);
}

// A refused key is a finding: the probe still exits 0 and says what to add.
TEST(Probe, ApiKeyRequired) {
  MockServerProcess mock({"--fast", "--api-key", "secret"});
  const json without = probe_json(mock.url());
  EXPECT_EQ(without.at("endpoints").at("chat").at("status"), 401);
  EXPECT_EQ(without.at("endpoints").at("completions").at("status"), 401);
  EXPECT_EQ(without.at("endpoint_type"), nullptr);
  EXPECT_EQ(without.at("streaming"), nullptr);
  EXPECT_TRUE(has_flag(without, "--api-key <KEY>"));

  const json with = probe_json(mock.url(), {"--api-key", "secret", "-H", "X-Probe: 1"});
  EXPECT_TRUE(with.at("endpoints").at("chat").at("ok").get<bool>()) << with.dump();
  EXPECT_EQ(with.at("model"), "mock-model");
}

TEST(Probe, UnreachableServerAndBadFlags) {
  const ProcessResult down = probe({"http://127.0.0.1:1", "--timeout", "3"});
  EXPECT_EQ(down.exit_code, 1) << down.out;
  EXPECT_NE(down.out.find("cannot reach http://127.0.0.1:1"), std::string::npos) << down.out;
  EXPECT_LT(down.wall_s, 5.0);

  for (const std::vector<std::string>& bad :
       {std::vector<std::string>{"http://127.0.0.1:1", "--bogus"},
        std::vector<std::string>{"http://127.0.0.1:1", "--endpoint-type", "embeddings"},
        std::vector<std::string>{"http://127.0.0.1:1", "--timeout", "0"},
        std::vector<std::string>{}}) {
    const ProcessResult r = probe(bad);
    EXPECT_EQ(r.exit_code, 2) << r.out;
    EXPECT_NE(r.out.find("inferperf probe: "), std::string::npos) << r.out;
  }
}

}  // namespace
}  // namespace inferperf::testing
