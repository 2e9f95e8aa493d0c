#pragma once
// The one exception hierarchy of loom (DESIGN.md, decision 2). Messages follow NumPy's wording.

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace loom {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Shapes that do not broadcast, reshape, or fit an operation.
class ShapeError : public Error {
 public:
  using Error::Error;
};

// A dtype an operation does not support, or a cast it refuses.
class DTypeError : public Error {
 public:
  using Error::Error;
};

// A value out of range: a bad argument, a scalar that does not fit its dtype.
class ValueError : public Error {
 public:
  using Error::Error;
};

// An index or axis out of bounds.
class IndexError : public Error {
 public:
  using Error::Error;
};

// NumPy's words for an integer index out of range: "index 7 is out of bounds for axis 0 with
// size 5".
inline std::string index_error_message(std::int64_t index, std::int64_t size, std::int64_t axis) {
  return "index " + std::to_string(index) + " is out of bounds for axis " + std::to_string(axis) + " with size " +
         std::to_string(size);
}

class LinAlgError : public Error {
 public:
  using Error::Error;
};

// NVRTC refused a generated kernel; what() holds the log and the line-numbered source.
class CompileError : public Error {
 public:
  CompileError(const std::string& what, std::string log, std::string source)
      : Error(what), log_(std::move(log)), source_(std::move(source)) {}
  const std::string& log() const { return log_; }
  const std::string& source() const { return source_; }

 private:
  std::string log_;
  std::string source_;
};

// A CUDA runtime, NVRTC or library call returned an error status.
class CudaError : public Error {
 public:
  CudaError(const std::string& what, int status) : Error(what), status_(status) {}
  int status() const { return status_; }

 private:
  int status_;
};

// A broken invariant inside loom (a bug, not a user error): checked in Release builds too, and
// reported with the file and line of the check.
class InternalError : public Error {
 public:
  using Error::Error;
};

// The device pool could not satisfy a request, even after releasing its cached blocks.
class OutOfMemory : public Error {
 public:
  OutOfMemory(const std::string& what, std::size_t requested_bytes)
      : Error(what), requested_bytes_(requested_bytes) {}
  std::size_t requested_bytes() const { return requested_bytes_; }

 private:
  std::size_t requested_bytes_;
};

}  // namespace loom
