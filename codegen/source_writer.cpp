#include "codegen/source_writer.hpp"

namespace loom::codegen {

void SourceWriter::line(std::string_view text) {
  text_.append(static_cast<std::size_t>(indent_) * 2, ' ');
  text_ += text;
  text_ += '\n';
}

void SourceWriter::open_block(std::string_view text) {
  line(text.empty() ? std::string("{") : fmt::format("{} {{", text));
  ++indent_;
}

void SourceWriter::close_block(std::string_view suffix) {
  --indent_;
  line(fmt::format("}}{}", suffix));
}

}  // namespace loom::codegen
