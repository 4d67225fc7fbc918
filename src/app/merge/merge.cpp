#include "app/merge/merge.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <spdlog/spdlog.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <regex>
#include <tuple>

#include "app/exit_codes.hpp"
#include "app/logging.hpp"
#include "app/results.hpp"
#include "artifacts/export_names.hpp"
#include "artifacts/run_folder.hpp"
#include "artifacts/run_records.hpp"
#include "config/cli.hpp"
#include "core/error.hpp"
#include "core/uuid.hpp"
#include "records/record_jsonl.hpp"
#include "records/record_line.hpp"
#include "report/exporters.hpp"

#include "app/subcommand_words.hpp"

namespace inferperf::app {

namespace fs = std::filesystem;
using nlohmann::ordered_json;

MergeCommand parse_merge_command(const std::vector<std::string>& args) {
  MergeCommand cmd;
  MergeOptions& o = cmd.options;
  CLI::App app(
      "Join the artifact folders of one benchmark's shards (profile --shard-index/--shard-count) "
      "into one artifact folder",
      "inferperf merge");
  app.add_option("dirs", o.inputs, "Shard folders, or folders holding shard-* folders")->required();
  app.add_option("--artifact-dir,--output-artifact-dir", o.artifact_dir,
                 "The merged artifact folder (created; reports in it are rewritten)")
      ->required();
  app.add_option("--max-start-skew-ms", o.max_start_skew_ms,
                 "Warn when the shards' actual starts differ by more than this (default 100) "
                 "[0 to 3,600,000 ms]")
      ->check(CLI::Validator(
          [](std::string& text) -> std::string {
            // An hour bounds any skew worth a warning; NaN and inf would compare false forever.
            const double ms = std::strtod(text.c_str(), nullptr);
            if (std::isfinite(ms) && ms >= 0 && ms <= 3.6e6) return {};
            return "--max-start-skew-ms must be a number of milliseconds between 0 and "
                   "3,600,000 (got " +
                   core::excerpt(text) + ")";
          },
          "", ""));
  app.add_flag("--dry-run", o.dry_run,
               "Check the command line and print what would be merged; nothing is read or written");
  if (auto stop = parse_subcommand_words(app, args, "merge")) {
    std::tie(cmd.exit_code, cmd.message) = *stop;
    return cmd;
  }
  // build_cli_command quotes every word that is not a flag or a number; "merge" is a word.
  o.cli_command =
      "inferperf merge" + config::build_cli_command(args).substr(sizeof("inferperf") - 1);
  cmd.run = true;
  return cmd;
}

core::Result<std::vector<fs::path>> shard_folders(const std::vector<std::string>& inputs) {
  std::vector<fs::path> out;
  for (const auto& input : inputs) {
    const fs::path dir = fs::absolute(input);
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
      return core::Error{core::ErrorKind::kInput, "no such folder", dir.string()};
    if (fs::exists(dir / artifacts::kManifestFileName, ec)) {
      out.push_back(dir);
      continue;
    }
    std::vector<fs::path> found;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
      const std::string name = entry.path().filename().string();
      if (entry.is_directory() && name.starts_with("shard-") &&
          fs::exists(entry.path() / artifacts::kManifestFileName))
        found.push_back(entry.path());
    }
    if (found.empty()) {
      return core::Error{core::ErrorKind::kInput,
                         "neither a shard folder (no inferperf_run.json) nor a folder holding "
                         "shard-* folders",
                         dir.string()};
    }
    std::sort(found.begin(), found.end());
    out.insert(out.end(), found.begin(), found.end());
  }
  return out;
}

