// The YAML templates `inferperf config init` prints or writes: each a complete, valid file for
// `inferperf profile -f` (tests/unit/app/config_templates_test.cpp validates every one).
#pragma once
#include <span>
#include <string_view>

namespace inferperf::app {

struct ConfigTemplate {
  std::string_view name;         // "minimal"
  std::string_view category;     // "basics", "load", "datasets", "analysis"
  std::string_view description;  // one line
  std::string_view text;         // the YAML
};

std::span<const ConfigTemplate> config_templates();

// What every template names as its model and URL, which `config init -m/-u` replace.
inline constexpr std::string_view kTemplateModel = "Qwen/Qwen3-0.6B";
inline constexpr std::string_view kTemplateUrl = "http://localhost:8000";

}  // namespace inferperf::app
