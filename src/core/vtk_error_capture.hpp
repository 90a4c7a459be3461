#pragma once
// VTK's error messages as text, for the files that use VTK (io/vtk_writers.cpp writing,
// model/vti_image.cpp reading); only builds with VTK include it.
#include <vtkCommand.h>

#include <string>

namespace fhn {

// Collects the messages of the VTK errors raised by the object it observes. While an ErrorEvent
// observer is attached VTK hands its messages over instead of printing them to stderr, so a
// failed write or read is reported once, through the caller's exception.
class VtkErrorCapture : public vtkCommand {
 public:
  static VtkErrorCapture* New() { return new VtkErrorCapture; }

  void Execute(vtkObject*, unsigned long, void* call_data) override {
    if (call_data != nullptr) append(static_cast<const char*>(call_data));
  }

  // "; "-separated messages, or an empty string when VTK said nothing.
  const std::string& messages() const { return messages_; }

 private:
  // VTK formats a message as "ERROR: In <source file>, line <n>\n<class> (<address>): <text>\n\n";
  // only <text> means something to a user.
  void append(std::string message) {
    if (message.rfind("ERROR: In ", 0) == 0) message.erase(0, message.find('\n') + 1);
    const std::size_t prefix_end = message.find("): ");
    if (prefix_end != std::string::npos) message.erase(0, prefix_end + 3);
    message.erase(message.find_last_not_of(" \n") + 1);
    if (!messages_.empty()) messages_ += "; ";
    messages_ += message;
  }

  std::string messages_;
};

}  // namespace fhn
