#include "tokenizer/decoder.hpp"

#include "tokenizer/byte_level.hpp"
#include "tokenizer/json_util.hpp"
#include "tokenizer/regex.hpp"
#include "tokenizer/text_util.hpp"
#include "tokenizer/utf8.hpp"

namespace inferperf::tokenizer {

namespace {

class ByteLevelDec final : public Decoder {
 public:
  explicit ByteLevelDec(const std::unordered_set<std::string>* added) : added_(added) {}
  std::vector<std::string> decode_chain(std::vector<std::string> tokens) const override {
    std::vector<std::string> out;
    std::string run;
    auto flush = [&] {
      if (!run.empty()) out.push_back(sanitize_utf8(byte_level_to_bytes(run)));
      run.clear();
    };
    for (auto& t : tokens) {
      if (added_ && added_->count(t)) {
        flush();
        out.push_back(std::move(t));
      } else {
        run += t;
      }
    }
    flush();
    return out;
  }

 private:
  const std::unordered_set<std::string>* added_;
};

class MetaspaceDec final : public Decoder {
 public:
  MetaspaceDec(std::string rep, bool strip_first) : rep_(std::move(rep)), strip_(strip_first) {}
  std::vector<std::string> decode_chain(std::vector<std::string> tokens) const override {
    for (std::size_t i = 0; i < tokens.size(); ++i) {
      tokens[i] = replace_all(std::move(tokens[i]), rep_, " ");
      if (strip_ && i == 0 && !tokens[i].empty() && tokens[i][0] == ' ') tokens[i].erase(0, 1);
    }
    return tokens;
  }

 private:
  std::string rep_;
  bool strip_;
};

class ByteFallbackDec final : public Decoder {
 public:
  std::vector<std::string> decode_chain(std::vector<std::string> tokens) const override {
    std::vector<std::string> out;
    std::string bytes;
    auto flush = [&] {
      if (!bytes.empty()) out.push_back(sanitize_utf8(bytes));
      bytes.clear();
    };
    for (auto& t : tokens) {
      if (t.size() == 6 && t.rfind("<0x", 0) == 0 && t[5] == '>') {
        try {
          std::size_t used = 0;
          int v = std::stoi(t.substr(3, 2), &used, 16);
          if (used == 2) {
            bytes.push_back(static_cast<char>(v));
            continue;
          }
        } catch (const std::exception&) {
        }
      }
      flush();
      out.push_back(std::move(t));
    }
    flush();
    return out;
  }
};

class FuseDec final : public Decoder {
 public:
  std::vector<std::string> decode_chain(std::vector<std::string> tokens) const override {
    std::string all;
    for (auto& t : tokens) all += t;
    return {all};
  }
};

class StripDec final : public Decoder {
 public:
  StripDec(std::string content, std::size_t start, std::size_t stop)
      : c_(std::move(content)), start_(start), stop_(stop) {}
  std::vector<std::string> decode_chain(std::vector<std::string> tokens) const override {
    for (auto& t : tokens) {
      std::size_t b = 0;
      for (std::size_t k = 0; k < start_ && t.compare(b, c_.size(), c_) == 0 && b < t.size(); ++k)
        b += c_.size();
      std::size_t e = t.size();
      for (std::size_t k = 0;
           k < stop_ && e >= b + c_.size() && t.compare(e - c_.size(), c_.size(), c_) == 0; ++k) {
        e -= c_.size();
      }
      t = t.substr(b, e - b);
    }
    return tokens;
  }

 private:
  std::string c_;
  std::size_t start_, stop_;
};

class ReplaceDec final : public Decoder {
 public:
  ReplaceDec(std::shared_ptr<Regex> re, std::string content)
      : re_(std::move(re)), content_(std::move(content)) {}
  std::vector<std::string> decode_chain(std::vector<std::string> tokens) const override {
    for (auto& t : tokens) t = regex_replace(*re_, t, content_);
    return tokens;
  }

