/* Written for mpicc-wrap (not part of MPICH): the configuration MPICH's configure
 * would generate for its test suite, reduced to what mtest.c and these tests use. */
/* Minimal hand-written configuration for building MPICH's coll tests outside their tree. */
#ifndef MPITESTCONF_H_INCLUDED
#define MPITESTCONF_H_INCLUDED
#define HAVE_STDARG_H 1
#define HAVE_STRING_H 1
#define HAVE_SYS_TIME_H 1
#define HAVE_SYS_RESOURCE_H 1
#define HAVE_GETRUSAGE 1
#define HAVE_UNISTD_H 1
#define HAVE_MPI_INIT_THREAD 1
#define HAVE_MPI_WIN_CREATE 1
#define THREAD_PACKAGE_NAME THREAD_PACKAGE_NONE
#endif
