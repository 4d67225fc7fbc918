// logs/inferperf.log: every line is on disk as soon as it is logged (a buffered sink lost the whole
// log of a run that filled its disk), space is set aside past its end, and a failed write never
// throws.
#include "app/log_file_sink.hpp"

#include <gtest/gtest.h>
#include <spdlog/logger.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

#include "../test_files.hpp"

namespace inferperf::app {
namespace {

namespace fs = std::filesystem;

using test_files::read_whole_file;

TEST(LogFileSink, EachLineIsInTheFileAtOnceAndTheReserveIsGivenBack) {
  const test_files::ScratchDir dir("ip-log-sink");
  const fs::path p = dir / "inferperf.log";
  bool reserved = false;
  {
    auto sink = std::make_shared<LogFileSink>(p);
    spdlog::logger log("t", sink);
    log.set_pattern("%v");
    log.info("first line");
    EXPECT_EQ(read_whole_file(p), "first line\n") << "no flush needed";
    log.error("second line");
    EXPECT_EQ(read_whole_file(p), "first line\nsecond line\n");
    EXPECT_EQ(fs::file_size(p), 23u) << "the reserve is not part of the file's size";
    struct stat st {};
    ASSERT_EQ(::stat(p.c_str(), &st), 0);
    // Where the file system has fallocate (tmpfs, ext4, xfs) the blocks are held already.
    reserved = st.st_blocks * 512 >= LogFileSink::kReserve;
    EXPECT_FALSE(sink->failed());
  }
  struct stat st {};
  ASSERT_EQ(::stat(p.c_str(), &st), 0);
  if (reserved) {
    EXPECT_LT(st.st_blocks * 512, LogFileSink::kReserve) << "closing gives the reserve back";
  }
  EXPECT_EQ(read_whole_file(p), "first line\nsecond line\n");
}

TEST(LogFileSink, AFailedWriteIsRememberedNotThrown) {
  auto sink = std::make_shared<LogFileSink>("/dev/full");
  spdlog::logger log("t", sink);
  log.set_pattern("%v");
  EXPECT_NO_THROW(log.error("the disk is full"));
  EXPECT_TRUE(sink->failed());
}

TEST(LogFileSink, AnUncreatableFileIsAnError) {
  EXPECT_THROW(LogFileSink("/no/such/dir/inferperf.log"), spdlog::spdlog_ex);
}

}  // namespace
}  // namespace inferperf::app
