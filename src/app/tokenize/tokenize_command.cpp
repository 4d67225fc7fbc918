#include "app/tokenize/tokenize_command.hpp"

#include <fmt/format.h>
#include <unistd.h>
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <span>

#include "app/exit_codes.hpp"
#include "app/tokenizer_setup.hpp"
#include "config/run_config.hpp"
#include "core/secrets.hpp"
#include "tokenizer/utf8.hpp"

#include "app/subcommand_words.hpp"

namespace inferperf::app {

namespace fs = std::filesystem;

namespace {

TokenizeCommand usage_error(TokenizeCommand cmd, const std::string& what) {
  cmd.exit_code = kExitBadConfig;
  cmd.message = usage_message("tokenize", what);
  return cmd;
}

// Reads `in` to its end, refusing more than `max_bytes` (a stray binary or a whole corpus piped in
// by mistake should fail fast instead of exhausting memory). `what` names the source in errors.
core::Result<std::string> read_limited(std::istream& in, std::size_t max_bytes,
                                       const std::string& what) {
  std::string out;
  std::vector<char> buf(std::size_t{1} << 16);
  for (;;) {
    in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
    const auto got = static_cast<std::size_t>(in.gcount());
    if (got == 0) break;
    out.append(buf.data(), got);
    if (out.size() > max_bytes) {
      return core::Error{
          core::ErrorKind::kInput,
          fmt::format("{}: larger than {} MiB; tokenize a smaller piece", what, max_bytes >> 20)};
    }
  }
  if (in.bad()) return core::Error{core::ErrorKind::kIo, fmt::format("{}: read failed", what)};
  return out;
}

core::Result<std::string> read_file_input(const std::string& path, std::size_t max_bytes) {
  const std::string what = "--file " + path;
  std::error_code ec;
  if (fs::is_directory(path, ec))
    return core::Error{core::ErrorKind::kInput, what + ": is a folder, not a file"};
  // A regular file's size is known up front: a huge one is refused without reading it. Pipes and
  // /dev/stdin have no size and are bounded while reading instead.
  if (const auto size = fs::file_size(path, ec); !ec && size > max_bytes) {
    return core::Error{core::ErrorKind::kInput,
                       fmt::format("{}: {} bytes, larger than {} MiB; tokenize a smaller piece",
                                   what, size, max_bytes >> 20)};
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return core::Error{core::ErrorKind::kIo,
                       fmt::format("{}: cannot open ({})", what, std::strerror(errno))};
  }
  return read_limited(in, max_bytes, what);
}

// The tokenizer exactly as `inferperf profile` resolves and loads it (same function, same
// environment variables): only the fields load_run_tokenizer reads are filled.
core::Result<LoadedTokenizer> load_tokenizer(const TokenizeOptions& o) {
  config::RunConfig c;
  c.tokenizer.name = o.tokenizer.empty() ? o.models.front() : o.tokenizer;
  c.tokenizer.revision = o.revision;
  c.endpoint.model_names = o.models.empty() ? std::vector<std::string>{c.tokenizer.name} : o.models;
  return load_run_tokenizer(c);
}

std::string json_string(const std::string& s) {
  // Pieces are valid UTF-8 (decode replaces partial sequences with U+FFFD); `replace` guards the
  // description, a path that may not be.
  return nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// Each token decoded on its own: what the vocabulary maps the id to, as the server would stream it.
std::vector<std::string> pieces_of(const tokenizer::Tokenizer& tok,
                                   const std::vector<std::int32_t>& ids) {
  std::vector<std::string> out;
  out.reserve(ids.size());
  for (const std::int32_t& id : ids)
    out.push_back(tok.decode(std::span<const std::int32_t>(&id, 1)));
  return out;
}

void print_plain(std::ostream& out, std::size_t count, const std::vector<std::int32_t>& ids,
                 const std::vector<std::string>& pieces, const TokenizeOptions& o) {
  if (o.ids && o.pieces) {
    // Both: one token a line, its id and its text side by side.
    for (std::size_t i = 0; i < ids.size(); ++i)
      out << ids[i] << '\t' << json_string(pieces[i]) << '\n';
  } else if (o.ids) {
    for (std::size_t i = 0; i < ids.size(); ++i) out << (i ? " " : "") << ids[i];
    out << '\n';
  } else if (o.pieces) {
    for (const auto& p : pieces) out << json_string(p) << '\n';
  } else {
    out << count << '\n';
  }
}

void print_json(std::ostream& out, const std::string& description, std::size_t count,
                const std::vector<std::int32_t>& ids, const std::vector<std::string>& pieces,
                const TokenizeOptions& o) {
  nlohmann::ordered_json j;
  j["tokenizer"] = description;
  j["count"] = count;
  if (o.ids) j["ids"] = ids;
  if (o.pieces) j["pieces"] = pieces;
  out << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
}

}  // namespace

TokenizeCommand parse_tokenize_command(const std::vector<std::string>& args) {
  TokenizeCommand cmd;
  TokenizeOptions& o = cmd.options;
  CLI::App app(
      "Count or list the tokens of a text with the tokenizer `inferperf profile` loads for the "
      "same --tokenizer (no special tokens added, as AIPerf counts)",
      "inferperf tokenize");
  auto* text = app.add_option("TEXT", o.text,
                              "The text, byte for byte; '-' or none: read stdin (put -- before a "
                              "text starting with -)")
                   ->type_name("");
  auto* file = app.add_option("--file,--input-file", o.file, "Read the text from this file");
  app.add_option("--tokenizer", o.tokenizer,
                 "tokenizer.json / .model file or folder, Hugging Face id, or builtin; resolved "
                 "as by profile");
  app.add_option("-m,--model-names,--model", o.models,
                 "Without --tokenizer, the first model name is the tokenizer's, as in profile")
      ->delimiter(',')
      ->allow_extra_args(false);  // one name an occurrence: `-m MODEL TEXT` leaves TEXT the text
  app.add_option("--tokenizer-revision", o.revision, "Hugging Face revision (default main)");
  app.add_flag("--ids", o.ids, "Print the token ids, space-separated on one line");
  app.add_flag("--pieces", o.pieces,
               "Print each token decoded alone, one JSON string a line (with --ids: ID, a tab, "
               "the string)");
  app.add_flag("--json", o.json,
               "Print one JSON object: tokenizer, count, and ids / pieces when asked for");
  if (auto stop = parse_subcommand_words(app, args, "tokenize")) {
    std::tie(cmd.exit_code, cmd.message) = *stop;
    return cmd;
  }
  if (text->count() > 0 && file->count() > 0)
    return usage_error(std::move(cmd), "give the text once: TEXT or --file, not both");
  if (file->count() > 0 && o.file.empty())  // else it would silently read stdin
    return usage_error(std::move(cmd), "--file: the path is empty");
  if (o.tokenizer.empty() && o.models.empty()) {
    return usage_error(std::move(cmd),
                       "--tokenizer is required (a tokenizer.json / .model file or folder, a "
                       "Hugging Face id, or builtin), or -m MODEL to use the model's");
  }
  o.has_text = text->count() > 0 && o.text != "-";
  cmd.run = true;
  return cmd;
}

core::Result<std::string> read_tokenize_input(const TokenizeOptions& o, std::istream& in,
                                              std::size_t max_bytes) {
  if (o.has_text) return o.text;
  if (!o.file.empty()) return read_file_input(o.file, max_bytes);
  return read_limited(in, max_bytes, "stdin");
}

int run_tokenize(const TokenizeOptions& o) {
  if (!o.has_text && o.file.empty() && isatty(STDIN_FILENO))
    std::cerr << "reading the text from stdin (end it with Ctrl-D)\n";
  auto text = read_tokenize_input(o, std::cin);
  if (!text) {
    std::cerr << "error: " << text.error().describe() << "\n";
    return kExitBadConfig;
  }
  auto loaded = load_tokenizer(o);
  if (!loaded) {
    core::Error e = loaded.error();
    e.field.clear();  // the flag is named instead
    std::cerr << "error: "
              << (o.tokenizer.empty() ? "-m " + o.models.front() : "--tokenizer " + o.tokenizer)
              << ": " << core::redact_urls(e.describe()) << "\n";
    return kExitBadConfig;
  }
  if (!loaded->notice.empty()) std::cerr << "notice: " << loaded->notice << "\n";
  if (!tokenizer::is_valid_utf8(*text)) {
    std::cerr << "warning: the text is not valid UTF-8; each invalid sequence counts as U+FFFD, "
                 "as in profile\n";
  }
  const tokenizer::Tokenizer& tok = *loaded->tokenizer;
  std::vector<std::int32_t> ids;
  std::vector<std::string> pieces;
  std::size_t count = 0;
  if (o.ids || o.pieces) {
    ids = tok.encode(*text);
    count = ids.size();
    if (o.pieces) pieces = pieces_of(tok, ids);
  } else {
    count = tok.count(*text);  // the very call profile counts ISL/OSL with
  }
  if (o.json)
    print_json(std::cout, loaded->description, count, ids, pieces, o);
  else
    print_plain(std::cout, count, ids, pieces, o);
  std::cout.flush();
  return std::cout ? kExitOk : kExitRunFailed;
}

}  // namespace inferperf::app
