// Formats whose records are whole request bodies sent verbatim: raw_payload (JSONL file, or a
// folder of JSONL files, one conversation each) and inputs_json (an inputs.json artifact).
#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <unordered_map>

#include "core/uuid.hpp"
#include "dataset/input_file.hpp"
#include "dataset/loader_internal.hpp"

namespace inferperf::dataset {

namespace fs = std::filesystem;

bool looks_like_raw_payload(const ojson& j) {
  if (j.contains("conversation_id")) return false;
  if (auto d = j.find("data"); d != j.end() && d->is_array()) return false;
  const auto m = j.find("messages");
  return (m != j.end() && m->is_array() && !looks_like_mooncake(j)) ||
         (j.contains("prompt") && j.contains("model"));
}

namespace {

// The body is sent byte for byte as written (AIPerf: no endpoint formatting, no --extra-inputs).
// Its requested output length is read from the key the request builder would write it back to
// (the first of max_tokens, max_completion_tokens, max_output_tokens, parameters.max_new_tokens),
// so that writing it back changes nothing.
Turn payload_turn(ojson&& body) {
  Turn t;
  auto limit = [](const ojson& obj, const char* k) -> std::optional<int> {
    const auto it = obj.find(k);
    if (it == obj.end()) return std::nullopt;
    if (it->is_number_integer() && *it >= 0 && *it <= INT32_MAX) return it->get<int>();
    return -1;  // present but not a count: leave the body alone
  };
  std::optional<int> n;
  for (const char* k : {"max_tokens", "max_completion_tokens", "max_output_tokens"})
    if ((n = limit(body, k))) break;
  if (auto p = body.find("parameters"); !n && p != body.end() && p->is_object())
    n = limit(*p, "max_new_tokens");
  if (n && *n >= 0) t.max_tokens = *n;
  t.payload = std::make_shared<const ojson>(std::move(body));
  return t;
}

std::optional<core::Error> read_payload_lines(LoadContext& ctx, const fs::path& path,
                                              Conversation* into) {
  auto content = read_input_file(path, "raw_payload");
  if (!content) return content.error();
  const std::string file = path.string();
  return for_each_json_line(*content, file, [&](int, ojson& j) -> std::optional<core::Error> {
    ++ctx.out.lines;
    if (into) {
      into->turns.push_back(payload_turn(std::move(j)));
      return std::nullopt;
    }
    Conversation c;
    c.session_id = core::uuid4(ctx.id_rng);
    c.context_mode = ContextMode::kMessageArrayWithResponses;
    c.turns.push_back(payload_turn(std::move(j)));
    ctx.out.dataset.conversations.push_back(std::move(c));
    return std::nullopt;
  });
}

}  // namespace

std::optional<core::Error> load_raw_payload(LoadContext& ctx) {
  const fs::path& path = ctx.options.path;
  std::error_code ec;
  if (!fs::is_directory(path, ec)) return read_payload_lines(ctx, path, nullptr);
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(path, ec))
    if (e.is_regular_file() && e.path().extension() == ".jsonl") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  if (files.empty()) return ctx.error(0, "--input-file", "the folder holds no *.jsonl file");
  for (const auto& f : files) {
    // Each file is one conversation whose lines already hold the whole history.
    Conversation c;
    c.session_id = f.stem().string();
    c.context_mode = ContextMode::kMessageArrayWithResponses;
    if (auto e = read_payload_lines(ctx, f, &c)) return e;
    if (!c.turns.empty()) ctx.out.dataset.conversations.push_back(std::move(c));
  }
  return std::nullopt;
}

std::optional<core::Error> load_inputs_json(LoadContext& ctx, std::string_view content) {
  ojson doc;
  try {
    doc = ojson::parse(content);
  } catch (const ojson::parse_error& e) {
    // The line of the byte nlohmann stopped at, and the text of that line.
    const std::size_t at = e.byte == 0 ? 0 : std::min<std::size_t>(e.byte - 1, content.size());
    const std::size_t start = content.rfind('\n', at == 0 ? 0 : at - 1);
    const std::size_t line_start = start == std::string_view::npos ? 0 : start + 1;
    const int line =
        static_cast<int>(std::count(
            content.begin(), content.begin() + static_cast<std::ptrdiff_t>(line_start), '\n')) +
        1;
    const std::size_t line_end = content.find('\n', line_start);
    std::string reason = e.what();
    if (auto colon = reason.find(": ", reason.find("column")); colon != std::string::npos)
      reason = reason.substr(colon + 2);
    return json_syntax_error(
        ctx.file, line,
        content.substr(line_start, line_end == std::string_view::npos ? std::string_view::npos
                                                                      : line_end - line_start),
        at - line_start + 1, reason);
  } catch (const ojson::exception& e) {
    return ctx.error(0, "", "invalid JSON: " + json_exception_reason(e));
  }
  const auto data = doc.find("data");
  if (!doc.is_object() || data == doc.end() || !data->is_array())
    return ctx.error(1, "data", "an inputs.json file is an object with a 'data' list");
  std::unordered_map<std::string, int> seen;
  std::size_t renamed = 0;
  for (std::size_t i = 0; i < data->size(); ++i) {
    ojson& entry = (*data)[i];
    const std::string where = fmt::format("data[{}]", i);
    if (!entry.is_object()) return ctx.error(0, where, "must be an object");
    auto payloads = entry.find("payloads");
    if (payloads == entry.end() || !payloads->is_array() || payloads->empty())
      return ctx.error(0, where + ".payloads", "must be a non-empty list of request bodies");
    Conversation c;
    if (auto sid = entry.find("session_id"); sid != entry.end() && sid->is_string()) {
      c.session_id = sid->get<std::string>();
      // Records find their conversation by id: a repeated id gets a suffix.
      if (const int n = ++seen[c.session_id]; n > 1) {
        c.session_id += "#" + std::to_string(n);
        ++renamed;
      }
    } else {
      c.session_id = core::uuid4(ctx.id_rng);
    }
    c.context_mode = ContextMode::kMessageArrayWithResponses;
    for (std::size_t k = 0; k < payloads->size(); ++k) {
      if (!(*payloads)[k].is_object())
        return ctx.error(0, fmt::format("{}.payloads[{}]", where, k), "must be an object");
      c.turns.push_back(payload_turn(std::move((*payloads)[k])));
    }
    ++ctx.out.lines;
    ctx.out.dataset.conversations.push_back(std::move(c));
  }
  if (renamed > 0) {
    ctx.out.warnings.push_back(
        fmt::format("{}: {} repeated session_id(s) renamed with a '#N' suffix", ctx.file, renamed));
  }
  return std::nullopt;
}

}  // namespace inferperf::dataset
