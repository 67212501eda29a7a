#include <stdio.h>
#include "deep.h"
int main(void)
{
#ifdef GONE
    printf("GONE defined\n");
#endif
    printf("%d\n", DEEP);
    return 0;
}
