#define DEEP 7
