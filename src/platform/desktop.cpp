// The desktop program's command line (platform.h, "Desktop only"): a starting state, like the
// page's link, and a picture of the window once the lab has settled. For a teacher who opens a
// prepared lab in class, for figures, and for the desktop test (tests/desktop) that looks at the
// window under Xvfb. The page has neither: its state comes from the link and the page API.
#include "platform/platform.h"

#ifndef __EMSCRIPTEN__
#include "gfx/gl.h"

#include <CLI/CLI.hpp>
#include <stb/stb_image_write.h>

#include <cstdio>
#include <vector>
#endif

#ifdef __EMSCRIPTEN__

int platform::ParseDesktopArgs(int, char**, DesktopOptions*) { return -1; }
bool platform::ApplyDesktopState(app::AppState&, const std::string&, std::string*) { return true; }
bool platform::WriteWindowPng(int, int, const std::string&, std::string*) { return false; }

#else

int platform::ParseDesktopArgs(int argc, char** argv, DesktopOptions* out) {
  CLI::App cli{"Attention Lab in a desktop window (the same lab as the page)", "attnlab-desktop"};
  cli.add_option("--state", out->state,
                 "start from this state: a setState patch ('{\"sentence\": \"I love sushi\", \"temperature\": 0.5}') "
                 "or a share link (https://.../#sentence=I%20love%20sushi&temperature=0.5, or just the part from #)");
  cli.add_option("--model,model", out->model,
                 "open this model folder in model mode: the lab's own (web/model) or a GPT-2 checkpoint as "
                 "save_pretrained writes it (config.json, model.safetensors or shards, the tokenizer)");
  cli.add_option("--screenshot", out->screenshot,
                 "once the lab has settled (the model loaded, if chosen), write the window as PNG to this file "
                 "and quit");
  try {
    cli.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return cli.exit(e);  // --help: 0; a bad option: its message and a non-zero code
  }
  return -1;
}

bool platform::ApplyDesktopState(app::AppState& state, const std::string& text, std::string* error) {
  std::size_t start = 0;
  while (start < text.size() && (text[start] == ' ' || text[start] == '\t' || text[start] == '\n')) ++start;
  if (start < text.size() && text[start] == '{') {  // a patch, as window.attentionLab.setState
    const attn::api::PatchResult r = app::ApplyPatchText(state, text);
    if (!r.ok) *error = r.message;
    return r.ok;
  }
  // A link: what follows '#' (the whole text when there is none), as the page reads location.hash.
  const std::size_t hash = text.find('#');
  const std::string part = hash == std::string::npos ? text : text.substr(hash);
  const attn::api::Json answer = attn::api::ParseJson(app::ApplyLinkJson(state, part, ""));
  if (answer.is_object() && answer.value("ok", false)) return true;
  std::string said;
  if (answer.is_object() && answer.contains("errors"))
    for (const auto& e : answer["errors"]) {
      const std::string field = e.value("field", std::string()), what = e.value("error", std::string("?"));
      said += (said.empty() ? "" : "; ") + (what.rfind(field, 0) == 0 ? what : field + ": " + what);
    }
  *error = said.empty() ? "the link could not be read" : said;
  return false;
}

bool platform::WriteWindowPng(int width, int height, const std::string& path, std::string* error) {
  if (width <= 0 || height <= 0) {
    *error = "the window has no pixels";
    return false;
  }
  // (height, width, 4) bytes, GL's rows from the bottom; the PNG's go down from the top.
  std::vector<unsigned char> rows(static_cast<std::size_t>(width) * height * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, rows.data());
  if (glGetError() != GL_NO_ERROR) {
    *error = "OpenGL refused to read the window's pixels";
    return false;
  }
  for (std::size_t i = 3; i < rows.size(); i += 4) rows[i] = 255;  // the window is opaque
  stbi_flip_vertically_on_write(1);
  if (!stbi_write_png(path.c_str(), width, height, 4, rows.data(), width * 4)) {
    *error = "cannot write " + path;
    return false;
  }
  return true;
}

#endif
