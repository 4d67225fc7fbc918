#include "dataset/sharegpt_loader.hpp"

#include <fmt/format.h>
#include <simdjson.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "core/uuid.hpp"
#include "dataset/input_file.hpp"

namespace inferperf::dataset {

namespace {

namespace fs = std::filesystem;
namespace dom = simdjson::dom;

using TextPair = std::pair<std::string_view, std::string_view>;  // prompt, completion

// One array entry as read: its id and its prompt/completion pairs (views into the parsed DOM).
struct Entry {
  std::string id;  // "" when the entry has none
  std::vector<TextPair> pairs;
};

// What the filter made of an entry: the completions' token counts when every pair passed.
enum class Verdict : std::uint8_t { kNoPairs, kOutOfLimits, kKept };
struct Counted {
  Verdict verdict = Verdict::kNoPairs;
  std::vector<int> completion_tokens;
};

core::Error file_error(const std::string& file, std::string message, int line = 0) {
  return core::Error{core::ErrorKind::kInput, std::move(message), file, line, ""};
}

const char* type_name(const dom::element& e) {
  switch (e.type()) {
    case dom::element_type::ARRAY:
      return "a list";
    case dom::element_type::OBJECT:
      return "an object";
    case dom::element_type::STRING:
      return "a string";
    case dom::element_type::INT64:
    case dom::element_type::UINT64:
      return "an integer";
    case dom::element_type::DOUBLE:
      return "a fractional number";
    case dom::element_type::BOOL:
      return "a boolean";
    case dom::element_type::NULL_VALUE:
      return "null";
  }
  return "an unsupported value";
}

// Walks the document with nlohmann's SAX parser (no tree is built) to say where simdjson's
// syntax error is: simdjson's DOM reports what went wrong but not where.
class SyntaxLocator : public nlohmann::json_sax<nlohmann::json> {
 public:
  bool failed = false;
  std::size_t byte = 0;  // 1-based, as nlohmann reports it
  std::string reason;
  long long entry = -1;  // index of the top-level array element being read

  bool null() override { return value(); }
  bool boolean(bool) override { return value(); }
  bool number_integer(number_integer_t) override { return value(); }
  bool number_unsigned(number_unsigned_t) override { return value(); }
  bool number_float(number_float_t, const string_t&) override { return value(); }
  bool string(string_t&) override { return value(); }
  bool binary(binary_t&) override { return value(); }
  bool start_object(std::size_t) override { return open(); }
  bool key(string_t&) override { return true; }
  bool end_object() override { return close(); }
  bool start_array(std::size_t) override { return open(); }
  bool end_array() override { return close(); }
  bool parse_error(std::size_t position, const std::string&,
                   const nlohmann::detail::exception& ex) override {
    failed = true;
    byte = position;
    reason = ex.what();
    // "[json.exception.parse_error.101] parse error at line 1, column 5: syntax error ..."
    if (auto colon = reason.find(": ", reason.find("column")); colon != std::string::npos)
      reason = reason.substr(colon + 2);
    return false;
  }

