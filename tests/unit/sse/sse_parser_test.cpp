// SseParser: hand-written expectations per framing case, then split-invariance over one stream.
#include "sse/sse_parser.hpp"

#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <vector>

namespace inferperf::sse {
// Printing and equality for readable failures (the production struct has neither).
inline bool operator==(const SseEvent& a, const SseEvent& b) {
  return a.event == b.event && a.text() == b.text() && a.id == b.id && a.comment == b.comment &&
         a.has_data == b.has_data;
}
inline void PrintTo(const SseEvent& e, std::ostream* os) {
  *os << "{event=\"" << e.event << "\" data=\"" << e.text() << "\" id=\"" << e.id << "\" comment=\""
      << e.comment << "\" has_data=" << e.has_data << "}";
}
}  // namespace inferperf::sse

namespace {

using inferperf::sse::SseEvent;
using inferperf::sse::SseParser;

SseEvent ev(std::string data, std::string event = "", std::string id = "", std::string comment = "",
            bool has_data = true) {
  return SseEvent{std::move(event), std::move(data), std::move(id), std::move(comment), has_data};
}
SseEvent comment_only(std::string comment) {
  return ev("", "", "", std::move(comment), false);
}

std::vector<SseEvent> parse_whole(const std::string& s) {
  SseParser p;
  std::vector<SseEvent> out;
  p.feed(s, out);
  p.finish(out);
  return out;
}

struct Case {
  const char* name;
  std::string bytes;
  std::vector<SseEvent> expected;
};

const std::vector<Case>& cases() {
  static const std::vector<Case> kCases = {
      {"lf", "data: one\n\n", {ev("one")}},
      {"crlf", "event: message\r\ndata: two\r\n\r\n", {ev("two", "message")}},
      {"bare_cr", "data: three\r\r", {ev("three")}},
      {"comment", ": keep-alive\n\n", {comment_only("keep-alive")}},
      {"multi_line_data", "data: a\ndata: b\ndata:c\n\n", {ev("a\nb\nc")}},
      {"error_with_comment",
       "event: error\n: boom happened\ndata: {\"x\":1}\n\n",
       {ev("{\"x\":1}", "error", "", "boom happened")}},
      {"field_without_colon", "data\n\n", {ev("")}},
      {"id_and_one_space_stripped", "id: 42\ndata:  two spaces\n\n", {ev(" two spaces", "", "42")}},
      {"done", "data: [DONE]\n\n", {ev("[DONE]")}},
      {"leftover_at_eof", "data: tail", {ev("tail")}},
      {"two_events_one_buffer", "data: x\n\ndata: y\n\n", {ev("x"), ev("y")}},
      {"blank_lines_only", "\n\r\n\r", {}},
  };
  return kCases;
}

class SseCaseTest : public ::testing::TestWithParam<Case> {};

TEST_P(SseCaseTest, ParsesToHandWrittenEvents) {
  EXPECT_EQ(parse_whole(GetParam().bytes), GetParam().expected);
}

INSTANTIATE_TEST_SUITE_P(Framing, SseCaseTest, ::testing::ValuesIn(cases()),
                         [](const auto& tpi) { return std::string(tpi.param.name); });

TEST(SseParser, FeedDoesNotEmitUnterminatedMessage) {
  SseParser p;
  std::vector<SseEvent> out;
  p.feed("data: tail", out);
  EXPECT_TRUE(out.empty());
  p.feed("\n", out);
  EXPECT_TRUE(out.empty());  // needs the blank line
  p.finish(out);
  EXPECT_EQ(out, (std::vector<SseEvent>{ev("tail")}));
}

TEST(SseParser, ResetDropsPartialState) {
  SseParser p;
  std::vector<SseEvent> out;
  p.feed("data: stale\ndata: more", out);
  p.reset();
  p.feed("data: fresh\n\n", out);
  p.finish(out);
  EXPECT_EQ(out, (std::vector<SseEvent>{ev("fresh")}));
}

// One stream holding every case above, back to back; the message without a line end comes last.
const std::string kAllBytes =
    "data: one\n\n"
    "event: message\r\ndata: two\r\n\r\n"
    "data: three\r\r"
    ": keep-alive\n\n"
    "data: a\ndata: b\ndata:c\n\n"
    "event: error\n: boom happened\ndata: {\"x\":1}\n\n"
    "data\n\n"
    "id: 42\ndata:  two spaces\n\n"
    "retry: 10\r\ndata: after unknown field\r\n\r\n"
    "data: [DONE]\n\n"
    "\n\r\n\r"
    "data: tail";

const std::vector<SseEvent> kAllExpected = {
    ev("one"),
    ev("two", "message"),
    ev("three"),
    comment_only("keep-alive"),
    ev("a\nb\nc"),
    ev("{\"x\":1}", "error", "", "boom happened"),
    ev(""),
    ev(" two spaces", "", "42"),
    ev("after unknown field"),
    ev("[DONE]"),
    ev("tail"),
};

std::string all_bytes() {
  return kAllBytes;
}

TEST(SseParserSplit, UnsplitStreamMatchesHandWrittenExpectation) {
  EXPECT_EQ(parse_whole(all_bytes()), kAllExpected);
}

TEST(SseParserSplit, EverySingleSplitPointGivesTheSameEvents) {
  const std::string s = all_bytes();
  const auto whole = parse_whole(s);
  ASSERT_EQ(whole, kAllExpected);
  for (std::size_t cut = 0; cut <= s.size(); ++cut) {
    SseParser p;
    std::vector<SseEvent> out;
    p.feed(std::string_view(s).substr(0, cut), out);
    p.feed(std::string_view(s).substr(cut), out);
    p.finish(out);
    ASSERT_EQ(out, whole) << "split at byte " << cut;
    ASSERT_EQ(out, kAllExpected) << "split at byte " << cut;
  }
}

TEST(SseParserSplit, ByteByByteGivesTheSameEvents) {
  const std::string s = all_bytes();
  SseParser p;
  std::vector<SseEvent> out;
  for (char c : s) p.feed(std::string_view(&c, 1), out);
  p.finish(out);
  EXPECT_EQ(out, parse_whole(s));
  EXPECT_EQ(out, kAllExpected);
}

// refill(): the same events as feed at every piece size, written over the same slots each call.
TEST(SseParserSplit, RefillGivesTheSameEventsInReusedSlots) {
  const std::string s = all_bytes();
  for (std::size_t piece : {std::size_t{1}, std::size_t{3}, std::size_t{16}, s.size()}) {
    SseParser p;
    std::vector<SseEvent> slots, got;
    for (std::size_t at = 0; at < s.size(); at += piece) {
      const std::size_t n = p.refill(std::string_view(s).substr(at, piece), slots);
      ASSERT_LE(n, slots.size());
      got.insert(got.end(), slots.begin(), slots.begin() + static_cast<std::ptrdiff_t>(n));
    }
    p.finish(got);
    EXPECT_EQ(got, kAllExpected) << "pieces of " << piece;
  }
}

TEST(SseParserSplit, CrlfSplitAcrossCallsIsOneLineEnd) {
  // "a: x" is an unknown field: if the LF after the split CR were read as a blank line, an extra
  // empty event would be dispatched before "y".
  SseParser p;
  std::vector<SseEvent> out;
  p.feed("a: x\r", out);
  p.feed("\ndata: y\r\n\r\n", out);
  p.finish(out);
  EXPECT_EQ(out, (std::vector<SseEvent>{ev("y")}));
}

// PRODUCTION BUG (reported, not fixed): SseParser::feed clears last_was_cr_ even when `bytes` is
// empty, so an empty feed between the CR and the LF of one CRLF turns the LF into a blank line and
// dispatches an extra empty event. Enable once src/sse/sse_parser.cpp is fixed.
TEST(SseParserSplit, EmptyFeedBetweenCrAndLfKeepsTheCrlf) {
  SseParser p;
  std::vector<SseEvent> out;
  p.feed("a: x\r", out);
  p.feed("", out);
  p.feed("\ndata: y\r\n\r\n", out);
  p.finish(out);
  EXPECT_EQ(out, (std::vector<SseEvent>{ev("y")}));
}

// A whole one-line data event is cut out at once (SseParser::whole_data_event); everything near
// that shape must still read as the line-by-line path reads it.
TEST(SseParserWholeEvents, NearShapesReadAsLineByLine) {
  const std::vector<std::pair<std::string, std::vector<SseEvent>>> cases = {
      {"data: a\n\n", {ev("a")}},
      {"data:a\r\n\r\n", {ev("a")}},
      {"data: a\n\r\n", {ev("a")}},                // LF, then a CRLF blank line
      {"data: a\r\n\n", {ev("a")}},                // CRLF, then an LF blank line
      {"data: a\r\r", {ev("a")}},                  // bare CRs
      {"data: a\ndata: b\n\n", {ev("a\nb")}},      // a second data line
      {"data: a\nid: 4\n\n", {ev("a", "", "4")}},  // another field before the blank line
      {"retry: 5\ndata: a\n\n", {ev("a")}},        // something already pending
      {"id: 4\ndata: a\n\n", {ev("a", "", "4")}},  // a field already pending
      {"data: x\n\ndata: y\r\n\r\nevent: e\ndata: z\n\n", {ev("x"), ev("y"), ev("z", "e")}},
      {"dat: a\n\n", {ev("", "", "", "", false)}},  // an unknown field: an event without data
      {"data:\n\n", {ev("")}},
  };
  for (const auto& [bytes, expected] : cases) {
    EXPECT_EQ(parse_whole(bytes), expected) << bytes;
  }
}

// A reused slot loses what an earlier event left in it (its event name, id and comment).
TEST(SseParserWholeEvents, ReusedSlotHoldsOnlyTheNewEvent) {
  SseParser p;
  std::vector<SseEvent> slots;
  ASSERT_EQ(p.refill(": note\nevent: e\nid: 3\ndata: x\n\n", slots), 1u);
  EXPECT_EQ(slots[0], ev("x", "e", "3", "note"));
  ASSERT_EQ(p.refill("data: y\n\n", slots), 1u);
  EXPECT_EQ(slots[0], ev("y"));
}

// refill() leaves a whole one-line event's data in the bytes it was given (no copy per event);
// a slot that later holds an event read line by line reads its own data again.
TEST(SseParserWholeEvents, RefillBorrowsTheDataOfAWholeEvent) {
  SseParser p;
  std::vector<SseEvent> slots;
  const std::string whole = "data: {\"x\":1}\n\n";
  ASSERT_EQ(p.refill(whole, slots), 1u);
  EXPECT_EQ(slots[0].text(), "{\"x\":1}");
  EXPECT_EQ(slots[0].text().data(), whole.data() + 6) << "copied, not borrowed";
  EXPECT_TRUE(slots[0].data.empty());
  const std::string two_lines = "data: a\ndata: b\n\n";
  ASSERT_EQ(p.refill(two_lines, slots), 1u);
  EXPECT_EQ(slots[0].text(), "a\nb");
  std::vector<SseEvent> fed;
  p.feed(whole, fed);  // feed() copies: its events outlive the bytes
  ASSERT_EQ(fed.size(), 1u);
  EXPECT_EQ(fed[0].data, "{\"x\":1}");
  EXPECT_FALSE(fed[0].is_borrowed);
}

// A partial line waiting from the last feed is finished first: its bytes and a `data:` that
// follows make one line, not a whole event of its own.
TEST(SseParserWholeEvents, APartialLineFromTheLastFeedComesFirst) {
  SseParser p;
  std::vector<SseEvent> out;
  p.feed("x", out);
  p.feed("data: a\n\n", out);  // the line is "xdata: a": an unknown field
  p.finish(out);
  EXPECT_EQ(out, (std::vector<SseEvent>{ev("", "", "", "", false)}));
}

// An event finished at the end of a stream leaves no count behind: a parser fed again without a
// reset applies the cap to the next event alone, on either path.
TEST(SseParserWholeEvents, FinishLeavesTheCapCountEmpty) {
  SseParser p;
  p.max_event_bytes(16);
  std::vector<SseEvent> out;
  p.feed("data: 0123456789", out);  // 16 bytes, ended by finish()
  p.finish(out);
  p.feed("id: 12\ndata: 012\n\n", out);  // 6 + 9 bytes, line by line
  EXPECT_FALSE(p.overflowed());
  EXPECT_EQ(out, (std::vector<SseEvent>{ev("0123456789"), ev("012", "", "12")}));
}

// The cap counts a whole event's line as the line-by-line path does: at the cap it passes, one
// byte over it stops the parser.
TEST(SseParserWholeEvents, TheCapAppliesToAWholeEvent) {
  SseParser at_cap;
  at_cap.max_event_bytes(16);
  std::vector<SseEvent> out;
  at_cap.feed("data: 0123456789\n\n", out);
  EXPECT_FALSE(at_cap.overflowed());
  EXPECT_EQ(out, (std::vector<SseEvent>{ev("0123456789")}));
  SseParser over;
  over.max_event_bytes(16);
  out.clear();
  over.feed("data: 0123456789A\n\n", out);
  EXPECT_TRUE(over.overflowed());
  EXPECT_TRUE(out.empty());
}

// With fields kept, every event goes line by line, and its data line is kept.
TEST(SseParserWholeEvents, KeptFieldsStillRecordTheDataLine) {
  SseParser p;
  p.keep_fields(true);
  std::vector<SseEvent> out;
  p.feed("data: a\n\n", out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].fields, (std::vector<std::pair<std::string, std::string>>{{"data", "a"}}));
}

