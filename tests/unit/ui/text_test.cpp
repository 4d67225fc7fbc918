#include "ui/text.hpp"

#include <gtest/gtest.h>

#include <cstdio>

#include "ui/frontend.hpp"

namespace inferperf::ui {
namespace {

PhaseProgress counted() {
  PhaseProgress p;
  p.name = "profiling";
  p.sent = 60;
  p.completed = 48;
  p.errors = 2;
  p.in_flight = 10;
  p.target_count = 100;
  p.elapsed_s = 10;
  p.requests_per_s = 4.8;
  p.output_tokens_per_s = 512.4;
  return p;
}

TEST(UiText, Clock) {
  EXPECT_EQ(format_clock(0), "00:00");
  EXPECT_EQ(format_clock(65.9), "01:05");
  EXPECT_EQ(format_clock(3600 + 62), "1:01:02");
  EXPECT_EQ(format_clock(-1), "--:--");
}

TEST(UiText, FractionAndEtaFromTheRequestCount) {
  const PhaseProgress p = counted();
  EXPECT_DOUBLE_EQ(*phase_fraction(p), 0.5);
  // 50 finished in 10 s: the other 50 take 10 s more.
  EXPECT_DOUBLE_EQ(*phase_eta_s(p), 10.0);
}

TEST(UiText, FractionAndEtaFromTheDuration) {
  PhaseProgress p;
  p.name = "profiling";
  p.duration_s = 60;
  p.elapsed_s = 15;
  EXPECT_DOUBLE_EQ(*phase_fraction(p), 0.25);
  EXPECT_DOUBLE_EQ(*phase_eta_s(p), 45.0);
  p.elapsed_s = 70;  // the grace period
  EXPECT_DOUBLE_EQ(*phase_fraction(p), 1.0);
  EXPECT_DOUBLE_EQ(*phase_eta_s(p), 0.0);
}

TEST(UiText, NoTargetNoFractionNoEta) {
  PhaseProgress p;
  p.name = "profiling";
  p.elapsed_s = 5;
  EXPECT_FALSE(phase_fraction(p));
  EXPECT_FALSE(phase_eta_s(p));
  EXPECT_EQ(phase_line(p),
            "[profiling] sent 0  completed 0  in flight 0  errors 0  0.0 req/s  0 tok/s  00:05");
}

TEST(UiText, PhaseLineShowsEveryCount) {
  EXPECT_EQ(phase_line(counted()),
            "[profiling] [##########----------]  50%  sent 60/100  completed 48  in flight 10  "
            "errors 2  4.8 req/s  512 tok/s  00:10  ETA 00:10");
  PhaseProgress done = counted();
  done.done = true;
  done.completed = 98;
  done.in_flight = 0;
  EXPECT_EQ(phase_line(done),
            "[profiling] [####################] 100%  sent 60/100  completed 98  in flight 0  "
            "errors 2  4.8 req/s  512 tok/s  00:10  done");
}

TEST(UiText, SimpleLinesOnePerPhase) {
  ProgressSnapshot s;
  PhaseProgress warm = counted();
  warm.name = "warmup";
  warm.done = true;
  s.phases = {warm, counted()};
  const auto lines = simple_lines(s);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0].rfind("[warmup] ", 0), 0u);
  EXPECT_EQ(lines[1].rfind("[profiling] ", 0), 0u);
  EXPECT_TRUE(simple_lines(ProgressSnapshot{}).empty());
}

TEST(UiText, ProgressBar) {
  EXPECT_EQ(progress_bar(0.0, 4), "----");
  EXPECT_EQ(progress_bar(0.5, 4), "##--");
  EXPECT_EQ(progress_bar(2.0, 4), "####");
}

TEST(UiText, SparklineScalesToTheMaximumAndKeepsTheLastValues) {
  EXPECT_EQ(sparkline({0, 1, 7, 14}, 10), " .=#");
  EXPECT_EQ(sparkline({14, 0, 1, 7, 14}, 3), ".=#");
  EXPECT_EQ(sparkline({0, 0}, 5), "  ");
  EXPECT_EQ(sparkline({}, 5), "");
}

}  // namespace
}  // namespace inferperf::ui

namespace inferperf::ui {
namespace {

std::string written(std::FILE* f) {
  std::fflush(f);
  std::rewind(f);
  std::string out;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
  return out;
}

ProgressSnapshot with_phase(std::int64_t completed, bool done) {
  ProgressSnapshot s;
  PhaseProgress p;
  p.name = "profiling";
  p.target_count = 100;
  p.sent = completed;
  p.completed = completed;
  p.elapsed_s = 1;
  p.done = done;
  s.phases.push_back(p);
  return s;
}

TEST(SimpleFrontend, NotATerminalPrintsWholeLinesWithoutEscapes) {
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  auto fe = make_simple_frontend(f, false);
  fe->show(with_phase(10, false));
  fe->show(with_phase(11, false));  // within the second: not printed again
  fe->close(with_phase(100, true));
  const std::string out = written(f);
  std::fclose(f);
  EXPECT_EQ(out.find('\x1b'), std::string::npos);
  EXPECT_EQ(out.find('\r'), std::string::npos);
  EXPECT_NE(out.find("completed 10 "), std::string::npos) << out;
  EXPECT_EQ(out.find("completed 11 "), std::string::npos) << out;
  EXPECT_NE(out.find("completed 100 "), std::string::npos) << out;
  EXPECT_NE(out.find("done\n"), std::string::npos) << out;
}

TEST(SimpleFrontend, ATerminalRedrawsInPlace) {
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  auto fe = make_simple_frontend(f, true);
  ProgressSnapshot two = with_phase(5, false);
  two.phases.insert(two.phases.begin(), with_phase(10, true).phases[0]);
  two.phases[0].name = "warmup";
  fe->show(two);
  fe->show(two);
  fe->close(two);
  const std::string out = written(f);
  std::fclose(f);
  // The first frame starts in place; the next ones go back up one line (two lines drawn) and
  // clear everything below before drawing again.
  EXPECT_EQ(out.rfind("[warmup]", 0), 0u) << out;
  EXPECT_NE(out.find("\r\x1b[1A\x1b[J[warmup]"), std::string::npos) << out;
  EXPECT_EQ(out.back(), '\n');
}

TEST(SimpleFrontend, LogLinesGoAboveTheProgressLines) {
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  std::shared_ptr<spdlog::sinks::sink> sink;
  auto fe = make_simple_frontend(f, true, &sink);
  ASSERT_TRUE(sink);
  sink->set_pattern("%v");
  fe->show(with_phase(5, false));
  sink->log(spdlog::details::log_msg("test", spdlog::level::warn, "something happened"));
  fe->close(with_phase(100, true));
  const std::string out = written(f);
  std::fclose(f);
  // The block is erased, the log line printed, the block drawn again under it.
  const auto log_at = out.find("\r\x1b[Jsomething happened\n[profiling]");
  EXPECT_NE(log_at, std::string::npos) << out;
  EXPECT_NE(out.find("completed 100 ", log_at), std::string::npos) << out;
  // Not a terminal: no sink (the log goes to stderr as usual).
  std::shared_ptr<spdlog::sinks::sink> none;
  std::FILE* g = std::tmpfile();
  make_simple_frontend(g, false, &none);
  std::fclose(g);
  EXPECT_FALSE(none);
}

}  // namespace
}  // namespace inferperf::ui
