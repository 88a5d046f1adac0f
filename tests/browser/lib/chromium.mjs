// Debian's Chromium, headless, as every browser script here starts it: WebGL2 through
// SwiftShader, no sandbox (root), and none of its own traffic to the web (TOOLCHAIN.md).
import { chromium } from 'playwright-core';

export const CHROMIUM_ARGS = ['--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--no-sandbox',
  '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];

export function launchChromium(executablePath = '/usr/bin/chromium') {
  return chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS });
}
