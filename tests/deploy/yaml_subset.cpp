#include "yaml_subset.hpp"

#include <regex>
#include <sstream>

namespace inferperf::deploy_test {

using nlohmann::json;

namespace {

struct Line {
  int no = 0;      // 1-based line number in the file
  int indent = 0;  // leading spaces
  std::string text;
  // A multi-line flow value: the raw text of each line that makes it up, with its line number.
  std::vector<std::pair<int, std::string>> parts;
};

std::string rtrim(std::string s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\r')) s.pop_back();
  return s;
}

// Bracket depth change of a JSON fragment, strings skipped.
int bracket_delta(const std::string& s, bool& in_string) {
  int d = 0;
  bool escaped = false;
  for (char c : s) {
    if (in_string) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    if (c == '[' || c == '{') ++d;
    if (c == ']' || c == '}') --d;
  }
  return d;
}

const std::regex& key_re() {
  static const std::regex re(R"(^([A-Za-z0-9_./-]+):(?: +(.*))?$)");
  return re;
}

// A key as one JSON pointer reference token (RFC 6901).
std::string pointer_token(const std::string& key) {
  std::string out;
  for (char c : key) {
    if (c == '~')
      out += "~0";
    else if (c == '/')
      out += "~1";
    else
      out += c;
  }
  return out;
}

bool is_seq_item(const std::string& t) {
  return t == "-" || t.rfind("- ", 0) == 0;
}

// The value part of a line ("key: VALUE", "- VALUE", "- key: VALUE"), for spotting flow starts.
std::string value_part(std::string t) {
  while (is_seq_item(t)) {
    t = t.size() > 1 ? t.substr(2) : "";
    while (!t.empty() && t.front() == ' ') t.erase(0, 1);
  }
  std::smatch m;
  if (std::regex_match(t, m, key_re())) return m[2].str();
  return t;
}

class Parser {
 public:
  Parser(std::string file, std::vector<Line> lines, YamlDoc& doc)
      : file_(std::move(file)), lines_(std::move(lines)), doc_(doc) {}

  json parse_document() {
    if (lines_.empty()) return nullptr;
    if (lines_[0].indent != 0) fail(lines_[0], "a document starts in column 1");
    json v = parse_block(0, "");
    if (i_ < lines_.size()) fail(lines_[i_], "unexpected indentation");
    return v;
  }

 private:
  [[noreturn]] void fail(const Line& l, const std::string& what) const {
    throw YamlError(file_ + ":" + std::to_string(l.no) + ": " + what + " (outside the subset " +
                    "deploy/kubernetes manifests are written in): " + l.text);
  }

  json parse_block(int indent, const std::string& ptr) {
    doc_.lines[ptr] = lines_[i_].no;
    return is_seq_item(lines_[i_].text) ? parse_seq(indent, ptr) : parse_map(indent, ptr);
  }

  json parse_seq(int indent, const std::string& ptr) {
    json arr = json::array();
    while (i_ < lines_.size() && lines_[i_].indent == indent && is_seq_item(lines_[i_].text)) {
      Line& l = lines_[i_];
      const std::string item_ptr = ptr + "/" + std::to_string(arr.size());
      doc_.lines[item_ptr] = l.no;
      std::string rest = l.text.size() > 1 ? l.text.substr(2) : "";
      int spaces = 0;
      while (!rest.empty() && rest.front() == ' ') rest.erase(0, 1), ++spaces;
      if (rest.empty()) {
        ++i_;
        if (i_ < lines_.size() && lines_[i_].indent > indent)
          arr.push_back(parse_block(lines_[i_].indent, item_ptr));
        else
          arr.push_back(nullptr);
        continue;
      }
      // "- key: v" and "- - v" open a block whose column is that of their first character.
      if (std::regex_match(rest, key_re()) || is_seq_item(rest)) {
        l.indent = indent + 2 + spaces;
        l.text = rest;
        arr.push_back(parse_block(l.indent, item_ptr));
        continue;
      }
      arr.push_back(scalar(l, rest, item_ptr));
      ++i_;
      check_nothing_under(indent);
    }
    return arr;
  }

  json parse_map(int indent, const std::string& ptr) {
    json obj = json::object();
    while (i_ < lines_.size() && lines_[i_].indent == indent && !is_seq_item(lines_[i_].text)) {
      const Line& l = lines_[i_];
      std::smatch m;
      if (!std::regex_match(l.text, m, key_re())) fail(l, "expected 'key: value' or '- item'");
      const std::string key = m[1].str();
      const std::string value = m[2].str();
      if (obj.contains(key)) fail(l, "key '" + key + "' given twice");
      const std::string key_ptr = ptr + "/" + pointer_token(key);
      doc_.lines[key_ptr] = l.no;
      if (!value.empty()) {
        obj[key] = scalar(l, value, key_ptr);
        ++i_;
        check_nothing_under(indent);
        continue;
      }
      ++i_;
      // A nested block, or a sequence at the key's own column ("containers:\n- name: x").
      if (i_ < lines_.size() && (lines_[i_].indent > indent ||
                                 (lines_[i_].indent == indent && is_seq_item(lines_[i_].text))))
        obj[key] = parse_block(lines_[i_].indent, key_ptr);
      else
        obj[key] = nullptr;
    }
    if (i_ < lines_.size() && lines_[i_].indent > indent)
      fail(lines_[i_], "unexpected indentation");
    return obj;
  }

