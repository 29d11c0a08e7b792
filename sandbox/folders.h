/* folders: nested folders of an organization; ids are numeric, paths "a/b/c" under the
 * organization's workspace folder (path ""). */
#ifndef SB_FOLDERS_H
#define SB_FOLDERS_H

#include <stdint.h>

/* Organization of folder id, or -1 when it does not exist. */
int64_t folder_org(int64_t id);
/* Workspace folder id of org, or -1. */
int64_t folder_workspace(int64_t org);
/* Folder id of path in org, creating missing folders. -1 on error or an empty component. */
int64_t folder_by_path(int64_t org, const char *path);
/* idpath ("/1/5/") of a folder (caller frees) or NULL. */
char *folder_idpath(int64_t id);

#endif
