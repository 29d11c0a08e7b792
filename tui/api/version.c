#include "config.h"
#include "api/version.h"

const char *steno_version(void)
{
	return PACKAGE_VERSION;
}
