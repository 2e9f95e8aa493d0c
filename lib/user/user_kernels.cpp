// ElementwiseKernel and ReductionKernel (include/loom/kernels.hpp): CuPy's parameter lists
// parsed and type placeholders resolved from the arguments; elementwise_kernel.cpp and
// reduction_kernel.cpp make each call graph nodes that fuse, or describe a kernel of its own that
// codegen/user_kernel.hpp writes, compiled at the call's line (user_module.hpp) and launched by a
// barrier call. Inputs broadcast by strides (no copy); raw ones and computed ones arrive
// C-contiguous.

#include <algorithm>
#include <cctype>
#include <complex>
#include <cstring>
#include <map>
#include <sstream>

#include <fmt/format.h>

#include <loom/errors.hpp>
#include <loom/half.hpp>
#include <loom/kernels.hpp>

#include "api/builders.hpp"
#include "calls/call_helpers.hpp"
#include "user/user_kernels.hpp"
#include "user/user_module.hpp"
#include "graph/node.hpp"
#include "reference/evaluator.hpp"

namespace loom {

namespace detail {

namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\n\r");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t\n\r");
  return s.substr(b, e - b + 1);
}

bool is_identifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

std::optional<DType> dtype_named(const std::string& t) {
  for (int k = 0; k < kNumDTypes; ++k) {
    if (name(static_cast<DType>(k)) == t) return static_cast<DType>(k);
  }
  if (t == "float") return DType::Float32;  // C's names, as a C++ user writes them
  if (t == "double") return DType::Float64;
  if (t == "int") return DType::Int32;
  if (t == "half") return DType::Float16;
  return std::nullopt;
}

}  // namespace

std::vector<UserParam> parse_params(const std::string& text, const std::string& what) {
  std::vector<UserParam> out;
  if (trim(text).empty()) return out;
  std::vector<std::string> items{""};
  for (char ch : text) {
    if (ch == ',') {
      items.emplace_back();
    } else {
      items.back() += ch;
    }
  }
  for (const std::string& item : items) {
    std::stringstream words(trim(item));
    std::vector<std::string> w;
    for (std::string x; words >> x;) w.push_back(x);
    UserParam p;
    if (!w.empty() && w[0] == "raw") {
      p.raw = true;
      w.erase(w.begin());
    }
    if (w.size() != 2 || !is_identifier(w[0]) || !is_identifier(w[1])) {
      throw ValueError(fmt::format("{}: syntax error in parameter '{}'", what, trim(item)));
    }
    p.type = w[0];
    p.name = w[1];
    p.dtype = dtype_named(p.type);
    for (const UserParam& q : out) {
      if (q.name == p.name) throw ValueError(fmt::format("{}: duplicated parameter name '{}'", what, p.name));
    }
    out.push_back(p);
  }
  return out;
}

std::vector<unsigned char> scalar_bytes(const Scalar& s, DType t) {
  const Scalar c = s.cast(t);
  std::vector<unsigned char> b(itemsize(t));
  const auto put = [&](auto v) { std::memcpy(b.data(), &v, sizeof v); };
  switch (t) {
    case DType::Bool: put(static_cast<bool>(c.i)); break;
    case DType::Int8: put(static_cast<std::int8_t>(c.i)); break;
    case DType::Int16: put(static_cast<std::int16_t>(c.i)); break;
    case DType::Int32: put(static_cast<std::int32_t>(c.i)); break;
    case DType::Int64: put(c.i); break;
    case DType::UInt8: put(static_cast<std::uint8_t>(c.u)); break;
    case DType::UInt16: put(static_cast<std::uint16_t>(c.u)); break;
    case DType::UInt32: put(static_cast<std::uint32_t>(c.u)); break;
    case DType::UInt64: put(c.u); break;
    case DType::Float16: put(half(static_cast<float>(c.f)).bits); break;
    case DType::BFloat16: put(bfloat16_t(static_cast<float>(c.f)).bits); break;
    case DType::Float32: put(static_cast<float>(c.f)); break;
    case DType::Float64: put(c.f); break;
    case DType::Complex64: put(std::complex<float>(c.c)); break;
    case DType::Complex128: put(c.c); break;
  }
  return b;
}

