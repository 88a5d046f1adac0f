// safetensors, fp16 and the model file: round trips, fp16's edge values, and every kind of broken file refused
// with its message.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "model/format/fp16.h"
#include "model/arch/model.h"
#include "model/format/model_file.h"
#include "model/format/safetensors.h"

using namespace attn::model;

namespace {

float Bits(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

// A file from a header written by hand and `data_bytes` zero bytes of data.
std::string Handmade(const std::string& header, std::size_t data_bytes) {
  std::string out;
  const std::uint64_t n = header.size();
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((n >> (8 * i)) & 0xFF));
  out += header;
  out += std::string(data_bytes, '\0');
  return out;
}

std::string Refusal(const std::string& bytes) {
  StFile f;
  std::string error;
  CHECK_FALSE(ReadSafetensors(bytes, &f, &error));
  return error;
}

StFile Sample() {
  StFile f;
  f.metadata["format"] = "pt";
  f.metadata["config"] = "{\"d_model\": 4}";
  f.tensors.push_back({"wte", Dtype::kF32, {2, 3}, {1.5f, -2.0f, 0.1f, 3e-39f, -0.0f, 65504.0f}});
  f.tensors.push_back({"h.0.ln1.weight", Dtype::kF16, {3}, {1.0f, -0.5f, 0.0999755859375f}});
  f.tensors.push_back({"scalar", Dtype::kF32, {}, {7.0f}});
  return f;
}

}  // namespace

TEST_CASE("fp16: edge values round to nearest even and come back exactly") {
  struct Case {
    float in;
    std::uint16_t bits;
  } cases[] = {
      {0.0f, 0x0000},           {-0.0f, 0x8000},          {1.0f, 0x3C00},
      {-2.0f, 0xC000},          {65504.0f, 0x7BFF},       // max finite
      {65519.0f, 0x7BFF},       // below the halfway point to 65536: max
      {65520.0f, 0x7C00},       // the halfway point: ties to even = inf
      {1e9f, 0x7C00},           {std::ldexp(1.0f, -14), 0x0400},  // smallest normal
      {std::ldexp(1.0f, -24), 0x0001},                  // smallest subnormal
      {std::ldexp(1.0f, -25), 0x0000},                  // tie between 0 and 2^-24: even = 0
      {std::ldexp(1.5f, -25), 0x0001},                  // above the tie
      {std::ldexp(3.0f, -25), 0x0002},                  // tie between 1 and 2 (x 2^-24): 2
      {std::ldexp(1023.0f, -24), 0x03FF},               // largest subnormal
      {1.0f + std::ldexp(1.0f, -11), 0x3C00},           // tie, 1.0 is even
      {1.0f + std::ldexp(3.0f, -11), 0x3C02},           // tie, rounds up to even
      {std::numeric_limits<float>::infinity(), 0x7C00},
      {-std::numeric_limits<float>::infinity(), 0xFC00},
      {std::numeric_limits<float>::denorm_min(), 0x0000},
  };
  for (const Case& c : cases) {
    INFO("in = " << c.in);
    CHECK(FloatToHalf(c.in) == c.bits);
  }
  const std::uint16_t nan = FloatToHalf(std::numeric_limits<float>::quiet_NaN());
  CHECK((nan & 0x7C00) == 0x7C00);
  CHECK((nan & 0x03FF) != 0);
  CHECK(std::isnan(HalfToFloat(nan)));
  CHECK(std::isnan(HalfToFloat(FloatToHalf(Bits(0x7F800001u)))));  // a signalling payload too
  // every half comes back through float bit for bit (NaNs as NaNs)
  for (std::uint32_t h = 0; h < 0x10000; ++h) {
    const float f = HalfToFloat(static_cast<std::uint16_t>(h));
    if (std::isnan(f)) continue;
    REQUIRE(FloatToHalf(f) == h);
  }
  CHECK(HalfToFloat(0x0001) == std::ldexp(1.0f, -24));
  CHECK(HalfToFloat(0x7BFF) == 65504.0f);
  CHECK(std::signbit(HalfToFloat(0x8000)));
}

TEST_CASE("safetensors: F32 and F16 round trip with metadata, in the given order") {
  const StFile in = Sample();
  std::string bytes, error;
  REQUIRE_MESSAGE(WriteSafetensors(in, &bytes, &error), error);
  std::uint64_t n = 0;
  for (int i = 7; i >= 0; --i) n = (n << 8) | static_cast<unsigned char>(bytes[i]);
  CHECK(n % 8 == 0);
  CHECK(bytes.size() == 8 + n + 6 * 4 + 3 * 2 + 4);
  CHECK(bytes[8] == '{');
  StFile out;
  REQUIRE_MESSAGE(ReadSafetensors(bytes, &out, &error), error);
  REQUIRE(out.tensors.size() == 3);
  CHECK(out.metadata == in.metadata);
  for (std::size_t k = 0; k < 3; ++k) {
    CHECK(out.tensors[k].name == in.tensors[k].name);
    CHECK(out.tensors[k].dtype == in.tensors[k].dtype);
    CHECK(out.tensors[k].shape == in.tensors[k].shape);
    REQUIRE(out.tensors[k].values.size() == in.tensors[k].values.size());
    for (std::size_t i = 0; i < in.tensors[k].values.size(); ++i) {
      // these F16 values are exact halves, so every value comes back bit for bit
      CHECK(std::memcmp(&out.tensors[k].values[i], &in.tensors[k].values[i], 4) == 0);
    }
  }
  // writing again gives the same bytes
  std::string again;
  REQUIRE(WriteSafetensors(out, &again, &error));
  CHECK(again == bytes);
}

