#include "core/secrets.hpp"

#include <cctype>
#include <vector>

namespace inferperf::core {

namespace {

bool is_alnum(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Characters that end a URL inside free text (log lines, messages, command lines).
bool ends_url(char c) {
  return std::isspace(static_cast<unsigned char>(c)) != 0 || c == '"' || c == '\'' || c == '<' ||
         c == '>' || c == '`' || c == ',';
}

}  // namespace

bool is_secret_name(std::string_view name) {
  const std::string n = lower(name);
  std::vector<std::string_view> words;
  std::string joined;  // the letters and digits only: "X-Api-Key" -> "xapikey"
  for (std::size_t i = 0; i < n.size();) {
    if (!is_alnum(n[i])) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < n.size() && is_alnum(n[j])) ++j;
    words.emplace_back(std::string_view(n).substr(i, j - i));
    joined.append(n, i, j - i);
    i = j;
  }
  if (words.empty()) return false;
  // AIPerf 0.11's credential headers (its list, kept whole so none depends on the word rules
  // below), then the other exact names.
  for (std::string_view exact :
       {"authorization", "proxyauthorization", "xapikey", "apikey", "ocpapimsubscriptionkey",
        "xgoogapikey", "xfunctionskey", "aegsaskey", "xamzsecuritytoken", "cookie", "setcookie"}) {
    if (joined == exact) return true;
  }
  if (words.back().ends_with("token")) return true;
  for (std::string_view w : words) {
    if (w.ends_with("key") || w.ends_with("keys") || w == "auth" || w == "authorization" ||
        w == "cookie")
      return true;
  }
  for (std::string_view part : {"apikey", "secret", "password", "passwd", "credential"}) {
    if (joined.find(part) != std::string::npos) return true;
  }
  return false;
}

std::string redact_value(std::string_view name, std::string_view value) {
  return is_secret_name(name) ? std::string(kRedacted) : std::string(value);
}

bool url_has_userinfo(std::string_view url) {
  std::size_t start = url.find("://");
  start = start == std::string_view::npos ? 0 : start + 3;
  const std::size_t end = url.find_first_of("/?#", start);
  const std::string_view authority =
      url.substr(start, end == std::string_view::npos ? url.npos : end - start);
  return authority.find('@') != std::string_view::npos;
}

std::string redact_urls(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  std::size_t pos = 0;
  for (;;) {
    const std::size_t sep = text.find("://", pos);
    if (sep == std::string_view::npos) break;
    // A scheme is letters (and + - .) right before "://"; without one this is not a URL.
    std::size_t scheme = sep;
    while (scheme > pos && (is_alnum(text[scheme - 1]) || text[scheme - 1] == '+' ||
                            text[scheme - 1] == '-' || text[scheme - 1] == '.'))
      --scheme;
    const std::size_t start = sep + 3;
    std::size_t end = start;
    while (end < text.size() && !ends_url(text[end])) ++end;
    out.append(text, pos, start - pos);
    if (scheme == sep) {
      pos = start;
      continue;
    }
    const std::string_view url = text.substr(start, end - start);
    const std::size_t authority_end = std::min(url.find_first_of("/?#"), url.size());
    const std::size_t at = url.substr(0, authority_end).rfind('@');
    // User info is dropped with its '@' (AIPerf 0.11 strips it): "http://u:p@h/" -> "http://h/".
    const std::size_t i = at == std::string_view::npos ? 0 : at + 1;
    const std::size_t query = url.find('?', authority_end);
    if (query == std::string_view::npos) {
      out.append(url, i, url.npos);
    } else {
      out.append(url, i, query + 1 - i);
      const std::size_t fragment = std::min(url.find('#', query), url.size());
      std::string_view params = url.substr(query + 1, fragment - query - 1);
      bool first = true;
      while (!params.empty() || first) {
        const std::size_t amp = params.find('&');
        const std::string_view param = params.substr(0, amp);
        if (!first) out += '&';
        first = false;
        const std::size_t eq = param.find('=');
        // An empty value has nothing to hide (and "key=<redacted>" reads as one: '<' ends a URL).
        if (eq != std::string_view::npos && eq + 1 < param.size() &&
            is_secret_name(param.substr(0, eq))) {
          out.append(param.substr(0, eq + 1));
          out += kRedacted;
        } else {
          out.append(param);
        }
        if (amp == std::string_view::npos) break;
        params.remove_prefix(amp + 1);
      }
      out.append(url, fragment, url.npos);
    }
    pos = end;
  }
  out.append(text, pos, text.npos);
  return out;
}

}  // namespace inferperf::core
