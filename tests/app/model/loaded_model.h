// The shipped model handed to the app as the page hands it (its files and their SHA-256s):
// shared by the app's model tests that start from a loaded model.
#pragma once

#include "app/app.h"
#include "model/format/bundle.h"
#include "shipped_model.h"

#include <doctest/doctest.h>

#include <map>
#include <string>

namespace testing_model {

inline void LoadShippedModel(app::AppState& s) {
  const Files files = ShippedFiles();
  std::map<std::string, std::string> digests;
  for (const auto& [name, bytes] : files) digests[name] = attn::model::Sha256Hex(bytes);
  std::string error;
  REQUIRE_MESSAGE(app::ModelFilesArrived(s, files, digests, &error), error);
}

}  // namespace testing_model
