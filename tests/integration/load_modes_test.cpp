// Every load mode against the mock server: counts checked with the mock's request counter, caps
// with its max-in-flight gauge, sessions and warmup through the exported records.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "process.hpp"

namespace inferperf::testing {
namespace {

using nlohmann::json;

json summary(const std::string& dir) {
  return json::parse(read_file(dir + "/profile_export_aiperf.json"));
}

std::vector<json> records(const std::string& dir) {
  std::vector<json> out;
  std::ifstream in(dir + "/profile_export.jsonl");
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) out.push_back(json::parse(line));
  }
  return out;
}

ProcessResult profile(const MockServerProcess& mock, const std::string& dir,
                      std::vector<std::string> extra) {
  std::vector<std::string> args = {INFERPERF_BIN, "profile",        "-m", "mock-model", "-u",
                                   mock.url(),    "--artifact-dir", dir,  "--isl",      "16"};
  // AIPerf 0.11 refuses --isl with an input file (the rows give the prompts).
  if (std::find(extra.begin(), extra.end(), "--input-file") != extra.end())
    args.resize(args.size() - 2);
  args.insert(args.end(), extra.begin(), extra.end());
  return run_process(args, std::chrono::seconds(90));
}

TEST(LoadModes, ConstantRateSendsTheCountAtTheRate) {
  MockServerProcess mock({"--fast"});
  const std::string dir = make_temp_dir("ip-rate-");
  auto r = profile(mock, dir,
                   {"--request-rate", "40", "--arrival-pattern", "constant", "--request-count",
                    "20", "--random-seed", "1"});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(mock.metric("inferperf_mock_requests_total"), 20);
  const json j = summary(dir);
  EXPECT_EQ(j["request_count"]["avg"].get<double>(), 20.0);
  EXPECT_EQ(j["dropped_arrival_count"].get<int>(), 0);
  // 20 arrivals 25 ms apart, the first one interval in: sending spans 475 ms. The first request
  // also opens the first connection, and under a sanitizer on a busy machine it started 5 ms late
  // (0.4697 s, a clean-clone CI run of 2026-12-06) while the later ones kept the grid: less than
  // one interval short is still the rate.
  EXPECT_GE(j["benchmark_duration"]["avg"].get<double>(), 0.45);
  EXPECT_LT(j["benchmark_duration"]["avg"].get<double>(), 2.0);
  EXPECT_EQ(j["input_config"]["phases"].back()["type"], "constant");
  EXPECT_EQ(j["input_config"]["phases"].back()["rate"], 40.0);
  EXPECT_NE(r.out.find("profiling: 40 req/s constant"), std::string::npos) << r.out;
}

TEST(LoadModes, ConcurrencyIsACeilingUnderARateAndExcessArrivalsAreDropped) {
  MockServerProcess mock({"--ttft", "150", "--itl", "1"});
  const std::string dir = make_temp_dir("ip-ceiling-");
  auto r = profile(mock, dir,
                   {"--request-rate", "100", "--arrival-pattern", "constant", "--concurrency", "2",
                    "--benchmark-duration", "0.6", "--benchmark-grace-period", "5", "--streaming",
                    "--osl", "2", "--extra-inputs", "ignore_eos:true"});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_LE(mock.metric("inferperf_mock_max_in_flight"), 2);
  const json j = summary(dir);
  const auto sent = mock.metric("inferperf_mock_requests_total");
  EXPECT_EQ(static_cast<long long>(j["request_count"]["avg"].get<double>()), sent);
  EXPECT_GT(j["dropped_arrival_count"].get<int>(), 20) << "~60 arrivals, at most ~8 fit";
  EXPECT_LE(sent, 10);
}

