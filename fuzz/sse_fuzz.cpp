// SSE parser: any bytes, fed whole or cut into reads at arbitrary points, give the same events.
// Real reads split streams anywhere (inside a CRLF, a field name, a UTF-8 sequence), so chunking
// must never change what the collector sees.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_input.hpp"
#include "sse/sse_parser.hpp"

namespace {

using inferperf::sse::SseEvent;
using inferperf::sse::SseParser;

bool same(const std::vector<SseEvent>& a, const std::vector<SseEvent>& b, bool with_fields = true) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].event != b[i].event || a[i].data != b[i].data || a[i].id != b[i].id ||
        a[i].comment != b[i].comment || a[i].has_data != b[i].has_data ||
        (with_fields && a[i].fields != b[i].fields))
      return false;
  }
  return true;
}

std::vector<SseEvent> parse_whole(SseParser& p, std::string_view stream) {
  std::vector<SseEvent> out;
  p.feed(stream, out);
  p.finish(out);
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  inferperf::fuzz::FuzzInput in(data, size);
  const std::uint8_t mode = in.byte();
  // A small xorshift state from the second byte picks the read sizes: 1..max_chunk bytes, and
  // now and then an empty read (a read that delivered no body bytes).
  std::uint32_t state = 0x9e3779b9u ^ (static_cast<std::uint32_t>(in.byte()) << 8 | mode);
  const std::size_t max_chunk = 1 + ((mode >> 1) & 0x1f);
  const bool keep_fields = (mode & 1) != 0;
  const std::string_view stream = in.rest();

  SseParser whole;
  whole.keep_fields(keep_fields);
  const std::vector<SseEvent> expected = parse_whole(whole, stream);

  // The same cuts for feed() and for refill(), the collector's form: its events are read from
  // the reused slots before the next read (a borrowed event's data lives in the read's bytes).
  SseParser chunked, refilled;
  chunked.keep_fields(keep_fields);
  refilled.keep_fields(keep_fields);
  std::vector<SseEvent> got, slots, via_slots;
  std::size_t at = 0;
  while (at < stream.size()) {
    state ^= state << 13;
    state ^= state >> 17;
    state ^= state << 5;
    const std::size_t n =
        std::min((state % 7 == 0) ? 0 : 1 + state % max_chunk, stream.size() - at);
    chunked.feed(stream.substr(at, n), got);
    // A read buffer of its own, gone after the read (on the heap at every size, so ASan sees a
    // view kept past it).
    const auto read = std::make_unique<char[]>(n + 1);
    if (n > 0) std::memcpy(read.get(), stream.data() + at, n);
    const std::size_t events = refilled.refill(std::string_view(read.get(), n), slots);
    for (std::size_t i = 0; i < events; ++i) {
      SseEvent e = slots[i];
      e.data = std::string(e.text());
      e.borrowed = {};
      e.is_borrowed = false;
      via_slots.push_back(std::move(e));
    }
    at += n;
  }
  chunked.finish(got);
  refilled.finish(via_slots);
  FUZZ_CHECK(same(expected, got));
  FUZZ_CHECK(same(expected, via_slots));

  // A parser keeping fields reads every event line by line: where the other cuts whole events
  // out at once (SseParser::whole_data_event), the events must be the same.
  SseParser line_by_line;
  line_by_line.keep_fields(true);
  FUZZ_CHECK(same(expected, parse_whole(line_by_line, stream), /*with_fields=*/false));

  // A parser reset after a stream (the collector's restart between polls) starts clean.
  whole.feed(stream.substr(0, stream.size() / 2), got);
  whole.reset();
  FUZZ_CHECK(same(expected, parse_whole(whole, stream)));
  return 0;
}
