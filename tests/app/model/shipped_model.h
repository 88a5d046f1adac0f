// The shipped model's files (web/model) as the page hands them to the app: name -> bytes.
// Shared by the app's model tests (tests/app, tests/app_absent).
#pragma once

#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace testing_model {

using Files = std::vector<std::pair<std::string, std::string>>;

inline Files ShippedFiles() {
  Files files;
  for (const char* name : {"config.json", "tokenizer.json", "model.safetensors", "eval.json", "heads.json",
                           "MANIFEST.sha256"}) {
    std::ifstream f(std::string(ATTNLAB_SOURCE_DIR) + "/web/model/" + name, std::ios::binary);
    if (!f) continue;
    std::stringstream ss;
    ss << f.rdbuf();
    files.emplace_back(name, ss.str());
  }
  return files;
}

}  // namespace testing_model