Resolution resolve(const std::vector<UserParam>& in, const std::vector<UserParam>& out,
                   const std::vector<KernelArg>& args, const std::string& what) {
  Resolution r;
  const std::size_t n_in = in.size(), n_out = out.size();
  if (args.size() != n_in && args.size() != n_in + n_out) {
    throw ValueError(fmt::format("{}: wrong number of arguments: {} given, {} inputs{}", what, args.size(), n_in,
                                 n_out > 0 ? fmt::format(" (and {} outputs)", n_out) : std::string()));
  }
  const auto bind = [&](const UserParam& p, DType t, const std::string& by) {
    if (p.dtype) return;
    auto [it, fresh] = r.types.emplace(p.type, t);
    if (!fresh && it->second != t) {
      throw DTypeError(fmt::format("{}: type placeholder {} is {} (from {}) but {} (from {})", what, p.type,
                                   name(it->second), r.bound_by[p.type], name(t), by));
    }
    if (fresh) r.bound_by[p.type] = by;
  };
  // Arrays first (outputs given included), then scalars for what is left.
  for (std::size_t k = 0; k < args.size(); ++k) {
    const KernelArg& a = args[k];
    const UserParam& p = k < n_in ? in[k] : out[k - n_in];
    const bool given = k >= n_in && a.kind() == KernelArg::Kind::Array;
    if (k >= n_in && a.kind() != KernelArg::Kind::Out && !given) {
      throw ValueError(fmt::format("{}: argument {} (output {}) must be a loom::Out or an array", what, k, p.name));
    }
    // An array written as an output keeps its dtype: the parameter's must be it (CuPy's
    // "Type is mismatched").
    if (given && p.dtype && *p.dtype != leaf_of(a.array(), "ElementwiseKernel")->dtype) {
      throw DTypeError(fmt::format("{}: output {} is {}, but the array given for it is {}", what, p.name,
                                   name(*p.dtype), name(a.array().dtype())));
    }
    if (k < n_in && (a.kind() == KernelArg::Kind::Out || a.kind() == KernelArg::Kind::InOut)) {
      throw ValueError(fmt::format("{}: argument {} (input {}) must be an array or a scalar", what, k, p.name));
    }
    if (a.kind() == KernelArg::Kind::Array) bind(p, leaf_of(a.array(), "ElementwiseKernel")->dtype, p.name);
    if (a.kind() == KernelArg::Kind::Out) bind(p, a.out().dtype, p.name);
    if (p.raw && a.kind() == KernelArg::Kind::Scalar) {
      throw ValueError(fmt::format("{}: raw parameter {} needs an array, not a scalar", what, p.name));
    }
  }
  for (std::size_t k = 0; k < n_in; ++k) {
    if (args[k].kind() == KernelArg::Kind::Scalar && !in[k].dtype && !r.types.count(in[k].type)) {
      bind(in[k], args[k].value().dtype, in[k].name);
    }
  }
  const auto type_of = [&](const UserParam& p) -> DType {
    if (p.dtype) return *p.dtype;
    auto it = r.types.find(p.type);
    if (it == r.types.end()) {
      throw DTypeError(fmt::format("{}: cannot determine the type of {} (placeholder {} is bound by no argument)", what,
                                   p.name, p.type));
    }
    return it->second;
  };
  for (const UserParam& p : in) r.in_dtypes.push_back(type_of(p));
  for (const UserParam& p : out) r.out_dtypes.push_back(type_of(p));
  return r;
}

std::vector<codegen::UserType> user_types(const Resolution& r) {
  std::vector<codegen::UserType> types;
  for (const auto& [ph, t] : r.types) types.push_back({ph, t});
  return types;
}

Shape predicted_strides(const Array& a) {
  const NodeRef n = leaf_of(a, "ElementwiseKernel");
  if (n->op == Op::Buffer) return n->strides();
  if (const Realized* r = n->realized()) return r->strides;
  return contiguous_strides(n->shape);
}

