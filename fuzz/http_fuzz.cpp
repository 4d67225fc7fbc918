// A response as the exchange reads it (ResponseReader: parse_response_head for the head, bodies by
// length or close handed on, ChunkedBody for chunked bodies), fed whole and cut into reads at
// arbitrary points: once the head is parsed the cuts never change the outcome. Against Beast's
// parser (the reference, tests/unit/transport/beast_response_parser.hpp), given the whole
// response: the same head (status, reason, content type, fields, keep-alive) or the same error
// for it; and whatever Beast's own decoding finishes, ours finishes with the same body, unless ours
// refused a chunk extension: a bare LF in one ends it here, where Beast lets one through inside
// quotes (docs/decisions.md, "Chunked bodies are framed by our own decoder"). (Ours may finish
// what Beast refuses: the syntax of chunk extensions and trailer fields is not checked.)
// Input: one byte picks the read sizes and the body limit; the rest is the response's bytes.
#include <cstdint>
#include <string_view>

#include "fuzz_input.hpp"
#include "transport/reader_outcome.hpp"

using inferperf::transport::testing::Outcome;
using inferperf::transport::testing::read_with_beast;
using inferperf::transport::testing::read_with_reader;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  inferperf::fuzz::FuzzInput in(data, size);
  const std::uint8_t mode = in.byte();
  const std::size_t max_read = 1 + (mode & 0x1f);
  const std::uint64_t cap = (mode & 0x80) != 0 ? 64 : 0;  // a small --max-response-bytes
  const std::string_view msg = in.rest();

  const Outcome whole = read_with_reader(msg, 0, 1, cap);
  const Outcome cut = read_with_reader(msg, max_read, 0x9e3779b9u ^ mode, cap);
  // Once the head is parsed, the cuts change nothing (a malformed head may fail sooner when more
  // of it comes at once: a head cut by reads is parsed again only once its blank line is in).
  if (whole.head_done && cut.head_done) {
    FUZZ_CHECK(whole.failed == cut.failed);
    if (!whole.failed) {
      FUZZ_CHECK(whole.done == cut.done);
      FUZZ_CHECK(whole.body == cut.body);
    }
  }
  const Outcome beast = read_with_beast(msg, cap);
  // The whole response in one read: the same head, or the same error before it.
  FUZZ_CHECK(whole.head_done == beast.head_done);
  FUZZ_CHECK(whole.head_error == beast.head_error);
  if (whole.head_done) FUZZ_CHECK(whole.head == beast.head);
  if (beast.done && !whole.extension_refused) {
    FUZZ_CHECK(whole.done);
    FUZZ_CHECK(whole.body == beast.body);
  }
  return 0;
}
