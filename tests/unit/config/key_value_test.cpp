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

TEST(ParseKeyValues, EmptyInputGivesNoPairs) {
  auto r = parse_key_values("", "--extra-inputs", true);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->empty());
}

}  // namespace
