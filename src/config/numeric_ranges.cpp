#include "config/numeric_ranges.hpp"

#include <charconv>
#include <cmath>
#include <limits>

#include "core/byte_size.hpp"
#include "core/error.hpp"

namespace inferperf::config {

namespace {

// The bounds every entry below is derived from (docs/limits.md spells out each derivation).
constexpr double kYearS = 365.0 * 86400.0;  // longest duration: 31,536,000 s
constexpr double kYearMs = kYearS * 1000.0;
constexpr std::int64_t kMaxTokens = 10'000'000;  // largest context window served (10M tokens)
constexpr std::int64_t kMaxCount = 1'000'000'000'000;
constexpr std::int64_t kMaxConnections = 1'000'000;  // below Linux's fs.nr_open (1,048,576)
constexpr std::int64_t kMaxEntries = 10'000'000;
constexpr std::int64_t kMaxInt64 = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kKiB = 1024, kMiB = kKiB << 10, kTiB = kMiB << 20, kPiB = kTiB << 10;

NumericRange whole(std::string_view flag, std::int64_t lo, std::int64_t hi, std::string_view range,
                   std::string_view why) {
  return {flag, NumberKind::kWhole, 0, 0, false, lo, hi, range, why};
}
NumericRange real(std::string_view flag, double lo, double hi, bool exclusive,
                  std::string_view range, std::string_view why) {
  return {flag, NumberKind::kReal, lo, hi, exclusive, 0, 0, range, why};
}
NumericRange bytes(std::string_view flag, std::int64_t lo, std::int64_t hi, std::string_view range,
                   std::string_view why) {
  return {flag, NumberKind::kBytes, 0, 0, false, lo, hi, range, why};
}

// Phrases shared by several entries.
constexpr std::string_view kTokens = "a whole number of tokens between 1 and 10,000,000";
constexpr std::string_view kTokensOrZero = "a whole number of tokens from 0 to 10,000,000";
constexpr std::string_view kTokensWhy =
    "no served model has a context above 10M tokens; the dataset memory budget bounds the rest";
constexpr std::string_view kStddevTokens = "a finite number of tokens from 0 to 10,000,000";
// AIPerf 0.11 takes rankings means >= 1.
constexpr std::string_view kMeanTokens = "a finite number of tokens from 1 to 10,000,000";
constexpr std::string_view kSeconds =
    "a finite number of seconds from 0.001 to 31,536,000 (365 days)";
constexpr std::string_view kSecondsOrZero =
    "a finite number of seconds from 0 to 31,536,000 (365 days)";
constexpr std::string_view kSecondsWhy =
    "a year is longer than any benchmark; below 1 ms a duration is a typo, and 365 days in "
    "nanoseconds (3.2e16) stays far inside a signed 64-bit count";
constexpr std::string_view kCount = "a whole number between 1 and 1,000,000,000,000";
constexpr std::string_view kCountWhy =
    "10^12 requests take 28 hours at the highest rate (10^7/s); beyond 2^63 a count used to "
    "saturate into an unbounded run";
constexpr std::string_view kRate =
    "a finite number of requests per second between 0.001 and 10,000,000";
constexpr std::string_view kRateWhy =
    "the mean interval 1/rate must stay at least 100 ns (a 0 ns interval spun the issuer) and "
    "at most 1,000 s";
constexpr std::string_view kConnections = "a whole number between 1 and 1,000,000";
constexpr std::string_view kConnectionsWhy =
    "each one holds a connection: a process cannot open more than fs.nr_open (1,048,576) "
    "file descriptors";
constexpr std::string_view kDelayMs =
    "a finite number of milliseconds from 0 to 31,536,000,000 (365 days)";

std::vector<NumericRange> endpoint_and_input_ranges() {
  return {
      real("--request-timeout-seconds", 0.001, kYearS, false, kSeconds, kSecondsWhy),
      real("--wait-for-model-timeout", 0, kYearS, false, kSecondsOrZero,
           "0 tries once; a year bounds the polling"),
      real("--wait-for-model-interval", 0.001, 86'400, false,
           "a finite number of seconds from 0.001 to 86,400 (1 day)",
           "the pause between two readiness probes; 0 would poll in a busy loop"),
      real("--network-latency-mean", 0, 3'600'000, false,
           "a finite number of milliseconds from 0 to 3,600,000 (1 hour)",
           "a network round trip of an hour is a typo"),
      real("--network-latency-ping-interval", 0.001, 86'400, false,
           "a finite number of seconds from 0.001 to 86,400 (1 day)",
           "the pause between two probes; 0 would probe in a busy loop"),
      whole("--prometheus-port", 0, 65'535, "a TCP port from 0 to 65,535 (0: any free port)",
            "TCP ports are 16-bit; 0 lets the kernel pick one, which is logged"),
      real("--rankings-passages-mean", 1, 10'000, false,
           "a finite number of passages from 1 to 10,000",
           "rankings APIs take at most a few thousand passages per query (Cohere: 1,000)"),
      real("--rankings-passages-stddev", 0, 10'000, false,
           "a finite number of passages from 0 to 10,000", "as the mean"),
      real("--rankings-passages-prompt-token-mean", 1, kMaxTokens, false, kMeanTokens, kTokensWhy),
      real("--rankings-passages-prompt-token-stddev", 0, kMaxTokens, false, kStddevTokens,
           kTokensWhy),
      real("--rankings-query-prompt-token-mean", 1, kMaxTokens, false, kMeanTokens, kTokensWhy),
      real("--rankings-query-prompt-token-stddev", 0, kMaxTokens, false, kStddevTokens, kTokensWhy),
      whole("--random-seed", 0, kMaxInt64,
            "a whole number from 0 to 9,223,372,036,854,775,807 (2^63 - 1)",
            "every seed is as good as another; below 2^63 it fits the signed 64-bit "
            "integers that pandas and most JSON readers use"),
      whole("--synthetic-input-tokens-mean", 1, kMaxTokens, kTokens, kTokensWhy),
      real("--synthetic-input-tokens-stddev", 0, kMaxTokens, false, kStddevTokens, kTokensWhy),
      whole("--output-tokens-mean", 1, kMaxTokens, kTokens, kTokensWhy),
      real("--output-tokens-stddev", 0, kMaxTokens, false, kStddevTokens, kTokensWhy),
      whole("--prompt-batch-size", 1, 10'000, "a whole number of texts between 1 and 10,000",
            "OpenAI's embeddings API takes at most 2,048 inputs per request; 10,000 x 10^7 "
            "tokens x 10^7 entries stays below 2^63"),
      whole("--prompt-prefix-pool-size", 0, kMaxEntries,
            "a whole number of prompts from 0 (none) to 10,000,000",
            "as --num-dataset-entries: one prefix per entry at most"),
      whole("--prompt-prefix-length", 0, kMaxTokens, kTokensOrZero, kTokensWhy),
      whole("--shared-system-prompt-length", 1, kMaxTokens, kTokens, kTokensWhy),
      whole("--user-context-prompt-length", 1, kMaxTokens, kTokens, kTokensWhy),
      real("--conversation-turn-mean", 1, 10'000, false,
           "a finite number of turns between 1 and 10,000",
           "a conversation of 10,000 turns already needs a context far above any model's"),
      real("--conversation-turn-stddev", 0, 10'000, false,
           "a finite number of turns from 0 to 10,000", "as the mean"),
      real("--conversation-turn-delay-mean", 0, kYearMs, false, kDelayMs,
           "a year bounds any pause; times the ratio (at most 100) it stays below 2^63 ns"),
      real("--conversation-turn-delay-stddev", 0, kYearMs, false, kDelayMs, "as the mean"),
      real("--conversation-turn-delay-ratio", 0, 100, false, "a finite number from 0 to 100",
           "365 days x 100 = 3.2e18 ns, below 2^63 ns (9.2e18): a scaled delay cannot overflow"),
  };
}

std::vector<NumericRange> dataset_and_load_ranges() {
  return {
      whole("--prompt-input-tokens-block-size", 1, 65'536,
            "a whole number of tokens between 1 and 65,536",
            "KV-cache blocks are 16 to a few thousand tokens; 65,536 x hash ids stays small"),
      real("--synthesis-speedup-ratio", 0.01, 1'000'000, false,
           "a finite number between 0.01 and 1,000,000",
           "timestamps are divided by it: 1 ms / 10^6 = 1 ns (finer rounds to 0), a year of "
           "trace / 0.01 = 3.2e18 ns (below 2^63)"),
      real("--synthesis-prompt-len-multiplier", 0.001, 1'000, false,
           "a finite number between 0.001 and 1,000",
           "scaled lengths must stay whole tokens and below the token cap"),
      real("--synthesis-prefix-len-multiplier", 0, 1'000, true,
           "a finite number above 0 and at most 1,000",
           "AIPerf requires > 0; 1,000 x the shared blocks stays far below the token cap"),
      whole("--synthesis-prefix-root-multiplier", 1, 1'000,
            "a whole number of prefix trees between 1 and 1,000",
            "hash ids are offset by tree x (largest id + 1): 1,000 keeps them far below 2^63"),
      real("--synthesis-output-len-multiplier", 0, 1'000, false, "a finite number from 0 to 1,000",
           "scaled output lengths are at least 1 and stay below the token cap"),
      real("--inter-turn-delay-cap-seconds", 0, kYearS, false,
           "a number of seconds from 0 to a year",
           "a year bounds any pause; 0 sends every later turn as soon as the previous returns"),
      whole("--synthesis-max-isl", 1, kMaxTokens, kTokens, kTokensWhy),
      whole("--synthesis-max-osl", 1, kMaxTokens, kTokens, kTokensWhy),
      real("--fixed-schedule-start-offset", 0, 9e12, false,
           "a finite number of milliseconds from 0 to 9,000,000,000,000",
           "timestamps become nanoseconds in a signed 64-bit count: 9.2e12 ms (year 2262) is the "
           "last; Unix-epoch milliseconds (1.7e12) fit"),
      real("--fixed-schedule-end-offset", 0, 9e12, false,
           "a finite number of milliseconds from 0 to 9,000,000,000,000", "as the start offset"),
      whole("--num-dataset-entries", 1, kMaxEntries,
            "a whole number of entries between 1 and 10,000,000",
            "with 10^7 tokens and 10,000 texts each, the dataset's token count stays below 2^63; "
            "the memory budget refuses what does not fit"),
      whole("--concurrency", 1, kMaxConnections, kConnections, kConnectionsWhy),
      whole("--prefill-concurrency", 1, kMaxConnections, kConnections, kConnectionsWhy),
      real("--request-rate", 0.001, 1e7, false, kRate, kRateWhy),
      real("--arrival-smoothness", 0.01, 1'000, false, "a finite number between 0.01 and 1,000",
           "the gamma shape: 0.01 is a coefficient of variation of 10, 1,000 one of 0.03 "
           "(use --arrival-pattern constant)"),
      real("--user-centric-rate", 0.001, 1e7, false, kRate, kRateWhy),
      whole("--num-users", 1, kMaxConnections, kConnections, kConnectionsWhy),
      real("--concurrency-ramp-duration", 0.001, kYearS, false, kSeconds, kSecondsWhy),
      real("--prefill-concurrency-ramp-duration", 0.001, kYearS, false, kSeconds, kSecondsWhy),
      real("--request-rate-ramp-duration", 0.001, kYearS, false, kSeconds, kSecondsWhy),
      real("--adaptive-sustain-duration", 0.001, kYearS, false, kSeconds, kSecondsWhy),
      real("--adaptive-assessment-period", 1, kYearS, false,
           "a finite number of seconds from 1 to 31,536,000 (365 days)",
           "an SLA window shorter than a second holds too few requests to judge"),
      whole("--request-count", 1, kMaxCount, kCount, kCountWhy),
      whole("--num-sessions", 1, kMaxCount, kCount, kCountWhy),
      real("--request-cancellation-rate", 0, 100, true, "a finite percentage above 0, at most 100",
           "a share of the requests"),
      real("--request-cancellation-delay", 0, kYearS, false, kSecondsOrZero, kSecondsWhy),
  };
}

std::vector<NumericRange> warmup_and_run_ranges() {
  return {
      whole("--warmup-request-count", 1, kMaxCount, kCount, kCountWhy),
      real("--warmup-duration", 0.001, kYearS, false, kSeconds, kSecondsWhy),
      whole("--num-warmup-sessions", 1, kMaxCount, kCount, kCountWhy),
      whole("--warmup-concurrency", 1, kMaxConnections, kConnections, kConnectionsWhy),
      whole("--warmup-prefill-concurrency", 1, kMaxConnections, kConnections, kConnectionsWhy),
      real("--warmup-request-rate", 0.001, 1e7, false, kRate, kRateWhy),
      real("--warmup-concurrency-ramp-duration", 0.001, kYearS, false, kSeconds, kSecondsWhy),
      real("--warmup-prefill-concurrency-ramp-duration", 0.001, kYearS, false, kSeconds,
           kSecondsWhy),
      real("--warmup-request-rate-ramp-duration", 0.001, kYearS, false, kSeconds, kSecondsWhy),
      real("--warmup-grace-period", 0, kYearS, false, kSecondsOrZero,
           "leave it out to wait without limit; inf is refused like every non-finite value"),
      whole("--num-profile-runs", 1, 10, "a whole number of runs between 1 and 10",
            "AIPerf's limit"),
      real("--profile-run-cooldown-seconds", 0, kYearS, false, kSecondsOrZero, kSecondsWhy),
      // The largest double below 1: `max` is inclusive, and 1 itself is refused.
      real("--confidence-level", 0, std::nextafter(1.0, 0.0), true,
           "a fraction above 0 and below 1",
           "a confidence level; 1 itself would give infinite intervals"),
      real("--sweep-cooldown-seconds", 0, kYearS, false, kSecondsOrZero, kSecondsWhy),
      real("--benchmark-duration", 0.001, kYearS, false, kSeconds, kSecondsWhy),
      real("--benchmark-grace-period", 0, kYearS, false, kSecondsOrZero, kSecondsWhy),
      real("--failed-request-threshold", 0, 1, false, "a fraction from 0 to 1",
           "a share of the finished requests"),
      whole("--workers-max", 1, 1'024, "a whole number of threads between 1 and 1,024",
            "more worker threads than a host has cores only adds contention"),
      bytes("--max-dataset-memory", kMiB, kPiB,
            "a whole number of bytes from 1M to 1024T (K, M, G, T suffixes)",
            "below 1 MiB no dataset fits; no host has a petabyte of memory"),
      bytes("--max-response-bytes", kKiB, kTiB,
            "a whole number of bytes from 1K to 1T (K, M, G, T suffixes)",
            "a response body is held in memory: 1 TiB is beyond any host"),
      bytes("--max-sse-event-bytes", kKiB, kTiB,
            "a whole number of bytes from 1K to 1T (K, M, G, T suffixes)", "as a response body"),
      whole("--shard-count", 1, kMaxConnections, "a whole number of shards between 1 and 1,000,000",
            "as INFERPERF_SHARD_COUNT; each shard is a process"),
      whole("--shard-index", 0, kMaxConnections - 1,
            "a whole number from 0 to --shard-count - 1 (at most 999,999)",
            "the shards are numbered from 0"),
      real("--start-at", 1e9, 9e9, false,
           "a Unix time in seconds between 1,000,000,000 (2001) and 9,000,000,000 (2255)",
           "kept as nanoseconds since 1970 in a signed 64-bit count, which ends in 2262"),
      real("--slice-duration", 0.001, kYearS, false, kSeconds, kSecondsWhy),
      whole("--block-size", 1, std::int64_t{1} << 30,
            "a whole number of tokens between 1 and 1,073,741,824 (2^30)",
            "analyze-trace: block size x hash ids must stay inside a signed 64-bit count"),
  };
}

// The media options (cli_media.cpp): AIPerf 0.11's lower bounds, with ceilings no real input
// reaches (the memory budget bounds what a run may make of them).
std::vector<NumericRange> media_ranges() {
  constexpr std::string_view kPixels = "a finite number of pixels from 0 to 100,000";
  constexpr std::string_view kPixelsWhy =
      "AIPerf 0.11 takes >= 0; no image format handled by servers is wider than 100,000 px";
  constexpr std::string_view kBatch = "a whole number from 0 to 1,000";
  constexpr std::string_view kBatchWhy =
      "AIPerf 0.11 takes >= 0; no chat API takes 1,000 media parts in one turn";
  constexpr std::string_view kClip = "a finite number of seconds from 0 to 3,600";
  constexpr std::string_view kClipWhy = "AIPerf 0.11 takes >= 0; an hour bounds a clip";
  return {
      real("--image-width-mean", 0, 100'000, false, kPixels, kPixelsWhy),
      real("--image-width-stddev", 0, 100'000, false, kPixels, kPixelsWhy),
      real("--image-height-mean", 0, 100'000, false, kPixels, kPixelsWhy),
      real("--image-height-stddev", 0, 100'000, false, kPixels, kPixelsWhy),
      whole("--image-batch-size", 0, 1'000, kBatch, kBatchWhy),
      whole("--audio-batch-size", 0, 1'000, kBatch, kBatchWhy),
      real("--audio-length-mean", 0, 3'600, false, kClip, kClipWhy),
      real("--audio-length-stddev", 0, 3'600, false, kClip, kClipWhy),
      whole("--audio-num-channels", 1, 2, "1 or 2 (mono or stereo)", "AIPerf 0.11's range"),
      whole("--video-batch-size", 0, 1'000, kBatch, kBatchWhy),
      real("--video-duration", 0, 3'600, false, kClip, kClipWhy),
      whole("--video-fps", 1, 1'000, "a whole number of frames per second from 1 to 1,000",
            "AIPerf 0.11 takes >= 1; 1,000 bounds any real video"),
      whole("--video-width", 1, 100'000, "a whole number of pixels from 1 to 100,000", kPixelsWhy),
      whole("--video-height", 1, 100'000, "a whole number of pixels from 1 to 100,000", kPixelsWhy),
      real("--video-audio-sample-rate", 8, 96'000, false,
           "a finite number from 8 to 96,000 (above 96 Hz, else kHz)", "AIPerf 0.11's range"),
      whole("--video-audio-num-channels", 0, 2, "0, 1 or 2 (no track, mono or stereo)",
            "AIPerf 0.11's range"),
      whole("--video-audio-depth", 8, 32, "8, 16, 24 or 32 bits", "AIPerf 0.11's choices"),
  };
}

std::string got(std::string_view spelled, const NumericRange& r, std::string_view text) {
  return std::string(spelled) + " must be " + std::string(r.range) + " (got " +
         (text.empty() ? std::string("an empty value") : core::excerpt(text, 40)) + ")";
}

// Text to double; from_chars takes no leading '+', which people (and strtod) accept.
std::optional<double> parse_real(std::string_view text) {
  if (text.starts_with('+')) text.remove_prefix(1);
  double v = 0;
  const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || p != text.data() + text.size()) return std::nullopt;
  if (ec == std::errc::result_out_of_range) return text.starts_with('-') ? -HUGE_VAL : HUGE_VAL;
  if (ec != std::errc()) return std::nullopt;
  return v;
}

// A whole number exactly: digits first (all of int64), then "1e6" or "1000.0" through a double.
std::optional<std::int64_t> parse_whole(std::string_view text) {
  std::string_view digits = text.starts_with('+') ? text.substr(1) : text;
  std::int64_t n = 0;
  const auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
  if (!digits.empty() && p == digits.data() + digits.size())
    return ec == std::errc() ? std::optional(n) : std::nullopt;
  const auto v = parse_real(text);
  if (!v || !std::isfinite(*v) || std::floor(*v) != *v || std::fabs(*v) >= 9.2e18)
    return std::nullopt;
  return static_cast<std::int64_t>(*v);
}

}  // namespace

const std::vector<NumericRange>& numeric_ranges() {
  static const std::vector<NumericRange> all = [] {
    std::vector<NumericRange> out = endpoint_and_input_ranges();
    for (auto& r : dataset_and_load_ranges()) out.push_back(r);
    for (auto& r : warmup_and_run_ranges()) out.push_back(r);
    for (auto& r : media_ranges()) out.push_back(r);
    return out;
  }();
  return all;
}

const NumericRange* find_numeric_range(std::string_view flag) {
  for (const auto& r : numeric_ranges()) {
    if (r.flag == flag) return &r;
  }
  return nullptr;
}

bool accepts_zero(const NumericRange& r) {
  if (r.kind == NumberKind::kReal) return r.min_exclusive ? r.min < 0 : r.min <= 0;
  return r.whole_min <= 0;
}

NumericCheck check_numeric_value(const NumericRange& r, std::string_view spelled,
                                 std::string_view text) {
  NumericCheck out;
  if (r.kind == NumberKind::kReal) {
    const auto v = parse_real(text);
    const bool above_min = v && (r.min_exclusive ? *v > r.min : *v >= r.min);
    if (!v || !std::isfinite(*v) || !above_min || !(*v <= r.max)) {
      out.error = got(spelled, r, text);
      return out;
    }
    char buf[64];
    const auto res = std::to_chars(buf, buf + sizeof buf, *v);
    out.canonical = std::string(buf, res.ptr);
    return out;
  }
  std::optional<std::int64_t> n;
  if (r.kind == NumberKind::kWhole) {
    n = parse_whole(text);
  } else if (const auto b = core::parse_byte_size(text); b && *b <= std::uint64_t(kMaxInt64)) {
    n = static_cast<std::int64_t>(*b);
  }
  if (!n || *n < r.whole_min || *n > r.whole_max) {
    out.error = got(spelled, r, text);
    return out;
  }
  out.canonical = std::to_string(*n);
  return out;
}

}  // namespace inferperf::config