 private:
  int depth_ = 0;
  bool value() {
    if (depth_ == 1) ++entry;
    return true;
  }
  bool open() {
    value();
    ++depth_;
    return true;
  }
  bool close() {
    --depth_;
    return true;
  }
};

core::Error syntax_error(const std::string& file, std::string_view content,
                         simdjson::error_code code) {
  SyntaxLocator loc;
  nlohmann::json::sax_parse(content, &loc);
  if (!loc.failed) {
    return file_error(file, fmt::format("is not valid JSON ({})", simdjson::error_message(code)));
  }
  // The line and column of the byte nlohmann stopped at, and the text around it.
  const std::size_t at = std::min(loc.byte == 0 ? 0 : loc.byte - 1, content.size());
  const std::size_t line_start = content.rfind('\n', at == 0 ? 0 : at - 1);
  const std::size_t begin = line_start == std::string_view::npos || at == 0 ? 0 : line_start + 1;
  std::size_t end = content.find('\n', at);
  if (end == std::string_view::npos) end = content.size();
  const int line = 1 + static_cast<int>(std::count(
                           content.begin(), content.begin() + static_cast<long>(begin), '\n'));
  core::Error e =
      json_syntax_error(file, line, content.substr(begin, end - begin), at - begin + 1, loc.reason);
  e.message += fmt::format(" at byte offset {}", at);
  if (loc.entry >= 0) e.message += fmt::format(", in or after entry [{}]", loc.entry);
  return e;
}

// The prompt/completion pairs of one `conversations` list (trace-formats §6): with human/gpt
// roles, every human message directly followed by a gpt message (other roles left out) is a pair;
// without them, the first two messages are. Pairs with an empty text are skipped.
std::optional<core::Error> read_pairs(const dom::array& messages, const std::string& file,
                                      std::size_t index, std::vector<TextPair>& out) {
  struct Message {
    std::string_view from, value;
  };
  std::vector<Message> msgs;
  std::size_t k = 0;
  for (dom::element m : messages) {
    dom::object obj;
    if (m.get_object().get(obj) != simdjson::SUCCESS) {
      ++k;
      continue;  // not a message
    }
    Message msg;
    if (auto from = obj.at_key("from"); from.error() == simdjson::SUCCESS && from.is_string())
      msg.from = from.get_string().value_unsafe();
    auto value = obj.at_key("value");
    if (value.error() == simdjson::SUCCESS && !value.is_null()) {
      if (!value.is_string()) {
        return file_error(file, fmt::format("entry [{}] conversations[{}]: 'value' must be a "
                                            "string, got {}",
                                            index, k, type_name(value.value_unsafe())));
      }
      msg.value = value.get_string().value_unsafe();
    }
    msgs.push_back(msg);
    ++k;
  }
  if (msgs.size() < 2) return std::nullopt;
  auto is_role = [](const Message& m) { return m.from == "human" || m.from == "gpt"; };
  if (std::none_of(msgs.begin(), msgs.end(), is_role)) {
    if (!msgs[0].value.empty() && !msgs[1].value.empty())
      out.emplace_back(msgs[0].value, msgs[1].value);
    return std::nullopt;
  }
  std::erase_if(msgs, [&](const Message& m) { return !is_role(m); });
  for (std::size_t i = 0; i + 1 < msgs.size();) {
    if (msgs[i].from == "human" && msgs[i + 1].from == "gpt") {
      if (!msgs[i].value.empty() && !msgs[i + 1].value.empty())
        out.emplace_back(msgs[i].value, msgs[i + 1].value);
      i += 2;
    } else {
      ++i;
    }
  }
  return std::nullopt;
}

core::Result<std::vector<Entry>> read_entries(const dom::element& root, const std::string& file) {
  dom::array array;
  if (root.get_array().get(array) != simdjson::SUCCESS) {
    return file_error(
        file, fmt::format("a ShareGPT file is one JSON list of entries, got {}", type_name(root)));
  }
  std::vector<Entry> entries;
  entries.reserve(array.size());
  std::size_t index = 0;
  for (dom::element e : array) {
    dom::object obj;
    if (e.get_object().get(obj) != simdjson::SUCCESS) {
      return file_error(file,
                        fmt::format("entry [{}] must be an object, got {}", index, type_name(e)));
    }
    Entry entry;
    if (auto id = obj.at_key("id"); id.error() == simdjson::SUCCESS) {
      if (id.is_string()) {
        entry.id = std::string(id.get_string().value_unsafe());
      } else if (id.is_int64()) {
        entry.id = std::to_string(id.get_int64().value_unsafe());
      } else if (id.is_uint64()) {
        entry.id = std::to_string(id.get_uint64().value_unsafe());
      }
    }
    auto conversations = obj.at_key("conversations");
    if (conversations.error() != simdjson::SUCCESS) {
      return file_error(
          file, fmt::format("entry [{}]{} has no 'conversations' list", index,
                            entry.id.empty() ? "" : " (id " + core::excerpt(entry.id) + ")"));
    }
    dom::array messages;
    if (conversations.get_array().get(messages) != simdjson::SUCCESS) {
      return file_error(file,
                        fmt::format("entry [{}]{}: 'conversations' must be a list, got {}", index,
                                    entry.id.empty() ? "" : " (id " + core::excerpt(entry.id) + ")",
                                    type_name(conversations.value_unsafe())));
    }
    if (auto err = read_pairs(messages, file, index, entry.pairs)) return *err;
    entries.push_back(std::move(entry));
    ++index;
  }
  return entries;
}

// Counts each entry's pairs (one entry per task, on `threads` threads) and applies the filter. An
// entry stops being counted at its first failing pair: it is dropped whole anyway.
std::vector<Counted> count_and_filter(const std::vector<Entry>& entries,
                                      const ShareGptOptions& options) {
  std::vector<Counted> out(entries.size());
  const tokenizer::Tokenizer& tok = *options.tokenizer;
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t i; (i = next.fetch_add(1, std::memory_order_relaxed)) < entries.size();) {
      const Entry& entry = entries[i];
      Counted& c = out[i];
      if (entry.pairs.empty()) continue;  // kNoPairs
      c.verdict = Verdict::kKept;
      for (const auto& [prompt, completion] : entry.pairs) {
        const auto p = static_cast<long long>(tok.count(prompt));
        if (p < kShareGptMinTokens || p > kShareGptMaxPromptTokens) {
          c.verdict = Verdict::kOutOfLimits;
          break;
        }
        const auto n = static_cast<long long>(tok.count(completion));
        if ((options.check_min_completion && n < kShareGptMinTokens) ||
            p + n > kShareGptMaxTotalTokens) {
          c.verdict = Verdict::kOutOfLimits;
          break;
        }
        c.completion_tokens.push_back(static_cast<int>(n));
      }
      if (c.verdict != Verdict::kKept) c.completion_tokens.clear();
    }
  };
  int threads = options.threads > 0
                    ? options.threads
                    : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  threads = static_cast<int>(
      std::min<std::size_t>(static_cast<std::size_t>(threads), entries.size() / 8 + 1));
  {
    std::vector<std::jthread> pool;
    for (int t = 1; t < threads; ++t) pool.emplace_back(work);
    work();
  }
  return out;
}

}  // namespace