TEST_CASE("safetensors: BF16 is the upper half of a float (widened exactly, rounded to nearest even); integer tensors keep their name and layout, no values") {
  // 1 + 2^-8 lies halfway between 1 and 1 + 2^-7: the even one, 1; 1 + 3 * 2^-8 between
  // 1 + 2^-7 and 1 + 2^-6: 1 + 2^-6; above halfway rounds up; -0, a large value and inf stay.
  const std::vector<float> in = {1.0f + 1.0f / 256, 1.0f + 3.0f / 256, 1.0f + 1.0f / 256 + 1.0f / 65536, -0.0f, 3.0e38f,
                                 std::numeric_limits<float>::infinity()};
  const std::vector<float> want = {1.0f, 1.0f + 4.0f / 256, 1.0f + 2.0f / 256, -0.0f, 3.0040553e38f,
                                   std::numeric_limits<float>::infinity()};
  StFile f;
  f.tensors.push_back({"w", Dtype::kBF16, {6}, in});
  std::string bytes, error;
  REQUIRE_MESSAGE(WriteSafetensors(f, &bytes, &error), error);
  StFile out;
  REQUIRE_MESSAGE(ReadSafetensors(bytes, &out, &error), error);
  REQUIRE(out.tensors.size() == 1);
  CHECK(out.tensors[0].dtype == Dtype::kBF16);
  CHECK(out.tensors[0].stored == "BF16");
  for (std::size_t i = 0; i < want.size(); ++i) CHECK(std::memcmp(&out.tensors[0].values[i], &want[i], 4) == 0);
  // A U8 mask (GPT-2's old attn.bias buffer) and an I64 beside a float tensor.
  std::string mixed = Handmade(R"({"mask": {"dtype": "U8", "shape": [2, 2], "data_offsets": [0, 4]},
                                   "step": {"dtype": "I64", "shape": [], "data_offsets": [4, 12]},
                                   "w": {"dtype": "F32", "shape": [1], "data_offsets": [12, 16]}})", 16);
  REQUIRE_MESSAGE(ReadSafetensors(mixed, &out, &error), error);
  REQUIRE(out.tensors.size() == 3);
  CHECK(out.tensors[0].dtype == Dtype::kOther);
  CHECK(out.tensors[0].stored == "U8");
  CHECK(out.tensors[0].values.empty());
  CHECK(out.tensors[1].stored == "I64");
  CHECK(out.tensors[2].values.size() == 1);
  // They are not written back.
  CHECK_FALSE(WriteSafetensors(out, &bytes, &error));
  CHECK(error.find("only F32, F16 and BF16") != std::string::npos);
}

