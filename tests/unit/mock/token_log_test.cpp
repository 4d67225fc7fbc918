// The mock's --token-log writer (apps/mock-server/token_log.hpp).
#include "token_log.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

namespace {

using namespace inferperf::mock;

std::vector<std::string> lines_of(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> out;
  for (std::string l; std::getline(in, l);)
    if (!l.empty()) out.push_back(l);
  return out;
}

std::string temp_path(const char* name) {
  const auto p = std::filesystem::temp_directory_path() /
                 (std::string(name) + "-" + std::to_string(::getpid()) + ".jsonl");
  std::filesystem::remove(p);
  return p.string();
}

TEST(MockTokenLog, LineIsJsonWithEscapedIdOrNull) {
  const auto a = nlohmann::json::parse(token_log_line("a\"b", 7, {10, 20, 30}));
  EXPECT_EQ(a["x_request_id"], "a\"b");
  EXPECT_EQ(a["received_ns"], 7);
  EXPECT_EQ(a["writes_ns"], nlohmann::json::array({10, 20, 30}));
  const auto b = nlohmann::json::parse(token_log_line(std::nullopt, 1, {}));
  EXPECT_TRUE(b["x_request_id"].is_null());
  EXPECT_TRUE(b["writes_ns"].empty());
}

// Lines from several threads all reach the file, whole, by the time the log is destroyed; the
// periodic flush writes them out while it is still open.
TEST(MockTokenLog, EveryLineFromEveryThreadIsWritten) {
  const std::string path = temp_path("token-log-threads");
  {
    TokenLog log(path, 20);
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
      threads.emplace_back([&log, t] {
        for (int i = 0; i < 1000; ++i)
          log.append(token_log_line("t" + std::to_string(t), i, {i, i + 1}));
      });
    }
    for (auto& th : threads) th.join();
    log.append(token_log_line("late", 0, {}));
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (lines_of(path).size() < 4001 && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    EXPECT_EQ(lines_of(path).size(), 4001U) << "the background flush";
    log.append(token_log_line("at-exit", 0, {}));
  }
  const auto lines = lines_of(path);
  ASSERT_EQ(lines.size(), 4002U);
  std::vector<int> per_thread(4, 0);
  for (const auto& l : lines) {
    const auto j = nlohmann::json::parse(l);
    const auto id = j["x_request_id"].get<std::string>();
    if (id.size() == 2 && id[0] == 't') ++per_thread[static_cast<std::size_t>(id[1] - '0')];
  }
  EXPECT_EQ(per_thread, std::vector<int>(4, 1000));
  EXPECT_EQ(nlohmann::json::parse(lines.back())["x_request_id"], "at-exit");
  std::filesystem::remove(path);
}

TEST(MockTokenLog, UnwritablePathThrows) {
  EXPECT_THROW(TokenLog("/nonexistent-dir/x/tokens.jsonl"), std::runtime_error);
}

}  // namespace
