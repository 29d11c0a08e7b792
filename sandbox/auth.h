/* auth: API keys scoped to organizations, and the admin key. */
#ifndef SB_AUTH_H
#define SB_AUTH_H

#include <stdint.h>

/* 0 and fills org/is_admin when key exists; -1 otherwise. */
int auth_lookup(const char *key, int64_t *org, int *is_admin);
/* Creates a key ("sk_" + 40 hex; admin keys "sa_"). org 0 for admin. 0 or -1. */
int auth_key_create(int64_t org, int is_admin, char out[64]);
/* Creates an organization with its workspace folder; returns its id or -1. */
int64_t auth_org_create(const char *name, int64_t credit_cents);
/* 1 when the organization exists. */
int auth_org_exists(int64_t org);

#endif
