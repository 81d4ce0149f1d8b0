# Compile definitions bisheng sets for each --cce-aicore-arch, so test and
# benchmark targets can build kernel sources for the simulator directly
# (ptocc does the same from a bisheng command line).
function(ptosim_kernel_arch target arch)
  if(arch MATCHES "^dav-c220")
    target_compile_definitions(${target} PRIVATE __CCE_AICORE__=220 __NPU_ARCH__=2201 MEMORY_BASE)
  elseif(arch MATCHES "^dav-c310")
    target_compile_definitions(${target} PRIVATE __CCE_AICORE__=310 __NPU_ARCH__=3510 REGISTER_BASE)
  else()
    message(FATAL_ERROR "ptosim_kernel_arch: unknown arch '${arch}' (expected dav-c220[-vec|-cube] or dav-c310[-vec|-cube])")
  endif()
  target_link_libraries(${target} PRIVATE ptosim)
endfunction()
