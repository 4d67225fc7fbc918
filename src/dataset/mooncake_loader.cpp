// mooncake_trace (trace-formats §1): one request per line in one of four input forms; lines with
// the same session_id are one conversation.
#include <fmt/format.h>

#include <cmath>
#include <unordered_map>

#include "core/uuid.hpp"
#include "dataset/input_file.hpp"
#include "dataset/loader_internal.hpp"
#include "dataset/trace_synthesis.hpp"

namespace inferperf::dataset {

namespace {

constexpr std::string_view kForms[] = {"input_length", "text_input", "messages", "payload"};

// What a session's rows are: they may not mix (trace-formats §1 "Sessions").
enum class RowKind { kSynthesized, kHistoryMessages, kDeltaMessages, kPayload };

std::string_view kind_name(RowKind k) {
  switch (k) {
    case RowKind::kSynthesized:
      return "input_length/text_input";
    case RowKind::kHistoryMessages:
      return "messages (history mode)";
    case RowKind::kDeltaMessages:
      return "messages (delta mode)";
    case RowKind::kPayload:
      return "payload";
  }
  return "";
}

struct Session {
  std::size_t conversation = 0;
  RowKind kind = RowKind::kSynthesized;
  int first_line = 0;
};

// --synthesis-prompt-len-multiplier: the prompt is scaled; full shared blocks are kept as far as
// the new length reaches, the rest becomes text unique to the row (a partial last block would
// change size, and a hash id's block has one size for the whole run).
void scale_prompt(int& input_length, std::vector<std::int64_t>& ids, int block_size, double m) {
  const int scaled = std::max(1, static_cast<int>(std::lround(input_length * m)));
  if (!ids.empty() && block_size > 0) {
    const auto n = static_cast<long long>(ids.size());
    const long long full = n * block_size <= input_length ? n : n - 1;
    const long long keep = std::min<long long>(full, scaled / block_size);
    ids.resize(static_cast<std::size_t>(std::max(0LL, keep)));
  }
  input_length = scaled;
}

}  // namespace

bool looks_like_mooncake(const ojson& j) {
  if (j.contains("chat_id")) return false;  // a Bailian row (it also has input_length)
  if (j.contains("input_length") || j.contains("text_input") || j.contains("hash_ids") ||
      j.contains("payload"))
    return true;
  // messages rows: only with a field raw request bodies do not have.
  if (j.contains("messages")) {
    for (const char* k : {"output_length", "timestamp", "delay", "session_id", "message_mode"})
      if (j.contains(k)) return true;
  }
  return false;
}

std::optional<core::Error> load_mooncake(LoadContext& ctx, std::string_view content) {
  const SynthesisOptions& syn = ctx.options.synthesis;
  std::unordered_map<std::string, Session> sessions;
  auto& convs = ctx.out.dataset.conversations;
  return for_each_json_line(
      content, ctx.file, [&](int line, ojson& j) -> std::optional<core::Error> {
        Row r(j, ctx, line);
        ++ctx.out.lines;
        if (const ojson* t = r.get("type"); t && (!t->is_string() || *t != "mooncake_trace"))
          return r.error("type", "a mooncake_trace row's 'type' must be \"mooncake_trace\"");
        std::vector<std::string_view> forms;
        for (auto f : kForms)
          if (r.has(f)) forms.push_back(f);
        if (forms.empty()) {
          return r.error("input_length",
                         "exactly one of input_length, text_input, messages or payload must be "
                         "provided");
        }
        if (forms.size() > 1) {
          return r.error(forms[1],
                         fmt::format("{} and {} are mutually exclusive (a row has exactly "
                                     "one of input_length, text_input, messages, payload)",
                                     forms[0], forms[1]));
        }
        const std::string_view form = forms.front();
        if (r.has("hash_ids") && form != "input_length")
          return r.error("hash_ids", "hash_ids are only allowed with input_length");
        if (r.has("tools") && form != "messages")
          return r.error("tools", "tools are only allowed with messages");
        std::optional<std::string> mode;
        if (auto e = r.string("message_mode", mode)) return e;
        if (mode && *mode != "history" && *mode != "delta")
          return r.error("message_mode",
                         "must be \"history\" or \"delta\", got \"" + core::excerpt(*mode) + "\"");
        if (mode && *mode == "delta" && form != "messages")
          return r.error("message_mode", "delta mode is only allowed with messages");

        Turn turn;
        RowKind kind = RowKind::kSynthesized;
        std::optional<long long> osl;
        if (auto e = r.integer("output_length", osl, 1)) return e;
        if (osl) {
          turn.max_tokens = static_cast<int>(
              std::min<long long>(synthesized_output_length(*osl, syn), INT32_MAX));
        }
        std::optional<double> ts, delay;
        if (auto e = r.number("timestamp", ts, 0)) return e;
        if (auto e = r.number("delay", delay, 0)) return e;
        if (ts) turn.timestamp_ms = *ts / syn.speedup_ratio;
        if (delay) turn.delay_ms = *delay / syn.speedup_ratio;
        if (auto e = r.object("extra", turn.extra, false)) return e;

        if (form == "input_length") {
          std::optional<long long> len;
          if (auto e = r.integer("input_length", len, 1)) return e;
          if (*len > INT32_MAX) return r.error("input_length", "is too large");
          if (syn.max_isl && *len > *syn.max_isl) {
            ++ctx.out.dropped_rows;
            return std::nullopt;
          }
          std::vector<std::int64_t> ids;
          if (auto e = r.int_list("hash_ids", ids)) return e;
          int length = static_cast<int>(*len);
          // Rows with hash ids are reshaped together once the file is read (trace_synthesis).
          if (syn.prompt_len_multiplier != 1.0 && ids.empty()) {
            // The row as written must be valid before it is reshaped.
            if (auto e = ctx.blocks->check_layout(ids, length)) return r.error("hash_ids", *e);
            scale_prompt(length, ids, ctx.blocks->block_size(), syn.prompt_len_multiplier);
          }
          if (auto e = ctx.synthesize(line, "input_length", length, std::move(ids), turn)) return e;
        } else if (form == "text_input") {
          std::optional<std::string> text;
          if (auto e = r.string("text_input", text)) return e;
          turn.text = std::move(*text);
        } else if (form == "messages") {
          if (auto e = r.list("messages", turn.messages, true)) return e;
          for (std::size_t i = 0; i < turn.messages->size(); ++i) {
            const ojson& m = (*turn.messages)[i];
            if (!m.is_object() || !m.contains("role") || !m["role"].is_string())
              return r.error(fmt::format("messages[{}]", i), "each message needs a string 'role'");
          }
          if (auto e = r.list("tools", turn.tools, true)) return e;
          kind = mode && *mode == "delta" ? RowKind::kDeltaMessages : RowKind::kHistoryMessages;
          if (kind == RowKind::kDeltaMessages && turn.extra && turn.extra->contains("messages"))
            return r.error("extra", "in delta mode 'extra' must not contain 'messages'");
        } else {
          if (auto e = r.object("payload", turn.payload, true)) return e;
          kind = RowKind::kPayload;
        }

        std::optional<std::string> sid;
        if (const ojson* s = r.get("session_id"); s && s->is_number_integer()) {
          sid = std::to_string(s->get<long long>());  // numeric ids are common in exported traces
        } else if (auto e = r.string("session_id", sid)) {
          return e;
        }
        if (!sid) {
          Conversation conv;
          conv.session_id = core::uuid4(ctx.id_rng);
          if (kind == RowKind::kHistoryMessages || kind == RowKind::kPayload)
            conv.context_mode = ContextMode::kMessageArrayWithResponses;
          conv.turns.push_back(std::move(turn));
          convs.push_back(std::move(conv));
          return std::nullopt;
        }
        auto [it, fresh] = sessions.try_emplace(*sid, Session{convs.size(), kind, line});
        if (fresh) {
          Conversation conv;
          conv.session_id = *sid;
          if (kind == RowKind::kHistoryMessages || kind == RowKind::kPayload)
            conv.context_mode = ContextMode::kMessageArrayWithResponses;
          convs.push_back(std::move(conv));
        } else if (it->second.kind != kind) {
          return r.error(std::string(form),
                         fmt::format("session '{}' mixes {} rows (first at line {}) with {} rows; "
                                     "a session's rows must all use one input form",
                                     core::excerpt(*sid), kind_name(it->second.kind),
                                     it->second.first_line, kind_name(kind)));
        }
        convs[it->second.conversation].turns.push_back(std::move(turn));
        return std::nullopt;
      });
}

}  // namespace inferperf::dataset
