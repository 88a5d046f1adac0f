// The two tokenizers behind one interface (tokenizer.h).
#include "model/tokenizer/tokenizer.h"

#include <utility>

namespace attn {
namespace model {

std::string Tokenizer::Decode(const std::vector<int>& ids) const {
  std::string out;
  for (int id : ids) out += Bytes(id);
  return out;
}

namespace {

class OwnTokenizer final : public Tokenizer {
 public:
  explicit OwnTokenizer(Bpe bpe) : bpe_(std::move(bpe)) {}
  bool Encode(std::string_view text, std::vector<int>* ids, std::string* error) const override {
    return bpe_.Encode(text, ids, error);
  }
  std::string Bytes(int id) const override { return Has(id) ? bpe_.Decode({id}) : std::string(); }
  std::string Label(int id) const override {
    if (id == Bpe::kEndOfText) return "<|endoftext|>";
    return Has(id) ? bpe_.Text(id) : "<no token " + std::to_string(id) + ">";
  }
  int size() const override { return bpe_.size(); }
  int EndOfText() const override { return Bpe::kEndOfText; }
  int Begin() const override { return Bpe::kEndOfText; }
  const char* Kind() const override { return "attnlab-bpe"; }
  const Bpe* Own() const override { return &bpe_; }

 private:
  bool Has(int id) const { return id >= 0 && id < bpe_.size(); }
  Bpe bpe_;
};

class Gpt2Tokenizer final : public Tokenizer {
 public:
  Gpt2Tokenizer(Gpt2Bpe bpe, int eot) : bpe_(std::move(bpe)), eot_(eot) {}
  bool Encode(std::string_view text, std::vector<int>* ids, std::string* error) const override {
    return bpe_.Encode(text, ids, error);
  }
  std::string Bytes(int id) const override { return bpe_.Has(id) ? bpe_.Bytes(id) : std::string(); }
  std::string Label(int id) const override { return bpe_.Readable(id); }
  int size() const override { return bpe_.size(); }
  int EndOfText() const override { return eot_; }
  int Begin() const override { return -1; }
  const char* Kind() const override { return "gpt2-bpe"; }

 private:
  Gpt2Bpe bpe_;
  int eot_;
};

}  // namespace

std::shared_ptr<const Tokenizer> MakeOwnTokenizer(Bpe bpe) {
  return std::make_shared<const OwnTokenizer>(std::move(bpe));
}

std::shared_ptr<const Tokenizer> MakeGpt2Tokenizer(Gpt2Bpe bpe, int eot) {
  if (eot < 0 || !bpe.Has(eot)) eot = bpe.Id("<|endoftext|>");
  return std::make_shared<const Gpt2Tokenizer>(std::move(bpe), eot);
}

}  // namespace model
}  // namespace attn
