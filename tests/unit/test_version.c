#include <criterion/criterion.h>
#include <string.h>

#include "config.h"
#include "api/version.h"

Test(version, matches_configure)
{
	cr_assert_str_eq(steno_version(), PACKAGE_VERSION);
	cr_assert_gt(strlen(steno_version()), 0);
}
