// safetensors reading and writing (safetensors.h), on nlohmann-json.
#include "model/format/safetensors.h"

#include "model/format/fp16.h"
#include "model/tokenizer/gpt2_bpe.h"  // Gpt2Quoted: the one escaping of a message's quoted text

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>

namespace attn {
namespace model {

namespace {

using Json = nlohmann::json;

// The longest header this reader accepts (the reference implementation's limit is 100 MB).
constexpr std::uint64_t kMaxHeaderBytes = 100000000;

bool Fail(std::string* error, const std::string& message) {
  if (error) *error = "safetensors: " + message;
  return false;
}

// The dtype a file names and its element size in bytes (0: a name this reader does not know).
std::size_t ParseDtype(const std::string& s, Dtype* d) {
  struct Known { const char* name; Dtype dtype; std::size_t size; };
  static const Known kKnown[] = {{"F32", Dtype::kF32, 4},   {"F16", Dtype::kF16, 2},   {"BF16", Dtype::kBF16, 2},
                                 {"F64", Dtype::kOther, 8}, {"U8", Dtype::kOther, 1},  {"I8", Dtype::kOther, 1},
                                 {"BOOL", Dtype::kOther, 1}, {"I16", Dtype::kOther, 2}, {"U16", Dtype::kOther, 2},
                                 {"I32", Dtype::kOther, 4}, {"U32", Dtype::kOther, 4}, {"I64", Dtype::kOther, 8},
                                 {"U64", Dtype::kOther, 8}};
  for (const Known& k : kKnown)
    if (s == k.name) return *d = k.dtype, k.size;
  return 0;
}

// bfloat16 is the upper half of a float: widening is exact; narrowing rounds to nearest, ties
// to even (NaN stays a NaN).
float BF16ToFloat(std::uint16_t h) {
  const std::uint32_t u = static_cast<std::uint32_t>(h) << 16;
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}
std::uint16_t FloatToBF16(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  if ((u & 0x7F800000u) == 0x7F800000u && (u & 0x007FFFFFu) != 0) return static_cast<std::uint16_t>((u >> 16) | 0x40u);
  return static_cast<std::uint16_t>((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
}

// The product of the shape, or false when a dimension is negative or the count overflows.
bool ElementCount(const std::vector<std::int64_t>& shape, std::uint64_t* count) {
  std::uint64_t n = 1;
  for (std::int64_t d : shape) {
    if (d < 0) return false;
    const std::uint64_t u = static_cast<std::uint64_t>(d);
    if (u != 0 && n > std::numeric_limits<std::uint64_t>::max() / 8 / u) return false;
    n *= u;
  }
  *count = n;
  return true;
}

void PutLe(std::string& out, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xFFu));
}
std::uint64_t GetLe(const unsigned char* p, int bytes) {
  std::uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

}  // namespace

std::string ShapeText(const std::vector<std::int64_t>& shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

const char* DtypeName(Dtype d) {
  return d == Dtype::kF32 ? "F32" : d == Dtype::kF16 ? "F16" : d == Dtype::kBF16 ? "BF16" : "other";
}

bool WriteSafetensors(const StFile& file, std::string* bytes, std::string* error) {
  Json header = Json::object();
  if (!file.metadata.empty()) {
    Json meta = Json::object();
    for (const auto& [k, v] : file.metadata) meta[k] = v;
    header["__metadata__"] = meta;
  }
  std::string data;
  std::set<std::string> names;
  for (const StTensor& t : file.tensors) {
    if (t.name == "__metadata__" || !names.insert(t.name).second)
      return Fail(error, "tensor name '" + t.name + "' repeats or is reserved");
    if (t.dtype == Dtype::kOther) return Fail(error, "tensor '" + t.name + "': only F32, F16 and BF16 are written");
    std::uint64_t count = 0;
    if (!ElementCount(t.shape, &count) || count != t.values.size())
      return Fail(error, "tensor '" + t.name + "' has " + std::to_string(t.values.size()) +
                             " values for shape " + ShapeText(t.shape));
    const std::size_t begin = data.size();
    for (float v : t.values) {
      if (t.dtype == Dtype::kF32) {
        std::uint32_t u;
        std::memcpy(&u, &v, sizeof u);
        PutLe(data, u, 4);
      } else if (t.dtype == Dtype::kBF16) {
        PutLe(data, FloatToBF16(v), 2);
      } else {
        PutLe(data, FloatToHalf(v), 2);
      }
    }
    header[t.name] = {{"dtype", DtypeName(t.dtype)},
                      {"shape", t.shape},
                      {"data_offsets", {begin, data.size()}}};
  }
  std::string text = header.dump();
  while (text.size() % 8 != 0) text.push_back(' ');
  bytes->clear();
  PutLe(*bytes, text.size(), 8);
  *bytes += text;
  *bytes += data;
  return true;
}

std::string Shown(std::string_view text) {
  const std::string quoted = Gpt2Quoted(text);  // "...", escaped as JSON
  return quoted.substr(1, quoted.size() - 2);
}

bool HeaderLength(const unsigned char* first8, std::uint64_t file_size, std::uint64_t* length, std::string* error) {
  if (file_size < 8)
    return Fail(error, "truncated file: " + std::to_string(file_size) + " bytes, fewer than the 8-byte header length");
  const std::uint64_t n = GetLe(first8, 8);
  if (n > kMaxHeaderBytes || n > file_size - 8)
    return Fail(error, "header length " + std::to_string(n) + " exceeds the " + std::to_string(file_size - 8) +
                           " bytes after it");
  *length = n;
  return true;
}

bool ReadSafetensorsHeader(std::string_view text, std::uint64_t data_size, StHeader* out, std::string* error) {
  out->entries.clear();
  out->metadata.clear();
  out->data_size = data_size;
  const Json header = Json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (header.is_discarded()) return Fail(error, "the header is not valid JSON");
  if (!header.is_object()) return Fail(error, "the header is not a JSON object");
  std::vector<StEntry>& entries = out->entries;
  for (auto it = header.begin(); it != header.end(); ++it) {
    const std::string& name = it.key();
    const Json& v = it.value();
    if (name == "__metadata__") {
      if (!v.is_object()) return Fail(error, "__metadata__ is not an object");
      for (auto m = v.begin(); m != v.end(); ++m) {
        if (!m.value().is_string())
          return Fail(error, "__metadata__ '" + Shown(m.key()) + "' is not a string");
        out->metadata[m.key()] = m.value().get<std::string>();
      }
      continue;
    }
    const std::string where = "tensor '" + Shown(name) + "'";
    if (!v.is_object() || !v.contains("dtype") || !v.contains("shape") ||
        !v.contains("data_offsets"))
      return Fail(error, where + " lacks dtype, shape or data_offsets");
    StEntry e;
    e.name = name;
    if (!v["dtype"].is_string()) return Fail(error, where + ": dtype is not a string");
    const std::string dtype = v["dtype"].get<std::string>();
    e.size = ParseDtype(dtype, &e.dtype);
    if (e.size == 0) return Fail(error, where + ": unknown dtype '" + Shown(dtype) + "'");
    e.stored = dtype;
    const Json& shape = v["shape"];
    if (!shape.is_array()) return Fail(error, where + ": shape is not an array");
    for (const Json& d : shape) {
      if (!d.is_number_integer() || d.get<std::int64_t>() < 0)
        return Fail(error, where + ": shape holds something other than a non-negative integer");
      e.shape.push_back(d.get<std::int64_t>());
    }
    const Json& off = v["data_offsets"];
    if (!off.is_array() || off.size() != 2 || !off[0].is_number_unsigned() ||
        !off[1].is_number_unsigned())
      return Fail(error, where + ": data_offsets is not two non-negative integers");
    e.begin = off[0].get<std::uint64_t>();
    e.end = off[1].get<std::uint64_t>();
    if (e.begin > e.end) return Fail(error, where + ": data_offsets begin after they end");
    if (e.end > data_size)
      return Fail(error, where + ": data_offsets end at " + std::to_string(e.end) +
                             ", past the " + std::to_string(data_size) + " data bytes");
    std::uint64_t count = 0;
    if (!ElementCount(e.shape, &count))
      return Fail(error, where + ": shape " + ShapeText(e.shape) + " is too large");
    const std::uint64_t want = count * e.size;
    if (want != e.end - e.begin)
      return Fail(error, where + ": shape " + ShapeText(e.shape) + " of " + dtype +
                             " needs " + std::to_string(want) + " bytes, data_offsets give " +
                             std::to_string(e.end - e.begin));
    entries.push_back(std::move(e));
  }
  // The data must be covered exactly once: sorted by offset, each tensor starts where the
  // previous one ended, and the last ends with the file.
  std::stable_sort(entries.begin(), entries.end(),
                   [](const StEntry& a, const StEntry& b) { return a.begin < b.begin; });
  std::uint64_t at = 0;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const StEntry& e = entries[i];
    if (e.begin < at)
      return Fail(error, "tensors '" + Shown(entries[i - 1].name) + "' and '" + Shown(e.name) + "' overlap");
    if (e.begin > at)
      return Fail(error, "a hole of " + std::to_string(e.begin - at) + " bytes before tensor '" + Shown(e.name) + "'");
    at = e.end;
  }
  if (at != data_size)
    return Fail(error, std::to_string(data_size - at) + " bytes after the last tensor");
  return true;
}

float StValue(Dtype dtype, const unsigned char* p) {
  if (dtype == Dtype::kF32) {
    const std::uint32_t u = static_cast<std::uint32_t>(GetLe(p, 4));
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
  }
  if (dtype == Dtype::kBF16) return BF16ToFloat(static_cast<std::uint16_t>(GetLe(p, 2)));
  return HalfToFloat(static_cast<std::uint16_t>(GetLe(p, 2)));
}

bool ReadSafetensors(const std::string& bytes, StFile* out, std::string* error) {
  out->tensors.clear();
  out->metadata.clear();
  const auto* raw = reinterpret_cast<const unsigned char*>(bytes.data());
  std::uint64_t n = 0;
  if (!HeaderLength(raw, bytes.size(), &n, error)) return false;
  StHeader header;
  if (!ReadSafetensorsHeader(std::string_view(bytes).substr(8, static_cast<std::size_t>(n)), bytes.size() - 8 - n,
                             &header, error))
    return false;
  out->metadata = header.metadata;
  const unsigned char* data = raw + 8 + n;
  for (const StEntry& e : header.entries) {
    StTensor t;
    t.name = e.name;
    t.dtype = e.dtype;
    t.shape = e.shape;
    t.stored = e.stored;
    const std::size_t count = e.dtype == Dtype::kOther ? 0 : static_cast<std::size_t>((e.end - e.begin) / e.size);
    t.values.resize(count);
    for (std::size_t i = 0; i < count; ++i) t.values[i] = StValue(e.dtype, data + e.begin + i * e.size);
    out->tensors.push_back(std::move(t));
  }
  return true;
}

bool WriteSafetensorsFile(const std::string& path, const StFile& file, std::string* error) {
  std::string bytes;
  if (!WriteSafetensors(file, &bytes, error)) return false;
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (!f) return Fail(error, "cannot write " + path);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!f) return Fail(error, "cannot write " + path);
  return true;
}

bool ReadSafetensorsFile(const std::string& path, StFile* out, std::string* error) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return Fail(error, "cannot open " + path);
  std::ostringstream ss;
  ss << f.rdbuf();
  return ReadSafetensors(ss.str(), out, error);
}

}  // namespace model
}  // namespace attn
