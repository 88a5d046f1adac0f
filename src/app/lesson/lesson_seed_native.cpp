// FetchSiteFile natively (lesson.h): the built-in lesson, web/lessons/seed.json, embedded at build
// time (cmake/Embed.cmake), as the shaders are. The page's build does not link this file: it asks
// the site for the file when the lesson is first needed (platform/web_bridge.cpp).
#include "app/lesson/lesson.h"

#include "lesson_seed_asset.h"

namespace app {

bool FetchSiteFile(const std::string& path, std::string* text, std::string* error) {
  if (path != "lessons/seed.json") {
    *error = path + ": only the built-in lesson (lessons/seed.json) is there natively";
    return false;
  }
  *text = std::string(reinterpret_cast<const char*>(kAsset_seed_json), kAsset_seed_json_size);
  return true;
}

}  // namespace app
