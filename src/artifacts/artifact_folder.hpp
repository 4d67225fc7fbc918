// Is the artifact folder usable? Checked before anything is sent, without creating it.
#pragma once
#include <filesystem>
#include <string>

#include "artifacts/export_names.hpp"

namespace inferperf::artifacts {

// "" when `dir` can be created (or exists) and written, else the problem in one line: a path
// component that is a file, a folder where files cannot be created (permissions, a read-only or
// pseudo file system such as /proc), or an export file name taken by a folder. Writability is
// probed by creating and removing an empty folder, so the check holds for root too; nothing is
// left behind.
std::string check_artifact_folder(const std::filesystem::path& dir, const ExportNames& names);

}  // namespace inferperf::artifacts