TEST(SseParserFields, KeptInArrivalOrderOnlyWhenAsked) {
  const std::string s =
      ": ping\nevent: message\nid: 7\ndata: a\ndata:b\nretry: 10\nflag\n\ndata: [DONE]\n\n";
  using Fields = std::vector<std::pair<std::string, std::string>>;
  SseParser p;
  p.keep_fields(true);
  std::vector<SseEvent> out;
  p.feed(s, out);
  p.finish(out);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].fields, (Fields{{"comment", "ping"},
                                   {"event", "message"},
                                   {"id", "7"},
                                   {"data", "a"},
                                   {"data", "b"},
                                   {"retry", "10"},
                                   {"flag", ""}}));
  EXPECT_EQ(out[0].data, "a\nb");
  EXPECT_EQ(out[1].fields, (Fields{{"data", "[DONE]"}}));
  EXPECT_TRUE(parse_whole(s)[0].fields.empty()) << "off by default";
}

// --max-sse-event-bytes: an event's lines (line ends not counted) may hold at most the cap.
TEST(SseParserCap, EventsUpToTheCapPassAndTheCapResetsPerEvent) {
  SseParser p;
  p.max_event_bytes(16);
  std::vector<SseEvent> out;
  // "data: 0123456789" is 16 bytes: exactly the cap, in one feed and in two.
  p.feed("data: 0123456789\n\ndata: 01234", out);
  p.feed("56789\n\n", out);
  p.finish(out);
  EXPECT_FALSE(p.overflowed());
  EXPECT_EQ(out, (std::vector<SseEvent>{ev("0123456789"), ev("0123456789")}));
}