TEST(LoadModes, MultiTurnSessionsCarryTheirHistoryOnOneSession) {
  MockServerProcess mock({"--fast"});
  const std::string dir = make_temp_dir("ip-sessions-");
  auto r = profile(mock, dir,
                   {"--streaming", "--concurrency", "2", "--num-sessions", "3",
                    "--conversation-turn-mean", "3", "--conversation-turn-delay-mean", "30",
                    "--osl", "6", "--extra-inputs", "ignore_eos:true", "--use-server-token-count"});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(mock.metric("inferperf_mock_requests_total"), 9);
  EXPECT_LE(mock.metric("inferperf_mock_max_in_flight"), 2);
  std::map<std::string, std::map<int, json>> sessions;
  for (const auto& rec : records(dir)) {
    sessions[rec["metadata"]["x_correlation_id"]][rec["metadata"]["turn_index"].get<int>()] = rec;
  }
  ASSERT_EQ(sessions.size(), 3u);
  for (const auto& [id, turns] : sessions) {
    ASSERT_EQ(turns.size(), 3u) << id;
    std::set<std::string> conversations;
    double previous_isl = 0;
    std::int64_t previous_end = 0;
    for (const auto& [k, rec] : turns) {
      conversations.insert(rec["metadata"]["conversation_id"]);
      // The server counts the whole request: every earlier turn and reply is in it.
      const double isl = rec["metrics"]["input_sequence_length"]["value"].get<double>();
      EXPECT_GE(isl, previous_isl + 16 + (k > 0 ? 6 : 0)) << id << " turn " << k;
      previous_isl = isl;
      const auto start = rec["metadata"]["request_start_ns"].get<std::int64_t>();
      if (k > 0) {
        EXPECT_GE(start - previous_end, 29'000'000) << "the turn delay was honoured";
      }
      previous_end = rec["metadata"]["request_end_ns"].get<std::int64_t>();
    }
    EXPECT_EQ(conversations.size(), 1u);
  }
}

// A reply that makes a tool call is threaded into the session's next turn as an assistant message
// with the call (the worker keeps a reply only for a turn that threads it). The server is a fake
// that answers every request with one tool call.
TEST(LoadModes, AToolCallReplyIsThreadedIntoTheNextTurn) {
  const json reply = {
      {"id", "chatcmpl-1"},
      {"object", "chat.completion"},
      {"created", 1},
      {"model", "mock-model"},
      {"choices",
       {{{"index", 0},
         {"message",
          {{"role", "assistant"},
           {"content", "Let me look."},
           {"tool_calls",
            {{{"id", "call_a"},
              {"type", "function"},
              {"function", {{"name", "sh"}, {"arguments", "{\"cmd\":\"ls\"}"}}}}}}}},
         {"finish_reason", "tool_calls"}}}},
      {"usage", {{"prompt_tokens", 5}, {"completion_tokens", 3}, {"total_tokens", 8}}}};
  FakeHttpServer server([&](const FakeHttpRequest&) { return FakeHttpReply{200, reply.dump()}; });
  const std::string dir = make_temp_dir("ip-tool-turns-");
  auto r = run_process({INFERPERF_BIN, "profile", "-m", "mock-model", "-u",
                        "http://127.0.0.1:" + std::to_string(server.port()), "--artifact-dir", dir,
                        "--isl", "16", "--num-sessions", "1", "--conversation-turn-mean", "2",
                        "--no-server-metrics", "--ui-type", "none"},
                       std::chrono::seconds(60));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  // The run's two turns are the last two chat requests (a probe before the run may send one).
  std::vector<json> turns;
  for (const FakeHttpRequest& q : server.requests()) {
    if (q.method == "POST" && q.target == "/v1/chat/completions")
      turns.push_back(json::parse(q.body));
  }
  ASSERT_GE(turns.size(), 2u) << r.out;
  EXPECT_EQ(turns[turns.size() - 2]["messages"].size(), 1u) << turns[turns.size() - 2];
  const json& messages = turns.back()["messages"];
  ASSERT_GE(messages.size(), 3u) << messages;
  const json& assistant = messages[1];
  EXPECT_EQ(assistant["role"], "assistant") << messages;
  EXPECT_EQ(assistant["content"], "Let me look.") << messages;
  ASSERT_EQ(assistant["tool_calls"].size(), 1u) << messages;
  EXPECT_EQ(assistant["tool_calls"][0]["id"], "call_a");
  EXPECT_EQ(assistant["tool_calls"][0]["function"]["arguments"], "{\"cmd\":\"ls\"}");
}

TEST(LoadModes, WarmupIsSentButExcludedFromResults) {
  MockServerProcess mock({"--fast"});
  const std::string dir = make_temp_dir("ip-warmup-");
  auto r = profile(mock, dir,
                   {"--concurrency", "2", "--request-count", "7", "--warmup-request-count", "5"});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(mock.metric("inferperf_mock_requests_total"), 12);
  EXPECT_EQ(summary(dir)["request_count"]["avg"].get<double>(), 7.0);
  const auto recs = records(dir);
  EXPECT_EQ(recs.size(), 7u);
  for (const auto& rec : recs) EXPECT_EQ(rec["metadata"]["benchmark_phase"], "profiling");
  EXPECT_NE(r.out.find("warmup: concurrency 2, 5 requests"), std::string::npos) << r.out;
}

