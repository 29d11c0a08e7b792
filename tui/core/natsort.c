#include "config.h"
#include "core/natsort.h"

#include <stdint.h>
#include <string.h>

#include "core/textfold.h"

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Compares the digit runs at *a and *b as numbers and moves past them. */
static int cmp_number(const char **a, const char **b)
{
	const char *x = *a, *y = *b;
	while (*x == '0' && is_digit(x[1]))
		x++;
	while (*y == '0' && is_digit(y[1]))
		y++;
	size_t nx = 0, ny = 0;
	while (is_digit(x[nx]))
		nx++;
	while (is_digit(y[ny]))
		ny++;
	*a = x + nx;
	*b = y + ny;
	if (nx != ny)
		return nx < ny ? -1 : 1;
	int c = memcmp(x, y, nx);
	return c < 0 ? -1 : c > 0;
}

int natsort_cmp(const char *a, const char *b)
{
	if (!a || !b)
		return a == b ? 0 : a ? 1 : -1;
	const char *x = a, *y = b;
	while (*x && *y) {
		if (is_digit(*x) && is_digit(*y)) {
			int c = cmp_number(&x, &y);
			if (c)
				return c;
			continue;
		}
		uint32_t cx, cy;
		x += textfold_next(x, &cx);
		y += textfold_next(y, &cy);
		cx = textfold_lower(cx);
		cy = textfold_lower(cy);
		if (cx != cy)
			return cx < cy ? -1 : 1;
	}
	if (*x || *y)
		return *x ? 1 : -1;
	int c = strcmp(a, b);
	return c < 0 ? -1 : c > 0;
}
