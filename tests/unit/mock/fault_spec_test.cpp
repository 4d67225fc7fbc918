// X-Mock-Fault / --fault-kinds specs: which kinds and values the mock accepts.
#include <gtest/gtest.h>

#include "server.hpp"

namespace {

using inferperf::mock::valid_fault;

TEST(FaultSpec, BigEventTakesAByteSizeUpToOneGiB) {
  EXPECT_TRUE(valid_fault("big-event"));
  EXPECT_TRUE(valid_fault("big-event=1"));
  EXPECT_TRUE(valid_fault("big-event=104857600"));  // 100 MB: past int's range of delays
  EXPECT_TRUE(valid_fault("big-event=1073741824"));
  EXPECT_FALSE(valid_fault("big-event=0"));
  EXPECT_FALSE(valid_fault("big-event=-5"));
  EXPECT_FALSE(valid_fault("big-event=1073741825"));
  EXPECT_FALSE(valid_fault("big-event=lots"));
}

TEST(FaultSpec, OtherValuesKeepTheirRanges) {
  EXPECT_TRUE(valid_fault("status=503"));
  EXPECT_FALSE(valid_fault("status=99"));
  EXPECT_FALSE(valid_fault("status=99999999999"));  // out of int's range: refused, not wrapped
  EXPECT_TRUE(valid_fault("slow-headers=250"));
  EXPECT_FALSE(valid_fault("slow-headers=99999999999"));
  EXPECT_FALSE(valid_fault("no-such-fault"));
}

}  // namespace
