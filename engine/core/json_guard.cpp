// Depth-capped, path-tracking JSON parsing (see json_guard.h). A SAX handler builds the DOM and
// keeps the key path of the value being read, so every error can say where it happened.
#include "core/json_guard.h"

#include <iterator>
#include <nlohmann/json.hpp>
#include <vector>

#include "core/error.h"
#include "core/utf8.h"

namespace dplab {
namespace {

using nlohmann::json;

constexpr std::size_t kMaxPathChars = 120;

struct Frame {
  json* container;
  std::size_t next_index = 0;  // arrays: index of the next element
  std::string key;             // objects: the key of the next member
};

class DomBuilder : public nlohmann::json_sax<json> {
 public:
  DomBuilder(json& root, int max_depth) : root_(root), max_depth_(max_depth) {}

  bool null() override { return put(json(nullptr)); }
  bool boolean(bool v) override { return put(json(v)); }
  bool number_integer(number_integer_t v) override { return put(json(v)); }
  bool number_unsigned(number_unsigned_t v) override { return put(json(v)); }
  bool number_float(number_float_t v, const string_t&) override { return put(json(v)); }
  bool string(string_t& v) override { return put(json(std::move(v))); }
  bool binary(binary_t& v) override { return put(json::binary(std::move(v))); }
  bool start_object(std::size_t) override { return open(json::object()); }
  bool key(string_t& k) override {
    Frame& top = stack_.back();
    if (top.container->contains(k)) {
      // "last wins" would let a second "epsilon" silently override the first: refuse it.
      top.key.clear();
      duplicate_path = path();
      duplicate_key = k;
      return false;  // stops the parser; the caller reports the key and where
    }
    top.key = k;
    return true;
  }
  bool end_object() override { return close(); }
  bool start_array(std::size_t) override { return open(json::array()); }
  bool end_array() override { return close(); }
  bool parse_error(std::size_t position, const std::string& token,
                   const nlohmann::detail::exception& ex) override {
    error_position = position;
    error_token = token;
    error_message = ex.what();
    if (const auto at = error_message.find("] "); at != std::string::npos) {
      error_message = error_message.substr(at + 2);  // drop "[json.exception.parse_error.101] "
    }
    if (const auto at = error_message.find("syntax error"); at != std::string::npos) {
      error_message = error_message.substr(at);
    }
    return false;
  }

  // The key path of the value being read, e.g. "optimizers[1].grid.clip"; "(top level)" if none.
  std::string path() const {
    std::string out;
    for (const auto& frame : stack_) {
      if (frame.container->is_array()) {
        out += "[" + std::to_string(frame.next_index) + "]";
      } else if (!frame.key.empty()) {
        out += (out.empty() ? "" : ".") + frame.key;
      }
      if (out.size() > kMaxPathChars)
        return out.substr(0, utf8_prefix_length(out, kMaxPathChars)) + "...";
    }
    return out.empty() ? "(top level)" : out;
  }

  std::size_t error_position = 0;
  std::string error_token;
  std::string error_message;
  bool depth_exceeded = false;
  std::string duplicate_key;   // set when an object repeats a key
  std::string duplicate_path;  // the object holding it

 private:
  json* slot(json&& value) {
    if (stack_.empty()) {
      root_ = std::move(value);
      return &root_;
    }
    Frame& top = stack_.back();
    if (top.container->is_array()) {
      top.container->push_back(std::move(value));
      ++top.next_index;
      return &top.container->back();
    }
    json& member = (*top.container)[top.key];
    member = std::move(value);
    return &member;
  }
  bool put(json&& value) {
    slot(std::move(value));
    return true;
  }
  bool open(json&& container) {
    if (static_cast<int>(stack_.size()) >= max_depth_) {
      depth_exceeded = true;
      return false;  // stops the parser; the caller reports the path
    }
    json* where = slot(std::move(container));
    // slot() advanced the parent's index; the path should name this element while inside it.
    if (!stack_.empty() && stack_.back().container->is_array()) --stack_.back().next_index;
    stack_.push_back(Frame{where, 0, {}});
    return true;
  }
  bool close() {
    stack_.pop_back();
    if (!stack_.empty() && stack_.back().container->is_array()) ++stack_.back().next_index;
    return true;
  }

