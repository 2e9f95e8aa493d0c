#pragma once
// Text of host arrays exactly as NumPy 2 prints them: repr ("array([1., 2.], dtype=float32)")
// and str ("[1. 2.]"), following numpy/_core/arrayprint.py and NumPy's Dragon4 digit rules.

#include <cstdint>
#include <string>

#include <loom/dtype.hpp>
#include <loom/shape.hpp>

namespace loom::detail {

// NumPy's print options that loom honours (np.set_printoptions names). The rest keep NumPy's
// defaults: floatmode 'maxprec', sign '-', suppress False, nanstr 'nan', infstr 'inf'.
struct PrintOptions {
  int precision = 8;
  std::int64_t threshold = 1000;
  int edgeitems = 3;
  int linewidth = 75;
  // Which NumPy 2.x to imitate where their array output differs:
  //   >= 2: a summarized array's repr ends with ", shape=(...)" (NumPy 2.2);
  //   >= 3: scientific notation starts at 10**min(8, finfo(dtype).precision), i.e. 1e3 for
  //         float16, 1e6 for float32 (NumPy 2.3); before that, at 1e8 for every float type.
  int numpy_minor = 3;
};

// NumPy's repr of C-contiguous host data: "array([[1., 2.],\n       [3., 4.]], dtype=float32)".
// bfloat16 prints as a float type of its own precision with ", dtype=bfloat16".
std::string format_array_repr(const void* data, DType dtype, const Shape& shape,
                              const PrintOptions& options = {});

// The shape of the block of elements a repr shows: edgeitems from each end of every axis that a
// summarized print shortens ("..."), the whole axis otherwise.
Shape shown_shape(const Shape& shape, const PrintOptions& options = {});
// format_array_repr from the shown elements only: `data` holds the C-contiguous block of
// shown_shape(shape) (packed), or every element (not packed). Printing a 10^10-element array
// then reads 36 of them.
std::string format_array_repr_packed(const void* data, DType dtype, const Shape& shape,
                                     const PrintOptions& options, bool packed);

// NumPy's str, what print(a) shows: "[[1. 2.]\n [3. 4.]]"; a 0-d array prints as its scalar
// ("5", "1.5", "(1+2j)").
std::string format_array_str(const void* data, DType dtype, const Shape& shape,
                             const PrintOptions& options = {});

}  // namespace loom::detail
