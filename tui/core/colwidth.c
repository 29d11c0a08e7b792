#include "config.h"
#include "core/colwidth.h"

static int shown_cost(const int *width, size_t n, int gap)
{
	int used = 0, shown = 0;
	for (size_t i = 0; i < n; i++)
		if (width[i] > 0) {
			used += width[i];
			shown++;
		}
	return used + (shown > 1 ? (shown - 1) * gap : 0);
}

/* The shown column to drop next (lowest drop rank > 0), or -1. */
static int next_drop(const struct colwidth_spec *spec, size_t n, const int *width)
{
	int best = -1;
	for (size_t i = 0; i < n; i++)
		if (width[i] > 0 && spec[i].drop > 0 && (best < 0 || spec[i].drop < spec[best].drop))
			best = (int)i;
	return best;
}

/* The growing columns' indices in grow order into order[]; returns how many. */
static size_t grow_order(const struct colwidth_spec *spec, size_t n, const int *width, size_t *order)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (width[i] <= 0 || spec[i].grow <= 0)
			continue;
		size_t j = k++;
		while (j > 0 && spec[order[j - 1]].grow > spec[i].grow) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = i;
	}
	return k;
}

static int give(int *width, size_t i, int want, int *left)
{
	int more = want - width[i];
	if (more <= 0 || *left <= 0)
		return 0;
	if (more > *left)
		more = *left;
	width[i] += more;
	*left -= more;
	return more;
}

/* While the first growing column (Name) is cut: the next column to leave out, the least
 * needed shown one that drops no later than the last growing column that may drop (Cost,
 * then Tags). -1 if none. */
static int give_way(const struct colwidth_spec *spec, size_t n, const int *width)
{
	size_t order[64];
	size_t k = grow_order(spec, n, width, order);
	int later = -1, next = -1;

	if (k < 1 || width[order[0]] >= spec[order[0]].want)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (spec[i].grow > spec[order[0]].grow && spec[i].drop > 0 &&
		    (later < 0 || spec[i].grow >= spec[later].grow))
			later = (int)i;
	for (size_t i = 0; later >= 0 && i < n; i++)
		if (width[i] > 0 && spec[i].drop > 0 && spec[i].drop <= spec[later].drop &&
		    (next < 0 || spec[i].drop < spec[next].drop))
			next = (int)i;
	return next;
}

/* colwidth_allocate without the columns marked in `out`. */
static void allocate(const struct colwidth_spec *spec, size_t n, const unsigned char *out,
		     int total, int gap, int *width)
{
	for (size_t i = 0; i < n; i++)
		width[i] = out[i] ? 0 : spec[i].min > 0 ? spec[i].min : 1;
	while (shown_cost(width, n, gap) > total) {
		int d = next_drop(spec, n, width);
		if (d < 0)
			break;
		width[d] = 0;
	}
	/* still too wide with nothing left to drop: cut the widest until it fits */
	while (shown_cost(width, n, gap) > total) {
		size_t wide = 0;
		for (size_t i = 1; i < n; i++)
			if (width[i] > width[wide])
				wide = i;
		if (width[wide] <= 1)
			break;
		width[wide]--;
	}
	int left = total - shown_cost(width, n, gap);
	size_t order[64];
	size_t k = grow_order(spec, n, width, order);
	for (size_t j = 0; j < k; j++)
		give(width, order[j], spec[order[j]].want, &left);
	for (size_t i = 0; i < n; i++)
		if (width[i] > 0 && spec[i].grow <= 0)
			give(width, i, spec[i].want, &left);
	if (k > 0 && left > 0)
		width[order[0]] += left;
}

int colwidth_allocate(const struct colwidth_spec *spec, size_t n, int total, int gap, int *width)
{
	unsigned char out[64] = { 0 };

	for (size_t i = 0; i < n; i++)
		width[i] = 0;
	if (total <= 0 || n == 0 || n > 64)
		return 0;
	allocate(spec, n, out, total, gap, width);
	for (int j; (j = give_way(spec, n, width)) >= 0;) {
		out[j] = 1;
		allocate(spec, n, out, total, gap, width);
	}
	int shown = 0;
	for (size_t i = 0; i < n; i++)
		shown += width[i] > 0;
	return shown;
}
