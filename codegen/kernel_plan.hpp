#pragma once
// Kernel planning (the second pass of realize, after partition): for one KernelGroup, works out
// how every leaf is indexed from the kernel's iteration space (views composed into affine maps,
// reshapes as C-order linear indices), collapses contiguous dims, chooses the launch path, and
// builds the structural key (DESIGN.md decision 3). It generates no source text: a repeated
// eval() runs this and hits the kernel cache. emit_elementwise.hpp turns a plan into source.

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "codegen/partition.hpp"

namespace loom::codegen {

// value = c0 + sum over iteration dims d of c[d] * o[d]
struct Affine {
  std::int64_t c0 = 0;
  std::array<std::int64_t, kMaxDims> c{};
  friend bool operator==(const Affine&, const Affine&) = default;
};

enum class LeafKind : std::uint8_t {
  Buffer, Scalar, Arange, Linspace, Eye,
  Reduced,  // the result of a reduction this kernel performs (reduction epilogues)
  // A buffer read at positions the kernel computes (Op::Gather's source): no index of its own;
  // the element function reads it at its index value (C order: the offset directly when the
  // layout is C-contiguous, else through the unravel helper over its shape and strides).
  Gathered,
};

// How an affine index varies along the innermost iteration dim; part of the key.
enum class Step : std::uint8_t { Zero, Unit, Strided };

struct Leaf {
  LeafKind kind = LeafKind::Buffer;
  // The node it reads, holds or generates (a buffer, an evaluated or materialized node, a
  // constant, a generator, a reduction's result): KernelPlan::nodes[slot].
  int slot = -1;
  int reduction = -1;  // Reduced: which of the kernel's reductions (ReducePart::reductions)
  DType dtype = DType::Float32;
  // Buffer: idx[0] is the element offset from the node's data. Arange/Linspace: idx[0] is the
  // position. Eye: idx[0], idx[1] are row and column.
  std::array<Affine, 2> idx{};
  int num_idx = 0;
  // Unravel fallback: the index arrives as a C-order linear index `lin` over `shape` and is
  // split into digits in the kernel (a reshape of a layout that does not factor). Rare, so kept
  // out of line: plans are copied on every cached eval.
  struct Unravel {
    Affine lin;
    Shape shape;    // the node's shape
    Shape strides;  // Buffer: element strides
  };
  bool unravel = false;
  std::shared_ptr<Unravel> unr;
  // Tiled path: read coalesced along its rows into a shared-memory tile, then transposed.
  bool tiled = false;
  // Row-resident epilogues: the prologue leaf whose register copy this leaf reads (-1: none).
  int cache = -1;
  // A buffer below an Op::Place: the value (a bool) that says where its index is meaningful (the
  // piece inside its box, the base outside it); the element function reads it only there, at
  // the pointer the loop passes (-1: read by the loop like any buffer). Elementwise plans only.
  int guard = -1;
  // A buffer read a few elements from another leaf's read of the same node with the same strides
  // (a stencil's neighbours, x[1:] beside x[:-1]): its pointer is leaves[share]'s plus `shift`
  // elements, and on the vector path its lanes are that leaf's vector's (elements past the
  // vector's ends read one by one), so it needs no alignment of its own (-1: its own pointer).
  // Elementwise plans only (kernel_plan.cpp, share_pointers).
  int share = -1;
  int shift = 0;
};

// One value the kernel computes: an op on earlier values, or a leaf read.
struct KValue {
  detail::Op op = detail::Op::Constant;
  DType dtype = DType::Float32;  // the node's dtype
  std::array<int, 3> in{-1, -1, -1};
  int leaf = -1;                 // >= 0: reads leaves[leaf]
  std::shared_ptr<const detail::UserOp> user;  // Op::User: the user's code
  // A read under a guard (a guarded buffer leaf, a gather, an index check): the value that says
  // where it is meaningful; elsewhere it is not performed and reads 0.
  int guard = -1;
};

enum class Path : std::uint8_t {
  Flat,     // one dim: a flat loop, 16-byte vectors when every operand allows
  Rows,     // >= 2 dims, long rows: 2-D grid, the outer index unravelled once per row
  Unravel,  // >= 2 dims, short rows: flat loop, every index unravelled
  Tiled,    // 2 dims with a transposed operand: 32x32 tiles, that operand through shared memory
};

struct KernelPlan;

// One reduction a kernel performs.
struct ReduceSpec {
  detail::ReduceKind kind = detail::ReduceKind::Sum;
  DType dtype = DType::Float32;  // of its input: the accumulator's
  DType out_dtype = DType::Float32;
  int input = -1;                // the prologue value it reduces
  int slot = -1;                 // the Reduce node: the epilogue's nodes[slot] (its Reduced leaf's)
  std::shared_ptr<const detail::UserOp> user;  // ReduceKind::User: the state's code
};

// Each strategy is defined in one place: codegen/reduce_<name>.cpp (reduce_strategy.hpp).
enum class ReduceStrategy : std::uint8_t {
  Cooperative,  // a block per output element (blocks split long reductions): inner, middle, all
  PerThread,    // a thread per output element, the reduced index in its loop: outer axes
  Rows,         // row-resident: a block per row, kept in registers, outputs over the whole row
  WarpRows,     // rows of 17..2047 elements along the contiguous axis: a group of lanes (4..32) of
                // a warp per row, a shuffle combine, no block barrier
  ColumnTiles,  // the kept axis contiguous, too few outputs to fill the GPU a thread each: a block
                // of `lanes` columns x 256/lanes row slots, combined through shared memory
};

// The reduction part of a reduction kernel. The KernelPlan that owns it is the epilogue: its
// iteration space is the output (one element per kept index), and its Reduced leaves take the
// reductions' results.
struct ReducePart {
  std::shared_ptr<KernelPlan> prologue;  // over the reduction's input (collapsed dims)
  std::vector<std::uint8_t> reduced;     // per prologue dim: 1 when reduced
  std::vector<ReduceSpec> reductions;
  ReduceStrategy strategy = ReduceStrategy::Cooperative;
  std::vector<std::uint8_t> epilogue_reduced;  // Rows: per epilogue dim, 1 when reduced
  std::int64_t nk = 1;  // kept elements: outputs
  std::int64_t nr = 1;  // reduced elements per output
  int block = 256;      // threads per block (Cooperative, Rows: a power of two >= 32)
  int per_thread = 0;   // Rows: elements of a row per thread, a power of two (the loops' bound)
  // Cooperative, WarpRows: elements per load (one 16-byte or 8-byte access) when every buffer
  // steps with stride 1 through the last dim, which is reduced and a multiple of vec long;
  // ColumnTiles: the same along the last dim when it is kept (vec adjacent columns per thread,
  // a state each); 1 otherwise.
  int vec = 1;
};

// WarpRows: lanes per row; ColumnTiles: columns per block (threads along x). A power of two in
// 1..32 computed from the sizes (a kernel argument, not part of the key); 0 for other strategies.
int reduce_lanes(const ReducePart& r);

struct KernelPlan {
  // The nodes of the graph it was planned for, by slot, in the order the plan first reached them:
  // the one place a plan names nodes (leaves and reductions hold slots). What binds the plan to a
  // graph reads it (argument packing, addresses, explain); emission never does: the source is a
  // function of the plan's structure alone (tests emit with this table cleared).
  std::vector<const Node*> nodes;
  Shape shape;                 // iteration shape after collapsing (outputs are C-contiguous)
  std::int64_t numel = 0;
  std::vector<Leaf> leaves;
  std::vector<KValue> values;  // inputs before users
  std::vector<int> outputs;    // value index per root
  std::vector<int> roots;      // the outputs' nodes, by slot (add_roots)
  Path path = Path::Flat;
  bool index32 = true;
  int vec = 1;                 // elements per thread per step (16-byte accesses when > 1)
  // Without vectors (flat and rows paths): elements per thread, a block's width apart (each
  // warp's access one coalesced line), all read before any is written.
  int unroll = 1;
  // Rows path: the outer dims iterated first (bit d: dim d), before the others, each set in C
  // order among themselves; 0 is C order. Set for operands broadcast along outer dims
  // (kernel_plan.cpp, order_rows).
  std::uint32_t fast_rows = 0;
  std::string key;             // structural key: equal keys <=> identical source
  std::shared_ptr<const ReducePart> reduce;  // set for reduction kernels
  std::vector<Cut> needs_cut;  // nodes that must be materialized first (re-partition)
};

struct PlanOptions {
  bool allow_vectorize = true;
};

// Plans the kernel of `group`; `boundary` are the nodes other groups of the plan compute (read
// as contiguous buffers). When needs_cut is not empty the plan is unusable: partition again
// with those nodes cut.
KernelPlan plan_kernel(const KernelGroup& group, std::span<const NodeRef> boundary,
                       const PlanOptions& options = {});
// The same for a reduction group (group.reduction): defined in reduce_plan.cpp.
KernelPlan plan_reduce(const KernelGroup& group, std::span<const NodeRef> boundary, int sm_count);

// Whether every vector access of the plan is aligned given the actual addresses (a different
// key when not: the plan is then made again with vec = 1).
using AddressOf = std::function<const void*(const Node*)>;
bool vector_aligned(const KernelPlan& plan, const AddressOf& address_of,
                    std::span<void* const> outputs);
void drop_vectors(KernelPlan& plan);
// A divisor d (1 <= d < 2^31) as one word for 32-bit unravelling: x / d for 0 <= x < 2^31 is
// __umulhi(x, low 32 bits) >> high 32 bits, and the word is 0 for d = 1 (the quotient is x).
// Two instructions where a division by a value known only at run time takes about twenty.
std::uint64_t divisor_word(std::int64_t d);
// The quotient the kernel computes from that word (its host mirror, for tests).
std::uint32_t divide_by_word(std::uint32_t x, std::uint64_t word);

// Whether the plan's guarded reads (below a Place) can be vector loads: each a unit- or
// zero-step buffer, and every guard computed from generators, scalars and unguarded reads
// alone (the vector path computes the lanes' guards before it loads).
bool vector_guards(const KernelPlan& plan);

// Names the group's roots in the plan (KernelPlan::roots), each by its slot (given one if the
// analysis gave it none).
void add_roots(KernelPlan& p, const KernelGroup& group);

Step step_of(const Affine& a, int ndim);
// Whether every index of the plan (over p.shape) and `count` fit 32-bit arithmetic.
bool fits_in_32_bits(KernelPlan& p, std::int64_t count);
// Sets p.key from its structure (and its reduction part's).
void build_key(KernelPlan& p);
std::string to_string(const KernelPlan& plan);

// --- kernel parameters ---
// Every parameter is one or two 8-byte words of a struct the kernel takes by value; emitter and
// packer walk the same list, so their layouts agree by construction.
enum class ParamKind : std::uint8_t {
  OutPtr,      // index: output
  InPtr,       // index: leaf (the node's data + element offset c0)
  LeafStride,  // index: leaf, dim: iteration dim, sub: which idx
  LeafOffset,  // index: leaf, sub: which idx (generators: the start position)
  ScalarValue, // index: leaf; two words for complex
  GenStart,    // index: leaf (arange/linspace start)
  GenStep,
  GenStop,     // linspace: stop, and the position that gets it exactly (-1: none)
  GenLast,
  EyeK,
  UnravelLinC0,   // index: leaf
  UnravelLinStride,  // index: leaf, dim
  UnravelExtent,  // index: leaf, dim: node dim
  UnravelStride,  // index: leaf, dim: node dim (buffer element stride)
  Numel,
  Rows,
  Inner,
  Extent,  // dim: iteration dim (outer dims of the unravel)
  ExtentDivisor,  // dim: the same extent as a multiplier and shift (divisor_word), 32-bit plans
  // Reduction kernels (section 1 leaves are the prologue's):
  NumKept,       // outputs
  NumReduced,    // reduced elements per output
  PrologueExtent,  // dim: prologue dim (for unravelling kept and reduced indices)
  Ddof,          // index: reduction
  Partials,      // index: reduction; workspace of per-block partial states
  Tickets,       // per output: how many blocks have written their partial
  Chunk,         // reduced elements per block (or per split)
  Lanes,         // reduce_lanes: lanes per row (WarpRows), columns per block (ColumnTiles)
  ErrorRecord,   // the device's error record (runtime/device_errors.hpp), for Op::CheckIndex
};

struct Param {
  ParamKind kind;
  int index = 0;
  int dim = 0;
  int sub = 0;
  int section = 0;   // leaves of: 0 the plan (elementwise, or a reduction's epilogue), 1 its prologue
  std::string name;  // the struct field
  std::string ctype; // "const float*", "long long", "double"
  int words = 1;
};

// Every field the plan's skeleton could read, in the Args struct's order: the emitters ask
// for those they read (kernel_args.hpp), and the kernel's list is those (KernelSource::params).
std::vector<Param> candidate_params(const KernelPlan& plan);
// The parameters of the plan's kernel (its source emitted once, for them).
std::vector<Param> kernel_params(const KernelPlan& plan);

// The argument words for `params`. data_of gives a leaf node's data pointer (the start of its
// storage: the layout offset is added here) and outputs the kernel's output pointers.
using DataOf = std::function<const void*(const Node*)>;
struct Workspace {
  void* partials = nullptr;       // reduction i's partial states at partials + i * partial_stride
  std::size_t partial_stride = 0;
  void* tickets = nullptr;
  int splits = 1;
  void* error_record = nullptr;  // where Op::CheckIndex records an index out of bounds
};
std::vector<std::uint64_t> pack_params(const KernelPlan& plan, std::span<const Param> params,
                                       const DataOf& data_of, std::span<void* const> outputs,
                                       const Workspace& workspace = {});

// The same in two steps, for a plan launched many times (exec's executables): pack_static
// fills the words fixed by the plan's structure, and lists the others (pointers, scalar values,
// generator parameters, ddof: what the fingerprint leaves out) as patches with a word of 0;
// apply_patches fills those in for one call. A patch names the node it reads by slot: the
// number slot_of gave it, an index into the `slots` of the call (never a pointer: an executable
// outlives the graph it was planned for).
struct ArgPatch {
  ParamKind kind;
  int word = 0;
  int index = 0;  // OutPtr: output; Partials: reduction
  int sub = 0;    // ScalarValue: 1 for a complex value's imaginary part
  int slot = -1;  // the node whose data or value it takes (-1: none)
  std::int64_t byte_offset = 0;  // InPtr: the leaf's offset from its node's data
};
struct StaticArgs {
  std::vector<std::uint64_t> words;
  std::vector<ArgPatch> patches;
};
using SlotOf = std::function<int(const Node*)>;
StaticArgs pack_static(const KernelPlan& plan, std::span<const Param> params, int splits, const SlotOf& slot_of);
void apply_patches(std::span<std::uint64_t> words, std::span<const ArgPatch> patches,
                   std::span<const Node* const> slots, const DataOf& data_of,
                   std::span<void* const> outputs, const Workspace& workspace);

// The launch shape for a plan on a device with `sm_count` multiprocessors. Reductions that split
// their outputs across blocks size the grid to the blocks resident at once: blocks_per_sm of the
// compiled kernel (0: as many 256-thread blocks as a multiprocessor's 2048 threads allow).
struct LaunchDims {
  unsigned grid_x = 1, grid_y = 1, block_x = 1, block_y = 1;
  int splits = 1;  // reduction kernels: blocks sharing one output (workspace needed when > 1)
};
LaunchDims launch_dims(const KernelPlan& plan, int sm_count, int blocks_per_sm = 0);

// Workspace of a reduction kernel launched with `splits`: bytes of partial states per reduction,
// and of the ticket counters (which must be zero at launch).
std::size_t partials_bytes(const KernelPlan& plan, int splits);
std::size_t tickets_bytes(const KernelPlan& plan);

}  // namespace loom::codegen
