// Client token counts one record at a time (ClientTokenCounter, as the streamed analysis reads the
// records file) against the whole-vector count_tokens: the same counts, a later turn's input
// holding the session's earlier replies.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "app/tokenizer_setup.hpp"

namespace inferperf::app {
namespace {

// One token per space-separated word.
class WordTokenizer : public tokenizer::Tokenizer {
 public:
  std::vector<std::int32_t> encode(std::string_view text) const override {
    std::istringstream in{std::string(text)};
    std::vector<std::int32_t> ids;
    std::string w;
    while (in >> w) ids.push_back(static_cast<std::int32_t>(w.size()));
    return ids;
  }
  std::string decode(std::span<const std::int32_t>) const override { return ""; }
  std::size_t vocab_size() const override { return 1000; }
};

records::RequestRecord turn_record(const std::string& session, int turn, std::string reply) {
  records::RequestRecord r;
  r.conversation_id = session;
  r.x_correlation_id = "corr-" + session;
  r.turn_index = turn;
  r.start_ns = 1;
  r.content_events = {records::ContentEvent{2, 0, std::move(reply), ""}};
  return r;
}

TEST(ClientTokenCounter, CountsInFinishOrderAsTheWholeVectorDoes) {
  dataset::Dataset ds;
  ds.system_message = "be brief";  // 2 words
  for (const char* id : {"a", "b"}) {
    dataset::Conversation conv;
    conv.session_id = id;
    for (const char* text : {"one two three", "four five", "six"}) {
      dataset::Turn t;
      t.text = text;
      conv.turns.push_back(t);
    }
    ds.conversations.push_back(conv);
  }
  // Finish order: the sessions interleave, each turn after the one before it.
  std::vector<records::RequestRecord> recs = {
      turn_record("a", 0, "r a0 x"),   turn_record("b", 0, "r b0"), turn_record("a", 1, "r a1"),
      turn_record("b", 1, "r b1 y z"), turn_record("b", 2, "end"),  turn_record("a", 2, "end")};
  const WordTokenizer tok;
  std::vector<records::RequestRecord> whole = recs;
  count_tokens(tok, ds, whole);
  ClientTokenCounter counter(tok, ds);
  for (std::size_t i = 0; i < recs.size(); ++i) {
    counter.count_in_order(recs[i]);
    EXPECT_EQ(recs[i].client_tokens.input, whole[i].client_tokens.input) << i;
    EXPECT_EQ(recs[i].client_tokens.output, whole[i].client_tokens.output) << i;
    EXPECT_EQ(recs[i].client_tokens.per_event, whole[i].client_tokens.per_event) << i;
  }
  // a2: system (2) + turn 0 (3) + reply a0 (3) + turn 1 (2) + reply a1 (2) + turn 2 (1) = 13.
  EXPECT_EQ(recs[5].client_tokens.input, 13);
  // b1: 2 + 3 + reply b0 (2) + 2 = 9; its output "r b1 y z" is 4 tokens.
  EXPECT_EQ(recs[3].client_tokens.input, 9);
  EXPECT_EQ(recs[3].client_tokens.output, 4);
  // Both sessions reached their last turn: no reply is held any more (memory stays flat).
  EXPECT_EQ(counter.sessions_held(), 0u);
}

}  // namespace
}  // namespace inferperf::app
