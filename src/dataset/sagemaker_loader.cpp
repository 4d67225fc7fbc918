// sagemaker_data_capture: the JSONL files Amazon SageMaker Data Capture writes for a real-time
// endpoint (one file, or every *.jsonl below a folder: the hourly S3 layout). Each record is one
// captured chat request, replayed verbatim at its inference time.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <climits>
#include <cmath>

#include "core/uuid.hpp"
#include "dataset/input_file.hpp"
#include "dataset/loader_internal.hpp"
#include "dataset/trace_synthesis.hpp"

namespace inferperf::dataset {

namespace fs = std::filesystem;

bool looks_like_sagemaker(const ojson& j) {
  return j.contains("captureData") && j.contains("eventMetadata");
}

namespace {

// Days since 1970-01-01 of a proleptic Gregorian date.
long long sagemaker_days(long long y, unsigned m, unsigned d) {
  y -= m <= 2;
  const long long era = (y >= 0 ? y : y - 399) / 400;
  const auto yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<long long>(doe) - 719468;
}

// "YYYY-MM-DDTHH:MM:SS[.fraction][Z|+HH:MM|-HH:MM]" as Unix ms (no zone: UTC).
std::optional<double> sagemaker_iso_ms(std::string_view s) {
  auto digits = [&](std::size_t at, std::size_t n) -> std::optional<int> {
    if (at + n > s.size()) return std::nullopt;
    int v = 0;
    for (std::size_t i = at; i < at + n; ++i) {
      if (s[i] < '0' || s[i] > '9') return std::nullopt;
      v = v * 10 + (s[i] - '0');
    }
    return v;
  };
  const auto y = digits(0, 4), mo = digits(5, 2), d = digits(8, 2), h = digits(11, 2),
             mi = digits(14, 2), sec = digits(17, 2);
  if (!y || !mo || !d || !h || !mi || !sec || s[4] != '-' || s[7] != '-' ||
      (s[10] != 'T' && s[10] != ' ') || s[13] != ':' || s[16] != ':' || *mo < 1 || *mo > 12 ||
      *d < 1 || *d > 31 || *h > 23 || *mi > 59 || *sec > 60)
    return std::nullopt;
  double ms = static_cast<double>(
                  sagemaker_days(*y, static_cast<unsigned>(*mo), static_cast<unsigned>(*d))) *
                  86'400'000.0 +
              (*h * 3600.0 + *mi * 60.0 + *sec) * 1000.0;
  std::size_t i = 19;
  if (i < s.size() && s[i] == '.') {
    double scale = 100.0;
    for (++i; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i, scale /= 10)
      ms += (s[i] - '0') * scale;
  }
  if (i == s.size()) return ms;
  if (s[i] == 'Z' && i + 1 == s.size()) return ms;
  if ((s[i] == '+' || s[i] == '-') && i + 6 == s.size() && s[i + 3] == ':') {
    const auto oh = digits(i + 1, 2), om = digits(i + 4, 2);
    if (!oh || !om) return std::nullopt;
    const double offset = (*oh * 60.0 + *om) * 60'000.0;
    return s[i] == '+' ? ms - offset : ms + offset;
  }
  return std::nullopt;
}

std::optional<std::string> sagemaker_base64(std::string_view in) {
  std::array<int, 256> value{};
  value.fill(-1);
  const std::string_view alphabet =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  for (std::size_t i = 0; i < alphabet.size(); ++i)
    value[static_cast<unsigned char>(alphabet[i])] = static_cast<int>(i);
  std::string out;
  unsigned buffer = 0;
  int bits = 0;
  for (char c : in) {
    if (c == '=' || c == '\n' || c == '\r') continue;
    const int v = value[static_cast<unsigned char>(c)];
    if (v < 0) return std::nullopt;
    buffer = (buffer << 6) | static_cast<unsigned>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((buffer >> bits) & 0xFF));
    }
  }
  return out;
}

// A captureData entry's payload (encoding JSON or BASE64, the default) as JSON; `what` names it.
std::optional<core::Error> sagemaker_payload(const Row& r, const ojson& entry,
                                             const std::string& what, ojson& out) {
  if (!entry.is_object()) return r.error(what, "must be an object");
  const auto data = entry.find("data");
  if (data == entry.end() || data->is_null()) return r.error(what + ".data", "is missing");
  std::string encoding = "BASE64";
  if (auto e = entry.find("encoding"); e != entry.end() && !e->is_null()) {
    if (!e->is_string()) return r.error(what + ".encoding", "must be a string");
    encoding = e->get<std::string>();
  }
  std::string text;
  if (encoding == "JSON") {
    if (data->is_object()) {
      out = *data;
      return std::nullopt;
    }
    if (!data->is_string()) return r.error(what + ".data", "must be a string of JSON");
    text = data->get<std::string>();
  } else if (encoding == "BASE64") {
    if (!data->is_string()) return r.error(what + ".data", "must be a base64 string");
    auto decoded = sagemaker_base64(data->get<std::string>());
    if (!decoded) return r.error(what + ".data", "is not valid base64");
    text = std::move(*decoded);
  } else {
    return r.error(what + ".encoding",
                   fmt::format("encoding \"{}\" is not supported (JSON or BASE64 chat payloads)",
                               core::excerpt(encoding)));
  }
  out = ojson::parse(text, nullptr, false);
  if (out.is_discarded()) return r.error(what + ".data", "does not hold valid JSON");
  return std::nullopt;
}