  json& root_;
  int max_depth_;
  std::vector<Frame> stack_;
};

// A char iterator that records how far the parser has read, so an error raised from a SAX callback
// (which gets no position) can still name its line and byte.
class CountingIterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;

  CountingIterator(const char* at, const char** furthest) : at_(at), furthest_(furthest) {}
  reference operator*() const { return *at_; }
  CountingIterator& operator++() {
    ++at_;
    if (at_ > *furthest_) *furthest_ = at_;
    return *this;
  }
  CountingIterator operator++(int) {
    CountingIterator before = *this;
    ++*this;
    return before;
  }
  bool operator==(const CountingIterator& other) const { return at_ == other.at_; }
  bool operator!=(const CountingIterator& other) const { return at_ != other.at_; }

 private:
  const char* at_;
  const char** furthest_;
};

std::string line_column(std::string_view text, std::size_t byte) {
  byte = std::min(byte, text.size());
  std::size_t line = 1, column = 1;
  for (std::size_t i = 0; i + 1 < byte; ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return "line " + std::to_string(line) + ", column " + std::to_string(column) + " (byte " +
         std::to_string(byte) + ")";
}

// A scalar as JSON text. A string that is not UTF-8 (built from a file name or a flag, not parsed)
// is shown with U+FFFD for the bad bytes, as json_text writes it: dump()'s default threw
// type_error 316 out of an error message.
std::string text_of(const json& scalar) {
  return scalar.dump(-1, ' ', false, json::error_handler_t::replace);
}

void excerpt(const json& value, int depth, std::string& out, std::size_t budget) {
  if (out.size() > budget) return;
  if (value.is_array() || value.is_object()) {
    if (depth >= 3) {
      out += value.is_array() ? "[...]" : "{...}";
      return;
    }
    out += value.is_array() ? '[' : '{';
    bool first = true;
    for (auto it = value.begin(); it != value.end(); ++it) {
      if (out.size() > budget) return;
      if (!first) out += ',';
      first = false;
      if (value.is_object()) out += text_of(json(it.key())) + ':';
      excerpt(*it, depth + 1, out, budget);
    }
    out += value.is_array() ? ']' : '}';
    return;
  }
  out += text_of(value);
}

}  // namespace

nlohmann::json parse_json_text(std::string_view text, const std::string& origin, int max_depth) {
  json root;
  DomBuilder builder(root, max_depth);
  const char* furthest = text.data();
  const bool ok = json::sax_parse(CountingIterator(text.data(), &furthest),
                                  CountingIterator(text.data() + text.size(), &furthest), &builder);
  if (ok) return root;
  if (!builder.duplicate_key.empty() || !builder.duplicate_path.empty()) {
    // `furthest` is just past the repeated key's closing quote.
    const auto end = static_cast<std::size_t>(furthest - text.data());
    throw ParseError(
        origin + ": " + line_column(text, end) + ": " + builder.duplicate_path +
        ": duplicate key \"" +
        builder.duplicate_key.substr(0, utf8_prefix_length(builder.duplicate_key, 60)) +
        "\" (each key may appear once in an object; remove one of them)");
  }
  const std::string where = origin + ": " + line_column(text, builder.error_position) + ": ";
  if (builder.depth_exceeded) {
    throw ParseError(origin + ": " + builder.path() + ": values nested more than " +
                     std::to_string(max_depth) + " levels deep (not an experiment file?)");
  }
  throw ParseError(where + builder.path() + ": invalid JSON: " + builder.error_message);
}

std::string json_excerpt(const nlohmann::json& value, std::size_t max_chars) {
  std::string out;
  excerpt(value, 0, out, max_chars);
  // Cut between characters: a cut through a UTF-8 sequence put half a character in the message.
  if (out.size() > max_chars)
    out = out.substr(0, utf8_prefix_length(out, max_chars > 3 ? max_chars - 3 : 0)) + "...";
  return out;
}

}  // namespace dplab
