#include "app/profile/records_pass.hpp"

#include <optional>
#include <string>

#include "artifacts/run_records.hpp"
#include "records/record_jsonl.hpp"
#include "records/record_line.hpp"
#include "report/exporters.hpp"

namespace inferperf::app {

report::ReportContext wall_clock_context(const report::ReportContext& run_ctx) {
  report::ReportContext wall = run_ctx;
  wall.anchor = core::WallAnchor{0, 0};
  wall.phase_start_ns = run_ctx.phase_start_ns ? run_ctx.anchor.to_wall(run_ctx.phase_start_ns) : 0;
  wall.phase_end_ns = run_ctx.phase_end_ns ? run_ctx.anchor.to_wall(run_ctx.phase_end_ns) : 0;
  return wall;
}

core::Result<bool> pass_records_file(const std::filesystem::path& file,
                                     std::vector<records::RequestRecord>& tail,
                                     const core::WallAnchor& run_anchor,
                                     ClientTokenCounter* counter, bool rewrite, ReportPass& pass,
                                     ExpectedWorkload* workload) {
  std::optional<report::AtomicFile> out;
  if (rewrite) out.emplace(file);
  std::string line;
  const core::WallAnchor wall{0, 0};
  auto feed = [&](records::RequestRecord& r) {
    if (counter) counter->count_in_order(r);
    if (out && out->is_open()) {
      line.clear();
      records::append_record_line(r, wall, line);
      line.push_back('\n');
      out->append(line);
    }
    pass.add(r);
    if (workload) workload->add(r);
  };
  auto read = artifacts::for_each_record_read_ahead(file, feed);
  // The tail goes through its records-file line, so it is stamped like the rest.
  for (auto& r : tail) {
    line.clear();
    records::append_record_line(r, run_anchor, line);
    auto back = records::record_from_line(line);
    if (!back) return back.error();
    back->raw = r.raw;
    feed(*back);
  }
  if (!read) return read.error();
  if (!out) return false;
  if (auto w = out->commit(); !w) return w.error();
  return true;
}

}  // namespace inferperf::app
