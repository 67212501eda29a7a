#include <stdio.h>
#include "util.h"
int main(void)
{
    printf("twice(21) = %d\n", twice(21));
    return 0;
}
