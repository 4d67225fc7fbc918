// The one rule for what counts as a credential, and the redaction every writer of commands,
// configurations, logs and exports goes through (docs/decisions.md, "Secrets are redacted ...").
#pragma once
#include <string>
#include <string_view>

namespace inferperf::core {

// What a secret value is replaced with wherever it would be written out.
inline constexpr std::string_view kRedacted = "<redacted>";

// True for a name (HTTP header, JSON key, URL query parameter; case-insensitive) whose value is a
// credential: AIPerf 0.11's list (Authorization, Proxy-Authorization, X-Api-Key, Api-Key,
// Ocp-Apim-Subscription-Key, X-Goog-Api-Key, X-Functions-Key, Aeg-Sas-Key,
// X-Amz-Security-Token; '-' and '_' alike), Cookie, Set-Cookie; any name with a word that
// ends in "key" or "keys" (x-api-key, api-key, Ocp-Apim-Subscription-Key, apiKey) or is "auth";
// any name whose last word ends in "token" (X-Auth-Token, hf_token, accessToken); any name
// containing "apikey", "secret", "password", "passwd" or "credential". Words are split at every
// character that is not a letter or digit, so max_tokens and stop_token_ids are not secrets.
bool is_secret_name(std::string_view name);

// `value`, or kRedacted when `name` is a secret name.
std::string redact_value(std::string_view name, std::string_view value);

// True when `url` ("scheme://user:pass@host/...", or "user:pass@host:port" without a scheme)
// carries credentials before its host.
bool url_has_userinfo(std::string_view url);

// `text` with every URL in it ("scheme://...") stripped of credentials: the user-info part is
// removed with its '@' ("http://u:p@host/" -> "http://host/") and the value of each query
// parameter whose name is secret becomes kRedacted ("?key=<redacted>"). Text that is not part of
// a URL is unchanged.
std::string redact_urls(std::string_view text);

}  // namespace inferperf::core
