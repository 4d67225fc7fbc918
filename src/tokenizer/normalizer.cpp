#include "tokenizer/normalizer.hpp"

#include <utf8proc.h>

#include <vector>

#include "tokenizer/json_util.hpp"
#include "tokenizer/regex.hpp"
#include "tokenizer/text_util.hpp"
#include "tokenizer/utf8.hpp"

namespace inferperf::tokenizer {

std::optional<std::string> pattern_source(simdjson::simdjson_result<simdjson::dom::element> field) {
  simdjson::dom::element pattern;
  if (field.get(pattern) != simdjson::SUCCESS) return std::nullopt;
  std::string_view s;
  if (pattern["String"].get_string().get(s) == simdjson::SUCCESS) return regex_escape(s);
  if (pattern["Regex"].get_string().get(s) == simdjson::SUCCESS) return std::string(s);
  return std::nullopt;
}

namespace {

std::string utf8proc_form(std::string_view text, int form_opts) {
  utf8proc_uint8_t* out = nullptr;
  auto n = utf8proc_map(reinterpret_cast<const utf8proc_uint8_t*>(text.data()),
                        static_cast<utf8proc_ssize_t>(text.size()), &out,
                        static_cast<utf8proc_option_t>(UTF8PROC_STABLE | form_opts));
  if (n < 0) return std::string(text);
  std::string result(reinterpret_cast<char*>(out), static_cast<std::size_t>(n));
  std::free(out);
  return result;
}

}  // namespace

std::string unicode_normalize(const std::string& text, const std::string& form) {
  const int opts = form == "NFC"    ? UTF8PROC_COMPOSE
                   : form == "NFD"  ? UTF8PROC_DECOMPOSE
                   : form == "NFKC" ? (UTF8PROC_COMPOSE | UTF8PROC_COMPAT)
                                    : (UTF8PROC_DECOMPOSE | UTF8PROC_COMPAT);
  if (form != "NFC") return utf8proc_form(text, opts);
  // NFC works on stretches between "stable" code points: starters without a canonical
  // decomposition that take part in no composition (neither as first nor as second member) and
  // are not Hangul (composed algorithmically). Nothing reorders or composes across them, so they
  // are copied and only the stretches in between go through utf8proc. ASCII never decomposes or
  // composes with what precedes it, but a letter may take a following mark: it is copied when the
  // next code point is ASCII or stable.
  auto stable = [](char32_t cp) {
    if ((cp >= 0x1100 && cp <= 0x11FF) || (cp >= 0xAC00 && cp <= 0xD7A3)) return false;
    const utf8proc_property_t* p = utf8proc_get_property(static_cast<utf8proc_int32_t>(cp));
    return p->combining_class == 0 && p->comb_index == UINT16_MAX &&
           (p->decomp_seqindex == UINT16_MAX || p->decomp_type != 0);
  };
  auto safe_at = [&](std::size_t i) {
    if (i >= text.size() || static_cast<unsigned char>(text[i]) < 0x80) return true;
    return stable(next_code_point(text, i));
  };
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0, stretch = std::string::npos;
  while (i < text.size()) {
    if (stretch == std::string::npos && static_cast<unsigned char>(text[i]) < 0x80) {
      // An ASCII run is copied whole but for its last byte, which a mark may follow.
      std::size_t e = i;
      while (e < text.size() && static_cast<unsigned char>(text[e]) < 0x80) ++e;
      out.append(text, i, e - 1 - i);
      i = e - 1;
    }
    const std::size_t start = i;
    bool copy;
    if (static_cast<unsigned char>(text[i]) < 0x80) {
      ++i;
      copy = safe_at(i);
    } else {
      copy = stable(next_code_point(text, i));
    }
    if (!copy) {
      if (stretch == std::string::npos) stretch = start;
      continue;
    }
    if (stretch != std::string::npos) {
      out += utf8proc_form(std::string_view(text).substr(stretch, start - stretch), opts);
      stretch = std::string::npos;
    }
    out.append(text, start, i - start);
  }
  if (stretch != std::string::npos)
    out += utf8proc_form(std::string_view(text).substr(stretch), opts);
  return out;
}

namespace {

class UnicodeForm final : public Normalizer {
 public:
  explicit UnicodeForm(std::string form) : form_(std::move(form)) {}
  std::string normalize(std::string t) const override { return unicode_normalize(t, form_); }

