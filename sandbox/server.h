/* server: the libmicrohttpd daemon, routing, checks common to every route. */
#ifndef SB_SERVER_H
#define SB_SERVER_H

/* Starts the daemon on sb_cfg.bind:sb_cfg.port; fills sb_cfg.port and sb_cfg.origin. 0 or -1. */
int server_start(void);
void server_stop(void);

#endif
