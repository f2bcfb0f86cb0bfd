# Writes a C++ source holding every platforms/*.json as a string, so the built binary (and an
# installed one) needs no data files. Run by platforms/CMakeLists.txt at build time.
file(GLOB json_files "${PLATFORM_DIR}/*.json")
list(SORT json_files)
set(body "")
foreach(f ${json_files})
  get_filename_component(name ${f} NAME_WE)
  file(READ ${f} text)
  string(APPEND body "      {\"${name}\", R\"vgpujson(${text})vgpujson\"},\n")
endforeach()
file(WRITE ${OUTPUT}.tmp "// Generated from platforms/*.json by EmbedPlatforms.cmake. Do not edit.
#include <map>
#include <string>

namespace vgpu {
const std::map<std::string, std::string>& builtinPlatformJson() {
  static const std::map<std::string, std::string> platforms{
${body}  };
  return platforms;
}
}  // namespace vgpu
")
file(COPY_FILE ${OUTPUT}.tmp ${OUTPUT} ONLY_IF_DIFFERENT)
