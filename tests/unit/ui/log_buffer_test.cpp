#include "ui/log_buffer.hpp"

#include <gtest/gtest.h>
#include <spdlog/details/log_msg.h>

namespace inferperf::ui {
namespace {

TEST(LogBuffer, KeepsTheLastLinesOldestFirst) {
  LogBuffer b(3);
  for (int i = 1; i <= 5; ++i) b.push("line " + std::to_string(i));
  EXPECT_EQ(b.tail(10), (std::vector<std::string>{"line 3", "line 4", "line 5"}));
  EXPECT_EQ(b.tail(2), (std::vector<std::string>{"line 4", "line 5"}));
  EXPECT_TRUE(b.tail(0).empty());
}

TEST(LogBuffer, TheSinkFormatsAndSplitsMessagesIntoLines) {
  auto buffer = std::make_shared<LogBuffer>();
  auto sink = make_log_sink(buffer);
  sink->set_pattern("%l %v");
  sink->log(spdlog::details::log_msg("x", spdlog::level::warn, "first\r\nsecond"));
  sink->log(spdlog::details::log_msg("x", spdlog::level::info, "third"));
  EXPECT_EQ(buffer->tail(10), (std::vector<std::string>{"warning first", "second", "info third"}));
}

}  // namespace
}  // namespace inferperf::ui
