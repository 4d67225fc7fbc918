// The analysis of a profile run whose collector kept no records (records::Collector with
// set_keep_records(false)): the records file is read back one record at a time, each record gets
// its client token counts, goes back into the records file with them and into the report pass.
// Memory is the report's metric columns, never the records (docs/architecture.md, Records and
// metrics).
#pragma once
#include <filesystem>
#include <vector>

#include "app/profile/dataset_setup.hpp"
#include "app/results.hpp"
#include "app/tokenizer_setup.hpp"
#include "core/clock.hpp"
#include "core/error.hpp"
#include "records/request_record.hpp"

namespace inferperf::app {

// The report context of records read back from disk: their stamps are wall-clock, so the report
// runs on anchor {0, 0} with the phase window on the wall clock too (as `inferperf analyze` does).
report::ReportContext wall_clock_context(const report::ReportContext& run_ctx);

// Feeds `pass` every record of `file` in order, then `tail` (the records the collector kept
// because the file does not hold them; monotonic stamps through `run_anchor`). With `counter`,
// each record is counted (then its reply remembered); with `rewrite`, the file is rewritten with
// the counts (atomically, once every record went through). Returns whether it was rewritten; an
// error when the file could not be read or rewritten (the records read so far are in `pass`).
// `workload` (a trace replay's workload check), when given, sees every record too.
core::Result<bool> pass_records_file(const std::filesystem::path& file,
                                     std::vector<records::RequestRecord>& tail,
                                     const core::WallAnchor& run_anchor,
                                     ClientTokenCounter* counter, bool rewrite, ReportPass& pass,
                                     ExpectedWorkload* workload = nullptr);

}  // namespace inferperf::app
