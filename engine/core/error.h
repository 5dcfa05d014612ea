// dplab::Error and its kinds: every engine failure a user can cause surfaces as one of these,
// with a message that names the offending field, file or line and the rule it broke.
#pragma once

#include <stdexcept>
#include <string>

namespace dplab {

// Base of all engine errors. The message is meant for the user, as is.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A parameter is out of its domain: "noise_multiplier = -1 must be > 0".
class InvalidArgument : public Error {
 public:
  using Error::Error;
};

// A file could not be opened, read or written.
class IoError : public Error {
 public:
  using Error::Error;
};

// A file's content is malformed; the message names the file and the line or byte offset.
class ParseError : public Error {
 public:
  using Error::Error;
};

// Work was cancelled by the user; not a failure.
class Cancelled : public Error {
 public:
  Cancelled() : Error("cancelled") {}
};

}  // namespace dplab
