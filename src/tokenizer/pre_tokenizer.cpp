#include "tokenizer/pre_tokenizer.hpp"

#include "tokenizer/byte_level.hpp"
#include "tokenizer/json_util.hpp"
#include "tokenizer/regex.hpp"

namespace inferperf::tokenizer {

namespace {

enum class Behavior { kRemoved, kIsolated, kMergedWithPrevious, kMergedWithNext, kContiguous };

// Splits one piece by the regex matches according to HF's SplitDelimiterBehavior.
void split_piece(const std::string& s, const Regex& re, Behavior behavior, bool invert,
                 std::vector<std::string>& out) {
  struct Seg {
    std::size_t b, e;
    bool delim;
  };
  std::vector<Seg> segs;
  std::size_t last = 0;
  for (auto [b, e] : re.find_all(s)) {
    if (b > last) segs.push_back({last, b, invert});
    segs.push_back({b, e, !invert});
    last = e;
  }
  if (last < s.size()) segs.push_back({last, s.size(), invert});

  std::vector<std::string> pieces;
  bool pending_next = false;
  std::string carry;
  for (std::size_t k = 0; k < segs.size(); ++k) {
    const auto& g = segs[k];
    std::string text = s.substr(g.b, g.e - g.b);
    switch (behavior) {
      case Behavior::kRemoved:
        if (!g.delim) pieces.push_back(std::move(text));
        break;
      case Behavior::kIsolated:
        pieces.push_back(std::move(text));
        break;
      case Behavior::kMergedWithPrevious:
        if (g.delim && !pieces.empty() && !segs[k - 1].delim) {
          pieces.back() += text;
        } else {
          pieces.push_back(std::move(text));
        }
        break;
      case Behavior::kMergedWithNext:
        if (g.delim) {
          carry += text;
          pending_next = true;
        } else {
          pieces.push_back(carry + text);
          carry.clear();
          pending_next = false;
        }
        break;
      case Behavior::kContiguous:
        if (g.delim && k > 0 && segs[k - 1].delim && !pieces.empty()) {
          pieces.back() += text;
        } else {
          pieces.push_back(std::move(text));
        }
        break;
    }
  }
  if (pending_next && !carry.empty()) pieces.push_back(std::move(carry));
  for (auto& p : pieces) {
    if (!p.empty()) out.push_back(std::move(p));
  }
}

class Split final : public PreTokenizer {
 public:
  Split(std::shared_ptr<Regex> re, Behavior b, bool invert)
      : re_(std::move(re)), behavior_(b), invert_(invert) {}
  void pre_tokenize(std::vector<std::string>& pieces, bool) const override {
    std::vector<std::string> out;
    out.reserve(pieces.size() * 4);
    for (const auto& p : pieces) split_piece(p, *re_, behavior_, invert_, out);
    pieces = std::move(out);
  }

 private:
  std::shared_ptr<Regex> re_;
  Behavior behavior_;
  bool invert_;
};

constexpr const char* kGpt2Pattern =
    R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+)";

class ByteLevelPre final : public PreTokenizer {
 public:
  ByteLevelPre(bool add_prefix_space, std::shared_ptr<Regex> re)
      : prefix_(add_prefix_space), re_(std::move(re)) {}
  void pre_tokenize(std::vector<std::string>& pieces, bool) const override {
    std::vector<std::string> out;
    out.reserve(pieces.size());
    for (auto& p : pieces) {
      if (prefix_ && (p.empty() || p[0] != ' ')) p.insert(p.begin(), ' ');
      if (re_) {
        for (auto [b, e] : re_->find_all(p))
          out.push_back(bytes_to_byte_level(std::string_view(p).substr(b, e - b)));
      } else {
        out.push_back(bytes_to_byte_level(p));
      }
    }
    pieces = std::move(out);
  }

 private:
  bool prefix_;
  std::shared_ptr<Regex> re_;
};

class Metaspace final : public PreTokenizer {
 public:
  Metaspace(std::string replacement, std::string scheme, bool split, std::shared_ptr<Regex> re)
      : rep_(std::move(replacement)),
        scheme_(std::move(scheme)),
        split_(split),
        re_(std::move(re)) {}
  void pre_tokenize(std::vector<std::string>& pieces, bool first_section) const override {
    std::vector<std::string> out;
    for (std::size_t k = 0; k < pieces.size(); ++k) {
      std::string r;
      for (char c : pieces[k]) {
        if (c == ' ')
          r += rep_;
        else
          r.push_back(c);
      }
      const bool prepend = scheme_ == "always" || (scheme_ == "first" && first_section && k == 0);
      if (prepend && r.rfind(rep_, 0) != 0) r = rep_ + r;
      if (split_) {
        split_piece(r, *re_, Behavior::kMergedWithNext, false, out);
      } else {
        out.push_back(std::move(r));
      }
    }
    pieces = std::move(out);
  }

