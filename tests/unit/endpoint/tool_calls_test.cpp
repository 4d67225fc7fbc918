// Tool calls across turns: fragments merged by index, the assistant message the history carries.
#include "endpoint/tool_calls.hpp"

#include <gtest/gtest.h>

namespace {

using inferperf::endpoint::assistant_history_message;
using inferperf::endpoint::assistant_history_turn;
using inferperf::endpoint::merge_tool_call_fragments;
using inferperf::endpoint::ToolCallDelta;

TEST(ToolCalls, FragmentsMergeByIndex) {
  std::vector<ToolCallDelta> calls;
  EXPECT_EQ(merge_tool_call_fragments(calls, {{0, "call_a", "sh", "{\"cmd\""}}), 6u);
  EXPECT_EQ(merge_tool_call_fragments(calls, {{0, "", "", ":\"ls\"}"}, {1, "", "cat", "{}"}}), 8u);
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_EQ(calls[0].id, "call_a");
  EXPECT_EQ(calls[0].name, "sh");
  EXPECT_EQ(calls[0].arguments, "{\"cmd\":\"ls\"}");
  EXPECT_EQ(calls[1].name, "cat");
}

TEST(ToolCalls, TheHistoryMessageIsOpenAisAssistantMessage) {
  const std::vector<ToolCallDelta> calls{{1, "", "cat", "{}"}};
  EXPECT_EQ(assistant_history_message("", calls).dump(),
            R"({"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function",)"
            R"("function":{"name":"cat","arguments":"{}"}}]})");
  EXPECT_EQ(assistant_history_message("Let me look.", calls)["content"], "Let me look.");
}

TEST(ToolCalls, TheHistoryTurnIsTheTextWithoutCalls) {
  EXPECT_FALSE(assistant_history_turn("", "", {}).has_value());
  const auto plain = assistant_history_turn("hi", "hi", {});
  ASSERT_TRUE(plain.has_value());
  EXPECT_EQ(plain->role, "assistant");
  EXPECT_EQ(plain->text, "hi");
  EXPECT_EQ(plain->messages, nullptr);

  const auto with_calls = assistant_history_turn("{}", "", {{0, "c", "cat", "{}"}});
  ASSERT_TRUE(with_calls.has_value());
  EXPECT_EQ(with_calls->text, "");
  ASSERT_NE(with_calls->messages, nullptr);
  ASSERT_EQ(with_calls->messages->size(), 1u);
  EXPECT_EQ((*with_calls->messages)[0]["tool_calls"][0]["id"], "c");
}

}  // namespace