 private:
  std::string form_;
};

std::string map_code_points(const std::string& t, char32_t (*f)(char32_t)) {
  std::string out;
  out.reserve(t.size());
  std::size_t i = 0;
  while (i < t.size()) append_utf8(out, f(next_code_point(t, i)));
  return out;
}

char32_t lower(char32_t c) {
  return static_cast<char32_t>(utf8proc_tolower(static_cast<utf8proc_int32_t>(c)));
}

class Lowercase final : public Normalizer {
 public:
  std::string normalize(std::string t) const override { return map_code_points(t, lower); }
};

class Prepend final : public Normalizer {
 public:
  explicit Prepend(std::string p) : p_(std::move(p)) {}
  std::string normalize(std::string t) const override { return t.empty() ? t : p_ + t; }

 private:
  std::string p_;
};

class Replace final : public Normalizer {
 public:
  Replace(std::shared_ptr<Regex> re, std::string content)
      : re_(std::move(re)), content_(std::move(content)) {}
  std::string normalize(std::string t) const override { return regex_replace(*re_, t, content_); }

 private:
  std::shared_ptr<Regex> re_;
  std::string content_;
};

bool is_space(char32_t c) {
  return utf8proc_category(static_cast<utf8proc_int32_t>(c)) == UTF8PROC_CATEGORY_ZS ||
         (c >= 9 && c <= 13);
}

class Strip final : public Normalizer {
 public:
  Strip(bool left, bool right) : left_(left), right_(right) {}
  std::string normalize(std::string t) const override {
    std::size_t b = 0, e = t.size();
    if (left_) {
      std::size_t i = 0;
      while (i < t.size()) {
        std::size_t start = i;
        if (!is_space(next_code_point(t, i))) {
          b = start;
          break;
        }
        b = i;
      }
    }
    if (right_) {
      std::size_t i = b, last_non_space_end = b;
      while (i < t.size()) {
        if (!is_space(next_code_point(t, i))) last_non_space_end = i;
      }
      e = last_non_space_end;
    }
    return t.substr(b, e - b);
  }

 private:
  bool left_, right_;
};

class StripAccents final : public Normalizer {
 public:
  std::string normalize(std::string t) const override {
    std::string out;
    std::size_t i = 0;
    while (i < t.size()) {
      char32_t c = next_code_point(t, i);
      if (utf8proc_category(static_cast<utf8proc_int32_t>(c)) != UTF8PROC_CATEGORY_MN)
        append_utf8(out, c);
    }
    return out;
  }
};

bool is_chinese(char32_t c) {
  return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) ||
         (c >= 0x20000 && c <= 0x2A6DF) || (c >= 0x2A700 && c <= 0x2B73F) ||
         (c >= 0x2B740 && c <= 0x2B81F) || (c >= 0x2B820 && c <= 0x2CEAF) ||
         (c >= 0xF900 && c <= 0xFAFF) || (c >= 0x2F800 && c <= 0x2FA1F);
}

class BertNormalizer final : public Normalizer {
 public:
  BertNormalizer(bool clean, bool chinese, bool strip_accents, bool lowercase)
      : clean_(clean), chinese_(chinese), strip_(strip_accents), lower_(lowercase) {}
  std::string normalize(std::string t) const override {
    std::string out;
    std::size_t i = 0;
    while (i < t.size()) {
      char32_t c = next_code_point(t, i);
      if (clean_) {
        auto cat = utf8proc_category(static_cast<utf8proc_int32_t>(c));
        if (c == 0 || c == 0xFFFD) continue;
        const bool ws =
            c == ' ' || c == '\t' || c == '\n' || c == '\r' || cat == UTF8PROC_CATEGORY_ZS;
        if (!ws && (cat == UTF8PROC_CATEGORY_CC || cat == UTF8PROC_CATEGORY_CF)) continue;
        if (ws) c = ' ';
      }
      if (chinese_ && is_chinese(c)) {
        out.push_back(' ');
        append_utf8(out, c);
        out.push_back(' ');
      } else {
        append_utf8(out, c);
      }
    }
    if (lower_) {
      out = map_code_points(out, lower);
      if (strip_) out = StripAccents().normalize(unicode_normalize(out, "NFD"));
    } else if (strip_) {
      out = StripAccents().normalize(unicode_normalize(out, "NFD"));
    }
    return out;
  }

