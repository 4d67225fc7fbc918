// coerce_value and parse_key_values (--extra-inputs / --header syntax).
#include "config/key_value.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

using inferperf::config::coerce_value;
using inferperf::config::parse_key_values;
using nlohmann::json;

struct CoerceCase {
  const char* text;
  json expected;
};

TEST(CoerceValue, Table) {
  const std::vector<CoerceCase> table = {
      {"true", json(true)},
      {"True", json(true)},
      {"false", json(false)},
      {"FALSE", json(false)},
      {"none", json(nullptr)},
      {"null", json(nullptr)},
      {"None", json(nullptr)},
      {"123", json(123)},
      {"0", json(0)},
      {"-5", json(-5)},
      {"0123", json("0123")},  // leading zero: kept as text
      {"1.5", json(1.5)},
      {"-0.25", json(-0.25)},
      {"1.2.3", json("1.2.3")},
      {"abc", json("abc")},
      {"", json("")},
      {"-", json("-")},
      {".", json(".")},
      {"12a", json("12a")},
      {"99999999999999999999", json("99999999999999999999")},  // does not fit an int64
  };
  for (const auto& c : table) {
    const json got = coerce_value(c.text);
    EXPECT_EQ(got, c.expected) << "input '" << c.text << "' gave " << got.dump();
    EXPECT_EQ(got.type(), c.expected.type()) << "input '" << c.text << "'";
  }
}

TEST(CoerceValue, IntegerIsIntegralNotFloat) {
  EXPECT_TRUE(coerce_value("123").is_number_integer());
  EXPECT_TRUE(coerce_value("1.5").is_number_float());
}

using Pairs = std::vector<std::pair<std::string, json>>;

TEST(ParseKeyValues, CommaSeparatedItemsAreCoerced) {
  auto r = parse_key_values("a:1,b:true", "--extra-inputs", true);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(*r, (Pairs{{"a", json(1)}, {"b", json(true)}}));
}

TEST(ParseKeyValues, SplitsOnFirstColonAndTrims) {
  auto r = parse_key_values(" url : http://h:1/x , , n:0123 ", "--extra-inputs", true);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(*r, (Pairs{{"url", json("http://h:1/x")}, {"n", json("0123")}}));
}

TEST(ParseKeyValues, WithoutCoercionEverythingIsText) {
  auto r = parse_key_values("X-A:1,X-B:true", "--header", false);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(*r, (Pairs{{"X-A", json("1")}, {"X-B", json("true")}}));
}

TEST(ParseKeyValues, JsonObject) {
  auto r = parse_key_values(R"({"a": 1, "b": "s", "c": [1, 2]})", "--extra-inputs", true);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(*r, (Pairs{{"a", json(1)}, {"b", json("s")}, {"c", json::array({1, 2})}}));
}

TEST(ParseKeyValues, JsonObjectWithoutCoercionDumpsNonStrings) {
  auto r = parse_key_values(R"({"X-A": "v", "X-N": 5})", "--header", false);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(*r, (Pairs{{"X-A", json("v")}, {"X-N", json("5")}}));
}

TEST(ParseKeyValues, BadItemsAreErrorsNamingTheFlag) {
  for (const char* bad : {"a:1,novalue", ":x", "{not json", "{\"a\":1"}) {
    auto r = parse_key_values(bad, "--extra-inputs", true);
    ASSERT_FALSE(r.ok()) << "input '" << bad << "' was accepted";
    EXPECT_EQ(r.error().kind, inferperf::core::ErrorKind::kConfig);
    EXPECT_NE(r.error().message.find("--extra-inputs"), std::string::npos) << r.error().message;
  }
  auto r = parse_key_values("a:1,novalue", "--extra-inputs", true);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("'novalue'"), std::string::npos) << r.error().message;
}

struct BadCase {
  const char* input;
  const char* message;  // part of the error
};

TEST(ParseKeyValues, EveryMalformedValueHasItsOwnMessage) {
  const std::vector<BadCase> cases = {
      {"foo", "expected key:value, got 'foo' (no ':')"},
      {"a:", "expected key:value, got 'a:' (empty value; a JSON object such as {\"a\": \"\"}"},
      {"a:  ", "(empty value"},
      {" : x", "expected key:value, got ': x' (empty key)"},
      {"{", "invalid JSON object '{': parse error at line 1, column 2"},
      {"{\"a\": }", "invalid JSON object"},
      {"[1, 2]", "expected a JSON object or key:value pairs, got a JSON array '[1, 2]'"},
      {"\"text\"", "got a JSON string"},
      {"{\"\": 1}", "empty key in the JSON object"},
  };
  for (const auto& c : cases) {
    auto r = parse_key_values(c.input, "--extra-inputs", true);
    ASSERT_FALSE(r.ok()) << "input '" << c.input << "' was accepted";
    EXPECT_TRUE(r.error().message.starts_with("--extra-inputs: ")) << r.error().message;
    EXPECT_NE(r.error().message.find(c.message), std::string::npos)
        << "input '" << c.input << "': " << r.error().message;
  }
}

TEST(ParseKeyValues, HiddenValuesShowOnlyTheFirstWord) {
  auto r = parse_key_values("Authorization Bearer SECRET", "--header", false, true);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message.find("SECRET"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("'Authorization ...'"), std::string::npos) << r.error().message;
}

TEST(HeaderProblem, NamesAreTokensValuesHaveNoLineBreaks) {
  using inferperf::config::header_problem;
  EXPECT_EQ(header_problem("X-Trace_1.a", "any value\twith tab, UTF-8 é"), "");
  EXPECT_EQ(header_problem("Authorization", "Bearer abc"), "");
  EXPECT_NE(header_problem("", "v"), "");
  for (const char* name : {"X Trace", "X-A\r\nX-B", "X:A", "X(A)", "Ä", "X\"A"}) {
    const std::string p = header_problem(name, "v");
    EXPECT_NE(p, "") << name;
    EXPECT_EQ(p.find('\r'), std::string::npos) << name;  // never echoed raw
  }
  for (const std::string& value :
       {std::string("a\r\nX-Injected: 1"), std::string("a\nb"), std::string("a\rb"),
        std::string("a\0b", 3), std::string("a\x01"), std::string("a\x7f")}) {
    const std::string p = header_problem("X-A", value);
    EXPECT_NE(p, "");
    EXPECT_EQ(p.find("Injected"), std::string::npos) << p;  // the value is not echoed
    EXPECT_NE(p.find("X-A"), std::string::npos) << p;
  }
}

TEST(ParseKeyValues, EmptyInputGivesNoPairs) {
  auto r = parse_key_values("", "--extra-inputs", true);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->empty());
}

}  // namespace
