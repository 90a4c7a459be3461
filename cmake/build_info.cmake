# Writes build_info.cpp with the current git revision; run at build time so the revision in
# `fhn info` and run.log follows commits without reconfiguring. The file is only touched when
# its content changes, so an unchanged revision triggers no rebuild.
execute_process(COMMAND git -C "${SOURCE_DIR}" describe --always --dirty --abbrev=12
                OUTPUT_VARIABLE FHN_GIT_REVISION OUTPUT_STRIP_TRAILING_WHITESPACE
                ERROR_QUIET RESULT_VARIABLE status)
if(NOT status EQUAL 0 OR FHN_GIT_REVISION STREQUAL "")
  set(FHN_GIT_REVISION "unknown")
endif()
configure_file("${SOURCE_DIR}/src/core/build_info.cpp.in" "${OUTPUT}.new" @ONLY)
file(COPY_FILE "${OUTPUT}.new" "${OUTPUT}" ONLY_IF_DIFFERENT)
