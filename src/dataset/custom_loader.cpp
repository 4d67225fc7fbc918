#include "dataset/custom_loader.hpp"

#include <nlohmann/json.hpp>

#include <fstream>
#include <map>

#include "core/uuid.hpp"

namespace inferperf::dataset {

namespace {

using nlohmann::json;

struct LineContext {
  std::string file;
  int line = 0;
  core::Error error(const std::string& field, const std::string& message) const {
    return core::Error{core::ErrorKind::kInput, message, file, line, field};
  }
};

constexpr const char* kMediaFields[] = {"image", "images", "audio", "audios", "video", "videos"};

// One turn object (a single_turn line, or an element of a multi_turn line's "turns").
std::optional<core::Error> parse_turn(const json& j, const LineContext& at,
                                      const std::string& where, Turn& out) {
  if (!j.is_object()) return at.error(where, "a turn must be a JSON object");
  for (const char* media : kMediaFields) {
    if (j.contains(media)) {
      return at.error(where + media, std::string("'") + media +
                                         "' inputs are not supported yet (text datasets only)");
    }
  }
  const bool has_text = j.contains("text"), has_texts = j.contains("texts");
  if (has_text && has_texts)
    return at.error(where + "text", "'text' and 'texts' are mutually exclusive");
  if (!has_text && !has_texts) return at.error(where + "text", "a turn needs 'text' or 'texts'");
  std::vector<std::string> texts;
  if (has_text) {
    if (!j["text"].is_string()) return at.error(where + "text", "'text' must be a string");
    texts.push_back(j["text"].get<std::string>());
  } else {
    const json& t = j["texts"];
    if (!t.is_array() || t.empty())
      return at.error(where + "texts", "'texts' must be a non-empty list");
    for (const auto& item : t) {
      if (item.is_string()) {
        texts.push_back(item.get<std::string>());
      } else if (item.is_object() && item.contains("contents") && item["contents"].is_array()) {
        // {"name": ..., "contents": [...]}: every content becomes one text of the turn.
        for (const auto& c : item["contents"]) {
          if (!c.is_string()) return at.error(where + "texts", "'contents' must hold strings");
          texts.push_back(c.get<std::string>());
        }
      } else {
        return at.error(where + "texts",
                        "'texts' items must be strings or {\"name\", \"contents\": [...]} objects");
      }
    }
    if (texts.empty()) return at.error(where + "texts", "'texts' holds no text");
  }
  out.text = texts.front();
  out.more_texts.assign(texts.begin() + 1, texts.end());
  if (j.contains("role")) {
    if (!j["role"].is_string()) return at.error(where + "role", "'role' must be a string");
    out.role = j["role"].get<std::string>();
  }
  const bool has_ts = j.contains("timestamp"), has_delay = j.contains("delay");
  if (has_ts && has_delay)
    return at.error(where + "timestamp", "'timestamp' and 'delay' are mutually exclusive");
  if (has_ts) {
    if (!j["timestamp"].is_number())
      return at.error(where + "timestamp", "'timestamp' must be a number (ms)");
    out.timestamp_ms = j["timestamp"].get<double>();
  }
  if (has_delay) {
    if (!j["delay"].is_number() || j["delay"].get<double>() < 0)
      return at.error(where + "delay", "'delay' must be a number of ms >= 0");
    out.delay_ms = j["delay"].get<double>();
  }
  return std::nullopt;
}

}  // namespace

std::optional<CustomType> infer_custom_type(const std::string& json_line) {
  const json j = json::parse(json_line, nullptr, false);
  if (!j.is_object()) return std::nullopt;
  if (auto t = j.find("type"); t != j.end() && t->is_string()) {
    if (*t == "single_turn") return CustomType::kSingleTurn;
    if (*t == "multi_turn") return CustomType::kMultiTurn;
  }
  if (j.contains("turns")) return CustomType::kMultiTurn;
  if (j.contains("text") || j.contains("texts")) return CustomType::kSingleTurn;
  return std::nullopt;
}

core::Result<CustomDataset> load_custom_dataset(const CustomLoadOptions& o,
                                                std::mt19937_64& id_rng) {
  const std::string file = o.path.string();
  if (std::filesystem::is_directory(o.path)) {
    return core::Error{core::ErrorKind::kInput,
                       "is a directory; single_turn and multi_turn datasets are one JSONL file",
                       file, 0, "--input-file"};
  }
  std::ifstream in(o.path);
  if (!in) {
    return core::Error{core::ErrorKind::kInput, "The file '" + file + "' does not exist.", file, 0,
                       "--input-file"};
  }
  CustomDataset out;
  std::optional<CustomType> type;
  if (o.type) {
    if (*o.type == "single_turn")
      type = CustomType::kSingleTurn;
    else if (*o.type == "multi_turn")
      type = CustomType::kMultiTurn;
    else
      return core::Error{core::ErrorKind::kConfig,
                         "--custom-dataset-type " + *o.type +
                             " is not supported yet (single_turn and multi_turn are)",
                         "", 0, "--custom-dataset-type"};
  }
  std::map<std::string, std::size_t> by_session;  // multi_turn: session id -> conversation index
  LineContext at{file, 0};
  for (std::string line; std::getline(in, line);) {
    ++at.line;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    ++out.lines;
    if (!type) {
      type = infer_custom_type(line);
      if (!type) {
        return at.error("",
                        "cannot tell the dataset type from the first line; pass "
                        "--custom-dataset-type single_turn or multi_turn");
      }
    }
    const json j = json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return at.error("", "not a JSON object");
    if (*type == CustomType::kSingleTurn) {
      Conversation conv;
      conv.session_id = core::uuid4(id_rng);
      Turn turn;
      if (auto e = parse_turn(j, at, "", turn)) return *e;
      conv.turns.push_back(std::move(turn));
      out.dataset.conversations.push_back(std::move(conv));
      continue;
    }
    if (!j.contains("turns") || !j["turns"].is_array() || j["turns"].empty())
      return at.error("turns", "a multi_turn line needs a non-empty 'turns' list");
    std::string session;
    if (j.contains("session_id")) {
      if (!j["session_id"].is_string())
        return at.error("session_id", "'session_id' must be a string");
      session = j["session_id"].get<std::string>();
    }
    std::vector<Turn> turns;
    for (std::size_t k = 0; k < j["turns"].size(); ++k) {
      Turn turn;
      if (auto e = parse_turn(j["turns"][k], at, "turns[" + std::to_string(k) + "].", turn))
        return *e;
      turns.push_back(std::move(turn));
    }
    auto it = session.empty() ? by_session.end() : by_session.find(session);
    if (it == by_session.end()) {
      Conversation conv;
      conv.session_id = session.empty() ? core::uuid4(id_rng) : session;
      if (!session.empty()) by_session[session] = out.dataset.conversations.size();
      out.dataset.conversations.push_back(std::move(conv));
      it = by_session.end();
    }
    Conversation& conv = it != by_session.end() ? out.dataset.conversations[it->second]
                                                : out.dataset.conversations.back();
    for (auto& t : turns) conv.turns.push_back(std::move(t));
  }
  if (!type || out.dataset.conversations.empty()) {
    return core::Error{core::ErrorKind::kInput, "the dataset has no entries", file, 0,
                       "--input-file"};
  }
  out.type = *type;
  // Fixed-schedule offsets filter by the first turn's timestamp (inclusive).
  if (o.start_offset_ms || o.end_offset_ms) {
    std::vector<Conversation> kept;
    for (auto& c : out.dataset.conversations) {
      const auto ts = c.turns.front().timestamp_ms;
      if (ts && o.start_offset_ms && *ts < *o.start_offset_ms) continue;
      if (ts && o.end_offset_ms && *ts > *o.end_offset_ms) continue;
      kept.push_back(std::move(c));
    }
    out.dataset.conversations = std::move(kept);
    if (out.dataset.conversations.empty()) {
      return core::Error{
          core::ErrorKind::kInput,
          "no entry is inside --fixed-schedule-start-offset/--fixed-schedule-end-offset", file, 0,
          "timestamp"};
    }
  }
  out.has_timestamps = true;
  for (const auto& c : out.dataset.conversations) {
    const auto ts = c.turns.front().timestamp_ms;
    if (!ts) {
      out.has_timestamps = false;
      continue;
    }
    if (!out.first_timestamp_ms || *ts < *out.first_timestamp_ms) out.first_timestamp_ms = ts;
  }
  return out;
}

}  // namespace inferperf::dataset