core::Result<ShareGptDataset> load_sharegpt(const ShareGptOptions& options,
                                            std::mt19937_64& id_rng) {
  const std::string file = options.path.string();
  if (!options.tokenizer) {
    return file_error(file,
                      "the ShareGPT filter counts tokens: a tokenizer is needed (--tokenizer)");
  }
  std::error_code ec;
  if (!fs::exists(options.path, ec)) return file_error(file, "the file does not exist");
  if (fs::is_directory(options.path, ec))
    return file_error(file, "is a folder, but the ShareGPT dataset is a single JSON file");
  simdjson::padded_string content;
  if (auto err = simdjson::padded_string::load(file).get(content); err != simdjson::SUCCESS)
    return file_error(file, fmt::format("cannot be read: {}", simdjson::error_message(err)));
  const std::string_view text(content.data(), content.size());
  if (is_lfs_pointer(text)) {
    return file_error(file, "is a Git LFS pointer, not the data it points at: fetch the real file",
                      1);
  }
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos)
    return file_error(file, "is empty: a ShareGPT file is one JSON list of entries");

  dom::parser parser;
  dom::element root;
  if (auto err = parser.parse(content).get(root); err != simdjson::SUCCESS) {
    if (err == simdjson::MEMALLOC || err == simdjson::CAPACITY)
      return file_error(file, fmt::format("cannot be parsed: {}", simdjson::error_message(err)));
    return syntax_error(file, text, err);
  }
  auto entries = read_entries(root, file);
  if (!entries) return entries.error();
  const std::vector<Counted> counted = count_and_filter(*entries, options);

  ShareGptDataset out;
  out.entries = entries->size();
  std::unordered_set<std::string> used;
  std::unordered_map<std::string, int> next_suffix;  // last "#N" given to an id
  for (std::size_t i = 0; i < entries->size(); ++i) {
    const Entry& entry = (*entries)[i];
    const Counted& c = counted[i];
    if (c.verdict == Verdict::kNoPairs) {
      ++out.no_pairs;
      continue;
    }
    if (c.verdict == Verdict::kOutOfLimits) {
      ++out.out_of_limits;
      continue;
    }
    Conversation conv;
    if (entry.id.empty()) {
      conv.session_id = core::uuid4(id_rng);
      used.insert(conv.session_id);
    } else {
      // Session ids key the conversations (token counts, the workload check): keep them unique.
      conv.session_id = entry.id;
      if (!used.insert(conv.session_id).second) {
        int& n = next_suffix[entry.id];
        do {
          conv.session_id = fmt::format("{}#{}", entry.id, (n = std::max(n, 1) + 1));
        } while (!used.insert(conv.session_id).second);
        ++out.renamed_ids;
      }
    }
    conv.turns.reserve(entry.pairs.size());
    for (std::size_t k = 0; k < entry.pairs.size(); ++k) {
      Turn t;
      t.text = std::string(entry.pairs[k].first);
      t.max_tokens = std::max(1, static_cast<int>(c.completion_tokens[k]));  // never 0
      conv.turns.push_back(std::move(t));
    }
    out.dataset.conversations.push_back(std::move(conv));
  }
  return out;
}

}  // namespace inferperf::dataset
