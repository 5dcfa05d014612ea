# Read by cpack (CPACK_PROJECT_CONFIG_FILE, cmake/install.cmake) before it builds a package: a
# package of a build configured for this machine is refused, so a .deb with AVX-512 code or with
# this checkout's path compiled in cannot come out by accident (issue #43).
set(_dplab_refusals)
if(CPACK_DPLAB_NATIVE)
  list(APPEND _dplab_refusals
       "DPLAB_NATIVE=ON: the code is compiled for this machine's CPU (-march=native) and may not run on another x86-64 CPU")
endif()
if(CPACK_DPLAB_SOURCE_TREE_DATA)
  list(APPEND _dplab_refusals
       "DPLAB_SOURCE_TREE_DATA=ON: the programs would look for their data in this checkout, whose path is compiled in")
endif()
if(_dplab_refusals)
  list(JOIN _dplab_refusals "\n  " _dplab_reasons)
  message(FATAL_ERROR "dplab: refusing to package this build:\n  ${_dplab_reasons}\n"
                      "Build the package with the CMake preset made for it:\n"
                      "  cmake --preset package && cmake --build --preset package && cpack --preset package\n"
                      "(docs/guide/install.md, \"Install from the Debian package\")")
endif()
