#include "app/validate/validate_command.hpp"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <iostream>

#include "app/exit_codes.hpp"
#include "app/subcommand_words.hpp"
#include "app/validate/mooncake_check.hpp"
#include "dataset/input_file.hpp"

namespace inferperf::app {

namespace {

constexpr const char* kMooncakeTarget = "mooncake-trace";

ValidateCommand validate_usage(ValidateCommand cmd, const std::string& what) {
  cmd.exit_code = kExitBadConfig;
  cmd.message = usage_message("validate", what);
  return cmd;
}

void print_trace_summary(const TraceCheck& c, int block_size, std::ostream& out) {
  out << fmt::format("Validation passed: {} rows are Mooncake-compatible.\n", c.records);
  out << fmt::format("  sessions: {}\n", c.sessions);
  if (c.hash_ids > 0)
    out << fmt::format("  hash ids: {} distinct (block size {})\n", c.hash_ids, block_size);
  if (c.first_timestamp_ms) {
    out << fmt::format("  timestamps: {} .. {} ms (span {:.3f} s){}\n", *c.first_timestamp_ms,
                       *c.last_timestamp_ms,
                       (*c.last_timestamp_ms - *c.first_timestamp_ms) / 1000.0,
                       c.timestamps_sorted ? "" : ", not in file order (replay sorts them)");
  } else {
    out << "  timestamps: none (rows are sent as fast as the load settings allow)\n";
  }
}

}  // namespace

ValidateCommand parse_validate_command(const std::vector<std::string>& args) {
  ValidateCommand cmd;
  ValidateOptions& o = cmd.options;
  CLI::App app(
      "Check an input file the way it will be read (AIPerf 0.11's `validate`): every "
      "problem with its line and field",
      "inferperf validate");
  std::string positional, positional_input;
  app.add_option("TARGET", positional, "The file's format: mooncake-trace (or --target)")
      ->type_name("");
  app.add_option("INPUT", positional_input, "The file to check (or --input)")->type_name("");
  app.add_option("--target", o.target, "The file's format: mooncake-trace (the only one)");
  app.add_option("--input", o.input, "The file to check")->type_name("PATH");
  app.add_option("--isl-block-size,--prompt-input-tokens-block-size", o.block_size,
                 "Tokens per hash id, as profile will use (default 512)")
      ->check(CLI::Range(1, 1 << 20));
  if (auto stop = parse_subcommand_words(app, args, "validate")) {
    std::tie(cmd.exit_code, cmd.message) = *stop;
    return cmd;
  }
  if (!positional.empty() && !o.target.empty() && positional != o.target)
    return validate_usage(std::move(cmd), "give the target once: TARGET or --target");
  if (o.target.empty()) o.target = positional;
  if (o.target.empty())
    return validate_usage(std::move(cmd), "--target is required (mooncake-trace)");
  if (o.target != kMooncakeTarget) {
    return validate_usage(
        std::move(cmd),
        "--target " + o.target + ": unknown target (the only one is " + kMooncakeTarget + ")");
  }
  if (!positional_input.empty() && !o.input.empty() && positional_input != o.input)
    return validate_usage(std::move(cmd), "give the file once: INPUT or --input");
  if (o.input.empty()) o.input = positional_input;
  if (o.input.empty()) return validate_usage(std::move(cmd), "--input PATH is required");
  cmd.run = true;
  return cmd;
}

int validate_trace_file(const ValidateOptions& o, std::ostream& out, std::ostream& err) {
  auto content = dataset::read_input_file(o.input, "mooncake_trace");
  if (!content) {
    err << "error: --input: " << content.error().describe() << "\n";
    return kExitBadConfig;
  }
  const TraceCheck c = check_mooncake_trace(*content, o.block_size);
  if (c.problem_count == 0) {
    print_trace_summary(c, o.block_size, out);
    return kExitOk;
  }
  out << fmt::format("Validation failed with {} problem(s) in {} rows of {}:\n", c.problem_count,
                     c.records, o.input);
  for (const TraceProblem& p : c.problems) {
    out << fmt::format("  line {}: {}{}\n", p.line,
                       p.field.empty() ? "" : "field '" + p.field + "': ", p.message);
  }
  if (c.problem_count > static_cast<long long>(c.problems.size()))
    out << fmt::format("  ... and {} more\n",
                       c.problem_count - static_cast<long long>(c.problems.size()));
  return kExitRunFailed;
}

int run_validate(const ValidateOptions& o) {
  return validate_trace_file(o, std::cout, std::cerr);
}

}  // namespace inferperf::app
