/* steno-sandbox: entry point (being built). */
#include "config.h"

#include <stdio.h>

int main(void)
{
	printf("steno-sandbox %s\n", PACKAGE_VERSION);
	return 0;
}
