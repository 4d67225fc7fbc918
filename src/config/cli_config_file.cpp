// -f/--config FILE on `profile`: listed here so --help shows it. The file is read and replaced by
// its flags before CLI11 parses (expand_config_file, yaml_config.hpp), so this option never
// receives a value itself.
#include "config/cli_areas.hpp"

namespace inferperf::config {

void add_config_file_option(CLI::App* profile, CliTargets& /*t*/) {
  profile
      ->add_option("-f,--config",
                   "AIPerf 0.11 YAML configuration file (docs/config.md); flags typed beside it "
                   "override the file's values")
      ->type_name("FILE")
      ->group("Configuration File");
}

}  // namespace inferperf::config
