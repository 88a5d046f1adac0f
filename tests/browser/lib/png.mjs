// Screenshots as pixels: a minimal PNG decoder (what Chromium writes), colour statistics and the
// share of pixels two pictures differ in.
import zlib from 'node:zlib';

// screenshots are). Returns {width, height, data: RGBA Uint8Array}.
export function decodePNG(buf) {
  const sig = [137, 80, 78, 71, 13, 10, 26, 10];
  for (let i = 0; i < 8; i++) if (buf[i] !== sig[i]) throw new Error('not a PNG');
  let pos = 8, width = 0, height = 0, depth = 0, ctype = 0, interlace = 0;
  const idat = [];
  while (pos < buf.length) {
    const len = buf.readUInt32BE(pos);
    const type = buf.toString('latin1', pos + 4, pos + 8);
    const data = buf.subarray(pos + 8, pos + 8 + len);
    pos += 12 + len;
    if (type === 'IHDR') {
      width = data.readUInt32BE(0); height = data.readUInt32BE(4);
      depth = data[8]; ctype = data[9]; interlace = data[12];
    } else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') break;
  }
  if (depth !== 8 || interlace !== 0) throw new Error(`unsupported PNG (depth ${depth}, interlace ${interlace})`);
  const channels = { 0: 1, 2: 3, 4: 2, 6: 4 }[ctype];
  if (!channels) throw new Error(`unsupported PNG colour type ${ctype}`);
  const raw = zlib.inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  if (raw.length < height * (stride + 1)) throw new Error('truncated PNG data');
  const px = new Uint8Array(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const src = y * (stride + 1) + 1, dst = y * stride, prev = dst - stride;
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? px[dst + x - channels] : 0;
      const b = y > 0 ? px[prev + x] : 0;
      const c = (x >= channels && y > 0) ? px[prev + x - channels] : 0;
      let v = raw[src + x];
      switch (filter) {
        case 0: break;
        case 1: v += a; break;
        case 2: v += b; break;
        case 3: v += (a + b) >> 1; break;
        case 4: {
          const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
          v += (pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c);
          break;
        }
        default: throw new Error(`bad PNG filter ${filter}`);
      }
      px[dst + x] = v & 255;
    }
  }
  const rgba = new Uint8Array(width * height * 4);
  for (let i = 0, j = 0; i < width * height; i++, j += channels) {
    if (channels >= 3) { rgba[4 * i] = px[j]; rgba[4 * i + 1] = px[j + 1]; rgba[4 * i + 2] = px[j + 2]; }
    else { rgba[4 * i] = rgba[4 * i + 1] = rgba[4 * i + 2] = px[j]; }
    rgba[4 * i + 3] = channels === 4 ? px[j + 3] : channels === 2 ? px[j + 1] : 255;
  }
  return { width, height, data: rgba };
}

// Colour statistics of a screenshot: distinct colours, share of pixels that differ from the
// most common (background) colour.
export function imageStats(png) {
  const counts = new Map();
  const n = png.width * png.height;
  for (let i = 0; i < n; i++) {
    const k = (png.data[4 * i] << 16) | (png.data[4 * i + 1] << 8) | png.data[4 * i + 2];
    counts.set(k, (counts.get(k) || 0) + 1);
  }
  let bg = 0, bgCount = 0;
  for (const [k, c] of counts) if (c > bgCount) { bg = k; bgCount = c; }
  return { width: png.width, height: png.height, distinct: counts.size, nonBackground: 1 - bgCount / n,
           background: '#' + bg.toString(16).padStart(6, '0') };
}
