// Incremental Server-Sent-Events parser: bytes in, complete events out, no I/O and no clock.
// The caller stamps each read and attributes every event cut from it to that read.
#pragma once
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace inferperf::sse {

struct SseEvent {
  std::string event;  // value of the last "event" field ("" when absent)
  std::string data;   // "data" fields joined with '\n' (empty when the data is borrowed)
  std::string id;
  std::string comment;  // comment lines (":" prefix) joined with '\n'
  bool has_data = false;
  // Every field line in arrival order as (name, value), comments named "comment"; filled only
  // when the parser was asked to keep fields (--export-level raw).
  std::vector<std::pair<std::string, std::string>> fields;
  // refill() only: the data of an event that was one whole `data:` line, left in the bytes
  // refill() was given instead of copied (valid while those bytes are).
  std::string_view borrowed;
  bool is_borrowed = false;

  // The data, borrowed or not.
  std::string_view text() const { return is_borrowed ? borrowed : std::string_view(data); }
};

class SseParser {
 public:
  // Appends every event completed by these bytes to `out`. Line ends may be LF, CRLF or CR, and
  // a CRLF may be split across two calls.
  void feed(std::string_view bytes, std::vector<SseEvent>& out);
  // As feed, but the events are written over out[0], out[1], ... (their strings' memory reused,
  // so a warm stream allocates nothing per event) and their count returned; elements past it are
  // stale. An event's data may be borrowed from `bytes` (SseEvent::text() reads it either way),
  // so the events are read before those bytes go. The streaming hot path's form.
  std::size_t refill(std::string_view bytes, std::vector<SseEvent>& out);
  // End of stream: a partial last line and any pending fields form one final event.
  void finish(std::vector<SseEvent>& out);
  void reset();
  // Also record each event's field lines in order (SseEvent::fields). Off by default.
  void keep_fields(bool on) { keep_fields_ = on; }
  // Caps one event's bytes (the bytes of its lines, line ends not counted, up to the blank line
  // that ends it): a server sending an event without end cannot make the parser buffer without
  // bound. Past the cap the parser drops what it holds, ignores every later byte and reports
  // overflowed(). 0 = no cap (the default).
  void max_event_bytes(std::size_t n) { max_event_bytes_ = n; }
  bool overflowed() const { return overflowed_; }

 private:
  void process_line(std::string_view line, std::vector<SseEvent>& out);
  void dispatch(std::vector<SseEvent>& out);
  // refill(): the slot the next event is written over (a new one past the vector's end).
  SseEvent& next_slot(std::vector<SseEvent>& out);
  // With nothing pending: when `bytes` at `i` hold one whole event that is a single `data` line
  // and its blank line, emits it and returns the offset past it; otherwise 0, nothing changed.
  std::size_t whole_data_event(std::string_view bytes, std::size_t i, std::vector<SseEvent>& out);
  // True (and the parser stopped) when the pending event plus `more` bytes would pass the cap.
  bool over_cap(std::size_t more);

  std::string line_;
  SseEvent pending_;
  bool reuse_slots_ = false;  // inside refill(): dispatch writes over out[next_slot_]
  std::size_t next_slot_ = 0;
  bool pending_any_ = false;
  bool last_was_cr_ = false;
  bool keep_fields_ = false;
  std::size_t max_event_bytes_ = 0;
  std::size_t event_bytes_ = 0;  // bytes of the pending event's complete lines
  bool overflowed_ = false;
};

}  // namespace inferperf::sse