 private:
  std::shared_ptr<Regex> re_;
  std::string content_;
};

class WordPieceDec final : public Decoder {
 public:
  WordPieceDec(std::string prefix, bool cleanup) : prefix_(std::move(prefix)), cleanup_(cleanup) {}
  std::vector<std::string> decode_chain(std::vector<std::string> tokens) const override {
    for (std::size_t i = 0; i < tokens.size(); ++i) {
      if (i != 0) {
        if (tokens[i].rfind(prefix_, 0) == 0)
          tokens[i].erase(0, prefix_.size());
        else
          tokens[i] = " " + tokens[i];
      }
      if (cleanup_) tokens[i] = clean_up_tokenization(std::move(tokens[i]));
    }
    return tokens;
  }

 private:
  std::string prefix_;
  bool cleanup_;
};

class BpeDec final : public Decoder {
 public:
  explicit BpeDec(std::string suffix) : suffix_(std::move(suffix)) {}
  std::vector<std::string> decode_chain(std::vector<std::string> tokens) const override {
    for (std::size_t i = 0; i < tokens.size(); ++i) {
      tokens[i] = replace_all(std::move(tokens[i]), suffix_, i + 1 == tokens.size() ? "" : " ");
    }
    return tokens;
  }

 private:
  std::string suffix_;
};

class SequenceDec final : public Decoder {
 public:
  explicit SequenceDec(std::vector<std::unique_ptr<Decoder>> parts) : parts_(std::move(parts)) {}
  std::vector<std::string> decode_chain(std::vector<std::string> tokens) const override {
    for (const auto& p : parts_) tokens = p->decode_chain(std::move(tokens));
    return tokens;
  }

 private:
  std::vector<std::unique_ptr<Decoder>> parts_;
};

}  // namespace

core::Result<std::unique_ptr<Decoder>> make_decoder(simdjson::dom::element c,
                                                    const std::unordered_set<std::string>* added) {
  if (c.is_null()) return std::unique_ptr<Decoder>();
  const std::string type = str_field(c, "type");
  if (type == "ByteLevel") return std::unique_ptr<Decoder>(new ByteLevelDec(added));
  if (type == "Metaspace") {
    std::string scheme = str_field(c, "prepend_scheme", "");
    bool strip = scheme.empty() ? bool_field(c, "add_prefix_space", true) : scheme != "never";
    return std::unique_ptr<Decoder>(
        new MetaspaceDec(str_field(c, "replacement", "\xE2\x96\x81"), strip));
  }
  if (type == "ByteFallback") return std::unique_ptr<Decoder>(new ByteFallbackDec());
  if (type == "Fuse") return std::unique_ptr<Decoder>(new FuseDec());
  if (type == "Strip") {
    return std::unique_ptr<Decoder>(new StripDec(
        str_field(c, "content", " "), static_cast<std::size_t>(int_field(c, "start").value_or(0)),
        static_cast<std::size_t>(int_field(c, "stop").value_or(0))));
  }
  if (type == "Replace") {
    auto src = pattern_source(c["pattern"]);
    if (!src)
      return core::Error{core::ErrorKind::kInput, "Replace decoder without a pattern", "", 0,
                         "decoder.pattern"};
    auto re = Regex::compile(*src);
    if (!re) return re.error();
    return std::unique_ptr<Decoder>(new ReplaceDec(*re, str_field(c, "content")));
  }
  if (type == "WordPiece") {
    return std::unique_ptr<Decoder>(
        new WordPieceDec(str_field(c, "prefix", "##"), bool_field(c, "cleanup", true)));
  }
  if (type == "BPEDecoder")
    return std::unique_ptr<Decoder>(new BpeDec(str_field(c, "suffix", "</w>")));
  if (type == "Sequence") {
    std::vector<std::unique_ptr<Decoder>> parts;
    simdjson::dom::array arr;
    if (c["decoders"].get_array().get(arr) == simdjson::SUCCESS) {
      for (auto item : arr) {
        auto d = make_decoder(item, added);
        if (!d) return d.error();
        if (*d) parts.push_back(std::move(*d));
      }
    }
    return std::unique_ptr<Decoder>(new SequenceDec(std::move(parts)));
  }
  return core::Error{core::ErrorKind::kInput, "decoder type '" + type + "' is not supported", "", 0,
                     "decoder.type"};
}

}  // namespace inferperf::tokenizer
