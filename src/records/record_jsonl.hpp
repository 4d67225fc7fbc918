// inferperf_records.jsonl: one compact line per finished request, wall-clock timestamps.
#pragma once
#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "records/request_record.hpp"

namespace inferperf::records {

nlohmann::ordered_json record_to_json(const RequestRecord& r, const core::WallAnchor& anchor);
// Inverse of record_to_json for one line of the records file, with the anchor chosen so monotonic
// values equal the wall values. Errors (kInput) say "not valid JSON" or "malformed record" with the
// field that is missing or of the wrong type.
core::Result<RequestRecord> record_from_line(std::string_view line);

}  // namespace inferperf::records
