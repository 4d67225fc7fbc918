#include "health/client_health.hpp"

#include <gtest/gtest.h>

namespace inferperf::health {
namespace {

ClientLoad calm_load() {
  ClientLoad l;
  l.window_s = 10;
  WorkerUsage w;
  w.id = 0;
  w.cpu_s = 2.0;  // 20 %
  w.loop_lag_p50_ms = 0.05;
  w.loop_lag_p99_ms = 0.2;
  w.loop_lag_max_ms = 0.6;
  w.loop_lag_samples = 1000;
  l.workers = {w, w};
  l.workers[1].id = 1;
  l.issuer_cpu_s = 0.5;
  l.process_user_s = 3.0;
  l.process_system_s = 1.0;
  return l;
}

WorkDone calm_work() {
  WorkDone w;
  w.requests = 1000;
  w.events = 100'000;
  w.schedule_lag_p50_ms = 0.05;
  w.schedule_lag_p99_ms = 0.3;
  return w;
}

TEST(ClientHealth, CalmRunIsNotSaturatedAndReportsEveryField) {
  const Assessment a = assess(calm_load(), calm_work());
  EXPECT_FALSE(a.saturated);
  EXPECT_TRUE(a.warnings.empty());
  const auto& b = a.block;
  EXPECT_EQ(b["saturated"], false);
  EXPECT_TRUE(b["causes"].empty());
  EXPECT_EQ(b["measured"], true);
  EXPECT_DOUBLE_EQ(b["worker_cpu_percent_max"].get<double>(), 20.0);
  EXPECT_DOUBLE_EQ(b["loop_lag_p99_ms_max"].get<double>(), 0.2);
  EXPECT_DOUBLE_EQ(b["issuer_cpu_percent"].get<double>(), 5.0);
  EXPECT_DOUBLE_EQ(b["schedule_lag_p99_ms"].get<double>(), 0.3);
  // 4 s of process CPU over 1,000 requests and 100,000 events.
  EXPECT_DOUBLE_EQ(b["cpu_us_per_request"].get<double>(), 4000.0);
  EXPECT_DOUBLE_EQ(b["cpu_us_per_event"].get<double>(), 40.0);
  ASSERT_EQ(b["workers"].size(), 2u);
  EXPECT_DOUBLE_EQ(b["workers"][1]["cpu_percent"].get<double>(), 20.0);
  EXPECT_EQ(b["workers"][1]["loop_lag_samples"], 1000);
}

TEST(ClientHealth, EachThresholdNamesItsCause) {
  struct Case {
    const char* name;
    void (*change)(ClientLoad&, WorkDone&);
    const char* cause;
    const char* phrase;
  };
  const Case cases[] = {
      {"loop lag", [](ClientLoad& l, WorkDone&) { l.workers[1].loop_lag_p99_ms = 3.5; },
       "event_loop_lag", "worker 1 event-loop lag p99 3.500 ms"},
      {"worker cpu", [](ClientLoad& l, WorkDone&) { l.workers[0].cpu_s = 9.5; }, "worker_cpu",
       "worker 0 used 95.0 %"},
      {"schedule lag", [](ClientLoad&, WorkDone& w) { w.schedule_lag_p99_ms = 2.25; },
       "schedule_lag", "schedule lag p99 2.250 ms"},
  };
  for (const auto& c : cases) {
    ClientLoad l = calm_load();
    WorkDone w = calm_work();
    c.change(l, w);
    const Assessment a = assess(l, w);
    EXPECT_TRUE(a.saturated) << c.name;
    ASSERT_EQ(a.block["causes"].size(), 1u) << c.name;
    EXPECT_EQ(a.block["causes"][0], c.cause) << c.name;
    ASSERT_EQ(a.warnings.size(), 1u) << c.name;
    EXPECT_NE(a.warnings[0].find(c.phrase), std::string::npos) << a.warnings[0];
  }
}

TEST(ClientHealth, ThresholdsAreStrictAndConfigurable) {
  ClientLoad l = calm_load();
  l.workers[0].loop_lag_p99_ms = 1.0;  // equal to the limit: not over it
  EXPECT_FALSE(assess(l, calm_work()).saturated);
  Thresholds tight;
  tight.loop_lag_p99_ms = 0.5;
  EXPECT_TRUE(assess(l, calm_work(), tight).saturated);
}

TEST(ClientHealth, WorkerWithoutProbeSamplesSaysNothingAboutLag) {
  ClientLoad l = calm_load();
  l.workers[0].loop_lag_samples = 0;
  l.workers[0].loop_lag_p99_ms = 50;  // meaningless without samples
  const Assessment a = assess(l, calm_work());
  EXPECT_FALSE(a.saturated);
  EXPECT_DOUBLE_EQ(a.block["loop_lag_p99_ms_max"].get<double>(), 0.2);
}

TEST(ClientHealth, UnmeasuredRunJudgesScheduleLagOnly) {
  WorkDone w = calm_work();
  w.schedule_lag_p99_ms = 4.0;
  const Assessment a = assess(std::nullopt, w);
  EXPECT_TRUE(a.saturated);
  EXPECT_EQ(a.block["measured"], false);
  EXPECT_TRUE(a.block["worker_cpu_percent_max"].is_null());
  EXPECT_TRUE(a.block["cpu_us_per_event"].is_null());
  EXPECT_TRUE(a.block["workers"].empty());
  EXPECT_EQ(a.block["requests"], 1000);
}

TEST(ClientHealth, LoadSurvivesTheManifestRoundTrip) {
  const ClientLoad l = calm_load();
  const ClientLoad back = load_from_json(nlohmann::json::parse(load_to_json(l).dump()));
  EXPECT_EQ(assess(back, calm_work()).block, assess(l, calm_work()).block);
  ClientLoad no_issuer = l;
  no_issuer.issuer_cpu_s.reset();
  EXPECT_FALSE(load_from_json(nlohmann::json::parse(load_to_json(no_issuer).dump())).issuer_cpu_s);
}

TEST(ClientHealth, WorkerUsageSummarisesTheHistogramWindow) {
  core::LatencyHistogram h;
  for (int i = 0; i < 98; ++i) h.record(50'000);
  h.record(3'000'000);
  h.record(4'000'000);
  const WorkerUsage w = worker_usage(3, 1.5, h.snapshot());
  EXPECT_EQ(w.id, 3);
  EXPECT_EQ(w.loop_lag_samples, 100u);
  EXPECT_NEAR(w.loop_lag_p50_ms, 0.05, 0.05 / 32);
  EXPECT_NEAR(w.loop_lag_p99_ms, 3.0, 3.0 / 32);
  EXPECT_DOUBLE_EQ(w.loop_lag_max_ms, 4.0);
}

}  // namespace
}  // namespace inferperf::health

namespace inferperf::health {
namespace {

// A server on the same cores: the loops run late while the workers are mostly idle and wait on a
// run queue. That is the host's contention, worded as such, not the client's saturation.
TEST(ClientHealth, LatenessFromWaitingForCpusIsHostContentionNotSaturation) {
  ClientLoad l = calm_load();
  l.workers[0].loop_lag_p99_ms = 4.0;
  l.workers[0].run_delay_s = 1.5;  // 15 % of the 10 s window
  l.workers[0].involuntary_switches = 3000;
  l.workers[1].run_delay_s = 0.1;
  WorkDone w = calm_work();
  w.schedule_lag_p99_ms = 2.5;
  const Assessment a = assess(l, w);
  EXPECT_FALSE(a.saturated);
  EXPECT_TRUE(a.host_contended);
  EXPECT_TRUE(a.warnings.empty());
  ASSERT_EQ(a.contention.size(), 3u);
  EXPECT_NE(a.contention[0].find("event-loop lag p99 4.000 ms"), std::string::npos);
  EXPECT_NE(a.contention[1].find("schedule lag p99 2.500 ms"), std::string::npos);
  EXPECT_NE(
      a.contention[2].find("worker 0 waited 15.0 % of the window for a CPU while using 20.0 %"),
      std::string::npos)
      << a.contention[2];
  EXPECT_EQ(a.block["host_contended"], true);
  EXPECT_DOUBLE_EQ(a.block["run_queue_wait_percent_max"].get<double>(), 15.0);
  EXPECT_DOUBLE_EQ(a.block["involuntary_switches_per_s_max"].get<double>(), 300.0);
  EXPECT_DOUBLE_EQ(a.block["workers"][0]["run_queue_wait_percent"].get<double>(), 15.0);

  // The same lateness with a busy worker is the client's own saturation, whatever it waited.
  l.workers[0].cpu_s = 9.5;
  const Assessment busy = assess(l, w);
  EXPECT_TRUE(busy.saturated);
  EXPECT_FALSE(busy.host_contended);

  // Lateness with a little waiting but much more running is the client's own work.
  ClientLoad own = calm_load();
  own.workers[0].loop_lag_p99_ms = 3.0;
  own.workers[0].cpu_s = 4.0;        // 40 %
  own.workers[0].run_delay_s = 0.1;  // 1 %: less than half of 40 %
  const Assessment mine = assess(own, calm_work());
  EXPECT_TRUE(mine.saturated);
  EXPECT_FALSE(mine.host_contended);
  // A nearly idle worker whose rare waits make the p99 (llama.cpp's server on the same cores).
  ClientLoad idle = calm_load();
  idle.workers[0].cpu_s = 0.05;        // 0.5 %
  idle.workers[0].run_delay_s = 0.15;  // 1.5 %
  idle.workers[0].loop_lag_p99_ms = 2.0;
  const Assessment rare = assess(idle, calm_work());
  EXPECT_FALSE(rare.saturated);
  EXPECT_TRUE(rare.host_contended);

  // Waiting without any lateness is not worth a word.
  ClientLoad quiet = calm_load();
  quiet.workers[0].run_delay_s = 2.0;
  const Assessment q = assess(quiet, calm_work());
  EXPECT_FALSE(q.saturated);
  EXPECT_FALSE(q.host_contended);

  // Hypervisor steal counts as contention too.
  ClientLoad stolen = calm_load();
  stolen.workers[0].loop_lag_p99_ms = 3.0;
  stolen.host_steal_s = 4.0;
  stolen.host_cpus = 4;  // 4 s of 40 CPU-seconds: 10 %
  const Assessment s = assess(stolen, calm_work());
  EXPECT_TRUE(s.host_contended);
  EXPECT_FALSE(s.saturated);
  EXPECT_NE(s.contention.back().find("stole 10.0 %"), std::string::npos);
}

TEST(ClientHealth, TheSchedulerFiguresSurviveTheManifest) {
  ClientLoad l = calm_load();
  l.workers[0].run_delay_s = 0.25;
  l.workers[0].involuntary_switches = 12;
  l.host_steal_s = 0.5;
  l.host_cpus = 2;
  const ClientLoad back = load_from_json(load_to_json(l));
  EXPECT_EQ(back.workers[0].run_delay_s, 0.25);
  EXPECT_EQ(back.workers[0].involuntary_switches, 12);
  EXPECT_FALSE(back.workers[1].run_delay_s);
  EXPECT_EQ(back.host_steal_s, 0.5);
  EXPECT_EQ(back.host_cpus, 2);
}

}  // namespace
}  // namespace inferperf::health
