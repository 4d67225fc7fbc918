// What the deploy tests read: the manifests under deploy/kubernetes/ with their @NAME@
// placeholders filled as the walk-through's sed fills them, and the Dockerfile.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "dockerfile.hpp"
#include "yaml_subset.hpp"

namespace inferperf::deploy_test {

struct Manifests {
  std::vector<std::string> files;  // repository-relative, sorted
  std::vector<YamlDoc> docs;       // every document of every file
  // Each placeholder met, with the first "file:line" it is on.
  std::map<std::string, std::string> placeholders;
  std::vector<std::string> errors;  // unreadable files, parse errors, unknown placeholders
};

// The value the test gives each placeholder the walk-through fills (START_AT: now + 120 s).
const std::map<std::string, std::string>& placeholder_values();

const Manifests& manifests();
const Dockerfile& dockerfile();
std::string source_path(const std::string& relative);

}  // namespace inferperf::deploy_test