namespace {

// Where two configuration echoes first differ ("phases[0].concurrency"), or "" when they do not.
std::string first_difference(const ordered_json& a, const ordered_json& b,
                             const std::string& path) {
  if (a.is_object() && b.is_object()) {
    for (const auto& [k, v] : a.items()) {
      const std::string at = path.empty() ? k : path + "." + k;
      if (!b.contains(k)) return at;
      if (auto d = first_difference(v, b.at(k), at); !d.empty()) return d;
    }
    for (const auto& [k, v] : b.items())
      if (!a.contains(k)) return path.empty() ? k : path + "." + k;
    return "";
  }
  if (a.is_array() && b.is_array() && a.size() == b.size()) {
    for (std::size_t i = 0; i < a.size(); ++i) {
      const std::string at = path + "[" + std::to_string(i) + "]";
      if (auto d = first_difference(a[i], b[i], at); !d.empty()) return d;
    }
    return "";
  }
  return a == b ? "" : (path.empty() ? "(the whole value)" : path);
}

// What every shard must share: the configuration echo without the folder and identity, and the
// analysis settings.
ordered_json comparable(const artifacts::RunManifest& m) {
  ordered_json j;
  ordered_json cfg = m.context.input_config;
  if (cfg.contains("artifacts") && cfg["artifacts"].is_object()) cfg["artifacts"].erase("dir");
  if (cfg.contains("inferperf") && cfg["inferperf"].is_object()) {
    cfg["inferperf"].erase("artifact_directory");
    cfg["inferperf"].erase("shard");
  }
  j["input_config"] = std::move(cfg);
  const auto& s = m.settings;
  j["export_level"] = config::to_string(s.export_level);
  j["show_trace_timing"] = s.show_trace_timing;
  j["slice_duration"] = s.slice_duration_s ? ordered_json(*s.slice_duration_s) : ordered_json();
  j["profile_export_prefix"] = s.export_prefix;
  const auto& mo = s.metric_options;
  j["metric_options"] = {{"streaming", mo.streaming},
                         {"produces_tokens", mo.produces_tokens},
                         {"tokenizes_input", mo.tokenizes_input},
                         {"token_source", static_cast<int>(mo.token_source)},
                         {"goodput", mo.goodput.size()},
                         {"cross_tool", mo.cross_tool}};
  j["token_source"] = m.context.token_source;
  return j;
}

// The one-process command line: the shard's, without the shard options.
std::string unsharded_command(const std::string& cli) {
  static const std::regex shard_flag(R"( --(shard-index|shard-count|start-at)(=| )\S+)");
  return std::regex_replace(cli, shard_flag, "");
}

int worker_count_of(const ShardRun& s) {
  int n = s.run.manifest.context.client_load
              ? static_cast<int>(s.run.manifest.context.client_load->workers.size())
              : 0;
  for (const auto& r : s.run.records) n = std::max(n, r.worker_id + 1);
  return n;
}

// A set of shards merges only whole: each a shard (not a merged folder), all of one count, every
// index once. Returns the shard count.
core::Result<int> check_shard_set(const std::vector<ShardRun>& shards) {
  int count = 0;
  std::map<int, fs::path> by_index;
  for (const auto& s : shards) {
    const ordered_json& sh = s.run.manifest.context.shard;
    if (sh.is_object() && sh.contains("merged")) {
      return core::Error{core::ErrorKind::kInput, "already a merged folder, not a shard",
                         s.dir.string()};
    }
    if (!sh.is_object() || !sh.contains("index") || !sh.contains("count")) {
      return core::Error{core::ErrorKind::kInput,
                         "not a shard of a sharded run (its inferperf_run.json has no shard "
                         "block); `inferperf analyze` rebuilds a single run's reports",
                         s.dir.string()};
    }
    const int index = sh.at("index").get<int>(), n = sh.at("count").get<int>();
    if (count == 0) count = n;
    if (n != count) {
      return core::Error{core::ErrorKind::kInput,
                         fmt::format("a shard of {} shards, but {} is a shard of {}", n,
                                     shards.front().dir.string(), count),
                         s.dir.string()};
    }
    if (auto [it, fresh] = by_index.emplace(index, s.dir); !fresh) {
      return core::Error{core::ErrorKind::kInput, fmt::format("shard {} twice: {} and {}", index,
                                                              it->second.string(), s.dir.string())};
    }
  }
  std::vector<std::string> missing;
  for (int i = 0; i < count; ++i)
    if (!by_index.count(i)) missing.push_back(std::to_string(i));
  if (!missing.empty()) {
    return core::Error{core::ErrorKind::kInput,
                       fmt::format("shard(s) {} of {} missing; a benchmark is merged only whole "
                                   "(rerun the sharded job)",
                                   fmt::join(missing, ", "), count)};
  }
  return count;
}

// Shards sorted by index must share one configuration; the first that does not is named.
std::optional<core::Error> check_shards_agree(const std::vector<ShardRun>& shards) {
  const ordered_json reference = comparable(shards.front().run.manifest);
  for (std::size_t i = 1; i < shards.size(); ++i) {
    if (auto d = first_difference(reference, comparable(shards[i].run.manifest), ""); !d.empty()) {
      return core::Error{core::ErrorKind::kInput,
                         fmt::format("its configuration differs from shard 0's ({}) in {}",
                                     shards.front().dir.string(), d),
                         shards[i].dir.string()};
    }
  }
  return std::nullopt;
}

// Shard 0's manifest as the merged run's starting point: a new identity and folder, and the
// pooled fields emptied for join_shard_context to fill.
artifacts::RunManifest start_merged_manifest(const artifacts::RunManifest& first,
                                             const MergeOptions& o) {
  artifacts::RunManifest m = first;
  report::ReportContext& ctx = m.context;
  ctx.benchmark_id = core::uuid4();
  ctx.cli_command = unsharded_command(ctx.cli_command);
  ctx.artifact_dir = fs::absolute(o.artifact_dir);
  auto& ic = ctx.input_config;
  if (ic.contains("artifacts") && ic["artifacts"].is_object() && ic["artifacts"].contains("dir"))
    ic["artifacts"]["dir"] = ctx.artifact_dir.string();
  if (ic.contains("inferperf") && ic["inferperf"].is_object()) {
    ic["inferperf"]["artifact_directory"] = ctx.artifact_dir.string();
    ic["inferperf"].erase("shard");
  }
  if (ctx.run_info.is_object()) {
    ctx.run_info["benchmark_id"] = ctx.benchmark_id;
    ctx.run_info["cli_command"] = ctx.cli_command;
  }
  m.complete = true;
  m.recount.reset();  // load_run counted whatever a killed shard had not
  ctx.phase_start_ns = 0;
  ctx.phase_end_ns = 0;
  ctx.dropped_arrivals.reset();
  ctx.client_load.reset();
  ctx.workload.reset();
  ctx.telemetry_data = nullptr;
  return m;
}

// Where a record stands in the order of issue across shards.
struct MergeIssueKey {
  std::int64_t issued;
  int shard;
  std::int64_t credit;
};

// What pooling the shards one by one accumulates beyond the merged context itself.
struct MergePool {
  std::optional<std::int64_t> earliest_start, latest_start;  // shards' started_wall_ns
  ordered_json folders = ordered_json::array();
  int worker_offset = 0;  // workers of the shards pooled so far
  // Row-weighted sums of the workload averages, and the rows that carried each.
  double workload_isl = 0, workload_osl = 0;
  std::size_t isl_rows = 0, osl_rows = 0;
  std::vector<std::pair<MergeIssueKey, std::size_t>> order[2];  // per phase: record positions
};

void join_shard_workload(report::ReportContext& ctx, const report::ReportContext& c,
                         MergePool& pool) {
  if (!c.workload) return;
  if (!ctx.workload) {
    ctx.workload = *c.workload;
    ctx.workload->rows = 0;
  }
  ctx.workload->rows += c.workload->rows;
  if (c.workload->isl_avg) {
    pool.workload_isl += *c.workload->isl_avg * static_cast<double>(c.workload->rows);
    pool.isl_rows += c.workload->rows;
  }
  if (c.workload->osl_avg) {
    pool.workload_osl += *c.workload->osl_avg * static_cast<double>(c.workload->rows);
    pool.osl_rows += c.workload->rows;
  }
}

// One client of many workers: each shard's workers keep their own numbers, offset.
void join_shard_client_load(report::ReportContext& ctx, const report::ReportContext& c,
                            int worker_offset) {
  if (!c.client_load) return;
  if (!ctx.client_load) ctx.client_load = health::ClientLoad{};
  auto& load = *ctx.client_load;
  load.window_s = std::max(load.window_s, c.client_load->window_s);
  for (auto w : c.client_load->workers) {
    w.id += worker_offset;
    load.workers.push_back(w);
  }
  if (c.client_load->issuer_cpu_s)
    load.issuer_cpu_s = load.issuer_cpu_s.value_or(0) + *c.client_load->issuer_cpu_s;
  load.process_user_s += c.client_load->process_user_s;
  load.process_system_s += c.client_load->process_system_s;
}

void join_shard_context(report::ReportContext& ctx, const report::ReportContext& c,
                        MergePool& pool) {
  ctx.was_cancelled = ctx.was_cancelled || c.was_cancelled;
  ctx.failure_threshold_exceeded = ctx.failure_threshold_exceeded || c.failure_threshold_exceeded;
  if (c.phase_start_ns && (!ctx.phase_start_ns || c.phase_start_ns < ctx.phase_start_ns))
    ctx.phase_start_ns = c.phase_start_ns;
  ctx.phase_end_ns = std::max(ctx.phase_end_ns, c.phase_end_ns);
  if (c.dropped_arrivals)
    ctx.dropped_arrivals = ctx.dropped_arrivals.value_or(0) + *c.dropped_arrivals;
  if (ctx.telemetry_data.is_null() && !c.telemetry_data.is_null()) {
    // Every shard watched the same servers' GPUs: the first shard's view is the benchmark's.
    ctx.telemetry_data = c.telemetry_data;
  }
  join_shard_workload(ctx, c, pool);
  join_shard_client_load(ctx, c, pool.worker_offset);
  if (c.shard.contains("started_wall_ns")) {
    const auto started = c.shard.at("started_wall_ns").get<std::int64_t>();
    pool.earliest_start = pool.earliest_start ? std::min(*pool.earliest_start, started) : started;
    pool.latest_start = pool.latest_start ? std::max(*pool.latest_start, started) : started;
  }
}

// Moves shard `si`'s records into the merged run, their workers offset past earlier shards'.
void pool_shard_records(ShardRun& s, std::size_t si, MergePool& pool,
                        std::vector<records::RequestRecord>& merged) {
  const int shard_workers = worker_count_of(s);
  for (auto& r : s.run.records) {
    r.worker_id += pool.worker_offset;
    const int phase = r.phase == records::Phase::kWarmup ? 0 : 1;
    pool.order[phase].push_back({{r.issued_ns, static_cast<int>(si), r.credit_num}, merged.size()});
    merged.push_back(std::move(r));
  }
  pool.worker_offset += shard_workers;
}

// The pooled records as one process would have written them: credit numbers (session_num) in
// order of issue, as one issuer gives them, and the file in completion order, as one collector
// writes it.
void order_merged_records(MergePool& pool, std::vector<records::RequestRecord>& merged) {
  for (auto& phase : pool.order) {
    std::sort(phase.begin(), phase.end(), [](const auto& a, const auto& b) {
      return std::tie(a.first.issued, a.first.shard, a.first.credit) <
             std::tie(b.first.issued, b.first.shard, b.first.credit);
    });
    for (std::size_t n = 0; n < phase.size(); ++n)
      merged[phase[n].second].credit_num = static_cast<std::int64_t>(n);
  }
  std::stable_sort(merged.begin(), merged.end(),
                   [](const records::RequestRecord& a, const records::RequestRecord& b) {
                     return a.end_ns < b.end_ns;
                   });
}

}  // namespace

