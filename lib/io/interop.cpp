// Raw pointers, foreign memory and DLPack (include/loom/interop.hpp). Foreign memory becomes a
// Storage whose release calls the owner's (never freed by loom's pool, never written in place:
// Storage::borrowed), viewed by a Buffer node with the caller's strides.

#include <cstdint>
#include <cstdio>
#include <cstring>

#include <dlpack/dlpack.h>
#include <fmt/format.h>

#include <loom/device.hpp>
#include <loom/errors.hpp>
#include <loom/interop.hpp>

#include "graph/node.hpp"
#include "storage/storage.hpp"

namespace loom {

namespace {

constexpr std::uint8_t kDLBoolCode = 6;  // DLPack 0.8's kDLBool (the Debian header is 0.6)

// The elements [lo, hi) from ptr (hi exclusive) that an array of `shape` and element `strides`
// reaches: ValueError naming `op` where the offsets of its elements, in elements or in bytes,
// overflow int64 or reach outside the address space (they would wrap in every later index
// computation: a read of unrelated memory, or a broadcast).
struct Extent {
  std::int64_t lo = 0, hi = 0;
};
Extent extent_of(const void* ptr, const Shape& shape, const Shape& strides, std::int64_t item, const char* op) {
  Extent e;
  if (shape.numel() == 0) return e;
  e.hi = 1;
  bool overflow = false;
  for (int d = 0; d < shape.size(); ++d) {
    std::int64_t span = 0;
    overflow |= __builtin_mul_overflow(strides[d], shape[d] - 1, &span);
    overflow |= __builtin_add_overflow(span < 0 ? e.lo : e.hi, span, span < 0 ? &e.lo : &e.hi);
  }
  std::int64_t count = 0, low_bytes = 0, bytes = 0;
  overflow |= __builtin_sub_overflow(e.hi, e.lo, &count) || __builtin_mul_overflow(e.lo, item, &low_bytes) ||
              __builtin_mul_overflow(count, item, &bytes);
  if (!overflow) {  // [ptr + low_bytes, that + bytes) inside the address space (low_bytes <= 0)
    const auto at = reinterpret_cast<std::uintptr_t>(ptr);
    const std::uintptr_t below = std::uintptr_t{0} - static_cast<std::uintptr_t>(low_bytes);
    overflow = below > at || at - below > UINTPTR_MAX - static_cast<std::uintptr_t>(bytes);
  }
  if (overflow) {
    throw ValueError(fmt::format("{}: shape {} with strides {} (in elements of {} bytes) reaches memory past what a "
                                 "64-bit offset from the pointer can address",
                                 op, to_string(shape), to_string(strides), item));
  }
  return e;
}

// Calls a foreign release function as loom's storage drops the memory (in a destructor: it must
// not throw). An exception it throws is reported on stderr and dropped, as a MemoryHook's is.
void run_release(const std::function<void()>& release, const char* op) noexcept {
  if (!release) return;
  try {
    release();
  } catch (const std::exception& ex) {
    std::fprintf(stderr, "loom: a %s release function threw: %s\n", op, ex.what());
  } catch (...) {
    std::fprintf(stderr, "loom: a %s release function threw\n", op);
  }
}

// The array over [ptr + lowest, ptr + highest] with element strides, released by `release`.
Array wrap(void* ptr, const Shape& shape, DType dtype, const Shape& strides, int device, std::function<void()> release,
           const char* op) {
  detail::check_dtype(dtype, op);
  if (shape.size() > kMaxDims) throw ValueError(fmt::format("{}: more than {} dimensions", op, kMaxDims));
  for (int d = 0; d < shape.size(); ++d) {
    if (shape[d] < 0) throw ValueError(fmt::format("{}: negative dimensions are not allowed", op));
  }
  (void)detail::checked_nbytes(shape, dtype, op);
  const auto item = static_cast<std::int64_t>(itemsize(dtype));
  if (ptr == nullptr && shape.numel() > 0) throw ValueError(fmt::format("{}: a null pointer for {} elements", op, shape.numel()));
  const Extent e = extent_of(ptr, shape, strides, item, op);
  const Placement where = exec::placement_of(ptr, device, op);
  void* base = static_cast<char*>(ptr) + e.lo * item;
  auto storage = std::make_shared<detail::Storage>(base, static_cast<std::size_t>((e.hi - e.lo) * item), where,
                                                   [release = std::move(release), op](void*) noexcept {
                                                     run_release(release, op);
                                                   });
  storage->set_borrowed();
  return Array(detail::make_buffer(std::move(storage), dtype, shape, strides, -e.lo));
}

Shape element_strides(const Shape& shape, DType dtype, const std::optional<Shape>& bytes, const char* op) {
  if (!bytes) {
    (void)detail::checked_nbytes(shape, dtype, op);  // C order's strides are products of the extents
    return contiguous_strides(shape);
  }
  if (bytes->size() != shape.size()) {
    throw ValueError(fmt::format("{}: {} strides for {} dimensions", op, bytes->size(), shape.size()));
  }
  const auto item = static_cast<std::int64_t>(itemsize(dtype));
  Shape s;
  for (int d = 0; d < shape.size(); ++d) {
    if ((*bytes)[d] % item != 0) {
      throw ValueError(fmt::format("{}: stride {} is not a multiple of the item size {}", op, (*bytes)[d], item));
    }
    s.push_back((*bytes)[d] / item);
  }
  return s;
}

DLDataType dl_dtype(DType t) {
  DLDataType d{};
  d.lanes = 1;
  d.bits = static_cast<std::uint8_t>(8 * itemsize(t));
  if (is_bool(t)) d.code = kDLBoolCode;
  else if (is_signed_int(t)) d.code = kDLInt;
  else if (is_unsigned_int(t)) d.code = kDLUInt;
  else if (t == DType::BFloat16) d.code = kDLBfloat;
  else if (is_complex(t)) d.code = kDLComplex;
  else d.code = kDLFloat;
  return d;
}

DType loom_dtype(const DLDataType& d) {
  if (d.lanes != 1) throw ValueError(fmt::format("from_dlpack: vector types ({} lanes) are not supported", d.lanes));
  const auto bits = d.bits;
  switch (d.code) {
    case kDLBoolCode:
      if (bits == 8) return DType::Bool;
      break;
    case kDLInt:
      if (bits == 8) return DType::Int8;
      if (bits == 16) return DType::Int16;
      if (bits == 32) return DType::Int32;
      if (bits == 64) return DType::Int64;
      break;
    case kDLUInt:
      if (bits == 8) return DType::UInt8;
      if (bits == 16) return DType::UInt16;
      if (bits == 32) return DType::UInt32;
      if (bits == 64) return DType::UInt64;
      break;
    case kDLFloat:
      if (bits == 16) return DType::Float16;
      if (bits == 32) return DType::Float32;
      if (bits == 64) return DType::Float64;
      break;
    case kDLBfloat:
      if (bits == 16) return DType::BFloat16;
      break;
    case kDLComplex:
      if (bits == 64) return DType::Complex64;
      if (bits == 128) return DType::Complex128;
      break;
    default: break;
  }
  throw ValueError(fmt::format("from_dlpack: DLPack dtype code {} with {} bits is not a dtype loom has", int(d.code), int(bits)));
}

// What a tensor loom exports owns: loom's buffer and the shape and strides the tensor points at.
struct Exported {
  DLManagedTensor managed{};
  std::shared_ptr<detail::Storage> storage;
  std::vector<std::int64_t> shape, strides;
};

}  // namespace

void* Array::data_ptr() const {
  const detail::NodeRef leaf = detail::as_leaf(eval().node());
  return static_cast<char*>(leaf->storage()->data()) + leaf->offset() * static_cast<std::int64_t>(loom::itemsize(leaf->dtype));
}

Array from_pointer(void* ptr, const Shape& shape, DType dtype, std::optional<Shape> strides, int device,
                   std::shared_ptr<void> owner) {
  const Shape st = element_strides(shape, dtype, strides, "from_pointer");
  return wrap(ptr, shape, dtype, st, device, [owner = std::move(owner)]() mutable { owner.reset(); }, "from_pointer");
}

Array from_pointer(void* ptr, const Shape& shape, DType dtype, std::optional<Shape> strides, int device,
                   std::function<void()> release) {
  const Shape st = element_strides(shape, dtype, strides, "from_pointer");
  return wrap(ptr, shape, dtype, st, device, std::move(release), "from_pointer");
}

DLManagedTensor* to_dlpack(const Array& a) {
  const detail::NodeRef leaf = detail::as_leaf(a.eval().node());
  Stream::current().synchronize();  // readable from any stream the consumer uses
  auto* e = new Exported;
  e->storage = leaf->storage();
  e->shape.assign(leaf->shape.begin(), leaf->shape.end());
  e->strides.assign(leaf->strides().begin(), leaf->strides().end());
  DLTensor& t = e->managed.dl_tensor;
  t.data = static_cast<char*>(e->storage->data()) + leaf->offset() * static_cast<std::int64_t>(itemsize(leaf->dtype));
  t.byte_offset = 0;
  t.device = e->storage->on_host() ? DLDevice{kDLCPU, 0} : DLDevice{kDLCUDA, e->storage->placement().index};
  t.ndim = leaf->shape.size();
  t.dtype = dl_dtype(leaf->dtype);
  t.shape = e->shape.data();
  t.strides = e->strides.data();
  e->managed.manager_ctx = e;
  e->managed.deleter = [](DLManagedTensor* m) { delete static_cast<Exported*>(m->manager_ctx); };
  return &e->managed;
}

Array from_dlpack(DLManagedTensor* tensor, void* producer_stream) {
  if (tensor == nullptr) throw ValueError("from_dlpack: a null tensor");
  const DLTensor& t = tensor->dl_tensor;
  const bool host = t.device.device_type == kDLCPU;
  if (t.device.device_type != kDLCUDA && t.device.device_type != kDLCUDAManaged && !(host && !gpu_available())) {
    throw ValueError(fmt::format("from_dlpack: the tensor is on a device of DLPack type {} (loom takes CUDA tensors{})",
                                 static_cast<int>(t.device.device_type), gpu_available() ? "" : ", or host ones without a GPU"));
  }
  if (t.ndim < 0 || t.ndim > kMaxDims) throw ValueError(fmt::format("from_dlpack: {} dimensions", t.ndim));
  if (t.ndim > 0 && t.shape == nullptr) {
    throw ValueError(fmt::format("from_dlpack: the tensor has {} dimensions and a null shape", t.ndim));
  }
  const DType dtype = loom_dtype(t.dtype);
  Shape shape, strides;
  for (int d = 0; d < t.ndim; ++d) shape.push_back(t.shape[d]);
  if (t.strides != nullptr) {
    for (int d = 0; d < t.ndim; ++d) strides.push_back(t.strides[d]);
  } else {
    (void)detail::checked_nbytes(shape, dtype, "from_dlpack");  // C order's strides are products of the extents
    strides = contiguous_strides(shape);
  }
  if (producer_stream != nullptr && gpu_available()) {
    exec::wait_for_stream(static_cast<cudaStream_t>(producer_stream));
  }
  // A null data pointer stays null whatever the offset (wrap refuses it for any element).
  void* ptr = t.data == nullptr ? nullptr : static_cast<char*>(t.data) + t.byte_offset;
  return wrap(ptr, shape, dtype, strides, host ? -1 : t.device.device_id,
              [tensor]() {
                if (tensor->deleter != nullptr) tensor->deleter(tensor);
              },
              "from_dlpack");
}

}  // namespace loom
