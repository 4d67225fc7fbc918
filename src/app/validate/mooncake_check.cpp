#include "app/validate/mooncake_check.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <unordered_map>
#include <unordered_set>

#include "core/error.hpp"
#include "dataset/input_file.hpp"
#include "dataset/prompt_blocks.hpp"

namespace inferperf::app {

namespace {

using tjson = nlohmann::ordered_json;

// The row's input form; a session's rows must share one (the loader's rule).
enum class TraceForm { kSynthesized, kHistoryMessages, kDeltaMessages, kPayload };

const char* trace_form_name(TraceForm f) {
  switch (f) {
    case TraceForm::kSynthesized:
      return "input_length/text_input";
    case TraceForm::kHistoryMessages:
      return "messages (history mode)";
    case TraceForm::kDeltaMessages:
      return "messages (delta mode)";
    case TraceForm::kPayload:
      return "payload";
  }
  return "";
}

class TraceLine {
 public:
  TraceLine(const tjson& j, int line, TraceCheck& out, std::size_t max_listed)
      : j_(j), line_(line), out_(out), max_(max_listed) {}

  const tjson* get(std::string_view k) const {
    const auto it = j_.find(k);
    return it == j_.end() || it->is_null() ? nullptr : &*it;
  }
  void problem(std::string field, std::string message) {
    ++out_.problem_count;
    if (out_.problems.size() < max_)
      out_.problems.push_back({line_, std::move(field), std::move(message)});
  }
  // An integer (12.0 counts as 12) of at least `min`; nullopt when absent or wrong.
  std::optional<long long> integer(std::string_view k, long long min) {
    const tjson* v = get(k);
    if (!v) return std::nullopt;
    long long x = 0;
    const double d = v->is_number_float() ? v->get<double>() : 0.5;
    if (v->is_number_integer()) {
      x = v->get<long long>();
    } else if (d == std::floor(d) && std::fabs(d) < 9.2e18) {
      x = static_cast<long long>(d);  // 12.0 counts as 12
    } else {
      problem(std::string(k), "must be an integer, got " + describe(*v));
      return std::nullopt;
    }
    if (x >= min) return x;
    problem(std::string(k), fmt::format("must be at least {}, got {}", min, x));
    return std::nullopt;
  }
  std::optional<double> number(std::string_view k) {
    const tjson* v = get(k);
    if (!v) return std::nullopt;
    if (!v->is_number() || !std::isfinite(v->get<double>()) || v->get<double>() < 0) {
      problem(std::string(k), "must be a number of milliseconds >= 0, got " + describe(*v));
      return std::nullopt;
    }
    return v->get<double>();
  }
  bool is(std::string_view k, bool ok, const char* want) {
    const tjson* v = get(k);
    if (!v || ok) return v != nullptr;
    problem(std::string(k), fmt::format("must be {}, got {}", want, describe(*v)));
    return false;
  }
  int line() const { return line_; }
  static std::string describe(const tjson& v) {
    return v.is_number() || v.is_boolean() ? v.dump() : dataset::json_type_name(v);
  }

