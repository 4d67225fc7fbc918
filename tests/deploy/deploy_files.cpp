#include "deploy_files.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <regex>
#include <stdexcept>

namespace inferperf::deploy_test {

namespace fs = std::filesystem;

std::string source_path(const std::string& relative) {
  return (fs::path(INFERPERF_SOURCE_DIR) / relative).string();
}

const std::map<std::string, std::string>& placeholder_values() {
  static const std::map<std::string, std::string> v = [] {
    const auto now = std::chrono::duration_cast<std::chrono::seconds>(
                         std::chrono::system_clock::now().time_since_epoch())
                         .count();
    return std::map<std::string, std::string>{
        {"START_AT", std::to_string(now + 120)},
        {"IMAGE", "registry.example.com/inferperf:test"},
    };
  }();
  return v;
}

const Manifests& manifests() {
  static const Manifests m = [] {
    Manifests out;
    const fs::path dir = source_path("deploy/kubernetes");
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
      const auto ext = e.path().extension();
      if (ext == ".yaml" || ext == ".yml")
        out.files.push_back("deploy/kubernetes/" + e.path().filename().string());
    }
    if (ec) out.errors.push_back("cannot list " + dir.string() + ": " + ec.message());
    std::sort(out.files.begin(), out.files.end());
    static const std::regex placeholder("@([A-Z][A-Z0-9_]*)@");
    for (const auto& f : out.files) {
      std::string text;
      try {
        text = read_text(source_path(f));
      } catch (const std::exception& e) {
        out.errors.push_back(e.what());
        continue;
      }
      // Fill the placeholders as the walk-through's sed does, noting where each one is.
      std::string filled;
      std::size_t cursor = 0;
      for (std::sregex_iterator it(text.begin(), text.end(), placeholder), end; it != end; ++it) {
        const auto at = static_cast<std::size_t>(it->position());
        const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<long>(at), '\n');
        // Comment lines (the header names the @NAME@ form) are left as they are.
        const auto bol = text.rfind('\n', at) == std::string::npos ? 0 : text.rfind('\n', at) + 1;
        const auto first = text.find_first_not_of(' ', bol);
        if (first != std::string::npos && text[first] == '#') continue;
        const std::string name = (*it)[1].str();
        const std::string where = f + ":" + std::to_string(line);
        out.placeholders.emplace(name, where);
        filled += text.substr(cursor, at - cursor);
        if (auto v = placeholder_values().find(name); v != placeholder_values().end()) {
          filled += v->second;
        } else {
          out.errors.push_back(where + ": placeholder @" + name +
                               "@ is not one the test knows how to fill (add it to "
                               "placeholder_values() in tests/deploy/deploy_files.cpp and to the "
                               "walk-through's sed in deploy/kubernetes/README.md)");
          filled += it->str();
        }
        cursor = at + static_cast<std::size_t>(it->length());
      }
      filled += text.substr(cursor);
      try {
        for (auto& d : parse_yaml_subset(f, filled)) out.docs.push_back(std::move(d));
      } catch (const YamlError& e) {
        out.errors.push_back(e.what());
      }
    }
    if (out.files.empty()) out.errors.push_back("no manifest (*.yaml) in " + dir.string());
    return out;
  }();
  return m;
}

const Dockerfile& dockerfile() {
  static const Dockerfile d = parse_dockerfile("Dockerfile", read_text(source_path("Dockerfile")));
  return d;
}

}  // namespace inferperf::deploy_test
