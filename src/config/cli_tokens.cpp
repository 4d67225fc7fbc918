// The CLI11 validators that read enumerated words and list items as AIPerf 0.11 does.
#include "config/cli_areas.hpp"
#include "config/enum_token.hpp"

namespace inferperf::config {

CLI::Validator enum_choice(std::vector<std::string> members) {
  // A filter makes IsMember compare normalised spellings and then store the member's own
  // spelling, so the rest of inferperf (and the echo in the exports) sees one canonical word.
  return CLI::IsMember(std::move(members),
                       [](const std::string& s) { return normalise_enum_token(s); });
}

CLI::Validator trimmed_item() {
  return CLI::Validator(
      [](std::string& item) {
        item = trim_list_item(item);
        return std::string{};
      },
      "");
}

CLI::Validator url_item() {
  return CLI::Validator(
      [](std::string& item) {
        item = url_with_scheme(trim_list_item(item));
        return std::string{};
      },
      "");
}

CLI::Validator transport_choice() {
  return CLI::Validator(
      [](std::string& value) {
        if (normalise_enum_token(value) != "http")
          return "'" + value + "' is not a transport inferperf has (http)";
        value = "http";
        return std::string{};
      },
      "{http}");
}

}  // namespace inferperf::config
