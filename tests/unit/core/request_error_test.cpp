// RequestErrorKind / RequestErrorType: kinds in code, AIPerf's class names in exports.
#include "core/request_error.hpp"

#include <gtest/gtest.h>

namespace {

using inferperf::core::aiperf_name;
using inferperf::core::request_error_kind_from_name;
using inferperf::core::RequestErrorKind;
using inferperf::core::RequestErrorType;

TEST(RequestError, EveryNamedKindReadsBackAsItself) {
  for (int i = 0; i <= static_cast<int>(RequestErrorKind::kOther); ++i) {
    const auto kind = static_cast<RequestErrorKind>(i);
    if (kind == RequestErrorKind::kOther) {
      EXPECT_EQ(aiperf_name(kind), "");
      continue;
    }
    ASSERT_FALSE(aiperf_name(kind).empty()) << i;
    EXPECT_EQ(request_error_kind_from_name(aiperf_name(kind)), kind);
    const RequestErrorType read = RequestErrorType::from_name(aiperf_name(kind));
    EXPECT_TRUE(read.is(kind));
    EXPECT_EQ(read.name(), aiperf_name(kind));
  }
  EXPECT_EQ(aiperf_name(RequestErrorKind::kServerDisconnected), "ServerDisconnectedError");
  EXPECT_EQ(aiperf_name(RequestErrorKind::kSslCertVerification), "SSLCertVerificationError");
  EXPECT_EQ(aiperf_name(RequestErrorKind::kUnexpected), "Error");
}

TEST(RequestError, HttpErrorsAreNamedByTheirReasonPhrase) {
  EXPECT_EQ(RequestErrorType::http("Not Found").name(), "Not Found");
  EXPECT_TRUE(RequestErrorType::http("Not Found").is(RequestErrorKind::kHttp));
  EXPECT_EQ(RequestErrorType::http("").name(), "HTTPError");
}

TEST(RequestError, UnknownNamesAreKeptExactly) {
  const RequestErrorType t = RequestErrorType::from_name("Service Unavailable");
  EXPECT_TRUE(t.is(RequestErrorKind::kOther));
  EXPECT_EQ(t.name(), "Service Unavailable");
  EXPECT_EQ(RequestErrorType().name(), "");
  EXPECT_TRUE(RequestErrorType::from_name("").is(RequestErrorKind::kOther));
}

}  // namespace
