// Records-file lines (`inferperf analyze` reads folders users hand it): record_from_line on any
// bytes either refuses with a message or gives a record; the records writer's line for that record
// reads back, and writing it again gives the same bytes (nothing the reader accepts is written in
// a form it cannot read, or read differently a second time).
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_input.hpp"
#include "records/record_jsonl.hpp"
#include "records/record_line.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using inferperf::records::append_record_line;
  using inferperf::records::record_from_line;
  const inferperf::fuzz::FuzzInput in(data, size);
  const auto r = record_from_line(in.rest());
  if (!r) {
    FUZZ_CHECK(!r.error().message.empty());
    return 0;
  }
  // The reader's anchor: monotonic values equal the wall values.
  const inferperf::core::WallAnchor same{0, 0};
  std::string first;
  append_record_line(*r, same, first);
  const auto back = record_from_line(first);
  FUZZ_CHECK(back.ok());
  std::string second;
  append_record_line(*back, same, second);
  FUZZ_CHECK(first == second);
  return 0;
}