TEST(SseParserCap, AnEventOverTheCapStopsTheParser) {
  SseParser p;
  p.max_event_bytes(16);
  std::vector<SseEvent> out;
  p.feed("data: ok\n\ndata: 0123\ndata: 4567\n", out);  // 10 + 10 bytes: over at the second line
  EXPECT_TRUE(p.overflowed());
  EXPECT_EQ(out, (std::vector<SseEvent>{ev("ok")}));
  // Nothing after the overflow is parsed, not even complete events.
  p.feed("\ndata: later\n\n", out);
  p.finish(out);
  EXPECT_EQ(out.size(), 1u);
  p.reset();
  EXPECT_FALSE(p.overflowed());
  p.feed("data: again\n\n", out);
  EXPECT_EQ(out.back(), ev("again"));
}

TEST(SseParserCap, AnEventWithoutEndIsNotBufferedPastTheCap) {
  // A server streaming one line forever: the parser refuses it once the cap is passed, in small
  // feeds (as socket reads deliver it) or one large one.
  SseParser p;
  p.max_event_bytes(1 << 20);
  std::vector<SseEvent> out;
  const std::string piece(16 * 1024, 'x');
  p.feed("data: ", out);
  int feeds = 0;
  while (!p.overflowed() && feeds < 1000) {
    p.feed(piece, out);
    ++feeds;
  }
  EXPECT_TRUE(p.overflowed());
  EXPECT_EQ(feeds, 64);  // 6 + 64 x 16 KiB is the first size over 1 MiB
  EXPECT_TRUE(out.empty());
  SseParser whole;
  whole.max_event_bytes(1000);
  whole.feed(std::string(5000, 'y'), out);
  EXPECT_TRUE(whole.overflowed());
  whole.finish(out);
  EXPECT_TRUE(out.empty()) << "finish() must not dispatch the refused event";
}

TEST(SseParserCap, ZeroMeansNoCap) {
  SseParser p;
  std::vector<SseEvent> out;
  p.feed("data: " + std::string(100000, 'z') + "\n\n", out);
  EXPECT_FALSE(p.overflowed());
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].data.size(), 100000u);
}

}  // namespace
