#include "graph/index_map.hpp"

#include "graph/check.hpp"


#include <fmt/format.h>

namespace loom::detail {

IndexMap IndexMap::identity(int ndim) {
  IndexMap m;
  m.out_ndim = ndim;
  m.in_ndim = ndim;
  for (int i = 0; i < ndim; ++i) {
    m.dim[i] = static_cast<std::int8_t>(i);
    m.coef[i] = 1;
  }
  return m;
}

void IndexMap::apply(const std::int64_t* o, std::int64_t* in) const {
  for (int k = 0; k < in_ndim; ++k) in[k] = offset[k];
  for (int i = 0; i < out_ndim; ++i) {
    if (dim[i] >= 0) in[dim[i]] += coef[i] * o[i];
  }
}

bool operator==(const IndexMap& a, const IndexMap& b) {
  if (a.out_ndim != b.out_ndim || a.in_ndim != b.in_ndim) return false;
  for (int i = 0; i < a.out_ndim; ++i) {
    if (a.dim[i] != b.dim[i]) return false;
    if (a.dim[i] >= 0 && a.coef[i] != b.coef[i]) return false;
  }
  for (int k = 0; k < a.in_ndim; ++k) {
    if (a.offset[k] != b.offset[k]) return false;
  }
  return true;
}

std::string IndexMap::to_string() const {
  // "[o1*2+1, o0]": each input index as a sum of output indices.
  std::string s = "[";
  for (int k = 0; k < in_ndim; ++k) {
    if (k) s += ", ";
    std::string term;
    for (int i = 0; i < out_ndim; ++i) {
      if (dim[i] != k) continue;
      if (!term.empty()) term += "+";
      term += coef[i] == 1 ? fmt::format("o{}", i) : fmt::format("o{}*{}", i, coef[i]);
    }
    if (offset[k] != 0 || term.empty()) {
      term += term.empty() ? fmt::format("{}", offset[k]) : fmt::format("{:+}", offset[k]);
    }
    s += term;
  }
  return s + "]";
}

IndexMap compose(const IndexMap& first, const IndexMap& second) {
  LOOM_CHECK(first.in_ndim == second.out_ndim, "composed maps meet in one rank");
  IndexMap r;
  r.out_ndim = first.out_ndim;
  r.in_ndim = second.in_ndim;
  for (int k = 0; k < second.in_ndim; ++k) r.offset[k] = second.offset[k];
  for (int j = 0; j < second.out_ndim; ++j) {
    if (second.dim[j] >= 0) r.offset[second.dim[j]] += second.coef[j] * first.offset[j];
  }
  for (int i = 0; i < first.out_ndim; ++i) {
    r.dim[i] = -1;
    r.coef[i] = 0;
    const int j = first.dim[i];
    if (j < 0) continue;
    const int k = second.dim[j];
    if (k < 0) continue;
    r.dim[i] = static_cast<std::int8_t>(k);
    r.coef[i] = first.coef[i] * second.coef[j];
    if (r.coef[i] == 0) r.dim[i] = -1;
  }
  return r;
}

std::optional<IndexMap> reshape_map(const IndexMap& m, const Shape& shape_in,
                                    const Shape& shape_out) {
  IndexMap r;
  r.out_ndim = shape_out.size();
  r.in_ndim = m.in_ndim;
  r.offset = m.offset;
  for (int i = 0; i < r.out_ndim; ++i) {
    r.dim[i] = -1;
    r.coef[i] = 0;
  }
  if (shape_in.numel() == 0) return r;  // nothing is ever read

  // NumPy's _attempt_nocopy_reshape, with (dim, coef) in place of a stride; size-1 input dims
  // are dropped, a zero coefficient means a broadcast dim.
  std::array<std::int64_t, kMaxDims> od{}, oc{};
  std::array<int, kMaxDims> ok{};
  int oldnd = 0;
  for (int i = 0; i < shape_in.size(); ++i) {
    if (shape_in[i] == 1) continue;
    od[oldnd] = shape_in[i];
    const bool bcast = m.dim[i] < 0 || m.coef[i] == 0;
    oc[oldnd] = bcast ? 0 : m.coef[i];
    ok[oldnd] = bcast ? -1 : m.dim[i];
    ++oldnd;
  }
  const int newnd = shape_out.size();
  int oi = 0, oj = 1, ni = 0, nj = 1;
  while (ni < newnd && oi < oldnd) {
    std::int64_t np = shape_out[ni];
    std::int64_t op = od[oi];
    while (np != op) {
      if (np < op) {
        if (nj >= newnd) return std::nullopt;
        np *= shape_out[nj++];
      } else {
        if (oj >= oldnd) return std::nullopt;
        op *= od[oj++];
      }
    }
    for (int a = oi; a < oj - 1; ++a) {
      if (oc[a + 1] == 0) {
        if (oc[a] != 0) return std::nullopt;
      } else if (ok[a] != ok[a + 1] || oc[a] != oc[a + 1] * od[a + 1]) {
        return std::nullopt;
      }
    }
    const int kdim = ok[oj - 1];
    r.coef[nj - 1] = oc[oj - 1];
    for (int nk = nj - 1; nk > ni; --nk) r.coef[nk - 1] = r.coef[nk] * shape_out[nk];
    for (int nk = ni; nk < nj; ++nk) {
      r.dim[nk] = static_cast<std::int8_t>(r.coef[nk] == 0 ? -1 : kdim);
      if (shape_out[nk] == 1) {
        r.dim[nk] = -1;
        r.coef[nk] = 0;
      }
    }
    ni = nj++;
    oi = oj++;
  }
  return r;
}

std::optional<Shape> reshape_strides(const Shape& shape_in, const Shape& strides_in,
                                     const Shape& shape_out) {
  IndexMap m;
  m.out_ndim = shape_in.size();
  m.in_ndim = 1;
  for (int i = 0; i < shape_in.size(); ++i) {
    m.dim[i] = static_cast<std::int8_t>(strides_in[i] == 0 ? -1 : 0);
    m.coef[i] = strides_in[i];
  }
  std::optional<IndexMap> r = reshape_map(m, shape_in, shape_out);
  if (!r) return std::nullopt;
  Shape strides = Shape::filled(shape_out.size(), 0);
  for (int i = 0; i < shape_out.size(); ++i) strides[i] = r->dim[i] < 0 ? 0 : r->coef[i];
  return strides;
}

}  // namespace loom::detail
