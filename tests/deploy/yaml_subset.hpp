// The YAML subset the Kubernetes manifests under deploy/kubernetes/ are written in (their header
// comment states it), read into JSON without a YAML library:
//   - block mappings "key: value" and block sequences "- item", indented with spaces only;
//   - comments on lines of their own (a '#' after a value is refused, so none hides in one);
//   - scalars plain (a JSON number, true, false or null when they read as one, else a string) or
//     JSON double-quoted strings; single quotes, anchors, aliases, tags and block scalars refused;
//   - a value starting with '[' or '{' is JSON and may continue over the following lines until its
//     brackets close (whole-line comments inside are skipped);
//   - documents separated by a line "---".
// Anything else is an error naming the file and line, so a manifest cannot drift out of what the
// test understands without the test saying so.
#pragma once
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace inferperf::deploy_test {

struct YamlError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct YamlDoc {
  std::string file;
  int first_line = 0;
  nlohmann::json value;
  // JSON pointer ("/spec/template/spec/containers/0/args/3") -> 1-based line of that node.
  std::map<std::string, int> lines;

  // "file:line" of the node at `pointer`, or of its closest parent that has a line.
  std::string where(const std::string& pointer) const;
};

// Every document of `text`; `file` names it in errors. Throws YamlError("file:line: ...").
std::vector<YamlDoc> parse_yaml_subset(const std::string& file, const std::string& text);

}  // namespace inferperf::deploy_test