std::vector<std::vector<int>> collapse_groups(const Shape& shape, const std::vector<Shape>& strides) {
  // Adjacent dims d, d+1 merge when every operand steps over d exactly as over d+1's extent.
  std::vector<std::vector<int>> groups;
  for (int d = 0; d < shape.size(); ++d) {
    bool merge = d > 0;
    for (const Shape& st : strides) merge = merge && st[d - 1] == st[d] * shape[d];
    if (merge) {
      groups.back().push_back(d);
    } else {
      groups.push_back({d});
    }
  }
  return groups;
}

Shape broadcast_strides(const Shape& shape, const Shape& strides, const Shape& to) {
  Shape s = Shape::filled(to.size(), 0);
  const int off = to.size() - shape.size();
  for (int j = 0; j < shape.size(); ++j) s[off + j] = shape[j] == 1 ? 0 : strides[j];
  return s;
}

std::shared_ptr<UserModule> UserKernelState::module_for(const std::string& source, const std::vector<std::string>& options) {
  std::lock_guard lock(mu);
  auto& m = modules[source];
  if (!m) {
    m = std::make_shared<UserModule>();
    m->code = source;
    m->label = name;
    m->options.options = options;
  }
  return m;
}

std::shared_ptr<UserModule> UserKernelState::module_by(const std::string& signature,
                                                   const std::function<std::string()>& source,
                                                   const std::vector<std::string>& options) {
  {
    std::lock_guard lock(mu);
    if (auto it = by_signature.find(signature); it != by_signature.end()) return it->second;
  }
  auto m = module_for(source(), options);
  std::lock_guard lock(mu);
  by_signature.emplace(signature, m);
  return m;
}

UserKernelState::FusedOps UserKernelState::fused_ops_by(const std::string& signature, const std::function<FusedOps()>& make) {
  {
    std::lock_guard lock(mu);
    if (auto it = fused_ops.find(signature); it != fused_ops.end()) return it->second;
  }
  FusedOps ops = make();
  std::lock_guard lock(mu);
  return fused_ops.emplace(signature, std::move(ops)).first->second;
}

std::string signature_of(const Resolution& r, const std::vector<KernelArg>& args) {
  std::string s;
  for (DType t : r.in_dtypes) s += static_cast<char>('a' + static_cast<int>(t));
  s += '|';
  for (DType t : r.out_dtypes) s += static_cast<char>('a' + static_cast<int>(t));
  s += '|';
  for (const KernelArg& a : args) s += static_cast<char>('0' + static_cast<int>(a.kind()));
  for (const auto& [ph, t] : r.types) s += fmt::format("|{}={}", ph, static_cast<int>(t));
  return s;
}

bool fusable_dtype(DType t) { return is_bool(t) || is_integer(t) || t == DType::Float32 || t == DType::Float64; }

bool value_like(const UserParam& p) {
  return p.name.size() > 1 && p.name[0] == 'v' &&
         std::all_of(p.name.begin() + 1, p.name.end(), [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)) != 0; });
}

bool names(const std::string& text, const std::string& id) {
  const auto ident = [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_'; };
  for (std::size_t at = text.find(id); at != std::string::npos; at = text.find(id, at + 1)) {
    const std::size_t end = at + id.size();
    if ((at == 0 || !ident(text[at - 1])) && (end == text.size() || !ident(text[end]))) return true;
  }
  return false;
}

std::vector<NodeRef> fused_inputs(const UserKernelState& s, const std::vector<DType>& dtypes,
                                  const std::vector<KernelArg>& args, const Shape& shape) {
  std::vector<NodeRef> inputs;
  for (std::size_t k = 0; k < s.in.size(); ++k) {
    const DType t = dtypes[k];
    if (args[k].kind() == KernelArg::Kind::Scalar) {
      inputs.push_back(make_constant(args[k].value().cast(t), false));
    } else {
      const Array a = args[k].array().dtype() == t ? args[k].array() : args[k].array().astype(t);
      inputs.push_back(leaf_of(a.broadcast_to(shape), s.name.c_str()));
    }
  }
  return inputs;
}

}  // namespace detail

KernelOutputs::KernelOutputs(std::vector<Array> all) : Array(all.empty() ? Array() : all[0]), all_(std::move(all)) {}

const Array& KernelOutputs::output(std::size_t k) const {
  if (k >= all_.size()) throw IndexError(fmt::format("output {} of a kernel with {} output(s)", k, all_.size()));
  return all_[k];
}

}  // namespace loom
