# dlbkit's components, a CMake target dlbkit::<component> each (docs/architecture.md), and the
# components each one links. Read by the build (CMakeLists.txt) and by the installed package
# (dlbkitConfig.cmake), so that both resolve a component list the same way.
set(DLBKIT_KNOWN_COMPONENTS io topology core analysis strategies sim rounds phases runtime objects apps workloads mpi)  # each after what it links
set(_dlbkit_io_links "")
set(_dlbkit_topology_links io)
set(_dlbkit_core_links topology)
set(_dlbkit_analysis_links core)
set(_dlbkit_strategies_links analysis)
set(_dlbkit_sim_links strategies)
set(_dlbkit_rounds_links strategies)
set(_dlbkit_phases_links sim rounds)
set(_dlbkit_runtime_links sim)
set(_dlbkit_objects_links runtime phases)
set(_dlbkit_apps_links runtime)
set(_dlbkit_workloads_links sim phases apps)
set(_dlbkit_mpi_links runtime)

# dlbkit_resolve_components(<var> <error var> <component>...): the components named and every
# one they link, in the order of DLBKIT_KNOWN_COMPONENTS; <error var> is a one-line message
# naming an unknown component and the accepted ones, or empty.
function(dlbkit_resolve_components var error_var)
  set(wanted ${ARGN})
  set(error "")
  foreach(component IN LISTS wanted)
    if(NOT component IN_LIST DLBKIT_KNOWN_COMPONENTS)
      string(REPLACE ";" ", " accepted "${DLBKIT_KNOWN_COMPONENTS}")
      set(error "unknown component '${component}'; accepted: ${accepted}")
    endif()
  endforeach()
  set(reversed ${DLBKIT_KNOWN_COMPONENTS})
  list(REVERSE reversed)  # dependents first, so that what they link is added before it is reached
  foreach(component IN LISTS reversed)
    if(component IN_LIST wanted)
      list(APPEND wanted ${_dlbkit_${component}_links})
    endif()
  endforeach()
  set(resolved "")
  foreach(component IN LISTS DLBKIT_KNOWN_COMPONENTS)
    if(component IN_LIST wanted)
      list(APPEND resolved ${component})
    endif()
  endforeach()
  set(${var} ${resolved} PARENT_SCOPE)
  set(${error_var} "${error}" PARENT_SCOPE)
endfunction()
