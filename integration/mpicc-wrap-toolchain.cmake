# CMake toolchain file: compile and link every C target with mpicc-wrap.
#
#   cmake -DCMAKE_TOOLCHAIN_FILE="$(mpicc-wrap --wrap-cmake-toolchain)" -S . -B build
#
# mpicc-wrap is searched, in order: the MPICC_WRAP_EXECUTABLE cache variable, the
# bin/ directory of every ancestor of this file (an installed package lives in
# PREFIX/lib/pythonX.Y/site-packages/mpicc_wrap/integration, so PREFIX/bin is one of
# them, activated or not), $VIRTUAL_ENV/bin, then PATH.  find_package(MPI) then sees
# an MPI compiler wrapper as CMAKE_C_COMPILER and MPI_C_COMPILER alike.

set(_mpicc_wrap_hints "")
get_filename_component(_mpicc_wrap_dir "${CMAKE_CURRENT_LIST_DIR}" ABSOLUTE)
foreach(_mpicc_wrap_level RANGE 8)
  list(APPEND _mpicc_wrap_hints "${_mpicc_wrap_dir}/bin" "${_mpicc_wrap_dir}/Scripts")
  get_filename_component(_mpicc_wrap_dir "${_mpicc_wrap_dir}" DIRECTORY)
endforeach()
if(DEFINED ENV{VIRTUAL_ENV})
  list(APPEND _mpicc_wrap_hints "$ENV{VIRTUAL_ENV}/bin")
endif()

find_program(MPICC_WRAP_EXECUTABLE NAMES mpicc-wrap HINTS ${_mpicc_wrap_hints}
             DOC "the mpicc-wrap compiler wrapper")
if(NOT MPICC_WRAP_EXECUTABLE)
  message(FATAL_ERROR "mpicc-wrap not found next to ${CMAKE_CURRENT_LIST_FILE} nor on PATH; "
                      "pass -DMPICC_WRAP_EXECUTABLE=/path/to/mpicc-wrap")
endif()

set(CMAKE_C_COMPILER "${MPICC_WRAP_EXECUTABLE}")
set(MPI_C_COMPILER "${MPICC_WRAP_EXECUTABLE}" CACHE FILEPATH "MPI C compiler wrapper")
unset(_mpicc_wrap_hints)
unset(_mpicc_wrap_dir)
unset(_mpicc_wrap_level)
