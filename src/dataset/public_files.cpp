// Which files of a folder hold a public dataset's subset and split (public_loader.hpp).
#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "dataset/public_loader.hpp"

namespace inferperf::dataset {

namespace {

namespace fs = std::filesystem;

std::string pubf_lower(std::string s) {
  for (auto& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return s;
}

bool pubf_is_data_ext(const fs::path& p) {
  const std::string ext = pubf_lower(p.extension().string());
  return ext == ".jsonl" || ext == ".json" || ext == ".parquet";
}

bool pubf_is_parquet(const fs::path& p) {
  return pubf_lower(p.extension().string()) == ".parquet";
}

// Files the datasets library writes beside the data, never records.
bool pubf_is_metadata(const fs::path& p) {
  const std::string name = pubf_lower(p.filename().string());
  return name == "dataset_info.json" || name == "dataset_infos.json" || name == "state.json" ||
         name == "dataset_dict.json";
}

// The .jsonl (then .json) file beside a Parquet file with its name, if there is one.
std::optional<fs::path> pubf_twin(const fs::path& parquet) {
  for (const char* ext : {".jsonl", ".json"}) {
    fs::path t = parquet;
    t.replace_extension(ext);
    std::error_code ec;
    if (fs::is_regular_file(t, ec)) return t;
  }
  return std::nullopt;
}

// Hugging Face's split naming: a folder named after the split, or a file named SPLIT.ext,
// SPLIT-00000-of-00001.ext, SPLIT_x.ext, x-SPLIT.ext or x_SPLIT.ext.
bool pubf_matches_split(const fs::path& rel, const std::string& split) {
  const std::string s = pubf_lower(split);
  for (auto it = rel.begin(); it != rel.end(); ++it) {
    if (std::next(it) == rel.end()) break;
    if (pubf_lower(it->string()) == s) return true;
  }
  std::string stem = pubf_lower(rel.filename().string());
  stem = stem.substr(0, stem.find('.'));
  if (stem == s) return true;
  for (char sep : {'-', '_'}) {
    if (stem.rfind(s + sep, 0) == 0) return true;
    const std::string tail = std::string(1, sep) + s;
    if (stem.size() > tail.size() &&
        stem.compare(stem.size() - tail.size(), tail.size(), tail) == 0)
      return true;
  }
  return false;
}

bool pubf_matches_subset(const fs::path& rel, const std::string& subset) {
  const std::string s = pubf_lower(subset);
  for (auto it = rel.begin(); it != rel.end(); ++it) {
    if (std::next(it) == rel.end()) break;
    if (pubf_lower(it->string()) == s) return true;
  }
  return false;
}

std::string pubf_list(const std::vector<fs::path>& rels) {
  std::string out;
  std::size_t n = 0;
  for (const auto& r : rels) {
    if (n++ == 8) {
      out += fmt::format(", … ({} more)", rels.size() - 8);
      break;
    }
    out += (out.empty() ? "" : ", ") + r.string();
  }
  return out.empty() ? "none" : out;
}

core::Error pubf_error(std::string_view dataset, const fs::path& where, std::string msg) {
  return core::Error{core::ErrorKind::kInput,
                     fmt::format("--public-dataset {}: {}", dataset, std::move(msg)),
                     where.string(), 0, ""};
}

}  // namespace

core::Error parquet_error(const fs::path& file, std::string_view dataset, std::size_t more) {
  const std::string f = file.string();
  fs::path jsonl = file;
  jsonl.replace_extension(".jsonl");
  return core::Error{
      core::ErrorKind::kInput,
      fmt::format(
          "--public-dataset {}: {} is Parquet{}, which inferperf cannot read (Debian 12 ships no "
          "Parquet library). Convert it to JSON Lines in the same folder, e.g.\n"
          "  python3 -c \"import pandas as pd; pd.read_parquet('{}').to_json('{}', "
          "orient='records', lines=True, force_ascii=False)\"\n"
          "  or: duckdb -c \"COPY (SELECT * FROM '{}') TO '{}' (FORMAT JSON)\"\n"
          "and run again: a .jsonl file with the Parquet file's name is read in its place",
          dataset, f,
          more > 0 ? fmt::format(" (and {} more Parquet file{} of this split)", more,
                                 more == 1 ? "" : "s")
                   : "",
          f, jsonl.string(), f, jsonl.string()),
      f, 0, ""};
}

core::Result<fs::path> readable_public_file(const fs::path& file, std::string_view dataset) {
  if (!pubf_is_parquet(file)) return file;
  if (auto t = pubf_twin(file)) return *t;
  return parquet_error(file, dataset);
}

core::Result<std::vector<fs::path>> choose_public_paths(const std::vector<fs::path>& paths,
                                                        const std::string& subset,
                                                        bool subset_typed, const std::string& split,
                                                        std::string_view dataset,
                                                        const fs::path& where) {
  const fs::path& folder = where;
  std::vector<fs::path> all;  // data files outside hidden folders
  for (const auto& r : paths) {
    const bool hidden = std::any_of(r.begin(), r.end(), [](const fs::path& part) {
      return !part.empty() && part.string()[0] == '.';
    });
    if (!hidden && pubf_is_data_ext(r) && !pubf_is_metadata(r)) all.push_back(r);
  }
  if (all.empty())
    return pubf_error(dataset, folder, "it holds no .jsonl, .json or .parquet data file");
  std::vector<fs::path> in_subset = all;
  if (!subset.empty()) {
    std::vector<fs::path> kept;
    for (const auto& r : all)
      if (pubf_matches_subset(r, subset)) kept.push_back(r);
    if (!kept.empty()) {
      in_subset = std::move(kept);
    } else if (subset_typed) {
      return pubf_error(dataset, folder,
                        fmt::format("no data file of subset '{}' (--hf-subset): no folder of that "
                                    "name among {}",
                                    subset, pubf_list(all)));
    }
  }
  std::vector<fs::path> chosen;
  for (const auto& r : in_subset)
    if (pubf_matches_split(r, split)) chosen.push_back(r);
  if (chosen.empty()) {
    return pubf_error(dataset, folder,
                      fmt::format("no data file of split '{}' among {} (give the file with "
                                  "--input-file)",
                                  split, pubf_list(in_subset)));
  }
  return chosen;
}

core::Result<std::vector<fs::path>> select_public_files(const fs::path& folder,
                                                        const std::string& subset,
                                                        bool subset_typed, const std::string& split,
                                                        std::string_view dataset) {
  std::vector<fs::path> all;  // relative to `folder`
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(
           folder, fs::directory_options::follow_directory_symlink, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (!name.empty() && name[0] == '.') {
      if (it->is_directory(ec)) it.disable_recursion_pending();
      continue;
    }
    if (it.depth() > 6) it.disable_recursion_pending();
    if (!it->is_regular_file(ec) || !pubf_is_data_ext(it->path()) || pubf_is_metadata(it->path()))
      continue;
    all.push_back(fs::relative(it->path(), folder, ec));
  }
  if (ec) return pubf_error(dataset, folder, "cannot list the folder: " + ec.message());
  std::sort(all.begin(), all.end());
  if (all.empty()) {
    return pubf_error(dataset, folder, "the folder holds no .jsonl, .json or .parquet data file");
  }

  auto chosen = choose_public_paths(all, subset, subset_typed, split, dataset, folder);
  if (!chosen) return chosen.error();
  // A Parquet file converted in place is read as its twin; the twin itself is listed once.
  std::vector<fs::path> files;
  std::vector<fs::path> parquet;
  for (const auto& r : *chosen) {
    const fs::path p = folder / r;
    if (!pubf_is_parquet(p)) {
      if (std::find(files.begin(), files.end(), p) == files.end()) files.push_back(p);
      continue;
    }
    if (auto t = pubf_twin(p)) {
      if (std::find(files.begin(), files.end(), *t) == files.end()) files.push_back(*t);
    } else {
      parquet.push_back(p);
    }
  }
  if (!parquet.empty()) return parquet_error(parquet.front(), dataset, parquet.size() - 1);
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace inferperf::dataset
