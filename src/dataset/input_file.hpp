// Reading dataset files: the checks every loader shares (missing file, folder, Git LFS pointer,
// empty file, invalid UTF-8) and JSONL iteration whose errors name the file, line and column.
#pragma once
#include <nlohmann/json.hpp>

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "core/error.hpp"

namespace inferperf::dataset {

// The whole file, after the shared checks. `what` names the format in messages ("mooncake_trace").
core::Result<std::string> read_input_file(const std::filesystem::path& path,
                                          std::string_view what = "dataset");

// True when `content` is a Git LFS pointer file rather than the data it points at.
bool is_lfs_pointer(std::string_view content);

// The 1-based line and byte column of the first invalid UTF-8 sequence, if any.
struct TextPosition {
  int line = 0;
  int column = 0;
  std::size_t offset = 0;  // byte offset in the content
};
std::optional<TextPosition> find_invalid_utf8(std::string_view content);

// A JSONL line that failed to parse: the line, column and the text around the problem.
core::Error json_syntax_error(const std::string& file, int line, std::string_view text,
                              std::size_t byte_position, std::string_view reason);

// Why nlohmann refused a text that is syntactically JSON (a number beyond a double's range, an
// invalid \u escape): the exception's message without its "[json.exception...]" prefix. Parsing
// throws these besides parse_error, and a file must never fail with an uncaught exception.
std::string json_exception_reason(const nlohmann::json::exception& e);

// Calls `fn` with every non-blank line parsed as a JSON object (1-based line numbers). Stops at
// the first syntax error, non-object line or error `fn` returns.
using JsonLineFn =
    std::function<std::optional<core::Error>(int line, nlohmann::ordered_json& value)>;
std::optional<core::Error> for_each_json_line(std::string_view content, const std::string& file,
                                              const JsonLineFn& fn);

// The first non-blank line parsed (for type detection); an error when it is not a JSON object.
core::Result<nlohmann::ordered_json> first_json_line(std::string_view content,
                                                     const std::string& file);

// The text of a JSON value's type, for "must be a number, got string" messages.
std::string json_type_name(const nlohmann::ordered_json& v);

}  // namespace inferperf::dataset