TEST(LoadModes, CancelledRequestsAreErrorRecords) {
  MockServerProcess mock({"--ttft", "400", "--itl", "1"});
  const std::string dir = make_temp_dir("ip-cancel-");
  auto r = profile(mock, dir,
                   {"--streaming", "--concurrency", "2", "--request-count", "4",
                    "--request-cancellation-rate", "100", "--request-cancellation-delay", "0.05"});
  EXPECT_EQ(r.exit_code, 1) << "no valid record: " << r.out;
  EXPECT_EQ(mock.metric("inferperf_mock_requests_total"), 4);
  const json j = summary(dir);
  ASSERT_EQ(j["error_summary"].size(), 1u) << j["error_summary"].dump();
  EXPECT_EQ(j["error_summary"][0]["error_details"]["type"], "RequestCancellationError");
  EXPECT_EQ(j["error_summary"][0]["error_details"]["code"], 499);
  EXPECT_EQ(j["error_summary"][0]["count"], 4);
  EXPECT_EQ(j["was_cancelled"], false) << "the benchmark itself was not cancelled";
}

TEST(LoadModes, PrefillConcurrencyLetsOneRequestPrefillAtATime) {
  MockServerProcess mock({"--ttft", "60", "--itl", "5"});
  const std::string dir = make_temp_dir("ip-prefill-");
  auto r = profile(mock, dir,
                   {"--streaming", "--concurrency", "4", "--prefill-concurrency", "1",
                    "--request-count", "6", "--osl", "3", "--extra-inputs", "ignore_eos:true"});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  auto recs = records(dir);
  ASSERT_EQ(recs.size(), 6u);
  std::vector<std::pair<std::int64_t, std::int64_t>> spans;  // (start, first token)
  for (const auto& rec : recs) {
    const auto start = rec["metadata"]["request_start_ns"].get<std::int64_t>();
    const double ttft_ms = rec["metrics"]["time_to_first_token"]["value"].get<double>();
    spans.emplace_back(start, start + static_cast<std::int64_t>(ttft_ms * 1e6));
  }
  std::sort(spans.begin(), spans.end());
  for (std::size_t i = 1; i < spans.size(); ++i) {
    EXPECT_GE(spans[i].first, spans[i - 1].second - 1'000'000)
        << "a request starts only after the previous one's first token";
  }
}

TEST(LoadModes, PoissonRateRunsForADuration) {
  MockServerProcess mock({"--fast"});
  const std::string dir = make_temp_dir("ip-poisson-");
  auto r = profile(mock, dir,
                   {"--request-rate", "60", "--benchmark-duration", "1", "--random-seed", "5",
                    "--request-rate-ramp-duration", "0.5"});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const auto sent = mock.metric("inferperf_mock_requests_total");
  EXPECT_GT(sent, 15);
  EXPECT_LT(sent, 80);
  EXPECT_EQ(static_cast<long long>(summary(dir)["request_count"]["avg"].get<double>()), sent);
}

std::string write_file(const std::string& dir, const std::string& name, const std::string& text) {
  const std::string path = dir + "/" + name;
  std::ofstream(path) << text;
  return path;
}

TEST(LoadModes, FixedScheduleReplaysTimestamps) {
  MockServerProcess mock({"--fast"});
  const std::string dir = make_temp_dir("ip-fixed-");
  const std::string trace = write_file(dir, "trace.jsonl",
                                       "{\"text\": \"first prompt\", \"timestamp\": 5000}\n"
                                       "{\"text\": \"third prompt\", \"timestamp\": 5400}\n"
                                       "{\"text\": \"second prompt\", \"timestamp\": 5200}\n"
                                       "{\"text\": \"too late\", \"timestamp\": 9000}\n");
  auto r = profile(mock, dir + "/out",
                   {"--input-file", trace, "--fixed-schedule", "--fixed-schedule-auto-offset",
                    "--fixed-schedule-end-offset", "6000", "--osl", "3"});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(mock.metric("inferperf_mock_requests_total"), 3) << "the end offset drops one";
  auto recs = records(dir + "/out");
  ASSERT_EQ(recs.size(), 3u);
  std::vector<std::int64_t> starts;
  for (const auto& rec : recs)
    starts.push_back(rec["metadata"]["request_start_ns"].get<std::int64_t>());
  std::sort(starts.begin(), starts.end());
  // Scheduling slack: one late wake on a loaded machine (three times more under sanitizers).
  const double slack_ms = INFERPERF_SANITIZER_BUILD ? 75.0 : 25.0;
  EXPECT_NEAR((starts[1] - starts[0]) / 1e6, 200.0, slack_ms);
  EXPECT_NEAR((starts[2] - starts[0]) / 1e6, 400.0, slack_ms);
  const json j = summary(dir + "/out");
  EXPECT_EQ(j["input_config"]["phases"].back()["type"], "fixed_schedule");
  EXPECT_LT(j["schedule_lag"]["max"].get<double>(), slack_ms);
}

