#pragma once
// SourceWriter: builds readable, consistently indented CUDA source (STYLE.md habit 7).

#include <string>
#include <string_view>

#include <fmt/format.h>

namespace loom::codegen {

class SourceWriter {
 public:
  // One line at the current indentation.
  void line(std::string_view text);
  template <class... A> void line(fmt::format_string<A...> f, A&&... args) {
    line(std::string_view(fmt::format(f, std::forward<A>(args)...)));
  }
  void blank() { text_ += '\n'; }
  // "text {" (a bare "{" for no text) and indent; close_block() dedents and writes "}" (plus a suffix such as ";").
  void open_block(std::string_view text);
  void close_block(std::string_view suffix = "");
  const std::string& str() const { return text_; }
  std::size_t size() const { return text_.size(); }
  std::string take() { return std::move(text_); }

 private:
  std::string text_;
  int indent_ = 0;
};

}  // namespace loom::codegen
