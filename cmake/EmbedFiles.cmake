# arena_embed_files(<out_var> NAME <stem> FILES <files...> COMMENT <text>
#                   [NAMESPACE <ns> FUNCTION <fn> HEADER <header>])
# Generates <stem>.cpp in the current binary folder with embed_assets.cmake at build time (again
# whenever a file or the script changes) and puts its path in <out_var>, for the caller's target.
# NAMESPACE, FUNCTION and HEADER name the function that gives the files (default: the web viewer's
# view::web_assets()).
set(ARENA_EMBED_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/embed_assets.cmake)

function(arena_embed_files out_var)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "NAME;COMMENT;NAMESPACE;FUNCTION;HEADER" "FILES")
  if(NOT arg_NAME OR NOT arg_COMMENT)
    message(FATAL_ERROR "arena_embed_files: NAME and COMMENT are required")
  endif()
  set(cpp ${CMAKE_CURRENT_BINARY_DIR}/${arg_NAME}.cpp)
  set(options "")
  foreach(key NAMESPACE FUNCTION HEADER)
    if(arg_${key})
      list(APPEND options -D${key}=${arg_${key}})
    endif()
  endforeach()
  add_custom_command(
    OUTPUT ${cpp}
    COMMAND ${CMAKE_COMMAND} -DOUT=${cpp} "-DFILES=${arg_FILES}" ${options} -P ${ARENA_EMBED_SCRIPT}
    DEPENDS ${arg_FILES} ${ARENA_EMBED_SCRIPT}
    COMMENT "${arg_COMMENT}"
    VERBATIM)
  set(${out_var} ${cpp} PARENT_SCOPE)
endfunction()
