// How AIPerf 0.11 reads the words of an enumerated option and the items of a list option, so
// every spelling it accepts is accepted here too (CHAT, round-robin, sticky_user_sessions, " raw").
#pragma once
#include <string>
#include <string_view>

namespace inferperf::config {

// AIPerf compares an enum token with each member name after normalising both: lower case, `_`
// read as `-`, leading and trailing `-`/`_` dropped. "Sticky_User_Sessions" ->
// "sticky-user-sessions".
std::string normalise_enum_token(std::string_view token);

// True when both spell the same member under normalise_enum_token.
bool same_enum_token(std::string_view a, std::string_view b);

// A list item without the spaces and tabs around it: "-m 'a, b'" names "a" and "b".
std::string trim_list_item(std::string_view item);

// A --url item as AIPerf 0.11 stores it: "http://" put in front of an item without "://"
// ("localhost:8000", "[::1]:80/v1", "h"), except a foreign scheme written without slashes
// ("javascript:x", "data:..."), which is left as it is for validation to refuse.
std::string url_with_scheme(std::string_view url);

}  // namespace inferperf::config
