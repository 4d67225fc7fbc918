// merge_shards on made-up shard runs: what is pooled, renumbered and joined, and what is refused.
#include "app/merge/merge.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

namespace inferperf::app {
namespace {

constexpr std::int64_t kT0 = 1'800'000'000'000'000'000;  // wall-clock ns

records::RequestRecord record(std::int64_t issued, std::int64_t credit, int worker) {
  records::RequestRecord r;
  r.credit_num = credit;
  r.worker_id = worker;
  r.issued_ns = r.intended_ns = issued;
  r.start_ns = issued + 10;
  r.end_ns = issued + 1000;
  return r;
}

ShardRun shard(int index, int count, std::int64_t started,
               std::vector<records::RequestRecord> recs) {
  ShardRun s;
  s.dir = "/results/run/shard-" + std::to_string(index);
  auto& ctx = s.run.manifest.context;
  ctx.benchmark_id = "shard-id";
  ctx.cli_command = "inferperf profile -m 'x' --concurrency 4 --shard-count " +
                    std::to_string(count) + " --shard-index " + std::to_string(index) +
                    " --start-at 1800000000.5 --random-seed 1";
  ctx.input_config = {
      {"phases", nlohmann::ordered_json::array({{{"name", "profiling"}, {"concurrency", 4}}})},
      {"artifacts", {{"dir", s.dir.string()}}},
      {"inferperf",
       {{"artifact_directory", s.dir.string()}, {"shard", {{"index", index}, {"count", count}}}}}};
  ctx.run_info = {{"benchmark_id", "shard-id"}, {"trial", 0}, {"cli_command", ctx.cli_command}};
  ctx.shard = {{"index", index}, {"count", count}, {"started_wall_ns", started}};
  ctx.phase_start_ns = started;
  ctx.phase_end_ns = started + 5000;
  ctx.dropped_arrivals = index + 1;
  health::ClientLoad load;
  load.window_s = 1.0 + index;
  load.workers = {health::WorkerUsage{0, 0.5}, health::WorkerUsage{1, 0.25}};
  load.process_user_s = 1;
  ctx.client_load = load;
  s.run.manifest.complete = true;
  s.run.records = std::move(recs);
  return s;
}

MergeOptions out() {
  MergeOptions o;
  o.artifact_dir = "/results/run/merged";
  return o;
}

TEST(MergeShards, PoolsRecordsRenumbersThemAndJoinsTheManifests) {
  std::vector<ShardRun> shards;
  // Given out of order: merge sorts by index. Credits interleave in time across shards.
  shards.push_back(
      shard(1, 2, kT0 + 2'000'000, {record(kT0 + 300, 0, 0), record(kT0 + 100, 1, 1)}));
  shards.push_back(shard(0, 2, kT0, {record(kT0 + 200, 0, 1), record(kT0 + 400, 1, 0)}));
  auto m = merge_shards(std::move(shards), out());
  ASSERT_TRUE(m) << m.error().describe();
  const auto& recs = m->run.records;
  ASSERT_EQ(recs.size(), 4u);
  std::vector<std::pair<std::int64_t, std::int64_t>> by_issue;
  std::set<int> workers;
  for (const auto& r : recs) {
    by_issue.emplace_back(r.issued_ns, r.credit_num);
    workers.insert(r.worker_id);
  }
  std::sort(by_issue.begin(), by_issue.end());
  for (std::size_t i = 0; i < by_issue.size(); ++i)
    EXPECT_EQ(by_issue[i].second, static_cast<std::int64_t>(i)) << "session_num in issue order";
  EXPECT_EQ(workers, (std::set<int>{0, 1, 2, 3})) << "shard 1's workers follow shard 0's";
  for (std::size_t i = 1; i < recs.size(); ++i)
    EXPECT_LE(recs[i - 1].end_ns, recs[i].end_ns) << "completion order";

  const auto& ctx = m->run.manifest.context;
  EXPECT_EQ(ctx.phase_start_ns, kT0);
  EXPECT_EQ(ctx.phase_end_ns, kT0 + 2'000'000 + 5000);
  EXPECT_EQ(ctx.dropped_arrivals, 3);
  ASSERT_TRUE(ctx.client_load);
  EXPECT_EQ(ctx.client_load->workers.size(), 4u);
  EXPECT_EQ(ctx.client_load->workers[2].id, 2);
  EXPECT_DOUBLE_EQ(ctx.client_load->window_s, 2.0);
  EXPECT_DOUBLE_EQ(ctx.client_load->process_user_s, 2.0);
  EXPECT_EQ(ctx.cli_command, "inferperf profile -m 'x' --concurrency 4 --random-seed 1")
      << "the one-process command";
  EXPECT_NE(ctx.benchmark_id, "shard-id");
  EXPECT_EQ(ctx.run_info["benchmark_id"], ctx.benchmark_id);
  EXPECT_EQ(ctx.run_info["cli_command"], ctx.cli_command);
  EXPECT_EQ(ctx.input_config["artifacts"]["dir"], "/results/run/merged");
  EXPECT_EQ(ctx.input_config["inferperf"]["artifact_directory"], "/results/run/merged");
  EXPECT_FALSE(ctx.input_config["inferperf"].contains("shard")) << "the merged run is one run";
  EXPECT_EQ(ctx.input_config["phases"][0]["concurrency"], 4);
  EXPECT_EQ(ctx.shard["merged"]["shards"], 2);
  EXPECT_DOUBLE_EQ(m->start_spread_ms, 2.0);
  EXPECT_TRUE(m->warnings.empty()) << "2 ms is within the 100 ms tolerance";
}

TEST(MergeShards, WarnsWhenTheShardsStartedFurtherApartThanTheTolerance) {
  std::vector<ShardRun> shards;
  shards.push_back(shard(0, 2, kT0, {record(kT0, 0, 0)}));
  shards.push_back(shard(1, 2, kT0 + 250'000'000, {record(kT0 + 250'000'000, 0, 0)}));
  auto m = merge_shards(std::move(shards), out());
  ASSERT_TRUE(m);
  EXPECT_DOUBLE_EQ(m->start_spread_ms, 250.0);
  ASSERT_EQ(m->warnings.size(), 1u);
  EXPECT_NE(m->warnings[0].find("250.0 ms apart (more than --max-start-skew-ms 100)"),
            std::string::npos)
      << m->warnings[0];
}

TEST(MergeShards, RefusesWhatIsNotOneWholeBenchmark) {
  auto refused = [](std::vector<ShardRun> shards) {
    auto m = merge_shards(std::move(shards), out());
    return m ? std::string() : m.error().describe();
  };
  std::vector<ShardRun> missing;
  missing.push_back(shard(0, 3, kT0, {}));
  missing.push_back(shard(2, 3, kT0, {}));
  EXPECT_NE(refused(std::move(missing)).find("shard(s) 1 of 3 missing"), std::string::npos);

  std::vector<ShardRun> twice;
  twice.push_back(shard(0, 2, kT0, {}));
  twice.push_back(shard(0, 2, kT0, {}));
  EXPECT_NE(refused(std::move(twice)).find("shard 0 twice"), std::string::npos);

  std::vector<ShardRun> counts;
  counts.push_back(shard(0, 2, kT0, {}));
  counts.push_back(shard(1, 3, kT0, {}));
  EXPECT_NE(refused(std::move(counts)).find("a shard of 3 shards"), std::string::npos);

  std::vector<ShardRun> differ;
  differ.push_back(shard(0, 2, kT0, {}));
  differ.push_back(shard(1, 2, kT0, {}));
  differ[1].run.manifest.context.input_config["phases"][0]["concurrency"] = 8;
  EXPECT_NE(refused(std::move(differ))
                .find("differs from shard 0's (/results/run/shard-0) in "
                      "input_config.phases[0].concurrency"),
            std::string::npos);

  std::vector<ShardRun> plain;
  plain.push_back(shard(0, 2, kT0, {}));
  plain[0].run.manifest.context.shard = nullptr;
  EXPECT_NE(refused(std::move(plain)).find("not a shard of a sharded run"), std::string::npos);
}

TEST(MergeCommandLine, StartSkewOutsideAnHourOrNotFiniteIsReadable) {
  for (const char* bad : {"-1", "nan", "inf", "1e300"}) {
    const auto cmd =
        parse_merge_command({"a", "--artifact-dir", "out", "--max-start-skew-ms", bad});
    EXPECT_FALSE(cmd.run) << bad;
    EXPECT_EQ(cmd.exit_code, 2) << bad;
    EXPECT_NE(cmd.message.find("--max-start-skew-ms must be a number of milliseconds between 0 "
                               "and 3,600,000 (got " +
                               std::string(bad) + ")"),
              std::string::npos)
        << cmd.message;
    EXPECT_LT(cmd.message.size(), 300u) << cmd.message;
  }
  EXPECT_TRUE(
      parse_merge_command({"a", "--artifact-dir", "out", "--max-start-skew-ms", "250"}).run);
}

}  // namespace
}  // namespace inferperf::app
