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

void note_write(const detail::NodeRef& result, std::string text) {
  const std::lock_guard lock(g_mu);
  auto& v = notes();
  std::erase_if(v, [&](const Note& n) { return n.node.expired() || n.key == result.get(); });
  if (v.size() >= kMaxNotes) v.erase(v.begin());
  v.push_back(Note{result, result.get(), std::move(text)});
}

std::string write_note(const detail::Node& n) {
  const std::lock_guard lock(g_mu);
  for (const Note& e : notes()) {
    if (e.key == &n && !e.node.expired()) return e.text;
  }
  return "";
}

}  // namespace loom::exec
