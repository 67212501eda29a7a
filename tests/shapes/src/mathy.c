#include <math.h>
#include <stdio.h>
int main(int argc, char **argv)
{
    (void)argv;
    printf("%.3f\n", sqrt(2.0 * argc));
    return 0;
}