 private:
  std::string rep_, scheme_;
  bool split_;
  std::shared_ptr<Regex> re_;
};

class PreTokenizerSequence final : public PreTokenizer {
 public:
  explicit PreTokenizerSequence(std::vector<std::unique_ptr<PreTokenizer>> parts)
      : parts_(std::move(parts)) {}
  void pre_tokenize(std::vector<std::string>& pieces, bool first) const override {
    for (const auto& p : parts_) p->pre_tokenize(pieces, first);
  }

 private:
  std::vector<std::unique_ptr<PreTokenizer>> parts_;
};

core::Result<std::unique_ptr<PreTokenizer>> regex_split(const std::string& pattern, Behavior b,
                                                        bool invert) {
  auto re = Regex::compile(pattern);
  if (!re) return re.error();
  return std::unique_ptr<PreTokenizer>(new Split(*re, b, invert));
}

}  // namespace

core::Result<std::unique_ptr<PreTokenizer>> make_pre_tokenizer(simdjson::dom::element c) {
  if (c.is_null()) return std::unique_ptr<PreTokenizer>();
  const std::string type = str_field(c, "type");
  auto fail = [&](const std::string& why) {
    return core::Error{core::ErrorKind::kInput, why, "", 0, "pre_tokenizer"};
  };
  if (type == "Split") {
    auto src = pattern_source(c["pattern"]);
    if (!src) return fail("Split pre-tokenizer without a pattern");
    const std::string b = str_field(c, "behavior", "Isolated");
    Behavior behavior = b == "Removed"              ? Behavior::kRemoved
                        : b == "MergedWithPrevious" ? Behavior::kMergedWithPrevious
                        : b == "MergedWithNext"     ? Behavior::kMergedWithNext
                        : b == "Contiguous"         ? Behavior::kContiguous
                                                    : Behavior::kIsolated;
    return regex_split(*src, behavior, bool_field(c, "invert", false));
  }
  if (type == "ByteLevel") {
    std::shared_ptr<Regex> re;
    if (bool_field(c, "use_regex", true)) {
      auto r = Regex::compile(kGpt2Pattern);
      if (!r) return r.error();
      re = *r;
    }
    return std::unique_ptr<PreTokenizer>(
        new ByteLevelPre(bool_field(c, "add_prefix_space", true), re));
  }
  if (type == "Metaspace") {
    std::string rep = str_field(c, "replacement", "\xE2\x96\x81");
    std::string scheme = str_field(c, "prepend_scheme", "");
    if (scheme.empty()) scheme = bool_field(c, "add_prefix_space", true) ? "always" : "never";
    auto re = Regex::compile(regex_escape(rep));
    if (!re) return re.error();
    return std::unique_ptr<PreTokenizer>(
        new Metaspace(rep, scheme, bool_field(c, "split", true), *re));
  }
  if (type == "Digits") {
    return regex_split(bool_field(c, "individual_digits", false) ? R"(\p{Nd})" : R"(\p{Nd}+)",
                       Behavior::kIsolated, false);
  }
  if (type == "Punctuation") {
    const std::string b = str_field(c, "behavior", "Isolated");
    return regex_split(R"([\p{P}!-/:-@\[-`{-~])",
                       b == "Removed" ? Behavior::kRemoved : Behavior::kIsolated, false);
  }
  if (type == "Whitespace") return regex_split(R"(\w+|[^\w\s]+)", Behavior::kRemoved, true);
  if (type == "WhitespaceSplit") return regex_split(R"(\s+)", Behavior::kRemoved, false);
  if (type == "BertPreTokenizer") {
    std::vector<std::unique_ptr<PreTokenizer>> parts;
    auto ws = regex_split(R"(\s+)", Behavior::kRemoved, false);
    auto punct = regex_split(R"([\p{P}!-/:-@\[-`{-~])", Behavior::kIsolated, false);
    if (!ws) return ws.error();
    if (!punct) return punct.error();
    parts.push_back(std::move(*ws));
    parts.push_back(std::move(*punct));
    return std::unique_ptr<PreTokenizer>(new PreTokenizerSequence(std::move(parts)));
  }
  if (type == "Sequence") {
    std::vector<std::unique_ptr<PreTokenizer>> parts;
    simdjson::dom::array arr;
    if (c["pretokenizers"].get_array().get(arr) == simdjson::SUCCESS) {
      for (auto item : arr) {
        auto p = make_pre_tokenizer(item);
        if (!p) return p.error();
        if (*p) parts.push_back(std::move(*p));
      }
    }
    return std::unique_ptr<PreTokenizer>(new PreTokenizerSequence(std::move(parts)));
  }
  return fail("pre-tokenizer type '" + type + "' is not supported");
}

}  // namespace inferperf::tokenizer
