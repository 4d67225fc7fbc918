// AIPerf 0.11's effective defaults (what a CLI-only run does, not what its help text says) and its
// validation rows, one test each, through parse_command_line.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "config/cli.hpp"

namespace inferperf::config {
namespace {

CliOutcome parse(std::vector<std::string> extra) {
  std::vector<std::string> args = {"profile", "-m", "x"};
  args.insert(args.end(), extra.begin(), extra.end());
  return parse_command_line(args);
}

RunConfig parsed(std::vector<std::string> extra) {
  const CliOutcome o = parse(std::move(extra));
  EXPECT_EQ(o.action, CliOutcome::Action::kProfile) << o.message;
  return o.config;
}

void expect_error(std::vector<std::string> extra, const std::string& part) {
  const CliOutcome o = parse(extra);
  EXPECT_EQ(o.exit_code, 2) << o.message;
  EXPECT_NE(o.message.find(part), std::string::npos)
      << "expected '" << part << "' in " << o.message;
}

TEST(EffectiveDefaults, RankingsSendTenPassagesOf128TokensAndA32TokenQuery) {
  const RankingsConfig r = parsed({"--endpoint-type", "cohere_rankings"}).input.rankings;
  EXPECT_EQ(r.passages_mean, 10);
  EXPECT_EQ(r.passage_tokens_mean, 128);
  EXPECT_EQ(r.query_tokens_mean, 32);
  EXPECT_EQ(r.passages_stddev + r.passage_tokens_stddev + r.query_tokens_stddev, 0);
  const RankingsConfig typed =
      parsed({"--endpoint-type", "cohere_rankings", "--rankings-passages-mean", "3"})
          .input.rankings;
  EXPECT_EQ(typed.passages_mean, 3);
  EXPECT_EQ(typed.passage_tokens_mean, 128);
}

TEST(EffectiveDefaults, TenRequestsWhateverTheConcurrency) {
  EXPECT_EQ(parsed({"--concurrency", "64"}).load.request_count, 10);
  EXPECT_EQ(parsed({}).load.request_count, 10);
  // No "concurrency must not exceed the request count" any more.
  const RunConfig c = parsed({"--concurrency", "8", "--request-count", "4"});
  EXPECT_EQ(c.load.concurrency, 8);
  EXPECT_EQ(c.load.request_count, 4);
  EXPECT_EQ(parsed({"--concurrency", "8", "--num-sessions", "4"}).load.num_sessions, 4);
}

TEST(EffectiveDefaults, DatasetEntriesFollowTheTypedCounts) {
  EXPECT_EQ(parsed({}).input.num_dataset_entries, 100);
  EXPECT_EQ(parsed({"--request-count", "7"}).input.num_dataset_entries, 7);
  EXPECT_EQ(parsed({"--num-sessions", "5"}).input.num_dataset_entries, 5);
  EXPECT_EQ(parsed({"--num-sessions", "5", "--num-dataset-entries", "3"}).input.num_dataset_entries,
            3);
  // The default request count (10) is not typed: the size stays 100.
  EXPECT_EQ(parsed({"--concurrency", "4"}).input.num_dataset_entries, 100);
}

TEST(EffectiveDefaults, SequentialSamplingForEveryDataset) {
  EXPECT_EQ(parsed({}).input.sampling_strategy, SamplingStrategy::kSequential);
  EXPECT_EQ(parsed({"--input-file", "t.jsonl"}).input.sampling_strategy,
            SamplingStrategy::kSequential);
  EXPECT_EQ(parsed({"--dataset-sampling-strategy", "shuffle"}).input.sampling_strategy,
            SamplingStrategy::kShuffle);
}

TEST(EffectiveDefaults, ConcurrencyBurstWithARateIsPoisson) {
  const RunConfig c = parsed({"--request-rate", "5", "--arrival-pattern", "concurrency_burst"});
  EXPECT_EQ(c.load.arrival_pattern, ArrivalPattern::kPoisson);
  EXPECT_TRUE(c.warnings.empty() || c.warnings[0].find("arrival") == std::string::npos);
}

TEST(ValidationRows, SmoothnessOnlyForAGammaRatePhase) {
  expect_error({"--request-rate", "5", "--arrival-smoothness", "2"},
               "--arrival-smoothness shapes gamma arrivals: it needs --request-rate and "
               "--arrival-pattern gamma");
  expect_error({"--arrival-smoothness", "2"}, "--arrival-smoothness shapes gamma arrivals");
  expect_error({"--request-rate", "5", "--arrival-pattern", "poisson", "--arrival-smoothness", "2"},
               "(got poisson)");
  const RunConfig c =
      parsed({"--request-rate", "5", "--arrival-pattern", "gamma", "--arrival-smoothness", "2"});
  EXPECT_EQ(c.load.arrival_pattern, ArrivalPattern::kGamma);
  EXPECT_EQ(c.load.smoothness, 2.0);
}

TEST(ValidationRows, FixedScheduleOffsets) {
  expect_error({"--fixed-schedule-start-offset", "5"}, "need a fixed-schedule phase");
  expect_error(
      {"--input-file", "t.jsonl", "--no-fixed-schedule", "--fixed-schedule-end-offset", "5"},
      "need a fixed-schedule phase");
  // A trace may promote itself: checked when the file is read.
  EXPECT_EQ(parsed({"--input-file", "t.jsonl", "--fixed-schedule-end-offset", "5"})
                .load.fixed_schedule_end_offset_ms,
            5.0);
  expect_error({"--input-file", "t.jsonl", "--fixed-schedule", "--fixed-schedule-auto-offset",
                "--fixed-schedule-start-offset", "5"},
               "--fixed-schedule-auto-offset and --fixed-schedule-start-offset cannot be used "
               "together");
  expect_error({"--input-file", "t.jsonl", "--fixed-schedule", "--fixed-schedule-start-offset", "9",
                "--fixed-schedule-end-offset", "5"},
               "--fixed-schedule-start-offset must not be after --fixed-schedule-end-offset");
}

TEST(ValidationRows, InputFileRefusesTheSyntheticPromptShape) {
  for (const auto& [flag, value] :
       std::vector<std::pair<std::string, std::string>>{{"--isl", "100"},
                                                        {"--isl-stddev", "5"},
                                                        {"--prompt-batch-size", "2"},
                                                        {"--seq-dist", "100,10:1"},
                                                        {"--shared-system-prompt-length", "10"}}) {
    expect_error({"--input-file", "t.jsonl", flag, value}, flag + " shapes synthetic prompts");
  }
  expect_error(
      {"--input-file", "t.jsonl", "--prompt-prefix-pool-size", "2", "--prompt-prefix-length", "4"},
      "--prompt-prefix-length shapes synthetic prompts");
  expect_error({"--input-file", "t.jsonl", "--image-batch-size", "0"},
               "--image-batch-size does not apply to --input-file");
  EXPECT_EQ(parsed({"--input-file", "t.jsonl", "--osl", "50"}).input.osl_mean, 50);
}

TEST(ValidationRows, WeightedModelSelectionNeedsWeights) {
  expect_error({"--model-selection-strategy", "WEIGHTED"},
               "--model-selection-strategy weighted needs a weight for every model");
  expect_error({"--model-selection-strategy=weighted"}, "models.items[].weight");
}

TEST(ValidationRows, TimeoutAndSeedRanges) {
  expect_error({"--request-timeout-seconds", "0"}, "--request-timeout-seconds must be");
  expect_error({"--random-seed", "-1"}, "--random-seed must be");
  expect_error({"--rankings-passages-mean", "0", "--endpoint-type", "cohere_rankings"},
               "--rankings-passages-mean must be a finite number of passages from 1");
}

TEST(MediaOptions, NoMediaUnlessAnOptionOfTheMediumIsTyped) {
  const MediaConfig none = parsed({}).media;
  EXPECT_FALSE(none.any());
  EXPECT_EQ(none.image.batch, 0);
  // A size of 0 or a batch of 0 makes none, whatever else is typed.
  EXPECT_FALSE(parsed({"--image-width-mean", "0", "--image-format", "jpeg"}).media.any());
  EXPECT_FALSE(parsed({"--image-batch-size", "0", "--image-height-mean", "512"}).media.any());
  EXPECT_FALSE(parsed({"--audio-length-mean", "0", "--audio-format", "mp3"}).media.any());
  EXPECT_FALSE(parsed({"--video-synth-type", "noise", "--video-fps", "8"}).media.any());
  EXPECT_FALSE(parsed({"--video-width", "64", "--video-height", "64", "--video-batch-size", "0"})
                   .media.any());
}

TEST(MediaOptions, ATypedOptionBringsAiperfsImplicitPicturesClipsAndVideos) {
  // AIPerf 0.11 (§1.5): 512x512 jpeg pictures, batch 1; 10 s wav clips at 16 kHz, 16 bits.
  const MediaConfig img = parsed({"--image-source", "noise"}).media;
  EXPECT_TRUE(img.image.enabled());
  EXPECT_EQ(img.image.batch, 1);
  EXPECT_EQ(img.image.width_mean, 512);
  EXPECT_EQ(img.image.height_mean, 512);
  EXPECT_EQ(img.image.format, "jpeg");
  EXPECT_FALSE(img.audio.enabled());
  const MediaConfig aud = parsed({"--audio-format", "wav"}).media;
  EXPECT_TRUE(aud.audio.enabled());
  EXPECT_EQ(aud.audio.batch, 1);
  EXPECT_EQ(aud.audio.length_mean, 10);
  EXPECT_EQ(aud.audio.sample_rates_hz, std::vector<int>{16000});
  EXPECT_EQ(aud.audio.depths, std::vector<int>{16});
  // Rates are kHz unless above 96 (then Hz); both spellings of the list work.
  const MediaConfig rates =
      parsed({"--audio-sample-rates", "8,44.1", "--audio-sample-rates", "22050"}).media;
  EXPECT_EQ(rates.audio.sample_rates_hz, (std::vector<int>{8000, 44100, 22050}));
  const MediaConfig vid =
      parsed({"--video-width", "64", "--video-height", "48", "--video-audio-sample-rate", "48"})
          .media;
  EXPECT_TRUE(vid.video.enabled());
  EXPECT_EQ(vid.video.batch, 1);
  EXPECT_EQ(vid.video.duration_s, 1.0);
  EXPECT_EQ(vid.video.fps, 4);
  EXPECT_EQ(vid.video.codec, "libvpx-vp9");
  EXPECT_EQ(vid.video.audio_sample_rate_hz, 48000);
  EXPECT_EQ(parsed({"--image-batch-size", "3", "--image-format", "random"}).media.image.batch, 3);
}

TEST(MediaOptions, BadValuesNameTheFlag) {
  expect_error({"--audio-num-channels", "3", "--audio-batch-size", "0"},
               "--audio-num-channels must be 1 or 2");
  expect_error({"--video-audio-depth", "12"}, "--video-audio-depth");
  expect_error({"--audio-depths", "12"}, "--audio-depths: 12 is not 8, 16, 24 or 32 bits");
  expect_error({"--audio-format", "mp3", "--audio-sample-rates", "44"},
               "--audio-sample-rates: MP3 cannot carry 44000 Hz");
  expect_error({"--audio-length-mean", "0.001"}, "--audio-length-mean must be at least 0.01 s");
  expect_error({"--image-source-sampling", "shuffle-cycle"},
               "--image-source-sampling shuffle-cycle needs --image-source assets or a folder");
  expect_error({"--image-source", "/nonexistent/pictures"},
               "--image-source /nonexistent/pictures: not noise, assets or an existing folder");
  expect_error({"--image-source", "/proc/self"}, "no .png, .jpg or .jpeg file in it");
  EXPECT_EQ(parsed({"--image-source", "ASSETS"}).media.image.source, "assets") << "any case";
  EXPECT_EQ(parsed({"--image-source", "Noise"}).media.image.source, "noise");
  expect_error({"--api-port", "0"}, "--api-port");
  expect_error({"--api-port", "70000"}, "--api-port");
  EXPECT_TRUE(parsed({"--api-port", "8080"}).warnings.size() > 0) << "accepted, ignored, said";
  expect_error({"--video-width", "64"}, "--video-width and --video-height go together");
  expect_error({"--video-audio-codec", "aac"},
               "--video-audio-codec aac is set but --video-audio-num-channels is 0");
  expect_error({"--video-width", "64", "--video-height", "64", "--video-duration", "0"},
               "--video-duration must be above 0 s");
}

TEST(InternalOptions, ZmqDualBindIsAcceptedWithOneWarning) {
  const RunConfig c = parsed({"--zmq-dual-bind"});
  ASSERT_EQ(
      std::count_if(c.warnings.begin(), c.warnings.end(),
                    [](const std::string& w) { return w.find("--zmq") != std::string::npos; }),
      1);
  EXPECT_EQ(c.warnings[0],
            "option --zmq-dual-bind tunes AIPerf internals that inferperf does not have; ignored");
}

}  // namespace
}  // namespace inferperf::config
