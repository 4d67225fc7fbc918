// The secret-name rule, URL redaction and safe file names: the rules every writer relies on.
#include <gtest/gtest.h>

#include <cctype>
#include <string>

#include "core/file_names.hpp"
#include "core/secrets.hpp"

namespace {

using namespace inferperf::core;

TEST(SecretName, CredentialsAreSecret) {
  for (const char* name : {"Authorization",
                           "authorization",
                           "AUTHORIZATION",
                           "Proxy-Authorization",
                           "Cookie",
                           "Set-Cookie",
                           "x-api-key",
                           "X-Api-Key",
                           "api-key",
                           "Api-Key",
                           "api_key",
                           "apiKey",
                           "apikey",
                           "X-Goog-Api-Key",
                           "Ocp-Apim-Subscription-Key",
                           "X-Session-Key",
                           "Proxy-Key-Id",
                           "X-Auth-Token",
                           "X-Amz-Security-Token",
                           "token",
                           "hf_token",
                           "accessToken",
                           "access_token",
                           "x-client-secret",
                           "SECRET",
                           "client_secret",
                           "password",
                           "db_passwd",
                           "X-Credentials",
                           "X-Auth",
                           "private_keys"}) {
    EXPECT_TRUE(is_secret_name(name)) << name;
  }
}

TEST(SecretName, OrdinaryNamesAreNot) {
  for (const char* name : {"Host",
                           "User-Agent",
                           "X-Request-ID",
                           "X-Correlation-ID",
                           "Content-Type",
                           "Accept",
                           "Content-Length",
                           "X-Mock-Fault",
                           "Tok-en",
                           "",
                           "---",
                           "max_tokens",
                           "min_tokens",
                           "max_completion_tokens",
                           "skip_special_tokens",
                           "stop_token_ids",
                           "ignore_eos",
                           "top_k",
                           "X-RateLimit-Remaining-Tokens",
                           "Keep-Alive",
                           "author",
                           "keyboard_layout"}) {
    EXPECT_FALSE(is_secret_name(name)) << name;
  }
}

// AIPerf 0.11's credential headers, in any case and with '_' for '-'.
TEST(SecretName, AiperfListInAnyCase) {
  for (std::string name :
       {"Authorization", "Proxy-Authorization", "X-Api-Key", "Api-Key", "Ocp-Apim-Subscription-Key",
        "X-Goog-Api-Key", "X-Functions-Key", "Aeg-Sas-Key", "X-Amz-Security-Token"}) {
    EXPECT_TRUE(is_secret_name(name)) << name;
    std::string upper = name, snake = name;
    for (auto& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    for (auto& c : snake) {
      c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (c == '-') c = '_';
    }
    EXPECT_TRUE(is_secret_name(upper)) << upper;
    EXPECT_TRUE(is_secret_name(snake)) << snake;
    EXPECT_EQ(redact_value(upper, "v"), "<redacted>") << upper;
  }
  EXPECT_TRUE(is_secret_name("api_key"));
  EXPECT_FALSE(is_secret_name("X-Amz-Date"));
  EXPECT_FALSE(is_secret_name("X-Goog-User-Project"));
}

TEST(SecretName, RedactValue) {
  EXPECT_EQ(redact_value("Authorization", "Bearer x"), "<redacted>");
  EXPECT_EQ(redact_value("X-Trace", "keep"), "keep");
}

TEST(RedactUrls, UserInfoIsStripped) {
  EXPECT_EQ(redact_urls("http://user:secret@host:8000/v1"), "http://host:8000/v1");
  EXPECT_EQ(redact_urls("https://tok@h"), "https://h");
  EXPECT_EQ(redact_urls("http://a@b:c@h/x"), "http://h/x");  // up to the last '@' of the authority
  // Only the authority: an '@' in the path is not user info.
  EXPECT_EQ(redact_urls("http://h/a@b"), "http://h/a@b");
  EXPECT_EQ(redact_urls("http://u:p@[::1]:80/x"), "http://[::1]:80/x");
}

TEST(RedactUrls, SecretQueryParametersAreReplaced) {
  EXPECT_EQ(redact_urls("http://h/v1?api_key=s1&model=m&key=s2#frag"),
            "http://h/v1?api_key=<redacted>&model=m&key=<redacted>#frag");
  EXPECT_EQ(redact_urls("http://h/?a=1&&b"), "http://h/?a=1&&b");
  EXPECT_EQ(redact_urls("http://h/?"), "http://h/?");
}

TEST(RedactUrls, RedactingTwiceChangesNothing) {
  for (const char* text :
       {"http://u:p@h/?api_key=s&x=1", "'http://h/?token=t' and more", "http://h/?key="}) {
    const std::string once = redact_urls(text);
    EXPECT_EQ(redact_urls(once), once) << text;
  }
  EXPECT_EQ(redact_urls("http://h/?key="), "http://h/?key=");
}

TEST(RedactUrls, UrlsInsideTextAndOtherTextUnchanged) {
  EXPECT_EQ(redact_urls("GET http://a:b@h/metrics: refused, then 'https://c:d@e/?token=t' ok"),
            "GET http://h/metrics: refused, then 'https://e/?token=<redacted>' "
            "ok");
  EXPECT_EQ(redact_urls("a, b@c, ://x@y, no url here"), "a, b@c, ://x@y, no url here");
  EXPECT_EQ(redact_urls("u1=http://h1/,http://x:y@h2/"), "u1=http://h1/,http://h2/");
  EXPECT_EQ(redact_urls(""), "");
}

TEST(UrlHasUserinfo, WithAndWithoutScheme) {
  EXPECT_TRUE(url_has_userinfo("http://u:p@h:1/x"));
  EXPECT_TRUE(url_has_userinfo("u:p@h:1"));
  EXPECT_FALSE(url_has_userinfo("http://h:1/a@b"));
  EXPECT_FALSE(url_has_userinfo("h:1/x?to=a@b"));
  EXPECT_FALSE(url_has_userinfo("localhost:8000"));
}

TEST(SafeFileName, OneComponentThatStaysPut) {
  EXPECT_EQ(safe_file_name("org/model"), "org_model");
  EXPECT_EQ(safe_file_name("Qwen/Qwen3-0.6B"), "Qwen_Qwen3-0.6B");
  EXPECT_EQ(safe_file_name(".."), "_.");
  EXPECT_EQ(safe_file_name("."), "_");
  EXPECT_EQ(safe_file_name("../../etc/passwd"), "_._.._etc_passwd");
  EXPECT_EQ(safe_file_name("/abs"), "_abs");
  EXPECT_EQ(safe_file_name(".hidden"), "_hidden");
  EXPECT_EQ(safe_file_name("a\\b"), "a_b");
  EXPECT_EQ(safe_file_name(std::string("a\0b\n\x7f", 5)), "a_b__");
  EXPECT_EQ(safe_file_name(""), "_");
  EXPECT_EQ(safe_file_name("modèle-日本"), "modèle-日本");  // valid UTF-8 is kept
  EXPECT_EQ(safe_file_name("a\xff\xc3"), "a__");            // invalid bytes are not
  EXPECT_EQ(safe_file_name("\xed\xa0\x80"), "___");         // an encoded surrogate is invalid
}

TEST(SafeFileName, CutOnACharacterBoundary) {
  EXPECT_EQ(safe_file_name(std::string(300, 'a')).size(), kMaxFileNameBytes);
  EXPECT_EQ(safe_file_name("ab日", 4), "ab");  // the 3-byte character does not fit
  EXPECT_EQ(safe_file_name("abcdef", 3), "abc");
}

TEST(ControlChars, Detected) {
  EXPECT_TRUE(has_control_chars(std::string("a\0", 2)));
  EXPECT_TRUE(has_control_chars("a\tb"));
  EXPECT_TRUE(has_control_chars("\x7f"));
  EXPECT_FALSE(has_control_chars("plain-name_1.json"));
  EXPECT_FALSE(has_control_chars("日本"));
}

}  // namespace
