// --cache-salt-per-run: whatever digits a generated salt has, the request body carries it as a JSON
// string (a salt of decimal digits once went out as a number and a server requiring a string
// rejected the whole sweep point).
#include <gtest/gtest.h>

#include "config/cli.hpp"
#include "endpoint/endpoint.hpp"
#include "sweep/sweep_args.hpp"

namespace inferperf::app {
namespace {

// The body the run with this salt sends, built from the command line the orchestrator gives it.
nlohmann::ordered_json body_with_salt(const std::string& salt) {
  const auto s = sweep::extract_sweep_args(
      {"profile", "-m", "m", "--cache-salt-per-run", "--extra-inputs", "ignore_eos:true"});
  sweep::RunArgs run;
  run.cache_salt = salt;
  const auto outcome = config::parse_command_line(sweep::child_args(s, run));
  EXPECT_EQ(outcome.action, config::CliOutcome::Action::kProfile) << outcome.message;
  endpoint::BodyOptions o;
  o.model = "m";
  o.extra = &outcome.config.input.extra;
  dataset::Turn t;
  t.text = "hi";
  return endpoint::make_endpoint(config::EndpointType::kChat)->build_body({t}, o);
}

TEST(CacheSalt, EverySaltIsSentAsAJsonString) {
  // All digits (an integer, with and without a leading zero), exponent-looking (a float that
  // overflows), a dotted decimal's digits, and ordinary hex.
  for (const std::string salt : {"871926050550", "045921105765", "123e45678901", "000000000000",
                                 "1e5", "12.5", "00ff00ff00ff"}) {
    const auto body = body_with_salt(salt);
    ASSERT_TRUE(body.contains("cache_salt")) << body.dump();
    ASSERT_TRUE(body["cache_salt"].is_string()) << salt << ": " << body.dump();
    EXPECT_EQ(body["cache_salt"].get<std::string>(), salt);
    EXPECT_EQ(body["ignore_eos"], true);  // the user's own extra inputs are still coerced
  }
}

TEST(CacheSalt, GeneratedSaltsFromAllDigitBitsStayStrings) {
  // 0x871926050550 formats to the all-digit salt seed 1133 draws first.
  const std::string salt = sweep::cache_salt_from_bits(0x871926050550ULL);
  EXPECT_EQ(salt, "871926050550");
  EXPECT_EQ(body_with_salt(salt)["cache_salt"], "871926050550");
}

}  // namespace
}  // namespace inferperf::app
