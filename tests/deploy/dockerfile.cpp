#include "dockerfile.hpp"

#include <cctype>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace inferperf::deploy_test {

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> split_words(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

std::string upper(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

std::optional<long> number(const std::string& s) {
  if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  return std::stol(s);
}

}  // namespace

Dockerfile parse_dockerfile(const std::string& file, const std::string& text) {
  Dockerfile d;
  d.file = file;
  std::istringstream in(text);
  std::string raw;
  int no = 0;
  std::optional<Instruction> cur;
  auto finish = [&] {
    if (!cur) return;
    Instruction ins = std::move(*cur);
    cur.reset();
    for (const auto& [n, t] : ins.physical) ins.args += (ins.args.empty() ? "" : " ") + t;
    const auto sp = ins.args.find_first_of(" \t");
    ins.op = upper(ins.args.substr(0, sp));
    ins.args = sp == std::string::npos ? "" : trim(ins.args.substr(sp));
    if (ins.op == "FROM") {
      const auto w = split_words(ins.args);
      std::vector<std::string> plain;
      for (const auto& x : w)
        if (x.rfind("--", 0) != 0) plain.push_back(x);  // --platform=...
      if (plain.empty()) throw std::runtime_error(d.where(ins.line) + ": FROM without an image");
      Stage s;
      s.line = ins.line;
      s.image = plain[0];
      if (plain.size() >= 3 && upper(plain[1]) == "AS") s.name = plain[2];
      d.stages.push_back(std::move(s));
    } else if (d.stages.empty()) {
      if (ins.op != "ARG")
        throw std::runtime_error(d.where(ins.line) + ": " + ins.op + " before the first FROM");
      d.preamble.push_back(std::move(ins));
    } else {
      d.stages.back().body.push_back(std::move(ins));
    }
  };
  while (std::getline(in, raw)) {
    ++no;
    const std::string t = trim(raw);
    // Comment lines are dropped, also between the continuation lines of one instruction.
    if (t.empty() || t[0] == '#') continue;
    std::string body = t;
    const bool continues = !body.empty() && body.back() == '\\';
    if (continues) body = trim(body.substr(0, body.size() - 1));
    if (!cur) cur = Instruction{no, "", "", {}};
    cur->physical.emplace_back(no, body);
    if (!continues) finish();
  }
  finish();
  return d;
}

std::vector<Word> apt_packages(const Stage& s) {
  std::vector<Word> out;
  for (const auto& ins : s.body) {
    if (ins.op != "RUN") continue;
    bool apt = false, installing = false;
    for (std::size_t p = 0; p < ins.physical.size(); ++p) {
      auto words = split_words(ins.physical[p].second);
      if (p == 0 && !words.empty()) words.erase(words.begin());  // "RUN"
      for (const auto& w : words) {
        if (w == "&&" || w == "||" || w == ";" || w == "|") {
          apt = installing = false;
          continue;
        }
        if (w == "apt-get" || w == "apt") {
          apt = true;
          continue;
        }
        if (apt && !installing && w == "install") {
          installing = true;
          continue;
        }
        if (installing && !w.empty() && w[0] != '-') out.push_back({ins.physical[p].first, w});
      }
    }
  }
  return out;
}

std::optional<ImageUser> final_user(const Dockerfile& d) {
  if (d.stages.empty()) return std::nullopt;
  std::optional<ImageUser> u;
  for (const auto& ins : d.stages.back().body) {
    if (ins.op != "USER") continue;
    ImageUser x;
    x.line = ins.line;
    x.spec = ins.args;
    const auto colon = x.spec.find(':');
    x.uid = number(x.spec.substr(0, colon));
    if (colon != std::string::npos) x.gid = number(x.spec.substr(colon + 1));
    u = x;
  }
  return u;
}

std::optional<Entrypoint> final_entrypoint(const Dockerfile& d) {
  if (d.stages.empty()) return std::nullopt;
  std::optional<Entrypoint> e;
  for (const auto& ins : d.stages.back().body) {
    if (ins.op != "ENTRYPOINT") continue;
    Entrypoint x;
    x.line = ins.line;
    try {
      const auto j = nlohmann::json::parse(ins.args);
      if (!j.is_array()) return std::nullopt;
      for (const auto& a : j) {
        if (!a.is_string()) return std::nullopt;
        x.argv.push_back(a.get<std::string>());
      }
    } catch (const nlohmann::json::exception&) {
      return std::nullopt;  // shell form
    }
    e = x;
  }
  return e;
}

}  // namespace inferperf::deploy_test