TEST_CASE("safetensors: broken files are refused with a message, never a crash") {
  std::string good;
  REQUIRE(WriteSafetensors(Sample(), &good));

  CHECK(Refusal("") == "safetensors: truncated file: 0 bytes, fewer than the 8-byte header length");
  CHECK(Refusal(good.substr(0, 5)).find("truncated file") != std::string::npos);
  // truncated inside the data: the header's offsets run past the end
  CHECK(Refusal(good.substr(0, good.size() - 3)).find("past the") != std::string::npos);
  // truncated inside the header
  CHECK(Refusal(good.substr(0, 20)).find("header length") != std::string::npos);
  // a header length larger than the file, and a huge one
  std::string wrong = good;
  const std::uint64_t past = good.size() - 8 + 1;  // one byte more than the file holds
  for (int i = 0; i < 8; ++i) wrong[i] = static_cast<char>((past >> (8 * i)) & 0xFF);
  CHECK(Refusal(wrong) == "safetensors: header length " + std::to_string(past) + " exceeds the " +
                              std::to_string(good.size() - 8) + " bytes after it");
  wrong = good;
  wrong[7] = '\x7F';
  CHECK(Refusal(wrong).find("exceeds") != std::string::npos);
  // a header length shorter than the header: the JSON is cut
  wrong = good;
  wrong[0] = static_cast<char>(static_cast<unsigned char>(wrong[0]) - 8);
  CHECK(Refusal(wrong) == "safetensors: the header is not valid JSON");

  CHECK(Refusal(Handmade("[1, 2]", 0)) == "safetensors: the header is not a JSON object");
  CHECK(Refusal(Handmade(R"({"a": {"dtype": "C64", "shape": [2], "data_offsets": [0, 4]}})", 4)) ==
        "safetensors: tensor 'a': unknown dtype 'C64'");
  CHECK(Refusal(Handmade(R"({"a": {"dtype": "F32", "shape": [3], "data_offsets": [0, 8]}})", 8)) ==
        "safetensors: tensor 'a': shape [3] of F32 needs 12 bytes, data_offsets give 8");
  CHECK(Refusal(Handmade(R"({"a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]},
                             "b": {"dtype": "F32", "shape": [2], "data_offsets": [4, 12]}})", 12)) ==
        "safetensors: tensors 'a' and 'b' overlap");
  CHECK(Refusal(Handmade(R"({"a": {"dtype": "F32", "shape": [1], "data_offsets": [4, 8]}})", 8)) ==
        "safetensors: a hole of 4 bytes before tensor 'a'");
  CHECK(Refusal(Handmade(R"({"a": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]}})", 6)) ==
        "safetensors: 2 bytes after the last tensor");
  CHECK(Refusal(Handmade(R"({"a": {"dtype": "F32", "shape": [-1], "data_offsets": [0, 4]}})", 4))
            .find("non-negative integer") != std::string::npos);
  CHECK(Refusal(Handmade(R"({"a": {"dtype": "F32", "shape": [1], "data_offsets": [4, 0]}})", 4))
            .find("begin after they end") != std::string::npos);
  CHECK(Refusal(Handmade(R"({"a": {"dtype": "F32", "shape": [1]}})", 4))
            .find("lacks dtype, shape or data_offsets") != std::string::npos);
  CHECK(Refusal(Handmade(R"({"a": {"dtype": "F32", "shape": [4294967296, 4294967296],
                             "data_offsets": [0, 4]}})", 4))
            .find("too large") != std::string::npos);
  CHECK(Refusal(Handmade(R"({"__metadata__": {"n": 1}})", 0)) ==
        "safetensors: __metadata__ 'n' is not a string");

  // every single-byte truncation of a good file is refused, none crashes
  for (std::size_t len = 0; len < good.size(); ++len) {
    StFile f;
    std::string error;
    CHECK_FALSE(ReadSafetensors(good.substr(0, len), &f, &error));
    CHECK(!error.empty());
  }
  // a value count that does not fit the shape is refused on writing
  StFile bad;
  bad.tensors.push_back({"x", Dtype::kF32, {2, 2}, {1.0f}});
  std::string bytes, error;
  CHECK_FALSE(WriteSafetensors(bad, &bytes, &error));
  CHECK(error == "safetensors: tensor 'x' has 1 values for shape [2, 2]");
}


TEST_CASE("model file: parameters round-trip through safetensors (F32 exact, F16 to the half)") {
  ModelConfig c;
  c.vocab = 11;
  c.d_model = 8;
  c.layers = 2;
  c.heads = 2;
  c.context = 5;
  c.mlp = 12;
  Params<float> p = InitParams<float>(c, 3);
  std::string bytes, error;
  REQUIRE(WriteSafetensors(ParamsToFile(p, c, Dtype::kF32), &bytes, &error));
  StFile f;
  REQUIRE_MESSAGE(ReadSafetensors(bytes, &f, &error), error);
  ModelConfig back_cfg;
  REQUIRE_MESSAGE(ConfigFromFile(f, &back_cfg, &error), error);
  CHECK(back_cfg.vocab == 11);
  CHECK(back_cfg.mlp == 12);
  Params<float> back;
  REQUIRE_MESSAGE(ParamsFromFile(f, back_cfg, &back, &error), error);
  std::vector<TensorRef<float>> a = Tensors(p), b = Tensors(back);
  for (std::size_t k = 0; k < a.size(); ++k)
    CHECK(std::memcmp(a[k].data, b[k].data, sizeof(float) * a[k].size()) == 0);
  // F16: every value is its nearest half
  REQUIRE(WriteSafetensors(ParamsToFile(p, c, Dtype::kF16), &bytes, &error));
  REQUIRE(ReadSafetensors(bytes, &f, &error));
  REQUIRE(ParamsFromFile(f, c, &back, &error));
  b = Tensors(back);
  CHECK(b[0].data[3] == HalfToFloat(FloatToHalf(a[0].data[3])));
  // a file for another config is refused with the tensor's name
  ModelConfig other = c;
  other.mlp = 16;
  CHECK_FALSE(ParamsFromFile(f, other, &back, &error));
  CHECK(error == "model file: tensor 'h.0.mlp.fc.weight' has shape [8, 12], the config wants [8, 16]");
  f.tensors.pop_back();
  CHECK_FALSE(ParamsFromFile(f, c, &back, &error));
  CHECK(error == "model file: tensor 'ln_f.bias' is missing");
  // metadata claiming a config far larger than the file's tensors: refused before allocating
  // (tests/fuzz/corpus/safetensors/regression-huge-config.safetensors)
  ModelConfig huge = c;
  huge.vocab = 9999999;
  huge.d_model = 9999999;
  huge.heads = 1;
  CHECK_FALSE(ParamsFromFile(f, huge, &back, &error));
  CHECK(error.rfind("model file: the config wants ", 0) == 0);
  f.metadata["heads"] = "3";
  CHECK_FALSE(ConfigFromFile(f, &other, &error));
  CHECK(error == "model file: heads must divide d_model");
}