  void check_nothing_under(int indent) {
    if (i_ < lines_.size() && lines_[i_].indent > indent)
      fail(lines_[i_], "indented under a scalar value");
  }

  json scalar(const Line& l, const std::string& v, const std::string& ptr) {
    const char c = v.front();
    if (c == '[' || c == '{') return flow(l, v, ptr);
    if (c == '\'') fail(l, "single-quoted scalar (use JSON double quotes)");
    if (c == '|' || c == '>') fail(l, "block scalar");
    if (c == '&' || c == '*' || c == '!') fail(l, "anchor, alias or tag");
    if (c == '"') {
      json s;
      try {
        s = json::parse(v);
      } catch (const json::exception&) {
        fail(l, "not one JSON double-quoted string");
      }
      if (!s.is_string()) fail(l, "not one JSON double-quoted string");
      return s;
    }
    if (v.find(" #") != std::string::npos || v.find('#') == 0)
      fail(l, "comment after a value (put it on a line of its own)");
    if (v.find(": ") != std::string::npos) fail(l, "': ' inside a plain scalar (quote it)");
    static const std::regex number(R"(^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?$)");
    if (v == "true" || v == "false" || v == "null" || std::regex_match(v, number))
      return json::parse(v);
    if (v == "~" || v == "yes" || v == "no" || v == "True" || v == "False" || v == "Null" ||
        v == "NULL" || v == "on" || v == "off")
      fail(l, "ambiguous plain scalar (write true, false, null or a quoted string)");
    return v;
  }

  json flow(const Line& l, const std::string& v, const std::string& ptr) {
    // A multi-line value: its first line from the flow start on, then the lines that follow.
    std::string joined = v;
    if (!l.parts.empty()) {
      joined = value_part(l.parts.front().second);
      for (std::size_t p = 1; p < l.parts.size(); ++p) joined += "\n" + l.parts[p].second;
    }
    json j;
    try {
      j = json::parse(joined);
    } catch (const json::exception& e) {
      fail(l, std::string("flow value is not JSON: ") + e.what());
    }
    // Each element of a flow sequence gets the line its text is on, when it can be found.
    if (j.is_array()) {
      std::size_t part = 0, pos = 0;
      for (std::size_t k = 0; k < j.size(); ++k) {
        const std::string needle = j[k].dump();
        int line = l.no;
        if (!l.parts.empty()) {
          for (std::size_t p = part; p < l.parts.size(); ++p) {
            const auto at = l.parts[p].second.find(needle, p == part ? pos : 0);
            if (at != std::string::npos) {
              line = l.parts[p].first;
              part = p;
              pos = at + needle.size();
              break;
            }
          }
        }
        doc_.lines[ptr + "/" + std::to_string(k)] = line;
      }
    }
    return j;
  }

  std::string file_;
  std::vector<Line> lines_;
  YamlDoc& doc_;
  std::size_t i_ = 0;
};

}  // namespace

std::string YamlDoc::where(const std::string& pointer) const {
  std::string p = pointer;
  for (;;) {
    if (auto it = lines.find(p); it != lines.end()) return file + ":" + std::to_string(it->second);
    const auto slash = p.rfind('/');
    if (slash == std::string::npos) return file + ":" + std::to_string(first_line);
    p.resize(slash);
  }
}

std::vector<YamlDoc> parse_yaml_subset(const std::string& file, const std::string& text) {
  std::vector<std::vector<Line>> docs(1);
  std::istringstream in(text);
  std::string raw;
  int no = 0;
  bool in_string = false;
  int depth = 0;  // > 0: inside a multi-line flow value, appended to docs.back().back()
  while (std::getline(in, raw)) {
    ++no;
    raw = rtrim(raw);
    std::size_t ind = raw.find_first_not_of(' ');
    if (ind != std::string::npos && raw[ind] == '\t')
      throw YamlError(file + ":" + std::to_string(no) + ": tab in indentation");
    if (ind == std::string::npos || raw[ind] == '#') continue;  // blank or comment line
    if (depth > 0) {
      Line& open = docs.back().back();
      open.parts.emplace_back(no, raw.substr(ind));
      depth += bracket_delta(raw, in_string);
      continue;
    }
    if (raw == "---") {
      docs.emplace_back();
      continue;
    }
    if (raw.rfind("%", 0) == 0 || raw == "...")
      throw YamlError(file + ":" + std::to_string(no) + ": YAML directive or document end marker");
    Line l{no, static_cast<int>(ind), raw.substr(ind), {}};
    const std::string v = value_part(l.text);
    if (!v.empty() && (v.front() == '[' || v.front() == '{')) {
      in_string = false;
      const int d = bracket_delta(v, in_string);
      if (d > 0) {
        depth = d;
        l.parts.emplace_back(no, l.text);
      }
    }
    docs.back().push_back(std::move(l));
  }
  if (depth > 0)
    throw YamlError(file + ":" + std::to_string(docs.back().back().no) +
                    ": a flow value's brackets never close");

  std::vector<YamlDoc> out;
  for (std::size_t d = 0; d < docs.size(); ++d) {
    if (docs[d].empty()) continue;
    YamlDoc doc;
    doc.file = file;
    doc.first_line = docs[d].front().no;
    Parser p(file, docs[d], doc);
    doc.value = p.parse_document();
    out.push_back(std::move(doc));
  }
  return out;
}

}  // namespace inferperf::deploy_test