TEST(LoadModes, MultiTurnFileRunsSessionsInOrder) {
  MockServerProcess mock({"--fast"});
  const std::string dir = make_temp_dir("ip-multiturn-file-");
  const std::string file =
      write_file(dir, "chat.jsonl",
                 "{\"session_id\": \"a\", \"turns\": [{\"text\": \"hi\"}, {\"text\": \"more\", "
                 "\"delay\": 50}]}\n"
                 "{\"session_id\": \"b\", \"turns\": [{\"text\": \"solo\"}]}\n");
  auto r = profile(mock, dir + "/out",
                   {"--input-file", file, "--concurrency", "1", "--num-sessions", "2"});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(mock.metric("inferperf_mock_requests_total"), 3);
  auto recs = records(dir + "/out");
  ASSERT_EQ(recs.size(), 3u);
  std::map<std::string, int> turns;
  for (const auto& rec : recs) ++turns[rec["metadata"]["conversation_id"]];
  EXPECT_EQ(turns["a"], 2);
  EXPECT_EQ(turns["b"], 1);
}

TEST(LoadModes, SeveralModelsAreTargetedRoundRobinOrAtRandom) {
  MockServerProcess mock({"--fast"});
  for (const std::string strategy : {"round_robin", "random"}) {
    const std::string dir = make_temp_dir("ip-models-");
    auto r = run_process({INFERPERF_BIN,
                          "profile",
                          "-m",
                          "mock-a,mock-b",
                          "-m",
                          "mock-c",
                          "-u",
                          mock.url(),
                          "--artifact-dir",
                          dir,
                          "--isl",
                          "8",
                          "--num-dataset-entries",
                          "12",
                          "--request-count",
                          "4",
                          "--model-selection-strategy",
                          strategy,
                          "--random-seed",
                          "2"},
                         std::chrono::seconds(60));
    ASSERT_EQ(r.exit_code, 0) << r.out;
    const json inputs = json::parse(read_file(dir + "/inputs.json"));
    std::vector<std::string> models;
    for (const auto& entry : inputs["data"]) models.push_back(entry["payloads"][0]["model"]);
    ASSERT_EQ(models.size(), 12u);
    if (strategy == "round_robin") {
      for (std::size_t i = 0; i < models.size(); ++i)
        EXPECT_EQ(models[i], (std::vector<std::string>{"mock-a", "mock-b", "mock-c"})[i % 3]);
    } else {
      EXPECT_GE(std::set<std::string>(models.begin(), models.end()).size(), 2u);
    }
    EXPECT_EQ(summary(dir)["input_config"]["models"]["items"].size(), 3u);
  }
}

// Connections opened, as the mock counts them, for each reuse strategy: 4 sessions of 2 turns at
// concurrency 2, on one worker and on two (one where only one CPU is usable). Each worker has its
// own pool and a session's later turns go to the worker holding its history; among workers with
// as many requests in flight, a new session goes to the one with fewer open sessions
// (WorkerPool::route), so here two workers open no more than one does. (When such a tie went
// round-robin, a worker could take a new session and its own session's next turn at once and open
// a third connection: seen once in a sanitizer build.)
TEST(LoadModes, ConnectionReuseStrategies) {
  for (const char* workers : {"1", "2"}) {
    for (const auto& [strategy, expected] : std::vector<std::pair<std::string, long long>>{
             {"pooled", 2}, {"never", 8}, {"sticky-user-sessions", 4}}) {
      MockServerProcess mock({"--fast"});
      const std::string dir = make_temp_dir("ip-reuse-");
      auto r = profile(mock, dir,
                       {"--concurrency", "2", "--num-sessions", "4", "--conversation-turn-mean",
                        "2", "--connection-reuse-strategy", strategy, "--no-server-metrics",
                        "--workers-max", workers});
      ASSERT_EQ(r.exit_code, 0) << r.out;
      // Read first: every /metrics request is a connection of its own, counted before it is
      // served; the preflight request had one more of its own, and the server_info.json probe one
      // more.
      EXPECT_EQ(mock.metric("inferperf_mock_connections_total") - 3, expected)
          << strategy << ", workers " << workers;
      EXPECT_EQ(mock.metric("inferperf_mock_requests_total"), 8) << strategy;
    }
  }
}

