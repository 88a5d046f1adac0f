// The state in a link: the page's location.hash, e.g.
//   #sentence=я%20люблю%20суши&query=1&temperature=0.5&train.lr=0.03
// Each key names a row of the settings tables ("train.<field>" for the training object) and
// each value is read by that row's kind: integers and numbers as numbers, booleans as 1/0 (also
// true/false, yes/no, on/off), names and texts as they are. A value that cannot be read stays a
// string, so the state patch refuses it with the field's own message. Written and read here
// only; web/js/url_state.js just moves the text between the address bar and these functions.
#pragma once

#include "api/state_json.h"

#include <string>
#include <string_view>
#include <vector>

namespace attn::api {

struct LinkError {
  std::string field;    // as written in the link ("train.lr", or the raw name when undecodable)
  std::string message;  // English, one line
};

struct LinkPatch {
  Json patch = Json::object();    // a state patch (train.<field> nested under "train")
  std::vector<std::string> keys;  // the link's keys in table order (the order to apply them)
  std::vector<LinkError> errors;  // malformed percent-encoding, unknown parameters
};

// Decodes a hash (with or without the leading '#').
LinkPatch ReadLink(std::string_view hash);

// The patch of one key of a LinkPatch ("train.lr" -> {"train": {"lr": ...}}).
Json PatchOfKey(const LinkPatch& link, const std::string& key);

// What applying a link to a state gives: every field at once when the state accepts them
// together; otherwise field by field in table order, twice (a field refused at first may depend
// on one applied after it), keeping what is accepted and listing the refusals.
struct LinkResult {
  LabState state;                 // the state with every accepted field
  Json accepted = Json::object(); // the patch of the accepted fields
  std::vector<LinkError> errors;  // decoding errors, unknown parameters, refusals
  PatchResult last_refusal;       // the last refusal (ok when none), for the lab's header
};
LinkResult ApplyLink(const LabState& current, std::string_view hash);

// The hash for a state: every top-level field in table order (those marked OnlyLinkedWhenChanged,
// e.g. the edits, only when changed), and the training fields that differ from `train_defaults`
// (links stay short). Booleans as 1/0; sets of names with their
// commas as they are ("hide=training,normalization").
std::string WriteLink(const LabState& state, const TrainState& train_defaults);

// Percent-decoding as decodeURIComponent after '+' -> ' '; false on a malformed escape or bytes
// that are not UTF-8.
bool PercentDecode(std::string_view in, std::string* out);
// encodeURIComponent: everything but A-Z a-z 0-9 - _ . ! ~ * ' ( ) is %XX-escaped (UTF-8 bytes).
std::string PercentEncode(std::string_view in);

}  // namespace attn::api
