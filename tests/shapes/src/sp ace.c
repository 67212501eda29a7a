#include <stdio.h>
#ifndef MSG
#define MSG "hello"
#endif
int main(void)
{
    printf("%s\n", MSG);
    return 0;
}