 private:
  const tjson& j_;
  int line_;
  TraceCheck& out_;
  std::size_t max_;
};

struct TraceState {
  std::unordered_map<std::string, std::pair<TraceForm, int>> sessions;  // id -> form, first line
  std::unordered_set<long long> ids;
  std::optional<double> previous_timestamp;
};

// The input form's own fields; returns the form, or nullopt when the row has no usable form.
std::optional<TraceForm> check_trace_input(TraceLine& r, dataset::PromptBlockBuilder& blocks) {
  std::vector<std::string_view> forms;
  for (std::string_view f : {"input_length", "text_input", "messages", "payload"})
    if (r.get(f)) forms.push_back(f);
  if (forms.empty()) {
    r.problem("input_length",
              "exactly one of input_length, text_input, messages or payload must be provided");
    return std::nullopt;
  }
  if (forms.size() > 1) {
    r.problem(std::string(forms[1]),
              fmt::format("{} and {} are mutually exclusive; use one", forms[0], forms[1]));
    return std::nullopt;
  }
  const std::string_view form = forms.front();
  if (r.get("hash_ids") && form != "input_length")
    r.problem("hash_ids", "hash_ids are only allowed with input_length");
  if (r.get("tools") && form != "messages")
    r.problem("tools", "tools are only allowed with messages");
  const tjson* mode = r.get("message_mode");
  if (r.is("message_mode", !mode || mode->is_string(), "a string") && *mode != "history" &&
      *mode != "delta")
    r.problem("message_mode", "must be \"history\" or \"delta\"");
  const bool delta = mode && *mode == "delta";
  if (delta && form != "messages")
    r.problem("message_mode", "delta mode is only allowed with messages");
  if (form == "input_length") {
    const auto len = r.integer("input_length", 1);
    const tjson* ids = r.get("hash_ids");
    if (!ids || !r.is("hash_ids", ids->is_array(), "a list of integers"))
      return TraceForm::kSynthesized;
    std::vector<std::int64_t> list;
    for (std::size_t i = 0; i < ids->size(); ++i) {
      if (!(*ids)[i].is_number_integer()) {
        r.problem(fmt::format("hash_ids[{}]", i),
                  "must be an integer, got " + TraceLine::describe((*ids)[i]));
        return TraceForm::kSynthesized;
      }
      list.push_back((*ids)[i].get<std::int64_t>());
    }
    if (len && *len <= INT32_MAX)
      if (auto e = blocks.require(list, static_cast<int>(*len))) r.problem("hash_ids", *e);
    return TraceForm::kSynthesized;
  }
  if (form == "text_input") {
    r.is("text_input", r.get("text_input")->is_string(), "a string");
    return TraceForm::kSynthesized;
  }
  if (form == "payload") {
    const tjson* p = r.get("payload");
    if (r.is("payload", p->is_object(), "an object") && p->empty())
      r.problem("payload", "must not be empty");
    return TraceForm::kPayload;
  }
  const tjson* m = r.get("messages");
  if (r.is("messages", m->is_array(), "a list of message objects")) {
    if (m->empty()) r.problem("messages", "must be a non-empty list");
    for (std::size_t i = 0; i < m->size(); ++i) {
      const tjson& msg = (*m)[i];
      if (!msg.is_object() || !msg.contains("role") || !msg["role"].is_string())
        r.problem(fmt::format("messages[{}]", i), "each message needs a string 'role'");
    }
  }
  if (const tjson* t = r.get("tools"); t && r.is("tools", t->is_array(), "a list") && t->empty())
    r.problem("tools", "must be a non-empty list");
  return delta ? TraceForm::kDeltaMessages : TraceForm::kHistoryMessages;
}

void check_trace_row(TraceLine& r, TraceState& st, TraceCheck& out,
                     dataset::PromptBlockBuilder& blocks) {
  if (const tjson* t = r.get("type"); t && (!t->is_string() || *t != "mooncake_trace"))
    r.problem("type", "a mooncake_trace row's type must be \"mooncake_trace\"");
  const std::optional<TraceForm> form = check_trace_input(r, blocks);
  r.integer("output_length", 1);
  const auto ts = r.number("timestamp");
  r.number("delay");
  if (ts) {
    if (st.previous_timestamp && *ts < *st.previous_timestamp) out.timestamps_sorted = false;
    st.previous_timestamp = ts;
    out.first_timestamp_ms = std::min(out.first_timestamp_ms.value_or(*ts), *ts);
    out.last_timestamp_ms = std::max(out.last_timestamp_ms.value_or(*ts), *ts);
  }
  if (const tjson* e = r.get("extra")) r.is("extra", e->is_object(), "an object");
  if (const tjson* h = r.get("headers"); h && r.is("headers", h->is_object(), "an object")) {
    for (auto it = h->begin(); it != h->end(); ++it)
      if (!it->is_string()) r.problem("headers." + it.key(), "header values must be strings");
  }
  if (const tjson* ids = r.get("hash_ids"); ids && ids->is_array())
    for (const tjson& id : *ids)
      if (id.is_number_integer()) st.ids.insert(id.get<long long>());
  const tjson* sid = r.get("session_id");
  if (!sid) {
    ++out.sessions;
    return;
  }
  if (!sid->is_string() && !sid->is_number_integer()) {
    r.problem("session_id", "must be a string, got " + TraceLine::describe(*sid));
    return;
  }
  const std::string key = sid->is_string() ? sid->get<std::string>() : sid->dump();
  if (!form) return;
  auto [it, fresh] = st.sessions.try_emplace(key, *form, 0);
  if (fresh) {
    ++out.sessions;
  } else if (it->second.first != *form) {
    r.problem("session_id", fmt::format("session '{}' mixes {} rows (first at line {}) with {} "
                                        "rows; a session's rows must use one input form",
                                        core::excerpt(key), trace_form_name(it->second.first),
                                        it->second.second, trace_form_name(*form)));
  }
  if (fresh) it->second.second = r.line();
}

}  // namespace

TraceCheck check_mooncake_trace(std::string_view content, int block_size, std::size_t max_listed) {
  TraceCheck out;
  TraceState st;
  dataset::PromptBlockBuilder blocks(block_size, nullptr, 0);
  int line_no = 0;
  std::size_t pos = 0;
  while (pos < content.size()) {
    std::size_t end = content.find('\n', pos);
    if (end == std::string_view::npos) end = content.size();
    std::string_view text = content.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    if (text.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    ++out.records;
    const tjson empty = tjson::object();
    TraceLine whole(empty, line_no, out, max_listed);
    tjson j;
    try {
      j = tjson::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
      std::string reason = dataset::json_exception_reason(e);
      if (reason.rfind("parse error at line", 0) == 0)  // the column is given once, below
        if (const auto colon = reason.find(": "); colon != std::string::npos)
          reason.erase(0, colon + 2);
      whole.problem("", dataset::json_syntax_error("", line_no, text, e.byte, reason).message);
      continue;
    } catch (const nlohmann::json::exception& e) {
      whole.problem("", "invalid JSON: " + dataset::json_exception_reason(e));
      continue;
    }
    if (!j.is_object()) {
      whole.problem("", "must be a JSON object, got " + TraceLine::describe(j));
      continue;
    }
    TraceLine r(j, line_no, out, max_listed);
    check_trace_row(r, st, out, blocks);
  }
  out.hash_ids = static_cast<long long>(st.ids.size());
  return out;
}

}  // namespace inferperf::app
