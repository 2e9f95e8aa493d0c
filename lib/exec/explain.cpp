// explain() and source(): the plan eval() would run, and its kernels' CUDA source, produced
// without compiling or running anything (DESIGN.md decision 5).

#include <iostream>


#include <fmt/format.h>

#include <loom/errors.hpp>
#include <loom/eval.hpp>

#include "codegen/emit_elementwise.hpp"
#include "codegen/reduce_strategy.hpp"
#include "exec/kernel_cache.hpp"
#include "exec/realize.hpp"
#include "exec/schedule.hpp"
#include "exec/write_notes.hpp"
#include "runtime/device.hpp"

namespace loom {

namespace {

std::vector<detail::NodeRef> nodes_of(const std::vector<Array>& arrays) {
  std::vector<detail::NodeRef> nodes;
  for (const Array& a : arrays) {
    if (!a.valid()) throw ValueError("explain: an empty Array handle");
    nodes.push_back(a.node());
  }
  return nodes;
}

const char* path_text(codegen::Path p) {
  switch (p) {
    case codegen::Path::Flat: return "flat loop";
    case codegen::Path::Rows: return "rows (2-D grid)";
    case codegen::Path::Unravel: return "unravelled index";
    case codegen::Path::Tiled: return "32x32 tiles, transposed operands through shared memory";
  }
  return "?";
}

std::string leaf_text(const codegen::KernelPlan& plan, int j) {
  const codegen::Leaf& l = plan.leaves[static_cast<std::size_t>(j)];
  const detail::Node* node = plan.nodes[static_cast<std::size_t>(l.slot)];
  switch (l.kind) {
    case codegen::LeafKind::Buffer:
      if (node->op == detail::Op::Call && !node->realized()) {
        return fmt::format("in{}: {}{} output {} of the library call {} (a barrier)", j, name(l.dtype),
                           to_string(node->shape), node->k(), node->call()->name);
      }
      return fmt::format("in{}: {}{} buffer{}{}", j, name(l.dtype), to_string(node->shape),
                         l.unravel ? " (index split per element: reshape of a strided layout)" : "",
                         l.guard >= 0 ? ", read only where it is placed (region writes, concatenation)" : "");
    case codegen::LeafKind::Scalar:
      return fmt::format("s{}: constant {} = {} (kernel argument)", j, name(l.dtype), node->value.to_string());
    case codegen::LeafKind::Arange: return fmt::format("arange{}: generator, reads no memory", j);
    case codegen::LeafKind::Linspace: return fmt::format("linspace{}: generator, reads no memory", j);
    case codegen::LeafKind::Eye: return fmt::format("eye{}: generator, reads no memory", j);
    case codegen::LeafKind::Reduced:
      return fmt::format("{}({}): computed by this kernel's reduction", detail::reduce_name(node->reduce_kind()), j);
    case codegen::LeafKind::Gathered:
      return fmt::format("in{}: {}{} buffer read at computed positions (gather){}", j, name(l.dtype),
                         to_string(node->shape), l.unravel ? ", through its strides" : "");
  }
  return "?";
}


// The schedule's steps before the last (exec/schedule.hpp): each library call, in the order the
// calls run, with the kernels of the step before it that computes its inputs. A flat list: a
// chain of 10^6 calls is 10^6 lines, not 10^6 levels of recursion.
// `computed` collects what those kernel steps compute (the calls' inputs, and the outputs'
// reductions computed with them): the plans after them read those as buffers.
std::string calls_text(const exec::Schedule& schedule, std::vector<detail::NodeRef>& computed) {
  std::string s;
  const std::vector<exec::Step>& steps = schedule.steps;
  for (std::size_t i = 0; i + 1 < steps.size(); ++i) {
    if (steps[i].kind != exec::Step::Kind::Call) continue;
    s += fmt::format("barrier: library call {}\n", to_string(*steps[i].call));
    if (i == 0 || steps[i - 1].kind != exec::Step::Kind::Kernels || steps[i - 1].call != steps[i].call) continue;
    const exec::Step& inputs = steps[i - 1];
    const exec::Prepared prep = exec::prepare(inputs.targets, computed);
    computed.insert(computed.end(), inputs.targets.begin(), inputs.targets.end());
    s += fmt::format("  its inputs first: {} kernel(s)", prep.kernels.size());
    if (inputs.shared > 0) {
      s += fmt::format(" (with {} reduction(s) of the outputs that read the same work)", inputs.shared);
    }
    for (const codegen::KernelPlan& kp : prep.kernels) s += " " + codegen::kernel_name(kp);
    s += "\n";
  }
  return s;
}

}  // namespace

std::string explain_string(const std::vector<Array>& arrays) {
  const std::vector<detail::NodeRef> nodes = nodes_of(arrays);
  // The steps eval() would run; the last computes the outputs.
  const exec::Schedule schedule = exec::make_schedule(nodes);
  std::vector<detail::NodeRef> computed;
  std::string s = calls_text(schedule, computed);
  const exec::Prepared prep = exec::prepare(schedule.steps.back().targets, computed);
  const bool gpu = rt::has_gpu();
  s += fmt::format("loom plan: {} kernel(s), {} view(s) of results, fusion {}{}{}\n",
                              prep.kernels.size(), prep.plan.view_roots.size(),
                              fusion_enabled() ? "on" : "off",
                              gpu ? "" : " (no GPU: the host reference evaluator runs it)",
                              s.empty() ? "" : ", after the library calls above");
  for (std::size_t g = 0; g < prep.kernels.size(); ++g) {
    const codegen::KernelPlan& kp = prep.kernels[g];
    const std::string state = gpu ? exec::to_string(exec::probe(rt::current_device(), kp)) : "not compiled (no GPU)";
    s += fmt::format("kernel {}: {}  [{}]\n", g, codegen::kernel_name(kp), state);
    for (std::size_t o = 0; o < kp.outputs.size(); ++o) {
      const detail::Node& r = *kp.nodes[static_cast<std::size_t>(kp.roots[o])];
      s += fmt::format("  writes out{}: {}{} = {}\n", o, name(r.dtype), to_string(r.shape),
                       codegen::expression_text(kp, static_cast<int>(o)));
      if (const std::string note = exec::write_note(r); !note.empty()) s += "    (" + note + ")\n";
    }
    for (std::size_t j = 0; j < kp.leaves.size(); ++j) {
      s += "  reads  " + leaf_text(kp, static_cast<int>(j)) + "\n";
    }
    if (kp.reduce) {
      const codegen::ReducePart& r = *kp.reduce;
      for (std::size_t i = 0; i < r.reductions.size(); ++i) {
        s += fmt::format("  reduces {}({}) of {}: fused prologue\n", detail::reduce_name(r.reductions[i].kind), i,
                         codegen::expression_text(*r.prologue, static_cast<int>(i)));
      }
      for (std::size_t j = 0; j < r.prologue->leaves.size(); ++j) {
        s += "  reads  " + leaf_text(*r.prologue, static_cast<int>(j)) + " (prologue)\n";
      }
      s += fmt::format("  loop: {} reduction, {} outputs of {} elements each, input shape {} after collapsing, {}-bit index\n",
                       codegen::strategy_def(r.strategy).explain(r),
                       r.nk, r.nr, to_string(r.prologue->shape), kp.index32 ? 32 : 64);
    } else {
      s += fmt::format("  loop: {} over {} elements, shape {} after collapsing, {}-bit index, {} per access{}\n",
                       path_text(kp.path), kp.numel, to_string(kp.shape), kp.index32 ? 32 : 64, kp.vec,
                       kp.unroll > 1 ? fmt::format(", {} per thread (a block's width apart)", kp.unroll) : "");
    }
  }
  for (const codegen::ViewRoot& v : prep.plan.view_roots) {
    s += fmt::format("view: {} is a view of {} (no kernel)\n", to_string(*v.node), to_string(*v.base));
  }
  for (const std::string& n : prep.plan.notes) s += "why: " + n + "\n";
  return s;
}

void explain(const std::vector<Array>& arrays, std::ostream& os) { os << explain_string(arrays); }
void explain(const Array& a) { explain({a}, std::cout); }

std::string source(const std::vector<Array>& arrays) {
  const exec::Prepared prep = exec::prepare(nodes_of(arrays));
  std::string s;
  for (const codegen::KernelPlan& kp : prep.kernels) {
    if (!s.empty()) s += "\n";
    s += codegen::emit_kernel(kp).text;
  }
  return s;
}

std::string Array::source() const { return loom::source({*this}); }

}  // namespace loom
