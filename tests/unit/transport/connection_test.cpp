// Connection set-up pieces that need no server: endpoint order and the client TLS context.
#include "transport/connection.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

using boost::asio::ip::make_address;
using boost::asio::ip::tcp;
using inferperf::transport::make_client_tls_context;
using inferperf::transport::order_ipv4_first;
using inferperf::transport::TransportOptions;

tcp::endpoint ep(const char* address) {
  return {make_address(address), 8000};
}

TEST(OrderIpv4First, MovesIpv4AheadKeepingEachFamilysOrder) {
  std::vector<tcp::endpoint> v = {ep("::1"), ep("127.0.0.1"), ep("fe80::1"), ep("10.0.0.1")};
  order_ipv4_first(v);
  const std::vector<tcp::endpoint> want = {ep("127.0.0.1"), ep("10.0.0.1"), ep("::1"),
                                           ep("fe80::1")};
  EXPECT_EQ(v, want);
}

TEST(OrderIpv4First, SingleFamilyUnchanged) {
  std::vector<tcp::endpoint> v6 = {ep("::1"), ep("fe80::1")};
  order_ipv4_first(v6);
  EXPECT_EQ(v6, (std::vector<tcp::endpoint>{ep("::1"), ep("fe80::1")}));
  std::vector<tcp::endpoint> none;
  order_ipv4_first(none);
  EXPECT_TRUE(none.empty());
}

TEST(ClientTlsContext, VerifiesByDefaultAndNotWhenInsecure) {
  auto strict = make_client_tls_context(TransportOptions{});
  ASSERT_TRUE(strict.ok()) << strict.error().message;
  EXPECT_EQ(SSL_CTX_get_verify_mode((*strict)->native_handle()), SSL_VERIFY_PEER);
  TransportOptions insecure;
  insecure.insecure = true;
  auto loose = make_client_tls_context(insecure);
  ASSERT_TRUE(loose.ok()) << loose.error().message;
  EXPECT_EQ(SSL_CTX_get_verify_mode((*loose)->native_handle()), SSL_VERIFY_NONE);
}

TEST(ClientTlsContext, UnreadableCaFileIsAConfigError) {
  TransportOptions o;
  o.ssl_ca_file = "/nonexistent/inferperf-ca.pem";
  auto r = make_client_tls_context(o);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, inferperf::core::ErrorKind::kConfig);
  EXPECT_NE(r.error().message.find("--ssl-ca-file"), std::string::npos) << r.error().message;
}

}  // namespace
