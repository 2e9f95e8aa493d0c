#include "exec/write_notes.hpp"

#include <algorithm>
#include <mutex>
#include <vector>

namespace loom::exec {

namespace {

struct Note {
  std::weak_ptr<const detail::Node> node;
  const detail::Node* key;
  std::string text;
};

constexpr std::size_t kMaxNotes = 256;
std::mutex g_mu;
std::vector<Note>& notes() {
  static auto* v = new std::vector<Note>;  // never destroyed: nodes may outlive static destructors
  return *v;
}

}  // namespace

// A write a step appends; dead notes are dropped when the list is full (not at every write: a
// time loop's writes stay alive until it evaluates, and a scan per write cost a tenth of building
// its graph), then the oldest quarter if they all live.
void note_write(const detail::NodeRef& result, std::string text) {
  const std::lock_guard lock(g_mu);
  auto& v = notes();
  if (v.size() >= kMaxNotes) {
    std::erase_if(v, [](const Note& n) { return n.node.expired(); });
    if (v.size() >= kMaxNotes) v.erase(v.begin(), v.begin() + kMaxNotes / 4);
  }
  v.push_back(Note{result, result.get(), std::move(text)});
}

std::string write_note(const detail::Node& n) {
  const std::lock_guard lock(g_mu);
  const auto& v = notes();
  for (auto e = v.rbegin(); e != v.rend(); ++e) {  // the newest note of a live node at that address
    if (e->key == &n && !e->node.expired()) return e->text;
  }
  return "";
}

}  // namespace loom::exec
