#include <stdio.h>
int main(void)
{
    printf("%d\n", FORCED);
    return 0;
}
