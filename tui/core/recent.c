#include "config.h"
#include "core/recent.h"

#include <string.h>

void recent_push(struct recent_list *r, const char *value)
{
	if (!r || !value || !*value || strlen(value) >= sizeof r->items[0])
		return;
	int at = recent_rank(r, value);
	size_t last = at >= 0 ? (size_t)at : (r->n < RECENT_MAX ? r->n++ : RECENT_MAX - 1);
	memmove(r->items[1], r->items[0], last * sizeof r->items[0]);
	strcpy(r->items[0], value);
}

int recent_rank(const struct recent_list *r, const char *value)
{
	if (!r || !value)
		return -1;
	for (size_t i = 0; i < r->n; i++)
		if (strcmp(r->items[i], value) == 0)
			return (int)i;
	return -1;
}
