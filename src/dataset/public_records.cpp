// Records of a public dataset's JSON / JSONL files turned into conversations (public_loader.hpp):
// AIPerf 0.11's instruction/response, MT-Bench and SpecBench loaders' rules.
#include <fmt/format.h>

#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>

#include "core/uuid.hpp"
#include "dataset/input_file.hpp"
#include "dataset/public_loader.hpp"

namespace inferperf::dataset {

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

// Calls `fn(line, record)` for each record of a file: the items of a top-level JSON list, or each
// non-blank line of JSON Lines (line 0 for list items). `fn` returns false to stop reading.
using PubRecordFn = std::function<core::Result<bool>(int line, const Json& record)>;

std::optional<core::Error> pubr_for_each(const fs::path& path, const PubRecordFn& fn) {
  const std::string file = path.string();
  std::ifstream in(path, std::ios::binary);
  if (!in) return core::Error{core::ErrorKind::kInput, "cannot be opened", file, 0, ""};
  // The first character tells a JSON list from JSON Lines.
  char first = 0;
  while (in.get(first) && std::isspace(static_cast<unsigned char>(first))) {
  }
  if (!in) return core::Error{core::ErrorKind::kInput, "is empty", file, 0, ""};
  in.seekg(0);
  if (first == '[') {
    auto text = read_input_file(path, "public dataset");
    if (!text) return text.error();
    Json all;
    try {
      all = Json::parse(*text);
    } catch (const Json::exception& e) {
      return core::Error{core::ErrorKind::kInput, "is not valid JSON: " + json_exception_reason(e),
                         file, 0, ""};
    }
    std::size_t index = 0;
    for (const auto& rec : all) {
      if (!rec.is_object()) {
        return core::Error{core::ErrorKind::kInput,
                           fmt::format("item [{}] of the list is not an object", index), file, 0,
                           ""};
      }
      auto go_on = fn(0, rec);
      if (!go_on) return go_on.error();
      if (!*go_on) break;
      ++index;
    }
    return std::nullopt;
  }
  std::string text;
  for (int line = 1; std::getline(in, text); ++line) {
    if (!text.empty() && text.back() == '\r') text.pop_back();
    if (text.find_first_not_of(" \t") == std::string::npos) continue;
    if (line == 1 && is_lfs_pointer(text)) {
      return core::Error{core::ErrorKind::kInput,
                         "is a Git LFS pointer, not the data it points at: fetch the real file",
                         file, 1, ""};
    }
    Json rec;
    try {
      rec = Json::parse(text);
    } catch (const Json::parse_error& e) {
      return json_syntax_error(file, line, text, e.byte, json_exception_reason(e));
    } catch (const Json::exception& e) {
      return core::Error{core::ErrorKind::kInput, json_exception_reason(e), file, line, ""};
    }
    if (!rec.is_object())
      return core::Error{core::ErrorKind::kInput, "the line is not a JSON object", file, line, ""};
    auto go_on = fn(line, rec);
    if (!go_on) return go_on.error();
    if (!*go_on) break;
  }
  return std::nullopt;
}

// A value as Python's str() writes the common cases (strings unquoted, null as None).
std::string pubr_text(const Json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_null()) return "None";
  if (v.is_boolean()) return v.get<bool>() ? "True" : "False";
  return v.dump();
}

bool pubr_blank(std::string_view s) {
  return s.find_first_not_of(" \t\r\n\f\v") == std::string_view::npos;
}

std::string pubr_strip(std::string_view s) {
  const auto b = s.find_first_not_of(" \t\r\n\f\v");
  if (b == std::string_view::npos) return {};
  const auto e = s.find_last_not_of(" \t\r\n\f\v");
  return std::string(s.substr(b, e - b + 1));
}

std::string pubr_columns(const Json& rec) {
  std::string out;
  for (const auto& [k, v] : rec.items()) out += (out.empty() ? "" : ", ") + k;
  return out;
}