core::Result<MergedRun> merge_shards(std::vector<ShardRun> shards, const MergeOptions& o) {
  if (shards.empty()) return core::Error{core::ErrorKind::kInput, "no shard folder given"};
  auto count = check_shard_set(shards);
  if (!count) return count.error();
  std::sort(shards.begin(), shards.end(), [](const ShardRun& a, const ShardRun& b) {
    return a.run.manifest.context.shard.at("index").get<int>() <
           b.run.manifest.context.shard.at("index").get<int>();
  });
  if (auto e = check_shards_agree(shards)) return *e;

  MergedRun out;
  artifacts::RunManifest& m = out.run.manifest;
  m = start_merged_manifest(shards.front().run.manifest, o);
  report::ReportContext& ctx = m.context;
  MergePool pool;
  for (std::size_t si = 0; si < shards.size(); ++si) {
    pool.folders.push_back(shards[si].dir.string());
    join_shard_context(ctx, shards[si].run.manifest.context, pool);
    pool_shard_records(shards[si], si, pool, out.run.records);
  }
  if (ctx.workload) {
    ctx.workload->isl_avg.reset();
    ctx.workload->osl_avg.reset();
    if (pool.isl_rows)
      ctx.workload->isl_avg = pool.workload_isl / static_cast<double>(pool.isl_rows);
    if (pool.osl_rows)
      ctx.workload->osl_avg = pool.workload_osl / static_cast<double>(pool.osl_rows);
  }
  order_merged_records(pool, out.run.records);
  if (pool.earliest_start && pool.latest_start)
    out.start_spread_ms = static_cast<double>(*pool.latest_start - *pool.earliest_start) / 1e6;
  if (out.start_spread_ms > o.max_start_skew_ms) {
    out.warnings.push_back(fmt::format(
        "the shards started {:.1f} ms apart (more than --max-start-skew-ms {:g}): their clocks "
        "differ or they did not start together (give every shard the same --start-at, keep the "
        "machines' clocks synchronised); metrics over the pooled window mix a ramp in and out",
        out.start_spread_ms, o.max_start_skew_ms));
  }
  ctx.shard = {
      {"merged",
       {{"shards", *count}, {"folders", pool.folders}, {"start_spread_ms", out.start_spread_ms}}}};
  return out;
}

