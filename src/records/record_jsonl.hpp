// inferperf_records.jsonl: one compact line per finished request, wall-clock timestamps.
#pragma once
#include <nlohmann/json.hpp>

#include <string>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "records/request_record.hpp"

namespace inferperf::records {

nlohmann::ordered_json record_to_json(const RequestRecord& r, const core::WallAnchor& anchor);
// Inverse of record_to_json, with the anchor chosen so monotonic values equal the wall values.
core::Result<RequestRecord> record_from_json(const nlohmann::json& j);

}  // namespace inferperf::records
