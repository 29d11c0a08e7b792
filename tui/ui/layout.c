/* Column fitting and row rendering for list panes. */
#include "config.h"

#include "ui/layout.h"

#include <stdlib.h>
#include <string.h>

#include "core/colwidth.h"

/* Drop order: tags, cost, created, length, language, state; the name flexes. */
const struct layout_col layout_transcription_cols[LAYOUT_TR_COUNT] = {
	[LAYOUT_TR_NAME]     = { "Name",     12, 32, 0, 1, TEXT_LEFT },
	[LAYOUT_TR_STATE]    = { "State",     9, 11, 1, 0, TEXT_LEFT },
	[LAYOUT_TR_LANGUAGE] = { "Lang",      5,  6, 2, 0, TEXT_LEFT },
	[LAYOUT_TR_LENGTH]   = { "Length",    7,  8, 3, 0, TEXT_RIGHT },
	[LAYOUT_TR_COST]     = { "Cost",      8,  9, 5, 0, TEXT_RIGHT },
	[LAYOUT_TR_CREATED]  = { "Created",   8, 10, 4, 0, TEXT_LEFT },
	[LAYOUT_TR_TAGS]     = { "Tags",      6, 20, 6, 0, TEXT_LEFT },
};

/* Kept whole up to pref cells and dropped rather than cut, the least needed first when the
 * pane is narrow: cost, tags, length, language, created, state; Name is never dropped. */
const struct layout_col layout_list_cols[LISTCOL_COUNT] = {
	[LISTCOL_NAME]     = { "Name",     18, 40, 0, 1, TEXT_LEFT },
	[LISTCOL_STATE]    = { "State",     4, 14, 1, 0, TEXT_LEFT },
	[LISTCOL_LANGUAGE] = { "Lang",      4,  8, 3, 0, TEXT_LEFT },
	[LISTCOL_LENGTH]   = { "Length",    5,  8, 4, 0, TEXT_RIGHT },
	[LISTCOL_COST]     = { "Cost",      4, 10, 6, 0, TEXT_RIGHT },
	[LISTCOL_CREATED]  = { "Created",   7, 16, 2, 0, TEXT_LEFT },
	[LISTCOL_TAGS]     = { "Tags",      6, 20, 5, 0, TEXT_LEFT },
};

static int sum_visible(const struct layout_col *cols, size_t n, const int *vis, int gap, int use_pref)
{
	int total = 0, count = 0;

	for (size_t i = 0; i < n; i++) {
		if (!vis[i])
			continue;
		total += use_pref && !cols[i].flex ? cols[i].pref : cols[i].min;
		count++;
	}
	return total + (count > 1 ? (count - 1) * gap : 0);
}

/* The visible non-flex column with the highest drop rank, or -1. */
static int next_to_drop(const struct layout_col *cols, size_t n, const int *vis)
{
	int best = -1;

	for (size_t i = 0; i < n; i++)
		if (vis[i] && !cols[i].flex && (best < 0 || cols[i].drop_rank > cols[best].drop_rank))
			best = (int)i;
	return best;
}

/* Gives extra width up to pref, most important (lowest drop rank) first; the flex
 * column counts with its rank, so a name reaches its preferred width before tags. */
static int grow_to_pref(const struct layout_col *cols, size_t n, int *widths, int extra)
{
	for (int rank = 0; extra > 0; rank++) {
		int any = 0;
		for (size_t i = 0; i < n && extra > 0; i++) {
			if (!widths[i] || cols[i].drop_rank < rank)
				continue;
			any = 1;
			if (cols[i].drop_rank != rank)
				continue;
			int add = cols[i].pref - widths[i];
			if (add > extra)
				add = extra;
			widths[i] += add;
			extra -= add;
		}
		if (!any)
			break;
	}
	return extra;
}

