#ifndef UTIL_H
#define UTIL_H
int twice(int x);
#endif
