# The CANN-shaped root build/cann (docs/drop-in.md): usable as
# ASCEND_HOME_PATH / ASCEND_TOOLKIT_HOME, bin/bisheng is ptocc, every CANN
# library name is libptosim, tools/simulator/<SoC>/lib selects the SoC, bin/msprof
# and bin/cannsim run applications on ptosim.
set(PTOLAB_CANN_LIBS
  ascendcl runtime runtime_camodel c_sec tiling_api platform nnopbase profapi register ascend_hal graph
  ge_runner opapi error_manager acl_op_compiler ascendalog mmpa acl_cblas acl_dvpp ascend_protobuf exe_graph
  graph_base ge_common ascendcl_impl msprofiler aicpu_kernels cust_opapi)
set(PTOLAB_CANN_ROOT ${PROJECT_BINARY_DIR}/cann)
string(REPLACE ";" "," _cann_libs "${PTOLAB_CANN_LIBS}")
# Where the root's Python stand-ins live (python/fallbacks.py).
set(_cann_python -DPY_GOLDEN=${PROJECT_BINARY_DIR}/conformance/python
    -DPY_TORCH_NPU_SIM=${PROJECT_SOURCE_DIR}/python/torch_npu_sim -DPY_PTOLAB=${PROJECT_BINARY_DIR}/python)
add_custom_target(cann_root ALL
  COMMAND ${CMAKE_COMMAND} -DROOT=${PTOLAB_CANN_ROOT} -DPTOCC=$<TARGET_FILE:ptocc> -DPTOLAB=$<TARGET_FILE:ptolab> -DPTOSIM=$<TARGET_FILE:ptosim>
          -DCAMODEL=$<TARGET_FILE:ptosim_camodel> -DINCLUDE=${PROJECT_SOURCE_DIR}/include
          -DHCCL=$<TARGET_FILE:hccl>
          -DSOC_NAMES=$<TARGET_FILE:ptosim_soc_names> "-DLIBS=${_cann_libs}"
          ${_cann_python}
          -P ${PROJECT_SOURCE_DIR}/cmake/cann_root.cmake
  COMMENT "Laying out the CANN-shaped root ${PTOLAB_CANN_ROOT}"
  VERBATIM)
add_dependencies(cann_root ptocc ptolab ptosim ptosim_camodel ptosim_soc_names hccl)

# cmake --install: <prefix>/cann with the installed ptocc, a copy of
# libptosim.so and an installed include tree.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/ DESTINATION cann/include COMPONENT ptolab)
install(CODE "
  set(_root \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/cann\")
  execute_process(COMMAND \"${CMAKE_COMMAND}\" \"-DROOT=\${_root}\"
    \"-DPTOCC=\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}/ptocc\"
    \"-DPTOLAB=\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}/ptolab\" \"-DPTOSIM=$<TARGET_FILE:ptosim>\" -DCOPY_PTOSIM=ON
    \"-DCAMODEL=$<TARGET_FILE:ptosim_camodel>\" -DINCLUDE=installed \"-DHCCL=$<TARGET_FILE:hccl>\"
    \"-DSOC_NAMES=$<TARGET_FILE:ptosim_soc_names>\" \"-DLIBS=${_cann_libs}\" ${_cann_python}
    -P \"${PROJECT_SOURCE_DIR}/cmake/cann_root.cmake\" RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR \"laying out \${_root} failed\")
  endif()" COMPONENT ptolab)