int layout_fit(const struct layout_col *cols, size_t n, int width, int gap, int *widths)
{
	int vis[64], shown = 0, flex = -1;

	if (n > 64 || width < 0)
		return 0;
	for (size_t i = 0; i < n; i++) {
		vis[i] = 1;
		if (cols[i].flex && flex < 0)
			flex = (int)i;
	}
	while (sum_visible(cols, n, vis, gap, 0) > width) {
		int d = next_to_drop(cols, n, vis);
		if (d < 0)
			break;
		vis[d] = 0;
	}
	for (size_t i = 0; i < n; i++) {
		widths[i] = vis[i] ? cols[i].min : 0;
		shown += vis[i];
	}
	int extra = width - sum_visible(cols, n, vis, gap, 0);
	if (extra > 0)
		extra = grow_to_pref(cols, n, widths, extra);
	if (flex >= 0 && extra > 0)
		widths[flex] += extra;
	else if (flex >= 0 && extra < 0 && shown == 1)
		widths[flex] = width;   /* only the flex column is left: use what there is */
	return shown;
}

int layout_fit_content(const struct layout_col *cols, size_t n, const int *want,
	const unsigned char *grow, unsigned hidden, int keep, int width, int gap, int *widths)
{
	struct colwidth_spec spec[64] = { { 0 } };
	size_t idx[64], k = 0;
	int got[64], top = 0;

	if (n > 64)
		return 0;
	for (size_t i = 0; i < n; i++) {
		widths[i] = 0;
		if (!cols[i].flex && cols[i].drop_rank > top)
			top = cols[i].drop_rank;
	}
	for (size_t i = 0; i < n; i++) {
		const struct layout_col *c = &cols[i];
		if (hidden & (1u << i))
			continue;
		int w = want[i];
		int min = grow[i] ? c->min : w < c->min ? c->min : w > c->pref ? c->pref : w;
		spec[k] = (struct colwidth_spec){ .min = min, .want = w, .grow = grow[i],
			.drop = c->flex || (int)i == keep ? 0 : top + 1 - c->drop_rank };
		idx[k++] = i;
	}
	int shown = colwidth_allocate(spec, k, width, gap, got);
	for (size_t j = 0; j < k; j++)
		widths[idx[j]] = got[j];
	return shown;
}

static int render(const struct layout_col *cols, size_t n, const int *widths, int gap, int width,
	const char *const *cells, int header, unsigned flags, wchar_t *out, size_t cap)
{
	size_t len = 0;
	int used = 0, first = 1;

	if (!cap)
		return -1;
	out[0] = L'\0';
	for (size_t i = 0; i < n; i++) {
		if (!widths[i] || used >= width)
			continue;
		int w = widths[i];
		int g = first ? 0 : gap;
		if (used + g + w > width)
			w = width - used - g;
		if (w <= 0)
			break;
		const char *cell = header ? cols[i].title : cells[i];
		wchar_t *fit = text_fit_dup(cell, w, cols[i].align, flags);
		if (!fit)
			return -1;
		size_t fl = wcslen(fit);
		if (len + (size_t)g + fl + 1 > cap) {
			free(fit);
			return -1;
		}
		wmemset(out + len, L' ', (size_t)g);
		wmemcpy(out + len + g, fit, fl);
		len += (size_t)g + fl;
		used += g + w;
		first = 0;
		free(fit);
	}
	for (; used < width && len + 1 < cap; used++)
		out[len++] = L' ';
	out[len] = L'\0';
	return used < width ? -1 : 0;
}

int layout_render_row(const struct layout_col *cols, size_t n, const int *widths, int gap,
	int width, const char *const *cells, unsigned flags, wchar_t *out, size_t cap)
{
	return render(cols, n, widths, gap, width, cells, 0, flags, out, cap);
}

int layout_render_header(const struct layout_col *cols, size_t n, const int *widths, int gap,
	int width, unsigned flags, wchar_t *out, size_t cap)
{
	return render(cols, n, widths, gap, width, NULL, 1, flags, out, cap);
}
