#include "sse/sse_parser.hpp"

#include <cstring>

namespace inferperf::sse {

namespace {

// The first CR or LF at or after `from`. Two vectorised memchr scans: string_view::find_first_of
// with a two-character set calls memchr once per byte of the haystack, which was a third of the
// workers' instructions per event (callgrind, docs/benchmarks.md).
std::size_t line_end(std::string_view bytes, std::size_t from) {
  const char* base = bytes.data();
  const std::size_t n = bytes.size() - from;
  const auto* lf = static_cast<const char*>(std::memchr(base + from, '\n', n));
  const std::size_t cr_span = lf ? static_cast<std::size_t>(lf - (base + from)) : n;
  const auto* cr = static_cast<const char*>(std::memchr(base + from, '\r', cr_span));
  if (cr) return static_cast<std::size_t>(cr - base);
  return lf ? static_cast<std::size_t>(lf - base) : std::string_view::npos;
}

// Empties an event, keeping its strings' memory for the next one written over it.
void empty_keeping_memory(SseEvent& e) {
  e.event.clear();
  e.data.clear();
  e.id.clear();
  e.comment.clear();
  e.fields.clear();
  e.has_data = false;
  e.borrowed = {};
  e.is_borrowed = false;
}

}  // namespace

bool SseParser::over_cap(std::size_t more) {
  if (max_event_bytes_ == 0 || event_bytes_ + line_.size() + more <= max_event_bytes_) return false;
  overflowed_ = true;
  // What was buffered is dropped at once: the memory an endless event took is given back.
  std::string().swap(line_);
  pending_ = SseEvent{};
  pending_any_ = false;
  return true;
}

void SseParser::feed(std::string_view bytes, std::vector<SseEvent>& out) {
  if (bytes.empty() || overflowed_) return;  // keeps a pending CR waiting for its LF
  std::size_t i = 0;
  if (last_was_cr_ && !bytes.empty() && bytes[0] == '\n') i = 1;  // second half of a split CRLF
  last_was_cr_ = false;
  while (i < bytes.size()) {
    if (line_.empty() && !pending_any_ && !keep_fields_) {
      // Nothing pending: an event that is one whole `data` line and its blank line (what the
      // streaming servers send per token) is cut out at once, not line by line.
      if (const std::size_t next = whole_data_event(bytes, i, out)) {
        i = next;
        continue;
      }
    }
    const std::size_t end = line_end(bytes, i);
    if (end == std::string_view::npos) {
      if (!over_cap(bytes.size() - i)) line_.append(bytes.substr(i));
      return;
    }
    if (over_cap(end - i)) return;
    if (line_.empty()) {
      process_line(bytes.substr(i, end - i), out);  // a whole line in these bytes: no copy
    } else {
      line_.append(bytes.substr(i, end - i));
      process_line(line_, out);
      line_.clear();
    }
    if (bytes[end] == '\r') {
      if (end + 1 < bytes.size()) {
        i = (bytes[end + 1] == '\n') ? end + 2 : end + 1;
      } else {
        last_was_cr_ = true;
        i = end + 1;
      }
    } else {
      i = end + 1;
    }
  }
}

std::size_t SseParser::whole_data_event(std::string_view bytes, std::size_t i,
                                        std::vector<SseEvent>& out) {
  constexpr std::string_view kField = "data:";
  const char* at = bytes.data() + i;
  const std::size_t left = bytes.size() - i;
  if (left < kField.size() + 2 || std::memcmp(at, kField.data(), kField.size()) != 0) return 0;
  const std::size_t end = line_end(bytes, i + kField.size());
  if (end == std::string_view::npos) return 0;
  // Only the two usual endings, "\n\n" and "\r\n\r\n", and only when all of it is here; anything
  // else (a bare CR, another field next, a split line end) goes line by line.
  const char* e = bytes.data() + end;
  const std::size_t after = bytes.size() - end;
  std::size_t next = 0;
  if (after >= 2 && e[0] == '\n' && e[1] == '\n') {
    next = end + 2;
  } else if (after >= 4 && e[0] == '\r' && e[1] == '\n' && e[2] == '\r' && e[3] == '\n') {
    next = end + 4;
  } else {
    return 0;
  }
  // The cap as the line-by-line path applies it (no earlier line counts: nothing is pending).
  if (max_event_bytes_ != 0 && end - i > max_event_bytes_) return 0;
  std::string_view value = bytes.substr(i + kField.size(), end - i - kField.size());
  if (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  if (reuse_slots_) {
    // The slot borrows the data from `bytes`: not copied into per-stream memory per event.
    SseEvent& slot = next_slot(out);
    empty_keeping_memory(slot);
    slot.has_data = true;
    slot.borrowed = value;
    slot.is_borrowed = true;
  } else {
    SseEvent& fresh = out.emplace_back();
    fresh.data.assign(value);
    fresh.has_data = true;
  }
  return next;
}

void SseParser::finish(std::vector<SseEvent>& out) {
  if (overflowed_) return;
  if (!line_.empty()) {
    process_line(line_, out);
    line_.clear();
  }
  if (pending_any_) dispatch(out);
  last_was_cr_ = false;
  event_bytes_ = 0;  // the event ended: a later feed's cap starts from nothing, whichever path
}

void SseParser::reset() {
  line_.clear();
  pending_ = SseEvent{};
  pending_any_ = false;
  last_was_cr_ = false;
  event_bytes_ = 0;
  overflowed_ = false;
}

void SseParser::process_line(std::string_view line, std::vector<SseEvent>& out) {
  if (line.empty()) {
    event_bytes_ = 0;
    if (pending_any_) dispatch(out);
    return;
  }
  event_bytes_ += line.size();
  std::string_view name = line;
  std::string_view value;
  if (auto colon = line.find(':'); colon != std::string_view::npos) {
    name = line.substr(0, colon);
    value = line.substr(colon + 1);
    if (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  }
  pending_any_ = true;
  if (keep_fields_) pending_.fields.emplace_back(name.empty() ? "comment" : name, value);
  if (name.empty()) {
    if (!pending_.comment.empty()) pending_.comment.push_back('\n');
    pending_.comment.append(value);
  } else if (name == "data") {
    if (pending_.has_data) pending_.data.push_back('\n');
    pending_.data.append(value);
    pending_.has_data = true;
  } else if (name == "event") {
    pending_.event.assign(value);
  } else if (name == "id") {
    pending_.id.assign(value);
  }
  // Other field names ("retry", unknown) carry nothing a benchmark needs.
}

std::size_t SseParser::refill(std::string_view bytes, std::vector<SseEvent>& out) {
  reuse_slots_ = true;
  next_slot_ = 0;
  feed(bytes, out);
  reuse_slots_ = false;
  return next_slot_;
}

void SseParser::dispatch(std::vector<SseEvent>& out) {
  pending_any_ = false;
  if (!reuse_slots_) {
    out.push_back(std::move(pending_));
    pending_ = SseEvent{};
    return;
  }
  // The slot's old strings come back as the next pending event's, emptied but with their memory.
  SseEvent& slot = next_slot(out);
  slot.event.swap(pending_.event);
  slot.data.swap(pending_.data);
  slot.id.swap(pending_.id);
  slot.comment.swap(pending_.comment);
  slot.fields.swap(pending_.fields);
  slot.has_data = pending_.has_data;
  slot.borrowed = {};  // no view of an earlier read's bytes is left behind
  slot.is_borrowed = false;
  empty_keeping_memory(pending_);
}

SseEvent& SseParser::next_slot(std::vector<SseEvent>& out) {
  if (next_slot_ == out.size()) out.emplace_back();
  return out[next_slot_++];
}

}  // namespace inferperf::sse