// `{name}` placeholders replaced by the record's columns (Python str.format's simple case).
core::Result<std::string> pubr_format(std::string_view tmpl, const Json& rec,
                                      const std::string& file, int line) {
  std::string out;
  for (std::size_t i = 0; i < tmpl.size();) {
    const auto open = tmpl.find('{', i);
    if (open == std::string_view::npos) {
      out.append(tmpl.substr(i));
      break;
    }
    const auto close = tmpl.find('}', open);
    out.append(tmpl.substr(i, open - i));
    const std::string key(tmpl.substr(open + 1, close - open - 1));
    if (!rec.contains(key)) {
      return core::Error{core::ErrorKind::kInput,
                         fmt::format("the record has no '{}' column for the prompt template "
                                     "(columns: {})",
                                     key, pubr_columns(rec)),
                         file, line, key};
    }
    out += pubr_text(rec[key]);
    i = close + 1;
  }
  return out;
}

// The conversation a record gives under `spec`'s family (nullopt: the record is skipped).
core::Result<std::optional<Conversation>> pubr_convert(const PublicDatasetSpec& spec,
                                                       const Json& rec, bool first,
                                                       const std::string& file, int line) {
  Conversation conv;
  auto add_turn = [&conv](std::string text) {
    Turn t;
    t.text = std::move(text);
    conv.turns.push_back(std::move(t));
  };
  const std::string column = spec.family == PublicFamily::kMtBench ? "prompt"
                             : spec.family == PublicFamily::kSpecBench
                                 ? "turns"
                                 : std::string(spec.prompt_column);
  const bool templated = spec.family == PublicFamily::kInstruction && !spec.prompt_template.empty();
  if (first && !templated && spec.family != PublicFamily::kSpecBench && !rec.contains(column)) {
    return core::Error{
        core::ErrorKind::kInput,
        fmt::format("the first record has no '{}' column (columns: {})", column, pubr_columns(rec)),
        file, line, column};
  }
  if (spec.family == PublicFamily::kInstruction) {
    std::string prompt;
    if (templated) {
      auto formatted = pubr_format(spec.prompt_template, rec, file, line);
      if (!formatted) return formatted.error();
      prompt = std::move(*formatted);
    } else if (rec.contains(column) && !rec[column].is_null()) {
      prompt = pubr_text(rec[column]);
    }
    if (pubr_blank(prompt)) return std::optional<Conversation>{};
    add_turn(std::move(prompt));
    return std::optional<Conversation>{std::move(conv)};
  }
  const auto it = rec.find(column);
  if (it == rec.end() || !it->is_array() || it->empty()) return std::optional<Conversation>{};
  for (const auto& item : *it) {
    const std::string text = item.is_null() || (item.is_string() && item.get<std::string>().empty())
                                 ? std::string()
                                 : pubr_strip(pubr_text(item));
    if (!text.empty()) add_turn(text);
    if (spec.family == PublicFamily::kSpecBench) break;  // the first question only
  }
  if (conv.turns.empty()) return std::optional<Conversation>{};
  return std::optional<Conversation>{std::move(conv)};
}

}  // namespace

core::Result<PublicLoaded> load_public_records(const PublicLoadOptions& o,
                                               std::mt19937_64& id_rng) {
  PublicLoaded out;
  if (!o.spec) return core::Error{core::ErrorKind::kConfig, "no public dataset given", "", 0, ""};
  bool first = true;
  bool full = o.max_conversations && *o.max_conversations == 0;
  for (const auto& path : o.files) {
    if (full) break;
    const std::string file = path.string();
    auto err = pubr_for_each(path, [&](int line, const Json& rec) -> core::Result<bool> {
      ++out.records;
      auto conv = pubr_convert(*o.spec, rec, first, file, line);
      first = false;
      if (!conv) return conv.error();
      if (!*conv) {
        ++out.skipped;
        return true;
      }
      (*conv)->session_id = core::uuid4(id_rng);
      out.dataset.conversations.push_back(std::move(**conv));
      full = o.max_conversations && out.dataset.conversations.size() >= *o.max_conversations;
      return !full;
    });
    if (err) return *err;
  }
  return out;
}

}  // namespace inferperf::dataset