struct CaptureRow {
  double timestamp_ms = 0;
  std::optional<long long> input_length;
  Turn turn;
};

std::optional<core::Error> sagemaker_row(LoadContext& ctx, int line, ojson& j,
                                         std::vector<CaptureRow>& rows) {
  Row r(j, ctx, line);
  const ojson* meta = r.get("eventMetadata");
  if (!meta || !meta->is_object() || !meta->contains("inferenceTime") ||
      !(*meta)["inferenceTime"].is_string())
    return r.error("eventMetadata.inferenceTime", "is required (an ISO-8601 time)");
  const auto ts = sagemaker_iso_ms((*meta)["inferenceTime"].get<std::string>());
  if (!ts) return r.error("eventMetadata.inferenceTime", "is not an ISO-8601 time");
  const ojson* capture = r.get("captureData");
  if (!capture || !capture->is_object() || !capture->contains("endpointInput"))
    return r.error("captureData.endpointInput", "is required");
  ojson input;
  if (auto e =
          sagemaker_payload(r, (*capture)["endpointInput"], "captureData.endpointInput", input))
    return e;
  if (!input.is_object() || !input.contains("messages") || !input["messages"].is_array() ||
      input["messages"].empty()) {
    return r.error("captureData.endpointInput.data",
                   "holds no 'messages' list: only OpenAI-compatible chat requests can be "
                   "replayed");
  }
  CaptureRow row;
  row.timestamp_ms = *ts;
  if (auto out = capture->find("endpointOutput"); out != capture->end() && out->is_object()) {
    ojson response;
    // A reply that is not JSON (a streamed body) carries no usage; the request still replays.
    if (!sagemaker_payload(r, *out, "captureData.endpointOutput", response) &&
        response.is_object() && response.contains("usage") && response["usage"].is_object()) {
      const ojson& pt = response["usage"].value("prompt_tokens", ojson());
      if (pt.is_number_integer()) row.input_length = pt.get<long long>();
    }
  }
  for (const char* k : {"max_tokens", "max_completion_tokens"}) {
    const auto v = input.find(k);
    if (v == input.end() || v->is_null()) continue;
    if (!v->is_number_integer() || *v < 1)
      return r.error(std::string("captureData.endpointInput.data.") + k, "must be an integer >= 1");
    row.turn.max_tokens = static_cast<int>(std::min<long long>(
        synthesized_output_length(v->get<long long>(), ctx.options.synthesis), INT32_MAX));
    break;
  }
  for (std::size_t i = 0; i < input["messages"].size(); ++i) {
    const ojson& m = input["messages"][i];
    if (!m.is_object() || !m.contains("role") || !m["role"].is_string())
      return r.error(fmt::format("captureData.endpointInput.data.messages[{}]", i),
                     "each message needs a string 'role'");
  }
  row.turn.messages = std::make_shared<const ojson>(std::move(input["messages"]));
  if (auto tools = input.find("tools"); tools != input.end() && tools->is_array())
    row.turn.tools = std::make_shared<const ojson>(std::move(*tools));
  rows.push_back(std::move(row));
  return std::nullopt;
}

}  // namespace

std::optional<core::Error> load_sagemaker(LoadContext& ctx) {
  const fs::path& path = ctx.options.path;
  std::vector<fs::path> files;
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    for (const auto& e : fs::recursive_directory_iterator(path, ec))
      if (e.is_regular_file() && e.path().extension() == ".jsonl") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    if (files.empty()) return ctx.error(0, "--input-file", "the folder holds no *.jsonl file");
  } else {
    files.push_back(path);
  }
  std::vector<CaptureRow> rows;
  for (const auto& f : files) {
    auto content = read_input_file(f, "sagemaker_data_capture");
    if (!content) return content.error();
    ctx.file = f.string();
    if (auto e = for_each_json_line(*content, ctx.file,
                                    [&](int line, ojson& j) -> std::optional<core::Error> {
                                      ++ctx.out.lines;
                                      return sagemaker_row(ctx, line, j, rows);
                                    }))
      return e;
  }
  ctx.file = path.string();
  if (rows.empty()) return std::nullopt;
  // Times start at 0 (the offset filters read them so), in the replay's speed.
  double first = rows.front().timestamp_ms;
  for (const auto& row : rows) first = std::min(first, row.timestamp_ms);
  std::stable_sort(rows.begin(), rows.end(), [](const CaptureRow& a, const CaptureRow& b) {
    return a.timestamp_ms < b.timestamp_ms;
  });
  const SynthesisOptions& syn = ctx.options.synthesis;
  for (auto& row : rows) {
    if (syn.max_isl && row.input_length && *row.input_length > *syn.max_isl) {
      ++ctx.out.dropped_rows;
      continue;
    }
    Conversation c;
    c.session_id = core::uuid4(ctx.id_rng);
    c.context_mode = ContextMode::kMessageArrayWithResponses;
    row.turn.timestamp_ms = (row.timestamp_ms - first) / syn.speedup_ratio;
    c.turns.push_back(std::move(row.turn));
    ctx.out.dataset.conversations.push_back(std::move(c));
  }
  return std::nullopt;
}

}  // namespace inferperf::dataset