namespace {

// Files the analysis does not rebuild: the raw exchanges are concatenated; the dataset and the
// server and GPU telemetry exports (every shard watched the same servers) are shard 0's.
void carry_files(const std::vector<fs::path>& shards, const fs::path& out,
                 const artifacts::ExportNames& names) {
  std::error_code ec;
  fs::copy_file(shards.front() / artifacts::kInputsFileName, out / artifacts::kInputsFileName,
                fs::copy_options::overwrite_existing, ec);
  for (const auto& name : {names.gpu_telemetry_jsonl, names.server_metrics_json,
                           names.server_metrics_csv, names.server_metrics_jsonl}) {
    if (fs::exists(shards.front() / name))
      fs::copy_file(shards.front() / name, out / name, fs::copy_options::overwrite_existing, ec);
  }
  bool any_raw = false;
  for (const auto& s : shards) any_raw = any_raw || fs::exists(s / names.raw_jsonl);
  if (!any_raw) return;
  std::ofstream raw(out / names.raw_jsonl, std::ios::binary | std::ios::trunc);
  for (const auto& s : shards) {
    std::ifstream in(s / names.raw_jsonl, std::ios::binary);
    if (in) raw << in.rdbuf();
  }
}

}  // namespace

int run_merge(const MergeOptions& o) {
  init_console_logging("INFO");
  if (o.dry_run) {
    std::cout << "dry run: the command line is valid; nothing was read or written\n"
              << o.cli_command << "\n";
    for (const auto& in : o.inputs)
      std::cout << "shards from: " << fs::absolute(in).string() << "\n";
    std::cout << "merged artifact folder: " << fs::absolute(o.artifact_dir).string() << "\n";
    return kExitOk;
  }
  auto folders = shard_folders(o.inputs);
  if (!folders) {
    std::cerr << "error: " << folders.error().describe() << "\n";
    return kExitBadConfig;
  }
  const fs::path out = fs::absolute(o.artifact_dir);
  for (const auto& f : *folders) {
    if (fs::weakly_canonical(f) == fs::weakly_canonical(out)) {
      std::cerr << "error: --artifact-dir " << out.string() << " is one of the shard folders\n";
      return kExitBadConfig;
    }
  }
  std::vector<ShardRun> shards;
  for (const auto& f : *folders) {
    auto run = load_run(f);
    if (!run) {
      std::cerr << "error: " << run.error().describe() << "\n";
      return kExitBadConfig;
    }
    spdlog::info("merge: {} record(s) from {}", run->records.size(), f.string());
    shards.push_back({f, std::move(*run)});
  }
  auto merged = merge_shards(std::move(shards), o);
  if (!merged) {
    std::cerr << "error: " << merged.error().describe() << "\n";
    return kExitBadConfig;
  }
  std::error_code ec;
  fs::create_directories(out / artifacts::kLogsFolderName, ec);
  if (ec) {
    std::cerr << "error: cannot create " << out.string() << ": " << ec.message() << "\n";
    return kExitBadConfig;
  }
  add_log_file(out / artifacts::kLogsFolderName / artifacts::kLogFileName);
  spdlog::info("{}", o.cli_command);
  for (const auto& w : merged->warnings) spdlog::warn("{}", w);
  spdlog::info("merge: {} shards, {} record(s); the shards started {:.1f} ms apart",
               folders->size(), merged->run.records.size(), merged->start_spread_ms);
  artifacts::RunManifest& m = merged->run.manifest;
  if (auto w = artifacts::save_records(out / artifacts::kRecordsFileName, merged->run.records,
                                       core::WallAnchor{0, 0});
      !w) {
    std::cerr << "error: " << w.error().describe() << "\n";
    return kExitRunFailed;
  }
  if (auto w = artifacts::write_manifest(out, m.context, m.settings, true); !w) {
    std::cerr << "error: " << w.error().describe() << "\n";
    return kExitRunFailed;
  }
  carry_files(*folders, out, artifacts::export_names(m.settings.export_prefix));
  artifacts::ExportSettings settings = m.settings;
  // The raw exchanges were carried over above; the analysis cannot rebuild them.
  if (settings.export_level == config::ExportLevel::kRaw)
    settings.export_level = config::ExportLevel::kRecords;
  return report_results(merged->run.records, settings, m.context);
}

}  // namespace inferperf::app
