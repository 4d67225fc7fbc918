// check_local_addresses: the --local-address list checked before a run.
#include "config/local_address.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

using inferperf::config::check_local_addresses;
using Strings = std::vector<std::string>;

TEST(LocalAddress, LoopbackAddressesAreAccepted) {
  EXPECT_TRUE(check_local_addresses({}).empty());
  EXPECT_TRUE(check_local_addresses({"127.0.0.1", "127.0.0.2", "127.0.0.3"}).empty());
}

TEST(LocalAddress, NonAddressesAreRejected) {
  EXPECT_EQ(check_local_addresses({"10.0.0.x", "", "localhost", "127.0.0.256"}),
            (Strings{"--local-address 10.0.0.x: not an IPv4 or IPv6 address",
                     "--local-address : not an IPv4 or IPv6 address",
                     "--local-address localhost: not an IPv4 or IPv6 address",
                     "--local-address 127.0.0.256: not an IPv4 or IPv6 address"}));
  EXPECT_EQ(check_local_addresses({"fe80::1%"}),
            (Strings{"--local-address fe80::1%: not an IPv4 or IPv6 address"}));
}

TEST(LocalAddress, DuplicatesAreRejectedInAnySpelling) {
  EXPECT_EQ(check_local_addresses({"127.0.0.1", "127.0.0.2", "127.0.0.1"}),
            (Strings{"--local-address 127.0.0.1: given twice"}));
  const auto v6 = check_local_addresses({"::1", "0:0::1"});
  ASSERT_FALSE(v6.empty());
  EXPECT_EQ(v6.back(), "--local-address 0:0::1: given twice");
}

TEST(LocalAddress, AnAddressNotOnThisHostIsRejected) {
  // 192.0.2.0/24 is TEST-NET-1: documentation only, configured nowhere.
  const auto e = check_local_addresses({"192.0.2.1"});
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].rfind("--local-address 192.0.2.1: cannot bind to it on this host: ", 0), 0u)
      << e[0];
}

TEST(LocalAddress, UnixSocketHasNoSourceAddress) {
  EXPECT_EQ(check_local_addresses({"127.0.0.1"}, "/tmp/s.sock"),
            (Strings{"--local-address cannot be combined with --unix-socket (a Unix socket has no "
                     "source IP address)"}));
  EXPECT_TRUE(check_local_addresses({}, "/tmp/s.sock").empty());
}

}  // namespace
