#include "tokenizer/hf_tokenizer.hpp"

#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

#include "tokenizer/bpe_model.hpp"
#include "tokenizer/byte_level.hpp"
#include "tokenizer/json_util.hpp"
#include "tokenizer/text_util.hpp"
#include "tokenizer/utf8.hpp"

namespace inferperf::tokenizer {

namespace {

bool is_ws(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

}  // namespace

core::Result<std::unique_ptr<HfTokenizer>> HfTokenizer::load(const std::filesystem::path& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return core::Error{core::ErrorKind::kInput, "cannot open tokenizer file", path.string()};
  std::stringstream ss;
  ss << f.rdbuf();
  // clean_up_tokenization_spaces lives in tokenizer_config.json; absent means true, as the
  // reference implementations default it.
  bool cleanup = true;
  auto config_path = path.parent_path() / "tokenizer_config.json";
  if (std::ifstream cf(config_path, std::ios::binary); cf) {
    std::stringstream cs;
    cs << cf.rdbuf();
    // nlohmann, not simdjson: these files carry integers beyond 64 bits (model_max_length 1e30).
    auto cfg = nlohmann::json::parse(cs.str(), nullptr, false);
    if (cfg.is_discarded() || !cfg.is_object()) {
      return core::Error{core::ErrorKind::kInput, "not valid JSON", config_path.string()};
    }
    if (auto it = cfg.find("clean_up_tokenization_spaces"); it != cfg.end() && it->is_boolean())
      cleanup = it->get<bool>();
  }
  return from_json_text(ss.str(), cleanup, path.string());
}

core::Result<std::unique_ptr<HfTokenizer>> HfTokenizer::from_json_text(std::string_view json,
                                                                       bool cleanup,
                                                                       const std::string& origin) {
  auto with_origin = [&](core::Error e) {
    e.file = origin;
    return e;
  };
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (auto err = parser.parse(json.data(), json.size(), true).get(root); err) {
    return with_origin(core::Error{core::ErrorKind::kInput,
                                   std::string("not valid JSON: ") + simdjson::error_message(err)});
  }
  std::unique_ptr<HfTokenizer> t(new HfTokenizer());
  t->clean_up_spaces_ = cleanup;
  simdjson::dom::element model;
  if (root["model"].get(model) != simdjson::SUCCESS) {
    return with_origin(core::Error{core::ErrorKind::kInput, "missing \"model\"", "", 0, "model"});
  }
  auto m = make_model(model);
  if (!m) return with_origin(m.error());
  t->model_ = std::move(*m);
  simdjson::dom::element part;
  if (root["normalizer"].get(part) == simdjson::SUCCESS) {
    auto n = make_normalizer(part);
    if (!n) return with_origin(n.error());
    t->normalizer_ = std::move(*n);
  }
  if (root["pre_tokenizer"].get(part) == simdjson::SUCCESS) {
    auto p = make_pre_tokenizer(part);
    if (!p) return with_origin(p.error());
    t->pre_tokenizer_ = std::move(*p);
    t->detect_fast_path(part);
  }
  simdjson::dom::array added;
  if (root["added_tokens"].get_array().get(added) == simdjson::SUCCESS) {
    for (auto a : added) {
      AddedToken tok;
      tok.id = static_cast<std::int32_t>(int_field(a, "id").value_or(-1));
      tok.content = str_field(a, "content");
      tok.lstrip = bool_field(a, "lstrip", false);
      tok.rstrip = bool_field(a, "rstrip", false);
      tok.special = bool_field(a, "special", false);
      if (tok.id < 0 || tok.content.empty()) {
        return with_origin(core::Error{core::ErrorKind::kInput, "added token without id or content",
                                       "", 0, "added_tokens"});
      }
      t->added_by_id_[tok.id] = t->added_.size();
      t->added_contents_.insert(tok.content);
      t->added_.push_back(std::move(tok));
    }
  }
  if (root["decoder"].get(part) == simdjson::SUCCESS) {
    auto d = make_decoder(part, &t->added_contents_);
    if (!d) return with_origin(d.error());
    t->decoder_ = std::move(*d);
    t->byte_level_decoder_ = str_field(part, "type") == "ByteLevel";
  }
  t->trie_.emplace_back();
  for (std::size_t k = 0; k < t->added_.size(); ++k) {
    std::int32_t node = 0;
    for (unsigned char c : t->added_[k].content) {
      auto it = t->trie_[static_cast<std::size_t>(node)].next.find(c);
      if (it == t->trie_[static_cast<std::size_t>(node)].next.end()) {
        t->trie_.emplace_back();
        const auto fresh = static_cast<std::int32_t>(t->trie_.size() - 1);
        t->trie_[static_cast<std::size_t>(node)].next[c] = fresh;
        node = fresh;
      } else {
        node = it->second;
      }
    }
    t->trie_[static_cast<std::size_t>(node)].token = static_cast<std::int32_t>(k);
    t->first_byte_[static_cast<unsigned char>(t->added_[k].content[0])] = true;
    t->added_like_ids_.insert(t->added_[k].id);
    if (auto id = t->model_->token_to_id(t->added_[k].content)) t->added_like_ids_.insert(*id);
  }
  return t;
}

void HfTokenizer::detect_fast_path(simdjson::dom::element pre) {
  const auto* bpe = dynamic_cast<const BpeModel*>(model_.get());
  if (!bpe) return;
  auto is_plain_byte_level = [](simdjson::dom::element e, bool want_regex) {
    return str_field(e, "type") == "ByteLevel" && !bool_field(e, "add_prefix_space", true) &&
           bool_field(e, "use_regex", true) == want_regex;
  };
  std::string pattern;
  bool keep_gaps = false;
  simdjson::dom::array parts;
  if (is_plain_byte_level(pre, true)) {
    pattern = R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+)";
    keep_gaps = true;
  } else if (str_field(pre, "type") == "Sequence" &&
             pre["pretokenizers"].get_array().get(parts) == simdjson::SUCCESS &&
             parts.size() == 2 && is_plain_byte_level(parts.at(1).value(), false) &&
             str_field(parts.at(0).value(), "type") == "Split") {
    auto split = parts.at(0).value();
    auto src = pattern_source(split["pattern"]);
    const std::string behavior = str_field(split, "behavior", "Isolated");
    const bool invert = bool_field(split, "invert", false);
    if (!src) return;
    if (behavior == "Isolated" && !invert) {
      keep_gaps = true;
    } else if (behavior == "Removed" && invert) {
      keep_gaps = false;
    } else {
      return;
    }
    pattern = *src;
  } else {
    return;
  }
  auto re = Regex::compile(pattern);
  if (!re) return;
  fast_split_ = *re;
  fast_keep_gaps_ = keep_gaps;
  fast_bpe_ = bpe;
}

std::vector<HfTokenizer::Segment> HfTokenizer::split_added(std::string_view text) const {
  std::vector<Segment> out;
  std::size_t seg_start = 0, i = 0;
  while (i < text.size()) {
    if (!first_byte_[static_cast<unsigned char>(text[i])]) {
      ++i;
      continue;
    }
    std::int32_t node = 0, best = -1;
    std::size_t best_len = 0;
    for (std::size_t j = i; j < text.size(); ++j) {
      const auto& n = trie_[static_cast<std::size_t>(node)].next;
      auto it = n.find(static_cast<unsigned char>(text[j]));
      if (it == n.end()) break;
      node = it->second;
      if (trie_[static_cast<std::size_t>(node)].token >= 0) {
        best = trie_[static_cast<std::size_t>(node)].token;
        best_len = j + 1 - i;
      }
    }
    if (best >= 0) {
      if (i > seg_start) out.push_back(Segment{seg_start, i, -1});
      out.push_back(Segment{i, i + best_len, best});
      i += best_len;
      seg_start = i;
    } else {
      ++i;
    }
  }
  if (seg_start < text.size()) out.push_back(Segment{seg_start, text.size(), -1});
  // lstrip / rstrip swallow the whitespace next to the token.
  for (std::size_t k = 0; k < out.size(); ++k) {
    if (out[k].added < 0) continue;
    const auto& tok = added_[static_cast<std::size_t>(out[k].added)];
    if (tok.lstrip && k > 0 && out[k - 1].added < 0) {
      auto& g = out[k - 1];
      while (g.end > g.begin && is_ws(text[g.end - 1])) --g.end;
    }
    if (tok.rstrip && k + 1 < out.size() && out[k + 1].added < 0) {
      auto& g = out[k + 1];
      while (g.begin < g.end && is_ws(text[g.begin])) ++g.begin;
    }
  }
  return out;
}

void HfTokenizer::encode_pieces(std::string_view text, bool first_section,
                                std::vector<std::int32_t>& out) const {
  if (fast_bpe_) {
    std::size_t last = 0;
    for (auto [b, e] : fast_split_->find_all(text)) {
      if (fast_keep_gaps_ && b > last)
        fast_bpe_->tokenize_byte_level(text.substr(last, b - last), out);
      fast_bpe_->tokenize_byte_level(text.substr(b, e - b), out);
      last = e;
    }
    if (fast_keep_gaps_ && last < text.size())
      fast_bpe_->tokenize_byte_level(text.substr(last), out);
    return;
  }
  std::vector<std::string> pieces{std::string(text)};
  if (pre_tokenizer_) pre_tokenizer_->pre_tokenize(pieces, first_section);
  for (const auto& p : pieces) model_->tokenize(p, out);
}

void HfTokenizer::encode_segment(std::string_view text, bool first_section,
                                 std::vector<std::int32_t>& out) const {
  if (text.empty()) return;
  if (!normalizer_) {
    encode_pieces(text, first_section, out);
    return;
  }
  const std::string normalized = normalizer_->normalize(std::string(text));
  if (!normalized.empty()) encode_pieces(normalized, first_section, out);
}

std::vector<std::int32_t> HfTokenizer::encode(std::string_view raw) const {
  std::string sanitized;
  std::string_view text = raw;
  if (!is_valid_utf8(raw)) {
    sanitized = sanitize_utf8(raw);
    text = sanitized;
  }
  std::vector<std::int32_t> out;
  out.reserve(text.size() / 3 + 4);
  if (added_.empty()) {
    encode_segment(text, true, out);
    return out;
  }
  const auto segments = split_added(text);
  for (std::size_t k = 0; k < segments.size(); ++k) {
    const auto& g = segments[k];
    if (g.added >= 0) {
      out.push_back(added_[static_cast<std::size_t>(g.added)].id);
    } else {
      encode_segment(text.substr(g.begin, g.end - g.begin), k == 0, out);
    }
  }
  return out;
}

std::string HfTokenizer::decode(std::span<const std::int32_t> ids) const {
  if (byte_level_decoder_) {
    // The ByteLevel decoder alone (GPT-2, Llama 3, Qwen, o200k): every token's bytes are looked up
    // in a table built on first use and appended to one run, which is checked for UTF-8 once;
    // added tokens pass through as the decoder passes them.
    std::call_once(byte_table_once_, [this] {
      const std::size_t n = model_->vocab_size();
      byte_offsets_.reserve(n + 1);
      for (std::size_t id = 0; id < n; ++id) {
        byte_offsets_.push_back(static_cast<std::uint32_t>(token_bytes_.size()));
        token_bytes_ += byte_level_to_bytes(model_->id_to_token(static_cast<std::int32_t>(id)));
      }
      byte_offsets_.push_back(static_cast<std::uint32_t>(token_bytes_.size()));
    });
    std::string text, run;
    for (auto id : ids) {
      if (added_like_ids_.count(id)) {
        if (!run.empty()) text += sanitize_utf8(run), run.clear();
        auto it = added_by_id_.find(id);
        text += it != added_by_id_.end() ? std::string_view(added_[it->second].content)
                                         : model_->id_to_token(id);
      } else if (id >= 0 && static_cast<std::size_t>(id) + 1 < byte_offsets_.size()) {
        const auto at = static_cast<std::size_t>(id);
        run.append(token_bytes_, byte_offsets_[at], byte_offsets_[at + 1] - byte_offsets_[at]);
      } else {
        run += byte_level_to_bytes(model_->id_to_token(id));
      }
    }
    if (!run.empty()) text += sanitize_utf8(run);
    if (clean_up_spaces_) text = clean_up_tokenization(std::move(text));
    return text;
  }
  std::vector<std::string> tokens;
  tokens.reserve(ids.size());
  for (auto id : ids) {
    if (auto it = added_by_id_.find(id); it != added_by_id_.end()) {
      tokens.push_back(added_[it->second].content);
    } else {
      tokens.emplace_back(model_->id_to_token(id));
    }
  }
  std::string text;
  if (decoder_) {
    for (auto& piece : decoder_->decode_chain(std::move(tokens))) text += piece;
  } else {
    for (std::size_t i = 0; i < tokens.size(); ++i) text += (i ? " " : "") + tokens[i];
  }
  if (clean_up_spaces_) text = clean_up_tokenization(std::move(text));
  return text;
}

std::size_t HfTokenizer::vocab_size() const {
  // Added tokens that the model vocabulary already holds count once, as Hugging Face counts them.
  std::size_t extra = 0;
  for (const auto& a : added_) extra += model_->id_to_token(a.id).empty() ? 1 : 0;
  return model_->vocab_size() + extra;
}

}  // namespace inferperf::tokenizer
