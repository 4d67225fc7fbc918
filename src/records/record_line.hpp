// The records file's line for one record, written directly: the same bytes as
// record_to_json(r, anchor).dump(-1, ' ', false, replace), without building a JSON document.
// The collector thread writes one line per finished request while the run is going; building an
// nlohmann object per record (and one array per streamed event) cost a third of the client's CPU
// at 14,000 requests/s (docs/benchmarks.md).
#pragma once
#include <string>

#include "core/clock.hpp"
#include "records/request_record.hpp"

namespace inferperf::records {

// Appends the line (without its newline) to `out`.
void append_record_line(const RequestRecord& r, const core::WallAnchor& anchor, std::string& out);
// Appends the {"code", "type", "message"} object of a failed request (code null when there is
// none), as the records file and profile_export.jsonl both write it.
void append_error_json(const ErrorInfo& e, std::string& out);

}  // namespace inferperf::records
