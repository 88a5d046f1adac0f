// A whole file's bytes, with the one wording of its failure ("PATH: no such file", "PATH: cannot
// be read"): every reader of the model's files uses this. A folder is not a file (it opens, and
// reads as nothing).
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace attn {
namespace model {

inline bool ReadFileBytes(const std::string& path, std::string* bytes, std::string* error = nullptr) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    if (error) *error = path + ": no such file";
    return false;
  }
  std::ifstream f(path, std::ios::binary);
  std::ostringstream s;
  if (f) s << f.rdbuf();
  if (!f || f.bad()) {
    if (error) *error = path + ": cannot be read";
    return false;
  }
  *bytes = s.str();
  return true;
}

}  // namespace model
}  // namespace attn
