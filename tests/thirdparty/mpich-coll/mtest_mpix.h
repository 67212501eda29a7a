#ifndef MTEST_MPIX_H_INCLUDED
#define MTEST_MPIX_H_INCLUDED

#define MPI_Delete_error_class MPIX_Delete_error_class
#define MPI_Delete_error_code MPIX_Delete_error_code
#define MPI_Delete_error_string MPIX_Delete_error_string

#endif /* MTEST_MPIX_H_INCLUDED */