 private:
  bool clean_, chinese_, strip_, lower_;
};

class NormalizerSequence final : public Normalizer {
 public:
  explicit NormalizerSequence(std::vector<std::unique_ptr<Normalizer>> parts)
      : parts_(std::move(parts)) {}
  std::string normalize(std::string t) const override {
    for (const auto& p : parts_) t = p->normalize(std::move(t));
    return t;
  }

 private:
  std::vector<std::unique_ptr<Normalizer>> parts_;
};

core::Error unsupported(const std::string& what) {
  return core::Error{core::ErrorKind::kInput, "normalizer type '" + what + "' is not supported", "",
                     0, "normalizer.type"};
}

}  // namespace

core::Result<std::unique_ptr<Normalizer>> make_normalizer(simdjson::dom::element c) {
  if (c.is_null()) return std::unique_ptr<Normalizer>();
  const std::string type = str_field(c, "type");
  if (type == "NFC" || type == "NFD" || type == "NFKC" || type == "NFKD") {
    return std::unique_ptr<Normalizer>(new UnicodeForm(type));
  }
  if (type == "Lowercase") return std::unique_ptr<Normalizer>(new Lowercase());
  if (type == "Prepend") return std::unique_ptr<Normalizer>(new Prepend(str_field(c, "prepend")));
  if (type == "Strip") {
    return std::unique_ptr<Normalizer>(
        new Strip(bool_field(c, "strip_left", true), bool_field(c, "strip_right", true)));
  }
  if (type == "StripAccents") return std::unique_ptr<Normalizer>(new StripAccents());
  if (type == "BertNormalizer") {
    bool lower = bool_field(c, "lowercase", true);
    bool strip = false;
    bool strip_set = c["strip_accents"].get_bool().get(strip) == simdjson::SUCCESS;
    return std::unique_ptr<Normalizer>(new BertNormalizer(
        bool_field(c, "clean_text", true), bool_field(c, "handle_chinese_chars", true),
        strip_set ? strip : lower, lower));
  }
  if (type == "Replace") {
    auto src = pattern_source(c["pattern"]);
    if (!src)
      return core::Error{core::ErrorKind::kInput, "Replace normalizer without a pattern", "", 0,
                         "normalizer.pattern"};
    auto re = Regex::compile(*src);
    if (!re) return re.error();
    return std::unique_ptr<Normalizer>(new Replace(*re, str_field(c, "content")));
  }
  if (type == "Sequence") {
    std::vector<std::unique_ptr<Normalizer>> parts;
    simdjson::dom::array arr;
    if (c["normalizers"].get_array().get(arr) == simdjson::SUCCESS) {
      for (auto item : arr) {
        auto n = make_normalizer(item);
        if (!n) return n.error();
        if (*n) parts.push_back(std::move(*n));
      }
    }
    return std::unique_ptr<Normalizer>(new NormalizerSequence(std::move(parts)));
  }
  return unsupported(type);
}

}  // namespace inferperf::tokenizer