std::vector<json> raw_records(const std::string& dir) {
  std::vector<json> out;
  std::ifstream in(dir + "/inferperf_records.jsonl");
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) out.push_back(json::parse(line));
  }
  return out;
}

TEST(LoadModes, UserCentricUsersKeepTheirTurnGap) {
  // 4 users at 20 req/s: each user's turns are 0.2 s apart; 3-turn sessions.
  MockServerProcess mock({"--fast"});
  const std::string dir = make_temp_dir("ip-users-");
  auto r = profile(mock, dir,
                   {"--user-centric-rate", "20", "--num-users", "4", "--session-turns-mean", "3",
                    "--request-count", "16", "--random-seed", "3"});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(mock.metric("inferperf_mock_requests_total"), 16);
  EXPECT_NE(r.out.find("user-centric 20 req/s over 4 users"), std::string::npos) << r.out;
  std::map<std::string, std::vector<std::int64_t>> intended;  // per session, in turn order
  std::int64_t first = INT64_MAX, last = 0;
  for (const auto& rec : raw_records(dir)) {
    EXPECT_FALSE(rec.contains("error")) << rec.dump();
    const auto t = rec["intended_ns"].get<std::int64_t>();
    auto& turns = intended[rec["x_correlation_id"]];
    const auto k = rec["turn_index"].get<std::size_t>();
    if (turns.size() <= k) turns.resize(k + 1);
    turns[k] = t;
    first = std::min(first, t);
    last = std::max(last, t);
  }
  EXPECT_GE(intended.size(), 5u) << "virtual history: some users start part way through";
  for (const auto& [id, turns] : intended) {
    EXPECT_LE(turns.size(), 3u);
    for (std::size_t k = 1; k < turns.size(); ++k) {
      EXPECT_GE(turns[k] - turns[k - 1], 199'000'000) << id << " turn " << k;
    }
  }
  // 16 requests at 20 req/s: the due times span 15 intervals of 50 ms.
  // (Slow replies under sanitizers may push later turns out a little.)
  EXPECT_GE(static_cast<double>(last - first) / 1e9, 0.74);
  EXPECT_LT(static_cast<double>(last - first) / 1e9, 1.2);
}

TEST(LoadModes, SessionsSpreadOverSeveralUrlsAndKeepTheirs) {
  MockServerProcess a({"--fast"});
  MockServerProcess b({"--fast"});
  const std::string dir = make_temp_dir("ip-urls-");
  // 3 two-turn sessions: 1st and 3rd on a, 2nd on b, every turn with its session.
  auto r = profile(a, dir,
                   {"-u", b.url(), "--url-strategy", "round_robin", "--concurrency", "1",
                    "--num-sessions", "3", "--conversation-turn-mean", "2"});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(a.metric("inferperf_mock_requests_total"), 4);
  EXPECT_EQ(b.metric("inferperf_mock_requests_total"), 2);
  EXPECT_EQ(summary(dir)["request_count"]["avg"].get<double>(), 6.0);
}

TEST(LoadModes, BadInputFileIsExitTwoNamingTheLine) {
  MockServerProcess mock({"--fast"});
  const std::string dir = make_temp_dir("ip-badfile-");
  const std::string file = write_file(dir, "bad.jsonl", "{\"text\": \"ok\"}\n{\"text\": 7}\n");
  auto r = profile(mock, dir + "/out", {"--input-file", file});
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find(file + ":2: field 'text'"), std::string::npos) << r.out;
  EXPECT_EQ(mock.metric("inferperf_mock_requests_total"), 0);
}

}  // namespace
}  // namespace inferperf::testing
