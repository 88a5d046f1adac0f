// safetensors files (Hugging Face's format), F32, F16 and BF16, read and written with every offset,
// size, dtype and shape checked.
//
// The format: 8 bytes, the header's length N as a little-endian uint64; N bytes of JSON, an
// object mapping each tensor's name to {"dtype": "F32"|"F16"|..., "shape": [d0, d1, ...],
// "data_offsets": [begin, end]} (byte offsets into the data that follows the header) plus an
// optional "__metadata__" object of string values; then the data, every tensor row-major
// (C order), little-endian, the tensors back to back with no holes.
// The writer pads the header with spaces to a multiple of 8 bytes (as the reference
// implementation does) and lays the tensors out in the given order.
//
// Lives in attn_model_io (nlohmann-json); the model's maths never includes it.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace attn {
namespace model {

// kOther: an integer or boolean tensor (U8, I8, BOOL, I16, U16, I32, U32, I64, U64) or F64:
// read for the file's layout and its name, with no values (a GPT-2 checkpoint's old attn.bias
// mask is one; a weight stored so is refused by whoever needs it).
enum class Dtype { kF32, kF16, kBF16, kOther };
const char* DtypeName(Dtype d);  // "F32", "F16", "BF16", "other"

struct StTensor {
  std::string name;
  Dtype dtype = Dtype::kF32;           // how it is stored in the file
  std::vector<std::int64_t> shape;     // row-major; [] is a scalar (one value)
  std::vector<float> values;           // row-major; F16 and BF16 are widened exactly on reading
                                       // and rounded to nearest even on writing (fp16.h);
                                       // empty for kOther
  std::string stored;                  // reading: the dtype as the file names it ("U8", ...)
};

// One tensor of a file's header: where its bytes are (offsets into the data after the header).
struct StEntry {
  std::string name;
  Dtype dtype = Dtype::kF32;
  std::string stored;                  // the dtype as the file names it
  std::vector<std::int64_t> shape;
  std::uint64_t begin = 0, end = 0;    // [begin, end) in the data
  std::size_t size = 0;                // bytes per value
};
struct StHeader {
  std::vector<StEntry> entries;                // by offset: they cover the data exactly once
  std::map<std::string, std::string> metadata;
  std::uint64_t data_size = 0;
};

struct StFile {
  std::vector<StTensor> tensors;               // reading: in the order of their data offsets
  std::map<std::string, std::string> metadata; // "__metadata__"
};

// The file's bytes. Returns false with a message when a tensor's value count is not the
// product of its shape, a name repeats or is "__metadata__".
bool WriteSafetensors(const StFile& file, std::string* bytes, std::string* error = nullptr);
// Parses and checks everything; on failure returns false with an English one-line message
// (never a crash, never an exception) and leaves `out` unspecified.
bool ReadSafetensors(const std::string& bytes, StFile* out, std::string* error = nullptr);

// Reading a file in pieces (a page streams it; a large file is never read whole): the header's
// length from the first 8 bytes, checked against the file's size; then the header's JSON,
// every entry checked as ReadSafetensors does (offsets inside the data, no overlap or hole);
// then each value from its little-endian bytes (F16 and BF16 widened exactly).
bool HeaderLength(const unsigned char* first8, std::uint64_t file_size, std::uint64_t* length,
                  std::string* error = nullptr);
bool ReadSafetensorsHeader(std::string_view text, std::uint64_t data_size, StHeader* out,
                           std::string* error = nullptr);
float StValue(Dtype dtype, const unsigned char* bytes);

// The same through a file on disk (binary).
bool WriteSafetensorsFile(const std::string& path, const StFile& file, std::string* error = nullptr);
bool ReadSafetensorsFile(const std::string& path, StFile* out, std::string* error = nullptr);

// A name or string from a file as a message writes it: control characters and line breaks
// escaped as in JSON (\n, \u0085, ...), so that a refusal stays one line whatever the file holds.
std::string Shown(std::string_view text);

// A shape as the messages write it: "[4, 192]".
std::string ShapeText(const std::vector<std::int64_t>& shape);

}  // namespace model
}  // namespace attn
